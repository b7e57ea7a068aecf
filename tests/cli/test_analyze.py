from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from eixample.core.rng import Rng
from eixample.games import barcelona
from tests.cli.helpers import assert_clear_failure, invoke
from tests.records import record_of

# X: 0, O: 4, X: 8, O: 1 threatens 1-4-7; X must take 7 and plays 2 instead; O wins with 7.
BLUNDER = ["mark 0", "mark 4", "mark 8", "mark 1", "mark 2", "mark 7"]


@pytest.fixture
def blunder_file(tmp_path: Path) -> Path:
    path = tmp_path / "blunder.json"
    path.write_text(json.dumps(record_of(BLUNDER)))
    return path


def test_json_notes_have_the_documented_shape(runner: CliRunner, blunder_file: Path) -> None:
    result = invoke(runner, "analyze", str(blunder_file), "--json", "--iterations", "300")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert set(data) == {"game", "moves"}
    assert data["game"] == "tictactoe"
    assert [move["move"] for move in data["moves"]] == list(range(6))
    for move, action in zip(data["moves"], BLUNDER, strict=True):
        assert set(move) == {"move", "seat", "action", "win_probability", "best", "loss"}
        assert move["action"] == action
        assert move["seat"] == move["move"] % 2
        assert sum(move["win_probability"]) == pytest.approx(1.0, abs=1e-3)
    assert data["moves"][4]["best"] == "mark 7"
    assert data["moves"][4]["loss"] >= 0.4


def test_text_shows_the_biggest_mistakes_first(runner: CliRunner, blunder_file: Path) -> None:
    result = invoke(runner, "analyze", str(blunder_file), "--iterations", "300")
    assert result.exit_code == 0, result.output
    text = result.output
    assert text.index("Biggest mistakes") < text.index("Every decision")
    mistakes = text[text.index("Biggest mistakes"):text.index("Every decision")]
    first_row = next(line for line in mistakes.splitlines() if "Player" in line)
    assert "mark 2" in first_row and "mark 7" in first_row


def test_a_time_budget_per_decision(runner: CliRunner, blunder_file: Path) -> None:
    result = invoke(runner, "analyze", str(blunder_file), "--json", "--seconds", "0.01")
    assert result.exit_code == 0, result.output
    assert len(json.loads(result.output)["moves"]) == 6


def test_a_barcelona_game_from_a_json_lines_file(runner: CliRunner, tmp_path: Path) -> None:
    state = barcelona.new_game(2, 3)
    rng = Rng(9)
    for _ in range(12):
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
    lines = [{"record": record_of(BLUNDER[:2]), "bots": ["random", "random"]},
             {"record": state.record(), "bots": ["greedy", "mcts"]}]
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    result = invoke(runner, "analyze", str(path), "--line", "2", "--json", "--iterations", "6")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["game"] == "barcelona"
    assert [move["action"] for move in data["moves"]] == state.record()["actions"]
    text = invoke(runner, "analyze", str(path), "--line", "2", "--iterations", "6")
    assert text.exit_code == 0, text.output
    assert "Player 2 (mcts)" in text.output


def test_bad_input_is_refused_clearly(runner: CliRunner, tmp_path: Path, blunder_file: Path) -> None:
    assert_clear_failure(invoke(runner, "analyze", str(blunder_file), "--seconds", "0"), "--seconds")
    assert_clear_failure(invoke(runner, "analyze", str(blunder_file), "--seconds", "1000"), "at most 60")
    illegal = tmp_path / "illegal.json"
    illegal.write_text(json.dumps(record_of(["mark 0", "mark 0"])))
    assert_clear_failure(invoke(runner, "analyze", str(illegal)), "action 1 'mark 0' is illegal")
    assert_clear_failure(invoke(runner, "analyze", str(tmp_path / "missing.json")), "cannot read")


def test_without_a_budget_the_search_runs_the_coach_iterations(runner: CliRunner, blunder_file: Path) -> None:
    default = invoke(runner, "analyze", str(blunder_file), "--json")
    explicit = invoke(runner, "analyze", str(blunder_file), "--json", "--iterations", "400")
    other = invoke(runner, "analyze", str(blunder_file), "--json", "--iterations", "5")
    assert default.exit_code == explicit.exit_code == 0, default.output
    assert default.output == explicit.output
    assert other.output != default.output


def test_the_curve_is_each_seats_win_probability_at_every_position(
    runner: CliRunner, blunder_file: Path
) -> None:
    result = invoke(runner, "analyze", str(blunder_file), "--curve", "--json", "--iterations", "50")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert set(data) == {"game", "curve"}
    assert [point["move"] for point in data["curve"]] == list(range(len(BLUNDER) + 1))
    assert all(sum(point["win_probability"]) == pytest.approx(1.0, abs=1e-3) for point in data["curve"])
    assert data["curve"][-1]["win_probability"] == [0.0, 1.0]  # O won
    text = invoke(runner, "analyze", str(blunder_file), "--curve", "--iterations", "50")
    assert text.exit_code == 0 and "100%" in text.output and "move" in text.output
