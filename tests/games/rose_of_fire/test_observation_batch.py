"""Many observations at once (`write_observations`): each row is what the single writer writes."""

from __future__ import annotations

import random
from functools import cache

import numpy as np
import pytest

from eixample.core.registry import get_game
from eixample.games.rose_of_fire import RoseState
from eixample.games.rose_of_fire.observation import Encoder, encoder, write_observation, write_observations
from eixample.games.rose_of_fire.state import DROP, KEEP
from eixample.interop.table import GameTable
from tests.interop.helpers import random_walk

GAMES = {2: (0, 1), 3: (0, 2), 4: (0, 16)}
"""Random games per number of players: with 3 and 4, one where a player drops a token in secret."""


@pytest.fixture
def by_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every batch written by numpy operations, however small."""
    monkeypatch.setattr(Encoder, "NUMPY_FROM", 1)


@cache
def positions(players: int) -> tuple[RoseState, ...]:
    """Every position of two random games, the finished ones included."""
    table = GameTable.build("rose-of-fire", players)
    walked = []
    for game in GAMES[players]:
        for state in random_walk(table, seed=game):
            assert isinstance(state, RoseState)
            walked.append(state.clone())
    return tuple(walked)


def size(players: int) -> int:
    first = positions(players)[0]
    return encoder(first.t, players).spec.size


def one_by_one(states: list[RoseState], viewer: int) -> np.ndarray:
    rows = np.empty((len(states), size(states[0].n)), np.float32)
    for i, state in enumerate(states):
        write_observation(state, viewer, rows[i])
    return rows


def batch(states: list[RoseState], viewer: int) -> np.ndarray:
    out = np.full((len(states), size(states[0].n)), np.nan, np.float32)  # garbage on entry
    write_observations(states, viewer, out)
    return out


@pytest.mark.usefixtures("by_numpy")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_row_of_a_batch_of_mixed_positions_is_what_the_single_writer_writes(players: int) -> None:
    mixed = list(positions(players))
    random.Random(players).shuffle(mixed)
    batches = [mixed[i : i + 16] for i in range(0, len(mixed), 16)]
    for viewer in range(players):
        for states in batches:
            assert np.array_equal(batch(states, viewer), one_by_one(states, viewer))
    # the positions cover the parts that only some moments write
    assert sum(state.ended for state in mixed) == 2
    frames = [state.stack[-1] for state in mixed if state.stack and not state.ended]
    assert {KEEP, DROP} & {frame[0] for frame in frames} == ({KEEP} if players == 2 else {KEEP, DROP})


@pytest.mark.usefixtures("by_numpy")
def test_a_batch_of_one_and_the_game_method_write_the_same_rows() -> None:
    states = list(positions(3)[::40])
    game = get_game("rose-of-fire")
    for state in states:
        for viewer in range(3):
            out = np.full((1, size(3)), 7.0, np.float32)
            game.write_observations([state], viewer, out)  # type: ignore[attr-defined]
            assert np.array_equal(out, one_by_one([state], viewer))


@pytest.mark.usefixtures("by_numpy")
def test_the_same_batch_twice_and_successive_positions_of_live_games() -> None:
    states = [positions(4)[i] for i in (0, 5, 77, -1)]
    first = batch(states, 2)
    assert np.array_equal(batch(states, 2), first)
    live = [GameTable.build("rose-of-fire", 4).new_state(seed) for seed in range(5)]
    pick = random.Random(3)
    for _ in range(60):
        for state in live:
            if not state.is_terminal():
                state.apply(pick.choice(state.legal_actions()))
        rose = [state for state in live if isinstance(state, RoseState)]
        assert np.array_equal(batch(rose, 1), one_by_one(rose, 1))


def test_a_small_batch_is_written_state_by_state_alike() -> None:
    states = list(positions(4)[::100])
    assert len(states) < Encoder.NUMPY_FROM
    for viewer in range(4):
        assert np.array_equal(batch(states, viewer), one_by_one(states, viewer))


@pytest.mark.parametrize("numpy_from", [1, Encoder.NUMPY_FROM])
def test_states_of_different_tables_are_refused(numpy_from: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Encoder, "NUMPY_FROM", numpy_from)
    states = [positions(2)[3], positions(2)[9], positions(4)[3]]
    out = np.zeros((3, size(2)), np.float32)
    with pytest.raises(ValueError, match="one table"):
        write_observations(states, 0, out)
    assert not out.any()  # nothing written
    with pytest.raises(ValueError, match="one table"):
        write_observations(states[::-1], 0, np.zeros((3, size(4)), np.float32))


@pytest.mark.parametrize("viewer", [-1, 3, "0", 1.0, None])
def test_a_seat_out_of_range_is_refused(viewer: object) -> None:
    states = list(positions(3)[:4])
    out = np.zeros((4, size(3)), np.float32)
    with pytest.raises(ValueError, match="no seat"):
        write_observations(states, viewer, out)  # type: ignore[arg-type]
    assert not out.any()


WRONG_OUTPUTS = [(3, np.float32, "C"), (4, np.float64, "C"), (4, np.float32, "F")]
"""Three rows for four states, float64, Fortran order."""


@pytest.mark.parametrize(("rows", "dtype", "order"), WRONG_OUTPUTS)
def test_an_output_of_the_wrong_shape_or_layout_is_refused(rows: int, dtype: type, order: str) -> None:
    states = list(positions(2)[:4])
    out = np.zeros((rows, size(2)), dtype, order=order)  # type: ignore[call-overload]
    with pytest.raises(ValueError, match="observations need"):
        write_observations(states, 0, out)
    with pytest.raises(ValueError, match="no states"):
        write_observations([], 0, out)
    write_observations([], 0, np.zeros((0, size(2)), np.float32))  # nothing to write


@pytest.mark.usefixtures("by_numpy")
def test_numbers_beyond_a_byte_are_written_as_they_are() -> None:
    state = positions(2)[50].clone()
    state.vp[1], state.prestige[0], state.vp_src[3] = 300, -1000, 1 << 40
    states = [positions(2)[7], state]
    for viewer in range(2):
        assert np.array_equal(batch(states, viewer), one_by_one(states, viewer))
    assert batch(states, 0)[1, 15] == 300.0  # the second seat's VP: the first column of its row
