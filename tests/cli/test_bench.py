from __future__ import annotations

import pytest
from typer.testing import CliRunner

from eixample.cli import bench
from tests.cli.helpers import assert_clear_failure, invoke


def test_bench_prints_figures_and_targets(runner: CliRunner) -> None:
    result = invoke(runner, "bench", "--game", "tictactoe", "--seconds", "0.01", "--players", "2,3")
    assert result.exit_code == 0, result.output
    out = " ".join(result.stdout.split())
    for phrase in ("Decisions/s", "Games/s", "Clones/s", "Ratio ours/reference", ">= 100,000", ">= 0.5",
                   "2 players", "not played by 3"):
        assert phrase in out
    assert "Reference: OpenSpiel python_tic_tac_toe" in out or "open_spiel is not installed" in out


def test_the_bench_holds_each_game_to_its_own_ratio(runner: CliRunner) -> None:
    """The Rose of Fire's issue asks for at least the reference's speed, Barcelona's for half."""
    result = invoke(runner, "bench", "--game", "rose-of-fire", "--seconds", "0.01", "--players", "2")
    assert result.exit_code == 0, result.output
    out = " ".join(result.stdout.split())
    assert ">= 1.0" in out and ">= 0.5" not in out


def test_bench_without_open_spiel(runner: CliRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench, "load_reference", lambda: None)
    result = invoke(runner, "bench", "--game", "tictactoe", "--seconds", "0.01", "--players", "2")
    assert result.exit_code == 0, result.output
    assert "open_spiel is not installed" in result.stdout
    assert "Clones/s" in result.stdout


def test_the_reference_loop_measures_moves() -> None:
    reference = bench.load_reference()
    if reference is None:
        pytest.skip("open_spiel is not installed")
    assert bench.measure_reference(reference, 0.01) > 0


@pytest.mark.parametrize(("players", "phrase"), [("3,4", "is for 2-2 players"), ("two", "comma-separated"),
                                                 (",", "names no player count")])
def test_bench_with_bad_player_counts(runner: CliRunner, players: str, phrase: str) -> None:
    result = invoke(runner, "bench", "--game", "tictactoe", "--seconds", "0.01", "--players", players)
    assert_clear_failure(result, phrase)
