"""Helpers every command shares: consoles, clear failures (exit code 2), games, bots and files."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Sequence
from importlib import metadata
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape

from eixample.ai.match import MatchResult, MatchTask
from eixample.ai.mcts import MctsBot
from eixample.ai.parallel import pool_refusal
from eixample.ai.specs import BotSpecError, check_spec, make_bot, named_spec
from eixample.cli.runner import (
    RAY_HELP,
    connect_ray_or_fail,
    default_workers,
    ray_requested,
    run_with_progress,
)
from eixample.core.errors import MalformedRecordError
from eixample.core.protocol import Game, JsonDict, State
from eixample.core.registry import get_game

DEFAULT_GAME = "barcelona"
BAD_INPUT = 2
TABLE_WIDTH = 120

GAME_HELP = f"Game to use (default: {DEFAULT_GAME})."
WORKERS_HELP = "Worker processes (default: every core)."

GameOption = Annotated[str | None, typer.Option("--game", help=GAME_HELP)]
WorkersOption = Annotated[int | None, typer.Option(min=1, help=WORKERS_HELP)]
RayOption = Annotated[bool, typer.Option("--ray", help=RAY_HELP)]
FirstSeedOption = Annotated[int, typer.Option(help="Seed of the first game; game g uses seed + g.")]
"""The options of every command that plays many games (`simulate`, `tournament`)."""


def console() -> Console:
    """The standard output console (made per command, so it follows redirections). Output to
    a file or a pipe is TABLE_WIDTH columns wide (unless COLUMNS says otherwise), so that game
    tables are drawn whole."""
    out = Console(highlight=False)
    if not out.is_terminal and "COLUMNS" not in os.environ:
        out.width = TABLE_WIDTH
    return out


def error_console() -> Console:
    return Console(stderr=True, highlight=False)


def fail(message: str) -> NoReturn:
    """Print a clear error and stop with exit code 2."""
    error_console().print(f"[bold red]error:[/] {escape(message)}", soft_wrap=True)
    raise typer.Exit(BAD_INPUT)


def load_game(name: str | None) -> Game:
    try:
        return get_game(name or DEFAULT_GAME)
    except KeyError as error:
        fail(str(error.args[0]))


def default_players(game: Game) -> int:
    return max(game.min_players, min(2, game.max_players))


def check_players(game: Game, players: int) -> int:
    if not game.min_players <= players <= game.max_players:
        fail(f"{game.title} is for {game.min_players}-{game.max_players} players, not {players}")
    return players


def parse_bots(text: str, game: Game | None = None) -> list[str]:
    """A comma-separated list of bot specs or `game`'s level names, each checked; levels become
    their specs."""
    specs = [spec.strip() for spec in text.split(",")]
    if not all(specs):
        fail(f"empty bot spec in '{text}'")
    return [check_bot(spec, game) for spec in specs]


def refuse_pooled_helpers(specs: Sequence[str], pool_workers: int, use_ray: bool) -> None:
    """Before any game starts, refuse a bot that starts processes of its own (`workers=N`) when
    games are to be played by a local process pool, whose workers may not have children (failing
    inside the pool instead would leave the pool to be torn down mid-game)."""
    if use_ray or pool_workers < 2:
        return
    for spec in specs:
        bot = make_bot(spec, 0)
        if isinstance(bot, MctsBot) and bot.settings.workers > 1:
            fail(pool_refusal(bot.settings.workers))


def game_bots_and_players(
    game_name: str | None, bots: str, players: int | None
) -> tuple[Game, list[str], int]:
    """The game of `--game`, the bot specs of a comma-separated list for it (`parse_bots`) and the
    players per game, checked (None or 0: the game's default)."""
    game = load_game(game_name)
    specs = parse_bots(bots, game)
    return game, specs, check_players(game, players or default_players(game))


def prepare_workers(specs: Sequence[str], workers: int | None, games: int, use_ray: bool) -> tuple[int, bool]:
    """What a command does before playing `games` games of `specs`: the workers (default one per
    CPU), whether Ray plays them (`--ray`, or RAY_ADDRESS set; connected here), and the refusal of a
    bot that a local process pool cannot run."""
    workers = workers or default_workers()
    use_ray = ray_requested(use_ray)
    refuse_pooled_helpers(specs, min(workers, games), use_ray)
    if use_ray:
        connect_ray_or_fail(workers)
    return workers, use_ray


def play_games(
    game: Game,
    specs: Sequence[str],
    lineups: Iterable[tuple[str, ...]],
    games: int,
    seed: int,
    workers: int | None,
    use_ray: bool,
    display: Console | None,
) -> Iterator[MatchResult]:
    """The results of `games` games, game `index` played by lineup `index` from seed `seed + index`,
    in order, with a progress bar on `display`. The workers are prepared at once, the games played
    as the results are read."""
    workers, use_ray = prepare_workers(specs, workers, games, use_ray)
    tasks = (MatchTask(game.name, seed + index, bots) for index, bots in enumerate(lineups))
    return run_with_progress(tasks, games, workers, "Playing", display, use_ray)


def check_bot(spec: str, game: Game | None = None) -> str:
    """A bot spec, checked; a level name of `game` ("strong") gives that game's spec."""
    spec = named_spec(spec, game)
    try:
        check_spec(spec)
    except BotSpecError as error:
        fail(str(error))
    return spec


def read_json(path: Path, line: int | None = None) -> Any:
    """A JSON file, or line `line` (1-based) of a JSON Lines file."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        fail(f"cannot read {path}: {error.strerror or error}")
    if line is not None:
        text = _jsonl_line(path, text, line)
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        if error.msg == "Extra data" and line is None:
            fail(f"{path} holds several JSON values (JSON Lines?): choose one with --line L")
        where = f"{path}" if line is None else f"{path} line {line}"
        fail(f"{where} is not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})")


def counted(count: int, noun: str) -> str:
    """ "1 record", "2 records" (a noun whose plural adds an s)."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _jsonl_line(path: Path, text: str, line: int) -> str:
    lines = [entry for entry in text.splitlines() if entry.strip()]
    if not 1 <= line <= len(lines):
        fail(f"{path} has {counted(len(lines), 'record')}; there is no line {line}")
    return lines[line - 1]


def unwrap_record(data: Any) -> tuple[JsonDict, Any]:
    """(record, seats) from a saved game {"record": ..., "seats": [...]}, a JSON Lines entry
    {"record": ..., "bots": [...]} or a bare record (seats None)."""
    if isinstance(data, dict) and isinstance(data.get("record"), dict):
        return data["record"], data.get("seats", data.get("bots"))
    if isinstance(data, dict):
        return data, None
    fail("a game record must be a JSON object")


def record_game(record: JsonDict, name: str | None) -> Game:
    """The game a record is for: `name` if given (it must match), else the record's own."""
    recorded = record.get("game")
    if name and isinstance(recorded, str) and recorded != name:
        fail(f"the record is a game of '{recorded}', not '{name}'")
    return load_game(name or (recorded if isinstance(recorded, str) else None))


def game_file(data: Any, name: str | None) -> tuple[Game, JsonDict, Any]:
    """(game, record, seats) from what `unwrap_record` takes or a saved state (`to_json()`). A
    saved state is restored, so one whose `state` its own actions do not lead to is refused."""
    record, seats = unwrap_record(data)
    game = record_game(record, name)
    if "state" in record:
        try:
            record = game.from_json(record).record()
        except (MalformedRecordError, ValueError, TypeError, KeyError) as error:
            fail(f"cannot restore the saved state: {error}")
    return game, record, seats


def replay_or_fail(game: Game, record: JsonDict) -> State:
    try:
        return game.replay(record)
    except (MalformedRecordError, ValueError, TypeError, KeyError) as error:
        fail(f"cannot replay the record: {error}")


def seat_label(seat: int) -> str:
    return f"Player {seat + 1}"


def package_version() -> str:
    """The installed version of the eixample package."""
    try:
        return metadata.version("eixample")
    except metadata.PackageNotFoundError:
        return "unknown (not installed)"
