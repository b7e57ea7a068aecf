"""Barcelona's observations of many states at once: row by row what one state's write gives."""

from __future__ import annotations

import random
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from eixample.core.registry import get_game
from eixample.games.barcelona import GAME, from_json
from eixample.games.barcelona.components import DATA_DIR
from eixample.games.barcelona.state import BarcelonaState
from eixample.interop.table import GameTable
from tests.interop.helpers import random_walk, setups

BARCELONA = [case for case in setups() if case.values[0] == "barcelona"]


def positions(players: int, options: dict[str, Any], seeds: range) -> list[BarcelonaState]:
    """Every position of a few random games, the finished ones included, shuffled together."""
    table = GameTable.build("barcelona", players, **options)
    states: list[BarcelonaState] = []
    for seed in seeds:
        for state in random_walk(table, seed):
            assert isinstance(state, BarcelonaState)
            states.append(state.clone())
    random.Random(len(states)).shuffle(states)
    return states


def one_by_one(states: list[BarcelonaState], viewer: int) -> npt.NDArray[np.float32]:
    size = GAME.observation_spec(1 if states[0].solo else states[0].n, **states[0].options).size
    rows = np.zeros((len(states), size), np.float32)
    for row, state in zip(rows, states, strict=True):
        state.write_observation(viewer, row)
    return rows


def garbage(rows: int, size: int) -> npt.NDArray[np.float32]:
    return np.random.default_rng(rows).uniform(-5, 5, (rows, size)).astype(np.float32)


def assert_batch_matches(states: list[BarcelonaState]) -> None:
    for viewer in range(states[0].n):
        expected = one_by_one(states, viewer)
        out = garbage(*expected.shape)
        GAME.write_observations(states, viewer, out)
        for i, (row, want) in enumerate(zip(out, expected, strict=True)):
            assert np.array_equal(row, want), (viewer, i, np.flatnonzero(row != want)[:10])


@pytest.mark.parametrize(("name", "players", "options"), BARCELONA)
def test_a_batch_of_mixed_positions_is_written_as_each_position_alone(
    name: str, players: int, options: dict[str, Any]
) -> None:
    states = positions(players, options, range(3))
    assert any(state.ended for state in states) and any(not state.ended for state in states)
    restored = [from_json(state.to_json()) for state in states[:5]]
    assert_batch_matches(states + restored)


def test_a_batch_of_one_overwrites_whatever_its_row_held() -> None:
    state = positions(2, {}, range(1))[0]
    expected = one_by_one([state], 1)
    for start in (np.ones_like(expected), garbage(*expected.shape)):
        GAME.write_observations([state], 1, start)
        assert np.array_equal(start, expected)


def test_states_of_a_data_folder_are_written_with_its_tables(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    shutil.copytree(DATA_DIR, folder)
    states = positions(2, {"data_dir": str(folder)}, range(1))
    assert states[0].t is not positions(2, {}, range(1))[0].t
    assert_batch_matches(states[::7])


def test_a_batch_holds_states_of_one_table(tmp_path: Path) -> None:
    two, four = positions(2, {}, range(1))[:3], positions(4, {}, range(1))[:3]
    folder = tmp_path / "data"
    shutil.copytree(DATA_DIR, folder)
    other_data = positions(2, {"data_dir": str(folder)}, range(1))[:3]
    solo = positions(1, {}, range(1))[:3]
    for mixed in (two + four, four[:1] + two, two + other_data, two + solo):
        out = one_by_one(mixed[:1], 0).repeat(len(mixed), axis=0)
        with pytest.raises(ValueError, match="one table"):
            GAME.write_observations(mixed, 0, out)
    tictactoe = get_game("tictactoe").new_game(2, 0)
    with pytest.raises(ValueError, match="Barcelona states"):
        GAME.write_observations([*two, tictactoe], 0, one_by_one(two, 0)[[0, 1, 2, 0]])


def test_a_seat_out_of_the_game_or_a_wrong_buffer_is_refused() -> None:
    states = positions(2, {}, range(1))[:4]
    size = GAME.observation_spec(2).size
    out = np.zeros((4, size), np.float32)
    for viewer in (-1, 2, "0", None):
        with pytest.raises(ValueError, match="no seat"):
            GAME.write_observations(states, viewer, out)  # type: ignore[arg-type]
    short, doubles = np.zeros((3, size), np.float32), np.zeros((4, size))
    for wrong in (short, doubles, np.zeros((size, 4), np.float32).T):
        with pytest.raises(ValueError, match="C-contiguous float32"):
            GAME.write_observations(states, 0, wrong)
    assert not out.any()


def test_an_empty_batch_writes_nothing() -> None:
    GAME.write_observations([], 0, np.zeros((0, GAME.observation_spec(2).size), np.float32))
