"""resample(): hidden parts drawn afresh, the player's own view unchanged."""

from __future__ import annotations

import itertools

from eixample.games import barcelona
from tests.games.barcelona.helpers import random_playout


def _state_after(steps: int, players: int = 3, seed: int = 11) -> barcelona.BarcelonaState:
    states = list(itertools.islice(random_playout(players, seed, check=False), steps))
    return states[-1]


def test_resample_keeps_the_players_view() -> None:
    state = _state_after(40)
    me = state.current_player()
    for seed in range(5):
        other = state.resample(me, seed)
        assert other.view(me) == state.view(me)
        assert other.legal_actions() == state.legal_actions()


def test_resample_redraws_opponents_hands_and_future() -> None:
    state = _state_after(40)
    me = state.current_player()
    hands = {
        tuple(state.resample(me, seed).hands[q] for q in range(state.n) if q != me) for seed in range(30)
    }
    assert len(hands) > 1
    assert all(state.resample(me, 3).hands[me] == state.hands[me] for _ in range(3))


def test_resample_is_playable_to_the_end() -> None:
    state = _state_after(60, players=4, seed=5)
    other = state.resample(state.current_player(), 99)
    while not other.is_terminal():
        other.apply(other.legal_actions()[-1])
    assert other.winners()


def test_views_are_blind_to_what_the_viewer_cannot_know() -> None:
    """At many points of a 4-player game, redrawing everything hidden from a seat (other hands,
    bag order, face-down stack, future draws) leaves that seat's view byte-for-byte unchanged."""
    for i, state in enumerate(random_playout(4, 23, check=False)):
        if i % 9:
            continue
        for viewer in range(4):
            for seed in range(3):
                assert state.resample(viewer, seed).view(viewer) == state.view(viewer)
        spectator = state.view(None)
        assert all(player["hand"] is None for player in spectator["player_list"])
