"""The command line plays The Rose of Fire with no game-specific code outside its renderer:
simulate, tournament, demo, replay, play and bench, and the renderer draws the table."""

from __future__ import annotations

import json
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from eixample.cli.render import render
from eixample.core.rng import Rng
from eixample.games import rose_of_fire
from tests.cli.helpers import invoke

GAME = ("--game", "rose-of-fire")


def test_simulate_and_replay(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    result = invoke(
        runner,
        "simulate",
        *GAME,
        "--games",
        "3",
        "--players",
        "3",
        "--bots",
        "greedy,random",
        "--workers",
        "1",
        "--out",
        str(out),
        "--json",
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["games"] == 3
    lines = out.read_text().splitlines()
    assert len(lines) == 3
    record = json.loads(lines[0])["record"]
    assert rose_of_fire.replay(record).is_terminal()
    replayed = invoke(runner, "replay", str(out), *GAME, "--line", "1", "--index", "40")
    assert replayed.exit_code == 0, replayed.output
    assert "Social conflict" in replayed.output


def test_tournament_and_demo(runner: CliRunner) -> None:
    result = invoke(
        runner,
        "tournament",
        *GAME,
        "--bots",
        "greedy,random",
        "--games-per-pair",
        "1",
        "--players",
        "2",
        "--workers",
        "1",
    )
    assert result.exit_code == 0, result.output
    demo = invoke(runner, "demo", *GAME, "--players", "2", "--bots", "random,random", "--seed", "3")
    assert demo.exit_code == 0, demo.output
    assert "Final scores by source" in demo.output


def test_play_against_a_bot_with_typed_actions(runner: CliRunner) -> None:
    result = invoke(
        runner, "play", *GAME, "--players", "2", "--seat", "1=random", "--seed", "2", input="quit\n"
    )
    assert "Traceback" not in result.output
    assert "Left Eixample" in result.output


def test_bench_prints_figures(runner: CliRunner) -> None:
    result = invoke(runner, "bench", *GAME, "--players", "2", "--seconds", "0.2")
    assert result.exit_code == 0, result.output
    assert "Decisions/s" in result.output and "Clones/s" in result.output


def test_renderer_draws_grid_tracks_raval_and_own_hand() -> None:
    state = rose_of_fire.new_game(3, 4)
    rng = Rng(4)
    for _ in range(60):
        state.apply(rng.choice(state.legal_actions()))
    me = state.current_player()
    console = Console(width=160, record=True)
    console.print(render("rose-of-fire", state.view(me)))
    text = console.export_text()
    for words in (
        "Left Eixample (L)",
        "Sant Martí (S)",
        "Social conflict",
        "Raval",
        "Influence cards",
        "Families",
    ):
        assert words in text
    own = state.t.card_names[sorted(state.hands[me])[0]]
    assert own in text
