"""`eixample bench`: how fast the game plays, against OpenSpiel's pure-Python tic-tac-toe.

Figures per player count: random-playout decisions per second, full games per second, and clones
per second (of a state halfway through a random game). The reference is the number of moves per
second of OpenSpiel's `python_tic_tac_toe` played out at random through the same kind of loop;
the ratio compares our decisions/s with it. Speed is measured here, never asserted in tests.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from eixample.cli.common import GAME_HELP, console, fail, load_game
from eixample.core.protocol import Game, State
from eixample.core.rng import Rng

TARGET_CLONES = 100_000
REFERENCE_GAME = "python_tic_tac_toe"
_CLONE_BATCH = 1000


@dataclass(frozen=True)
class Figures:
    players: int
    decisions_per_second: float
    games_per_second: float
    clones_per_second: float


def random_playout(state: State, rng: Rng) -> int:
    """Play `state` to the end at random; the number of decisions taken."""
    decisions = 0
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
        decisions += 1
    return decisions


def measure_playouts(game: Game, players: int, seconds: float, seed: int = 0) -> tuple[float, float]:
    """(decisions/s, games/s) of random playouts from new games, for about `seconds`."""
    rng = Rng(seed)
    decisions = games = 0
    start = time.perf_counter()
    while True:
        decisions += random_playout(game.new_game(players, seed + games), rng)
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return decisions / elapsed, games / elapsed


def halfway_state(game: Game, players: int, seed: int = 0) -> State:
    """A state about halfway through a random game."""
    length = random_playout(game.new_game(players, seed), Rng(seed))
    state = game.new_game(players, seed)
    rng = Rng(seed)
    for _ in range(length // 2):
        state.apply(rng.choice(state.legal_actions()))
    return state


def measure_clones(game: Game, players: int, seconds: float, seed: int = 0) -> float:
    state = halfway_state(game, players, seed)
    clones = 0
    start = time.perf_counter()
    while True:
        for _ in range(_CLONE_BATCH):
            state.clone()
        clones += _CLONE_BATCH
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return clones / elapsed


def measure_game(game: Game, players: int, seconds: float) -> Figures:
    decisions, games = measure_playouts(game, players, seconds)
    return Figures(players, decisions, games, measure_clones(game, players, seconds))


def load_reference() -> Any:
    """OpenSpiel's pure-Python tic-tac-toe, or None when open_spiel is not installed."""
    try:
        import pyspiel
        from open_spiel.python.games import tic_tac_toe  # noqa: F401  (registers the game)
    except ImportError:
        return None
    return pyspiel.load_game(REFERENCE_GAME)


def measure_reference(reference: Any, seconds: float, seed: int = 0) -> float:
    """Moves/s of random playouts of the reference game, through the same kind of loop."""
    rng = Rng(seed)
    moves = 0
    start = time.perf_counter()
    while True:
        state = reference.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return moves / elapsed


def parse_counts(text: str) -> list[int]:
    try:
        counts = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        fail(f"--players must be comma-separated numbers, not '{text}'")
    if not counts:
        fail("--players names no player count")
    return counts


def _checked(text: str, ok: bool) -> str:
    return f"{text} [green]met[/]" if ok else f"{text} [red]not met[/]"


def figures_table(game: Game, figures: list[Figures], reference: float | None) -> Table:
    """One column per player count; the targets in the last column."""
    table = Table(title=f"{game.title}: random playouts")
    table.add_column("Measure")
    for row in figures:
        table.add_column(f"{row.players} players", justify="right")
    table.add_column("Target")
    table.add_row("Decisions/s", *(f"{row.decisions_per_second:,.0f}" for row in figures), "")
    table.add_row("Games/s", *(f"{row.games_per_second:,.1f}" for row in figures), "")
    clones = [row.clones_per_second for row in figures]
    table.add_row("Clones/s", *(_checked(f"{rate:,.0f}", rate >= TARGET_CLONES) for rate in clones),
                  f">= {TARGET_CLONES:,}")
    ratios = [row.decisions_per_second / reference if reference else None for row in figures]
    table.add_row("Ratio ours/reference",
                  *(_checked(f"{r:.2f}", r >= game.speed_ratio) if r is not None else "-" for r in ratios),
                  f">= {game.speed_ratio}")
    return table


def run_bench(out: Console, game: Game, counts: list[int], seconds: float) -> None:
    """Measure and print: our figures per player count, then the reference and the ratios."""
    playable = [n for n in counts if game.min_players <= n <= game.max_players]
    for n in sorted(set(counts) - set(playable)):
        out.print(f"{game.title} is not played by {n}: skipped.")
    if not playable:
        fail(f"{game.title} is for {game.min_players}-{game.max_players} players")
    figures = [measure_game(game, n, seconds) for n in playable]
    reference = load_reference()
    speed = None if reference is None else measure_reference(reference, seconds)
    if speed is None:
        out.print("open_spiel is not installed: no reference figure (pip install open_spiel).")
    else:
        out.print(f"Reference: OpenSpiel {REFERENCE_GAME}, random playouts: {speed:,.0f} moves/s")
    out.print(figures_table(game, figures, speed))


def bench_command(
    seconds: Annotated[float, typer.Option(min=0.0, help="Seconds per measurement.")] = 1.0,
    players: Annotated[str, typer.Option(help="Comma-separated player counts.")] = "2,3,4",
    game_name: Annotated[str | None, typer.Option("--game", help=GAME_HELP)] = None,
) -> None:
    """Random-playout decisions/s, games/s and clones/s, compared with OpenSpiel's Python tic-tac-toe."""
    game = load_game(game_name)
    run_bench(console(), game, parse_counts(players), seconds)
