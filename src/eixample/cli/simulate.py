"""`eixample simulate`: many games between bots, their records, statistics and plots."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, TextIO

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from eixample.ai.match import MatchResult, lineup
from eixample.ai.stats import Summary, summarise, wilson_interval
from eixample.cli.common import (
    FirstSeedOption,
    GameOption,
    RayOption,
    WorkersOption,
    console,
    counted,
    error_console,
    fail,
    game_bots_and_players,
    play_games,
    seat_label,
)
from eixample.core.errors import EixampleError
from eixample.core.protocol import Game


def simulate_command(
    games: Annotated[int, typer.Option(min=1, help="Number of games.")] = 100,
    players: Annotated[int | None, typer.Option(help="Players per game (default: 2).")] = None,
    bots: Annotated[str, typer.Option(
        help="Comma-separated bot specs; seat s of game g plays bot (g + s) mod count, so seats "
             "rotate. Statistics are per seat taken: a bot listed twice counts twice per game.",
    )] = "greedy,random",
    seed: FirstSeedOption = 0,
    out: Annotated[Path | None, typer.Option(help="Write every game record to this JSON Lines file.")] = None,
    plots: Annotated[Path | None, typer.Option(help="Save score plots (PNG and SVG) in this folder.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print only a JSON summary.")] = False,
    workers: WorkersOption = None,
    game_name: GameOption = None,
    use_ray: RayOption = False,
) -> None:
    """Play bots against each other and report win rates, scores and points by source."""
    game, specs, count = game_bots_and_players(game_name, bots, players)
    lineups = (lineup(specs, count, index) for index in range(games))
    display = None if as_json else error_console()
    results = play_games(game, specs, lineups, games, seed, workers, use_ray, display)
    with _records_file(out) as stream:
        summary = _summarise_or_fail(_written(results, stream), specs)
    saved = save_plots_or_fail(summary, plots) if plots is not None else []
    if as_json:
        typer.echo(json.dumps(summary.json()))
        return
    show_summary(console(), game, count, summary)
    for path in saved:
        console().print(Text(f"Saved plot {path}"), soft_wrap=True)
    if out is not None:
        console().print(Text(f"Wrote {counted(summary.games, 'record')} to {out}"), soft_wrap=True)


def _summarise_or_fail(results: Iterable[MatchResult], specs: Sequence[str]) -> Summary:
    try:
        return summarise(results, specs)
    except (EixampleError, ValueError, RuntimeError) as error:
        fail(f"a game failed: {error}")
    except OSError as error:
        fail(f"cannot write the records: {error.strerror or error}")


@contextmanager
def _records_file(path: Path | None) -> Iterator[TextIO | None]:
    if path is None:
        yield None
        return
    try:
        stream = path.open("w", encoding="utf-8")
    except OSError as error:
        fail(f"cannot write {path}: {error.strerror or error}")
    with stream:
        yield stream


def _written(results: Iterable[MatchResult], stream: TextIO | None) -> Iterator[MatchResult]:
    """The results, each written as a JSON line as it arrives (so records are not kept)."""
    for result in results:
        if stream is not None:
            stream.write(json.dumps(result.line()) + "\n")
        yield result


def save_plots_or_fail(summary: Summary, folder: Path) -> list[Path]:
    from eixample.cli.plots import save_plots

    try:
        return save_plots(summary, folder)
    except OSError as error:
        fail(f"cannot save plots in {folder}: {error.strerror or error}")


def show_summary(out: Console, game: Game, players: int, summary: Summary) -> None:
    out.print(results_table(game, players, summary))
    out.print(seats_table(summary))
    if summary.sources:
        out.print(sources_table(summary))


def results_table(game: Game, players: int, summary: Summary) -> Table:
    table = Table(title=f"{summary.games} games of {game.title}, {players} players",
                  caption="A shared victory counts as a win for each winner. 95% CI: Wilson interval of the "
                          "win rate. Mean, SD, Min, Max: final scores.")
    table.add_column("Bot", overflow="fold")  # a long spec wraps, the figures stay whole
    for name in ("Games", "Wins", "Win rate", "95% CI", "Mean", "SD", "Min", "Max"):
        table.add_column(name, justify="right", no_wrap=True)
    for spec, record in summary.bots.items():
        low, high = (min(record.scores), max(record.scores)) if record.scores else (0, 0)
        table.add_row(spec, str(record.games), str(record.wins), f"{record.win_rate:.1%}",
                      interval_text(*record.win_interval), f"{record.mean_score:.2f}",
                      f"{record.score_sd:.2f}", str(low), str(high))
    return table


def seats_table(summary: Summary) -> Table:
    table = Table(title="Wins by seat")
    table.add_column("Seat")
    table.add_column("Wins", justify="right")
    table.add_column("Win rate", justify="right")
    table.add_column("95% CI", justify="right")
    for seat, wins in enumerate(summary.seat_wins):
        table.add_row(seat_label(seat), str(wins), f"{wins / summary.games:.1%}",
                      interval_text(*wilson_interval(wins, summary.games)))
    return table


def interval_text(low: float, high: float) -> str:
    """A 95% interval of a win rate, compact: 61.8-74.5%."""
    return f"{low * 100:.1f}-{high:.1%}"


def sources_table(summary: Summary) -> Table:
    """Mean victory points per game by source (one row each) for each bot (one column each)."""
    table = Table(title="VP by source", caption="mean per game")
    table.add_column("Source")
    for spec in summary.bots:
        table.add_column(spec, justify="right")
    means = [record.mean_by_source() for record in summary.bots.values()]
    for source in summary.sources:
        table.add_row(source.replace("_", " "), *(f"{mean.get(source, 0.0):.2f}" for mean in means))
    table.add_section()
    table.add_row("Total", *(f"{record.mean_score:.2f}" for record in summary.bots.values()), style="bold")
    return table
