from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from eixample.core.registry import get_game
from tests.cli.helpers import assert_clear_failure, invoke

SIMULATE = ("simulate", "--game", "tictactoe", "--games", "12", "--seed", "5")


def test_json_summary_shape(runner: CliRunner) -> None:
    result = invoke(runner, *SIMULATE, "--bots", "greedy,random,mcts:iterations=20", "--json",
                    "--workers", "1")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == {"games", "bots"}
    assert data["games"] == 12
    assert list(data["bots"]) == ["greedy", "random", "mcts:iterations=20"]
    for entry in data["bots"].values():
        assert set(entry) == {"games", "wins", "win_rate", "win_interval", "mean_score"}
        assert entry["win_rate"] == pytest.approx(entry["wins"] / entry["games"])
        low, high = entry["win_interval"]
        assert 0 <= low <= entry["win_rate"] <= high <= 1 and high - low > 0.1  # 12 games say little
    assert sum(entry["games"] for entry in data["bots"].values()) == 24


def test_the_same_results_with_any_number_of_workers(runner: CliRunner) -> None:
    args = (*SIMULATE, "--bots", "greedy,random", "--json")
    alone = invoke(runner, *args, "--workers", "1")
    pooled = invoke(runner, *args, "--workers", "2")
    assert alone.exit_code == pooled.exit_code == 0, pooled.output
    assert json.loads(alone.stdout) == json.loads(pooled.stdout)


def test_records_tables_and_plots(runner: CliRunner, tmp_path: Path) -> None:
    out, plots = tmp_path / "games.jsonl", tmp_path / "plots"
    result = invoke(runner, *SIMULATE, "--bots", "greedy,random", "--out", str(out), "--plots", str(plots),
                    "--workers", "2")
    assert result.exit_code == 0, result.output
    for phrase in ("12 games of Tic-tac-toe", "Win rate", "95% CI", "Mean", "Wins by seat", "VP by source",
                   "greedy", "random", "Wrote 12 records"):
        assert phrase in result.stdout
    lines = out.read_text().splitlines()
    assert len(lines) == 12
    game = get_game("tictactoe")
    for index, line in enumerate(lines):
        entry = json.loads(line)
        assert entry["record"]["seed"] == 5 + index
        assert entry["bots"] == (["greedy", "random"] if index % 2 == 0 else ["random", "greedy"])
        assert game.replay(entry["record"]).scores() == entry["scores"]
    assert sorted(path.name for path in plots.iterdir()) == [
        "scores.png", "scores.svg", "vp_by_source.png", "vp_by_source.svg"]


@pytest.mark.parametrize(("args", "phrase"), [
    (("--bots", "greedy,alphazero"), "unknown bot 'alphazero'"),
    (("--bots", "greedy,,random"), "empty bot spec"),
    (("--bots", "mcts:depth=x"), "depth must be a non-negative integer"),
    (("--players", "3"), "Tic-tac-toe is for 2-2 players, not 3"),
])
def test_bad_simulations(runner: CliRunner, args: tuple[str, ...], phrase: str) -> None:
    assert_clear_failure(invoke(runner, *SIMULATE, *args), phrase)


def test_tournament(runner: CliRunner) -> None:
    result = invoke(runner, "tournament", "--game", "tictactoe", "--bots", "random,greedy,mcts:iterations=30",
                    "--games-per-pair", "4", "--players", "2", "--workers", "1")
    assert result.exit_code == 0, result.output
    for phrase in ("12 games", "Plackett-Luce", "Rating", "mu", "sigma", "Head to head",
                   "mcts:iterations=30"):
        assert phrase in result.stdout


@pytest.mark.parametrize(("args", "phrase"), [
    (("--bots", "random,random"), "only once"),
    (("--bots", "random"), "at least 2 bot configurations"),
    (("--bots", "random,cheater"), "unknown bot 'cheater'"),
    (("--bots", "random,greedy", "--players", "4"), "Tic-tac-toe is for 2-2 players"),
])
def test_bad_tournaments(runner: CliRunner, args: tuple[str, ...], phrase: str) -> None:
    assert_clear_failure(invoke(runner, "tournament", "--game", "tictactoe", "--games-per-pair", "2", *args),
                         phrase)


def test_demo(runner: CliRunner) -> None:
    demo = ("demo", "--game", "tictactoe", "--bots", "mcts:iterations=30,random", "--seed", "2")
    result = invoke(runner, *demo)
    assert result.exit_code == 0, result.output
    out = " ".join(result.stdout.split())
    for phrase in ("1. Player 1 (mcts:iterations=30): X to play", "2. Player 2 (random): O to play",
                   "-> mark", "game over", "Final scores by source"):
        assert phrase in out
    again = invoke(runner, *demo)
    assert again.stdout == result.stdout


def test_demo_with_a_bad_bot(runner: CliRunner) -> None:
    result = invoke(runner, "demo", "--game", "tictactoe", "--bots", "oracle")
    assert_clear_failure(result, "unknown bot 'oracle'")


def test_a_searching_bot_with_helper_processes_plays_games_one_at_a_time(runner: CliRunner) -> None:
    """A bot with `workers=N` starts processes of its own, which a pool's worker may not: with
    --workers 1 it plays; with a pool the command fails with a clear message."""
    args = ("simulate", "--game", "tictactoe", "--games", "2", "--seed", "5",
            "--bots", "expert:iterations=20:workers=2,greedy", "--json")
    alone = invoke(runner, *args, "--workers", "1")
    assert alone.exit_code == 0, alone.output
    assert json.loads(alone.stdout)["games"] == 2
    pooled = invoke(runner, *args, "--workers", "2")
    assert pooled.exit_code != 0
    assert "play such games one at a time (--workers 1)" in pooled.output
    tournament = invoke(runner, "tournament", "--game", "tictactoe", "--games-per-pair", "2",
                        "--bots", "expert:iterations=20:workers=2,greedy", "--workers", "2")
    assert tournament.exit_code != 0
    assert "play such games one at a time (--workers 1)" in tournament.output


def test_bots_may_be_given_by_the_games_levels(runner: CliRunner) -> None:
    """A level name stands for the game's own spec: The Rose of Fire's intermediate is greedy:plan=3."""
    result = invoke(runner, "simulate", "--game", "rose-of-fire", "--games", "2", "--bots",
                    "intermediate,beginner", "--json")
    assert result.exit_code == 0, result.output
    assert list(json.loads(result.stdout)["bots"]) == ["greedy:plan=3", "greedy"]
