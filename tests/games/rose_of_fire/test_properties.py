"""Properties of whole random games of The Rose of Fire (hypothesis): games of 2-4 players end,
every piece is conserved at every step (and the count of open tiles per square and the spaces
open to each colour that the rules keep are right), records replay and saved states restore to the same
state, `all_actions` holds every legal action, views hold nothing hidden, and `resample` keeps
the view of the seat it is drawn for."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eixample.ai.mcts import greedy_action
from eixample.core.errors import IllegalActionError, MalformedRecordError
from eixample.core.rng import Rng
from eixample.games import rose_of_fire
from eixample.games.rose_of_fire.end_of_phase import house_counts
from eixample.games.rose_of_fire.setup import conservation_problem
from eixample.games.rose_of_fire.state import RoseState, frontiers, open_squares

from .helpers import play_randomly

GAMES = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
players = st.integers(min_value=2, max_value=4)
seeds = st.integers(min_value=0, max_value=2**32)


@GAMES
@given(players, seeds, st.booleans())
def test_random_games_end_and_conserve_every_piece(n: int, seed: int, no_strike: bool) -> None:
    options = {"no_strike": True} if no_strike and n == 2 else {}
    state = rose_of_fire.new_game(n, seed, **options)
    catalogue = set(rose_of_fire.GAME.all_actions(n, **options))
    rng = Rng(seed)
    steps = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal and set(legal) <= catalogue, set(legal) - catalogue
        assert len(set(legal)) == len(legal)
        state.apply(rng.choice(legal))
        assert conservation_problem(state) == ""
        assert state.square_open == open_squares(state)  # kept as tiles go down and blocks complete
        assert state.frontier == frontiers(state)
        assert_houses_kept(state)
        steps += 1
        assert steps < 2000
    assert state.phase == 5 and len(state.round_track) == 5
    assert sum(sum(b.values()) for b in state.score_breakdown()) == sum(state.scores())
    assert len(state.winners()) == 1


def assert_houses_kept(state: RoseState) -> None:
    """The house lists the rules keep as houses are built and scored are those on the board."""
    assert state.house_spaces == tuple(x for x, p in enumerate(state.owner) if p >= 0)
    assert state.house_count == tuple(house_counts(state))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_kept_counts_follow_completed_blocks_and_their_scoring(n: int) -> None:
    """Random games seldom complete a block; greedy ones do (Obelisk on a completed block; the
    houses of scored blocks go back to their owners)."""
    state = rose_of_fire.new_game(n, 40 + n)
    scored = 0
    while not state.is_terminal():
        before = len(state.house_spaces)
        state.apply(greedy_action(state, state.legal_actions()))
        scored += len(state.house_spaces) < before
        assert state.square_open == open_squares(state)
        assert state.frontier == frontiers(state)
        assert_houses_kept(state)
        copy = state.clone()
        assert (copy.square_open, copy.frontier, copy.house_spaces, copy.house_count) == (
            state.square_open, state.frontier, state.house_spaces, state.house_count)
    assert len({q for q in state.in_block if q >= 0}) >= 3
    assert scored >= 1


@GAMES
@given(players, seeds)
def test_replay_and_saved_state_round_trip(n: int, seed: int) -> None:
    rng = Rng(seed)
    state = rose_of_fire.new_game(n, seed)
    play_randomly(state, rng, steps=rng.below(250))
    saved = json.loads(json.dumps(state.to_json()))
    restored = rose_of_fire.from_json(saved)
    replayed = rose_of_fire.replay(state.record())
    assert restored.to_json() == replayed.to_json() == state.to_json()
    if not state.is_terminal():
        action = state.legal_actions()[0]
        for other in (restored, replayed):
            other.apply(action)
        state.apply(action)
        assert restored.to_json() == state.to_json() == replayed.to_json()


@GAMES
@given(players, seeds)
def test_resample_keeps_my_view_and_redraws_the_rest(n: int, seed: int) -> None:
    rng = Rng(seed)
    state = rose_of_fire.new_game(n, seed)
    play_randomly(state, rng, steps=rng.below(200))
    for me in range(n):
        other = state.resample(me, seed + me)
        assert other.view(me) == state.view(me)
        assert other.hands[me] == state.hands[me] and other.conviction[me] == state.conviction[me]
        assert conservation_problem(other) == ""
        if not other.is_terminal() and other.current_player() == me:
            assert other.legal_actions() == state.legal_actions()


def test_views_show_counts_by_kind_never_other_faces() -> None:
    state = rose_of_fire.new_game(3, 8)
    play_randomly(state, Rng(8), steps=80)
    for viewer in (None, 0, 1, 2):
        view = state.view(viewer)
        for entry in view["player_list"]:
            own = entry["seat"] == viewer
            assert (entry["hand"] is not None) == own
            assert (entry["token_symbols"] is not None) == own
            assert sum(entry["hand_counts"].values()) == len(state.hands[entry["seat"]])
            if not own and state.conviction[entry["seat"]] >= 0:
                assert entry["conviction"] == "hidden"
        text = json.dumps(view)
        for seat in range(3):
            if seat != viewer:
                for card in state.hands[seat]:
                    name = state.t.card_names[card]
                    assert f'"id": "{name}"' not in text or name == "strike"
        assert '"rng"' not in text and 'red_bag": {' not in text


def test_illegal_or_malformed_actions_change_nothing() -> None:
    state = rose_of_fire.new_game(3, 2)
    before = state.to_json()
    for bad in ("card c99", "tile ZZ9 Y", "", "x" * 500, "buy K1 with 9K"):
        with pytest.raises(IllegalActionError):
            state.apply(bad)
    assert state.to_json() == before


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("supply", [99, 0, 0]),
        ("tile", [0]),
        ("phase", "one"),
        ("stack", [[999, 0]]),
        ("bomb", -1),
        ("hands", [[0, 0], [], []]),
    ],
)
def test_from_json_names_the_bad_field(field: str, value: object) -> None:
    state = rose_of_fire.new_game(3, 2)
    data = state.to_json()
    data["state"][field] = value
    with pytest.raises(MalformedRecordError) as error:
        rose_of_fire.from_json(data)
    assert "saved Rose of Fire state" in str(error.value)


def test_all_actions_is_fixed_and_distinct() -> None:
    first = rose_of_fire.GAME.all_actions(4)
    assert first == rose_of_fire.GAME.all_actions(4) and len(set(first)) == len(first)
    assert len(rose_of_fire.GAME.all_actions(2)) < len(first)


@GAMES
@given(players, seeds)
def test_whether_a_decision_comes_depends_only_on_what_everyone_sees(n: int, seed: int) -> None:
    """The pending decision (who, what kind) is the same in every world another seat can imagine,
    and it always has a legal action there: a question that only came for some hidden tokens
    (buying, keeping a token) would give them away."""
    rng = Rng(seed)
    state = rose_of_fire.new_game(n, seed)
    for _ in range(rng.below(300)):
        if state.is_terminal():
            return
        state.apply(rng.choice(state.legal_actions()))
        for me in range(n):
            if me == state.current_player() or state.is_terminal():
                continue
            other = state.resample(me, seed)
            assert other.current_player() == state.current_player()
            assert other.decision_kind() == state.decision_kind() and other.legal_actions()
