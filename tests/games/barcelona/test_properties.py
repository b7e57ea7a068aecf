"""Property tests over many seeded random games for 2, 3 and 4 players."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eixample.core.errors import IllegalActionError
from eixample.games import barcelona
from tests.games.barcelona.helpers import random_playout

GAMES = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**32)
players = st.sampled_from([2, 3, 4])


@GAMES
@given(players, seeds)
def test_every_game_ends_with_invariants_kept(n: int, seed: int) -> None:
    """Every game ends; legal actions never empty; citizens and tiles conserved; resources within
    the Warehouse; VP never decreases (checked at every step)."""
    previous = [0] * n
    last = None
    for state in random_playout(n, seed):
        assert all(v >= p for v, p in zip(state.vp, previous, strict=True)), "VP decreased"
        previous = state.vp[:]
        last = state
    assert last is not None and last.is_terminal()
    assert last.winners()


@GAMES
@given(players, seeds)
def test_replaying_the_record_gives_an_identical_state(n: int, seed: int) -> None:
    *_, last = random_playout(n, seed, check=False)
    record = json.loads(json.dumps(last.record()))
    again = barcelona.replay(record)
    assert again.to_json() == last.to_json()


@GAMES
@given(players, seeds)
def test_views_never_contain_hidden_information(n: int, seed: int) -> None:
    for i, state in enumerate(random_playout(n, seed, check=False)):
        if i % 7:
            continue
        for viewer in [None, *range(n)]:
            view = state.view(viewer)
            text = json.dumps(view)
            assert "rng" not in view and "mod_stack" not in text
            for p, player in enumerate(view["player_list"]):
                if p != viewer:
                    assert player["hand"] is None
                else:
                    assert player["hand"] == ["WMU"[k] for k in state.hands[p]]
            assert isinstance(view["modernisme"]["stack"], int)


@GAMES
@given(players, seeds, st.text(max_size=20))
def test_actions_not_legal_are_refused_and_change_nothing(n: int, seed: int, junk: str) -> None:
    for i, state in enumerate(random_playout(n, seed, check=False)):
        if i % 11 or state.is_terminal():
            continue
        before = state.to_json()
        legal = state.legal_actions()
        for bad in (junk, "place C99", "build L3 B00U", "act D tram", "use C00+C01+C02+C03"):
            if bad in legal:
                continue
            try:
                state.apply(bad)
            except IllegalActionError:
                pass
            else:
                raise AssertionError(f"'{bad}' was accepted")
            assert state.to_json() == before
