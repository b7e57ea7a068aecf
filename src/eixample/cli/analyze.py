"""`eixample analyze`: every decision of a saved game judged by the search bot."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import Progress
from rich.table import Table
from rich.text import Text

from eixample.ai.analysis import (
    COACH_SETTINGS,
    CurvePoint,
    MoveNote,
    analyse_game,
    biggest_mistakes,
    win_probability_curve,
)
from eixample.cli.common import (
    GAME_HELP,
    console,
    error_console,
    fail,
    game_file,
    read_json,
)
from eixample.cli.tables import player_name, seat_names
from eixample.core.errors import MalformedRecordError
from eixample.core.protocol import JsonDict

MAX_SECONDS = 60.0
MAX_ITERATIONS = 1_000_000
MISTAKES_SHOWN = 10


def analyze_command(
    file: Annotated[Path, typer.Argument(
        help="A record or saved game (JSON), or a JSON Lines file with --line.")],
    line: Annotated[int | None, typer.Option(min=1, help="Which game of a JSON Lines file (from 1).")] = None,
    seconds: Annotated[float | None, typer.Option(
        help=f"Search time per decision, at most {MAX_SECONDS:g} (default: "
             f"{COACH_SETTINGS.iterations} iterations, whatever the time).")] = None,
    iterations: Annotated[int | None, typer.Option(
        min=1, max=MAX_ITERATIONS, help="Search iterations per decision (with --seconds: whichever "
                                        "ends first).")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the search (same seed and iterations: same notes).")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the notes as JSON.")] = False,
    curve: Annotated[bool, typer.Option(
        "--curve", help="Instead of the notes: each seat's win probability at every position, one search "
                        "per position (the web app's win-probability graph).")] = False,
    game_name: Annotated[str | None, typer.Option("--game", help=GAME_HELP)] = None,
) -> None:
    """Annotate a saved game: win probabilities, the bot's preferred moves, the biggest mistakes.
    \f
    For every decision: each seat's estimated win probability, the move played, the bot's
    preferred move and the win probability the move played gave away."""
    if seconds is not None and not 0 < seconds <= MAX_SECONDS:
        fail(f"--seconds must be more than 0 and at most {MAX_SECONDS:g}, not {seconds:g}")
    game, record, seats = game_file(read_json(file, line), game_name)
    if iterations is None and seconds is None:
        iterations = COACH_SETTINGS.iterations
    settings = replace(COACH_SETTINGS, seconds=seconds, iterations=iterations)
    try:
        with Progress(console=error_console(), transient=True, disable=as_json) as bar:
            actions = record.get("actions")
            task = bar.add_task("Analysing", total=len(actions) if isinstance(actions, list) else None)
            if curve:
                points = win_probability_curve(game, record, settings, seed,
                                               progress=lambda done, total: bar.update(task, completed=done))
            else:
                notes = analyse_game(game, record, settings, seed,
                                     progress=lambda done, total: bar.update(task, completed=done))
    except MalformedRecordError as error:
        fail(str(error))
    names = seat_names(record, seats, int(record["players"]))
    if curve:
        _print_curve(game.name, game.title, points, names, as_json)
        return
    if as_json:
        typer.echo(json.dumps(analysis_json(game.name, notes)))
        return
    out = console()
    out.print(Text(f"{game.title}: {len(notes)} decisions analysed", style="bold"))
    out.print(mistakes_table(notes, names))
    out.print(moves_table(notes, names))


def _print_curve(game: str, title: str, points: Sequence[CurvePoint], names: Sequence[str],
                 as_json: bool) -> None:
    if as_json:
        typer.echo(json.dumps({"game": game, "curve": [point.as_json() for point in points]}))
        return
    table = Table(title=f"{title}: win probability at every position", title_justify="left")
    table.add_column("move", justify="right")
    for seat in range(len(names)):
        table.add_column(Text(f"{player_name(seat, names)} win"), justify="right")
    for point in points:
        table.add_row(str(point.move), *(f"{p:.0%}" for p in point.win_probability))
    console().print(table)


def analysis_json(game: str, notes: Sequence[MoveNote]) -> JsonDict:
    return {"game": game, "moves": [note.to_json() for note in notes]}


def mistakes_table(notes: Sequence[MoveNote], names: Sequence[str]) -> Table | Text:
    mistakes = biggest_mistakes(notes, MISTAKES_SHOWN)
    if not mistakes:
        return Text("No move gave away 1% or more of win probability.")
    table = Table(title="Biggest mistakes (win probability given away)", title_justify="left")
    for column in ("move", "player", "played", "better", "loss"):
        table.add_column(column, justify="right" if column in ("move", "loss") else "left")
    for note in mistakes:
        table.add_row(str(note.move), Text(player_name(note.seat, names)), note.action, note.best,
                      f"{note.loss:.1%}")
    return table


def moves_table(notes: Sequence[MoveNote], names: Sequence[str]) -> Table:
    seats = len(names)
    table = Table(title="Every decision", title_justify="left")
    table.add_column("move", justify="right")
    table.add_column("player")
    table.add_column("played")
    table.add_column("bot's choice")
    table.add_column("loss", justify="right")
    for seat in range(seats):
        table.add_column(Text(f"{names[seat] or f'P{seat + 1}'} win"), justify="right")
    for note in notes:
        best = "" if note.best == note.action else note.best
        loss = f"{note.loss:.1%}" if note.loss >= 0.0005 else ""
        table.add_row(str(note.move), Text(player_name(note.seat, names)), note.action, best, loss,
                      *(f"{p:.0%}" for p in note.win_probability))
    return table
