from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from eixample.core.protocol import Game
from tests.cli.helpers import assert_clear_failure, invoke
from tests.records import record_of

HOT_SEAT = ("play", "--game", "tictactoe", "--seat", "2=human", "--seed", "3")


def _lines(*lines: str) -> str:
    return "".join(f"{line}\n" for line in lines)


def test_a_scripted_game_saved_and_resumed(runner: CliRunner, tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    script = _lines("help", "mark 4", "12", "foo", "mark 4", "undo", "1", f"save {saved}", "quit")
    first = invoke(runner, *HOT_SEAT, input=script)
    assert first.exit_code == 0, first.output
    out = " ".join(first.output.split())
    assert "X to play: choose an empty cell." in out
    assert "undo take back your last decision" in out
    assert "There is no choice 12: pick a number from 1 to 8." in out
    assert "'foo' is not a legal move now, nor a command." in out
    assert "'mark 4' is not a legal move now" in out
    assert "Nothing to undo" in out
    assert f"Saved to {saved}" in out
    assert "Leaving the game unfinished." in out
    data = json.loads(saved.read_text())
    assert data["record"]["actions"] == ["mark 4", "mark 0"]
    assert data["seats"] == ["human", "human"]

    second = invoke(runner, "play", "--game", "tictactoe", "--load", str(saved),
                    input=_lines("mark 1", "log", "MARK   3", "mark 7"))
    assert second.exit_code == 0, second.output
    out = " ".join(second.output.split())
    assert "X marks cell 4. O marks cell 0. X marks cell 1." in out
    assert "Winner: Player 1 (human)" in out
    assert "Final scores by source" in out
    assert "Player 1 (human) (winner)" in out


def test_the_saved_game_knows_its_game(runner: CliRunner, tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    invoke(runner, *HOT_SEAT, input=_lines("5", f"save {saved}", "quit"))
    resumed = invoke(runner, "play", "--load", str(saved), input=_lines("quit"))
    assert resumed.exit_code == 0, resumed.output
    assert "Tic-tac-toe" in resumed.output


@pytest.mark.parametrize("word", ["quit", "q", "exit", "QUIT"])
def test_quit_and_its_short_forms_leave_the_game(runner: CliRunner, word: str) -> None:
    result = invoke(runner, *HOT_SEAT, input=_lines(word, "mark 4"))
    assert result.exit_code == 0, result.output
    assert "Leaving the game unfinished." in result.output
    assert "X marks cell 4" not in result.output  # nothing read after leaving


def test_undo_takes_back_a_decision_within_the_turn(runner: CliRunner, steps_game: Game) -> None:
    script = _lines("add 2", "undo", "add 1", "add 1", "add 2", "add 2", "undo", "add 2", "add 2", "1", "1")
    result = invoke(runner, "play", "--game", "steps", "--seat", "2=human", "--seed", "1", input=script)
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    assert "Took back: add 2" in out
    assert "Nothing to undo" in out
    assert "Shared victory: Player 1 (human), Player 2 (human)" in out


def test_playing_against_a_bot(runner: CliRunner) -> None:
    result = invoke(runner, "play", "--game", "tictactoe", "--seat", "2=mcts:iterations=20", "--seed", "5",
                    input=_lines(*["1"] * 5))
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    assert "Player 1 (you) plays: mark" in out
    assert "Player 2 (mcts:iterations=20) plays: mark" in out
    assert "game over" in out


def test_seats_for_people_by_any_name(runner: CliRunner) -> None:
    result = invoke(runner, "play", "--game", "tictactoe", "--seat", "2=Human",
                    input=_lines("1", "1", "quit"))
    assert result.exit_code == 0, result.output
    assert "Player 2 (human)> 1" in result.output


def test_the_default_opponent_is_a_bot(runner: CliRunner) -> None:
    result = invoke(runner, "play", "--game", "tictactoe", "--seed", "1", input=_lines(*["1"] * 5))
    assert result.exit_code == 0, result.output
    assert "Player 2 (greedy) plays:" in result.output
    assert "Player 1 (you)>" in result.output


def test_end_of_input_leaves_the_game(runner: CliRunner) -> None:
    result = invoke(runner, *HOT_SEAT, input="")
    assert result.exit_code == 0
    assert "End of input" in result.output


def test_a_failed_save_loses_nothing(runner: CliRunner, tmp_path: Path) -> None:
    result = invoke(runner, *HOT_SEAT, input=_lines("save", f"save {tmp_path}", "mark 0", "quit"))
    assert result.exit_code == 0
    out = " ".join(result.output.split())
    assert "Usage: save FILE" in out
    assert f"Cannot save to {tmp_path}" in out
    assert "O to play" in out


@pytest.mark.parametrize(("args", "phrases"), [
    (("--seat", "2=alphazero"), ["unknown bot 'alphazero'"]),
    (("--seat", "3=human"), ["seats are numbered 1 to 2"]),
    (("--seat", "two=human"), ["write SEAT=WHO"]),
    (("--opponent", "nobody"), ["unknown bot 'nobody'"]),
    (("--seat", "2=mcts:iterations=0"), ["iterations must be a positive integer"]),
    (("--solo",), ["cannot set up Tic-tac-toe"]),
    (("--difficulty", "hard"), ["--difficulty goes with --solo"]),
    (("--players", "3"), ["cannot set up Tic-tac-toe: tic-tac-toe is for 2 players"]),
])
def test_bad_options_get_a_clear_message(runner: CliRunner, args: tuple[str, ...],
                                         phrases: list[str]) -> None:
    assert_clear_failure(invoke(runner, "play", "--game", "tictactoe", *args, input="quit\n"), *phrases)


def test_an_unknown_game(runner: CliRunner) -> None:
    assert_clear_failure(invoke(runner, "play", "--game", "chess", input="quit\n"), "unknown game 'chess'")


@pytest.mark.parametrize(("content", "phrases"), [
    ("{not json", ["is not valid JSON"]),
    ("[1, 2]", ["a game record must be a JSON object"]),
    (json.dumps(record_of(["mark 4", "mark 4"])),
     ["cannot replay the record", "action 1 'mark 4' is illegal"]),
    (json.dumps({"record": record_of(["mark 1"]), "seats": ["human"]}), ["'seats' must list 2 players"]),
    (json.dumps({"record": record_of([]), "seats": ["human", "robot"]}), ["unknown bot 'robot'"]),
    (json.dumps({"players": 2}), ["'format' is missing"]),
    (json.dumps({"format": 1, "game": "tictactoe", "players": 2}), ["'seed' is missing"]),
])
def test_bad_saved_games_get_a_clear_message(runner: CliRunner, tmp_path: Path, content: str,
                                             phrases: list[str]) -> None:
    path = tmp_path / "saved.json"
    path.write_text(content)
    assert_clear_failure(invoke(runner, "play", "--game", "tictactoe", "--load", str(path), input="quit\n"),
                         *phrases)


def test_load_problems(runner: CliRunner, tmp_path: Path, steps_game: Game) -> None:
    missing = tmp_path / "missing.json"
    assert_clear_failure(invoke(runner, "play", "--load", str(missing)), "cannot read")
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record_of(["mark 4"])))
    assert_clear_failure(invoke(runner, "play", "--game", "steps", "--load", str(path)),
                         "the record is a game of 'tictactoe', not 'steps'")
    assert_clear_failure(invoke(runner, "play", "--load", str(path), "--players", "2"),
                         "--load resumes a saved game")


def test_a_bare_record_resumes_with_the_default_seats(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record_of(["mark 4", "mark 0"])))
    result = invoke(runner, "play", "--load", str(path), "--seat", "2=human", input=_lines("quit"))
    assert result.exit_code == 0, result.output
    assert "X marks cell 4. O marks cell 0." in " ".join(result.output.split())  # the last moves


def test_a_seat_may_be_given_by_level(runner: CliRunner) -> None:
    """`--seat 2=beginner` seats the game's beginner bot, shown by its spec."""
    result = invoke(runner, "play", "--game", "tictactoe", "--seed", "1", "--seat", "2=Beginner",
                    input=_lines(*["1"] * 5))
    assert result.exit_code == 0, result.output
    assert "Player 2 (greedy) plays:" in result.output
    refused = invoke(runner, "play", "--game", "tictactoe", "--opponent", "grandmaster", input="")
    assert_clear_failure(refused, "unknown bot 'grandmaster'")
