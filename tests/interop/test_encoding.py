"""The structured observations: lossless against the view, blind to what the seat may not know,
within their documented bounds."""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pytest

from eixample.core.registry import get_game
from eixample.interop import encoding
from eixample.interop.encoding import Observer
from eixample.interop.table import GameTable, research_games
from tests.interop.helpers import random_walk, setups

CASES = [
    *setups(),
    pytest.param("rose-of-fire", 3, {}, id="rose-of-fire-3"),
    pytest.param("rose-of-fire", 4, {}, id="rose-of-fire-4"),
]


def seen(view: dict[str, Any]) -> str:
    """What an observation must tell apart: the view but its log (the public history) and its
    decision text (the decision's kind, seat and target are keys of their own)."""
    return json.dumps({k: v for k, v in view.items() if k not in ("log", "decision")}, sort_keys=True)


def test_every_research_game_has_its_own_structured_observation() -> None:
    for name in research_games():
        assert callable(getattr(get_game(name), "observation_spec", None)), name


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_observations_tell_views_apart_and_hide_what_the_seat_may_not_know(
    name: str, players: int, options: dict[str, Any]
) -> None:
    table = GameTable.build(name, players, **options)
    observer = Observer.of(table)
    seats = (
        [0] if name == "barcelona" and players == 1 else range(table.seats)
    )  # solo: the automa never decides
    views_by_encoding: dict[bytes, str] = {}
    resampled = np.empty(observer.size, np.float32)
    checked = 0
    for game in range(12 if name == "tictactoe" else 2):
        for step, state in enumerate(random_walk(table, seed=game)):
            for seat in seats:
                vector = observer.observe(state, seat)
                assert np.all(vector >= observer.low) and np.all(vector <= observer.high)
                view = seen(state.view(seat))
                assert views_by_encoding.setdefault(vector.tobytes(), view) == view
                if step % 3 == 0:  # hidden parts drawn afresh: the same observation
                    observer.write(state.resample(seat, 1000 * game + step), seat, resampled)
                    assert np.array_equal(resampled, vector)
                checked += 1
    assert checked > 50 and len(views_by_encoding) > 20


def test_an_observation_is_written_in_place_and_split_into_its_parts() -> None:
    table = GameTable.build("barcelona", 3)
    observer = Observer.of(table)
    state = table.new_state(5)
    seat = state.current_player()
    out = np.full(observer.size, 7.0, np.float32)
    observer.write(state, seat, out)
    parts = observer.parts(out)
    assert list(parts) == observer.spec.names()
    assert parts["seat"].tolist() == [1.0 if s == seat else 0.0 for s in range(3)]
    assert parts["decision_seat"].tolist() == [1.0, 0.0, 0.0]  # the observer decides: row 0
    hand = state.to_json()["state"]["hands"][seat]
    assert parts["own_hand"].sum(axis=1).tolist() == [1.0] * len(hand)
    assert [int(row.argmax()) for row in parts["own_hand"]] == hand
    assert parts["players"][:, -1].tolist() == [2.0, 2.0, 2.0]  # hand sizes, the observer first
    with pytest.raises(ValueError, match="no seat 3"):
        observer.write(state, 3, out)


def test_the_parts_table_is_printed_by_a_command(capsys: pytest.CaptureFixture[str]) -> None:
    encoding.main(["--markdown"])
    printed = capsys.readouterr().out
    spec = Observer.of(GameTable.build("barcelona", 2)).spec
    for part in spec.parts:
        assert f"| `{part.name}` | {part.start}-{part.stop - 1} |" in printed
    assert "### Barcelona: The Rose of Fire" in printed


@pytest.mark.parametrize("name", ["barcelona", "rose-of-fire"])
def test_parts_kept_from_earlier_writes_never_leak_into_another_position(name: str) -> None:
    from eixample.games.barcelona.observation import Encoder as BarcelonaEncoder
    from eixample.games.rose_of_fire.observation import Encoder as RoseEncoder

    table = GameTable.build(name, 3)
    positions = [state.clone() for game in range(2) for state in random_walk(table, seed=game)]
    order = random.Random(1).sample(range(len(positions)), 150)
    observer = Observer.of(table)
    one = table.new_state(0)  # the same state object mutated in place, as in a game in progress
    for i in order:
        state = positions[i]
        seat = i % 3
        fresh = (BarcelonaEncoder(state.t, 3, False) if name == "barcelona" else RoseEncoder(state.t, 3))
        expected = np.empty(observer.size, np.float32)
        fresh.write(state, seat, expected)
        assert np.array_equal(observer.observe(state, seat), expected)
        copy_into(one, state)
        assert np.array_equal(observer.observe(one, seat), expected)


def copy_into(target: Any, source: Any) -> None:
    """Every field of `source` into `target` (the same class): one object, many positions."""
    for cls in type(source).__mro__:
        for name in getattr(cls, "__slots__", ()):
            if hasattr(source, name):
                value = getattr(source, name)
                setattr(target, name, value[:] if isinstance(value, list) else value)


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_many_positions_written_at_once_equal_each_one_written_alone(
    name: str, players: int, options: dict[str, Any]
) -> None:
    table = GameTable.build(name, players, **options)
    observer = Observer.of(table)
    positions = [
        state.clone()
        for game in range(3)
        for step, state in enumerate(random_walk(table, seed=game))
        if step % 5 == 0 or state.is_terminal()
    ]
    random.Random(0).shuffle(positions)  # games and stages mixed, finished games among them
    solo = name == "barcelona" and players == 1
    for seat in [0] if solo else range(table.seats):
        out = np.full((len(positions), observer.size), np.nan, np.float32)  # garbage to overwrite
        observer.write_batch(positions, seat, out)
        for i, state in enumerate(positions):
            assert np.array_equal(out[i], observer.observe(state, seat)), (seat, i)
    with pytest.raises(ValueError, match="do not fit"):
        observer.write_batch(positions, 0, np.zeros((len(positions) + 1, observer.size), np.float32))
