from __future__ import annotations

import pytest

from eixample.core.errors import IllegalActionError, MalformedRecordError
from eixample.core.records import can_undo, replay, undo
from eixample.core.registry import game_names, get_game


def test_registry_knows_both_games() -> None:
    assert {"barcelona", "tictactoe"} <= set(game_names())
    with pytest.raises(KeyError, match="unknown game"):
        get_game("chess")


def test_replay_rebuilds_the_state() -> None:
    game = get_game("tictactoe")
    state = game.new_game(2, 0)
    for action in ("mark 4", "mark 0", "mark 8"):
        state.apply(action)
    again = replay(game, state.record())
    assert again.view(None) == state.view(None)


GOOD = {"format": 1, "game": "tictactoe", "players": 2, "seed": 0, "options": {}, "actions": []}


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ([], "JSON object"),
        ({"actions": None}, "actions"),
        ({"players": "two", "seed": 0, "actions": []}, "players"),
        ({"players": 2, "seed": 0, "actions": [1]}, "string"),
        ({"players": 2, "seed": 0, "actions": ["mark 9"]}, "action 0"),
        ({"game": "barcelona", "players": 2, "seed": 0, "actions": []}, "not 'tictactoe'"),
        ({"format": None}, "'format' is missing or not 1"),
        ({"format": 2}, "'format' is missing or not 1"),
        ({"game": None}, "'game' is missing or not a text"),
        ({"options": None}, "'options' is missing or not an object"),
        ({"seed": 2**63}, r"seed must be an integer from 0 to 2\*\*63 - 1, not 9223372036854775808"),
        ({"seed": -1}, r"seed must be an integer from 0 to 2\*\*63 - 1, not -1"),
    ],
)
def test_malformed_records_are_refused_clearly(record: object, message: str) -> None:
    if isinstance(record, dict):  # the fields not under test are those of a good record
        record = {key: value for key, value in {**GOOD, **record}.items() if value is not None}
    with pytest.raises(MalformedRecordError, match=message):
        replay(get_game("tictactoe"), record)


def test_undo_goes_back_one_own_decision_only() -> None:
    game = get_game("tictactoe")
    state = game.new_game(2, 0)
    state.apply("mark 4")
    # tic-tac-toe alternates players, so the other player's move is a floor
    assert not can_undo(state)
    with pytest.raises(IllegalActionError):
        undo(game, state)


def test_a_recorded_game_saves_its_state_as_its_record() -> None:
    game = get_game("tictactoe")
    state = game.new_game(2, 0)
    state.apply("mark 4")
    restored = game.from_json(state.to_json())
    assert restored.record() == state.record()
    assert type(restored) is type(state)
    assert (game.option_names(), game.switch_options(), game.bot_levels()) == ([], [], {})
    for saved in ([], {"state": {}}):
        with pytest.raises(MalformedRecordError, match="Tic-tac-toe state: 'record' missing"):
            game.from_json(saved)  # type: ignore[arg-type]
