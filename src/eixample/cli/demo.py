"""`eixample demo`: bots play one game, printed turn by turn, then the final scores."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.text import Text

from eixample.ai.match import derive_seed, lineup, play_out
from eixample.ai.specs import make_bot
from eixample.cli.common import (
    GAME_HELP,
    check_players,
    console,
    default_players,
    fail,
    load_game,
    parse_bots,
)
from eixample.cli.render import log_lines, render
from eixample.cli.tables import breakdown_table, outcome_line, player_name
from eixample.core.errors import EixampleError
from eixample.core.protocol import Action, State

DEMO_BOTS = "mcts:iterations=100,greedy"


class Narrator:
    """Prints each decision as it is taken: who, what was asked, what they chose, and the new
    entries of the game log."""

    def __init__(self, out: Console, names: list[str]) -> None:
        self.out = out
        self.names = names
        self.turn = 0
        self.logged = 0

    def __call__(self, state: State, seat: int, action: Action) -> None:
        self.log_since(state)
        self.turn += 1
        self.out.print(Text(f"{self.turn:>4}. {player_name(seat, self.names)}: {state.describe_decision()}",
                            style="dim"))
        self.out.print(Text(f"      -> {action}", style="cyan"))

    def log_since(self, state: State) -> None:
        lines = log_lines(state.view(None))
        for line in lines[self.logged:]:
            self.out.print(Text(f"      {line}"))
        self.logged = len(lines)


def demo_command(
    players: Annotated[int | None, typer.Option(help="Number of players (default: 2).")] = None,
    bots: Annotated[str, typer.Option(help="Comma-separated bot specs, seated in turn.")] = DEMO_BOTS,
    seed: Annotated[int, typer.Option(help="Seed of the game.")] = 1,
    game_name: Annotated[str | None, typer.Option("--game", help=GAME_HELP)] = None,
) -> None:
    """A game between bots, printed turn by turn, with the final score breakdown."""
    game = load_game(game_name)
    specs = parse_bots(bots, game)
    count = check_players(game, default_players(game) if players is None else players)
    seats = list(lineup(specs, count, 0))
    out = console()
    try:
        state = game.new_game(count, seed)
    except (ValueError, TypeError) as error:
        fail(f"cannot set up {game.title}: {error}")
    out.rule(f"{game.title}: {', '.join(player_name(s, seats) for s in range(count))}; seed {seed}")
    out.print(render(game.name, state.view(None)))
    narrator = Narrator(out, seats)
    bots_by_seat = [make_bot(spec, derive_seed(seed, seat)) for seat, spec in enumerate(seats)]
    try:
        play_out(state, bots_by_seat, narrator)
    except (EixampleError, RuntimeError) as error:
        fail(f"the game failed: {error}")
    narrator.log_since(state)
    out.rule(f"{game.title}: game over")
    out.print(render(game.name, state.view(None)))
    out.print(Text(outcome_line(state, seats), style="bold green"))
    out.print(breakdown_table(state, seats))
