"""`eixample replay`: step through a recorded game, forwards and backwards."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.text import Text

from eixample.cli.common import GAME_HELP, console, counted, fail, game_file, read_json
from eixample.cli.render import render, render_compact
from eixample.cli.render.words import action_words
from eixample.cli.tables import breakdown_table, outcome_line, player_name, seat_names
from eixample.core.errors import IllegalActionError, MalformedRecordError
from eixample.core.protocol import Game, JsonDict, State
from eixample.core.records import replay

HELP = "n: next  p: previous  first  last  NUMBER: that move  table: all of it  q: quit"


def positions(game: Game, record: JsonDict) -> list[State]:
    """Every position of the game: before the first action, then after each."""
    try:
        state = replay(game, record, upto=0)
    except MalformedRecordError as error:
        fail(str(error))
    states = [state]
    for index, action in enumerate(record["actions"]):
        state = state.clone()
        try:
            state.apply(action)
        except IllegalActionError as error:
            fail(f"game record: action {index} '{action}' is illegal: {error}")
        states.append(state)
    return states


class Replayer:
    def __init__(self, game: Game, record: JsonDict, states: list[State], names: list[str], out: Console):
        self.game = game
        self.actions: list[str] = record["actions"]
        self.states = states
        self.names = names
        self.out = out

    @property
    def last(self) -> int:
        return len(self.states) - 1

    def show(self, index: int) -> None:
        state = self.states[index]
        self.out.rule(f"{self.game.title}: move {index} of {self.last}")
        if index > 0:
            mover = self.states[index - 1].current_player()
            words = action_words(self.game.name, self.actions[index - 1], self.states[index - 1].view(None))
            played = f"{player_name(mover, self.names)} played: {words}"
            self.out.print(Text(played, style="cyan"))
        self.out.print(render_compact(self.game.name, state.view(None)))
        if state.is_terminal():
            self.out.print(Text(outcome_line(state, self.names), style="bold green"))
            self.out.print(breakdown_table(state, self.names))
        else:
            self.out.print(Text(state.describe_decision(), style="bold"))

    def target(self, index: int, command: str) -> int | None:
        """The position a command leads to, or None to stop; unknown commands leave it."""
        moves = {"n": index + 1, "next": index + 1, "": index + 1, "p": index - 1, "prev": index - 1,
                 "first": 0, "last": self.last}
        if command in ("q", "quit", "exit"):
            return None
        if command == "table":
            self.out.print(render(self.game.name, self.states[index].view(None)))
            return index
        if command in moves:
            return max(0, min(self.last, moves[command]))
        if command.isdigit() and int(command) <= self.last:
            return int(command)
        if command.isdigit():
            self._say(f"No move {command}: moves go from 0 to {self.last}.")
        elif command in ("help", "?"):
            self.out.print(Text(HELP))
        else:
            self._say(f"Unknown command '{command}'. {HELP}")
        return index

    def _say(self, message: str) -> None:
        self.out.print(Text(message, style="red"))

    def run(self, start: int) -> None:
        index = start
        self.show(index)
        self.out.print(Text(HELP, style="dim"))
        while True:
            self.out.print("replay> ", end="")
            line = sys.stdin.readline()
            if not line:
                return
            following = self.target(index, line.strip().lower())
            if following is None:
                return
            if following != index:
                index = following
                self.show(index)


def replay_command(
    file: Annotated[Path, typer.Argument(
        help="A record or saved game (JSON), or a JSON Lines file with --line.")],
    index: Annotated[int, typer.Option(min=0, help="Start at this move (0: the set-up).")] = 0,
    line: Annotated[int | None, typer.Option(min=1, help="Which game of a JSON Lines file (from 1).")] = None,
    game_name: Annotated[str | None, typer.Option("--game", help=GAME_HELP)] = None,
) -> None:
    """Step through a saved game: n, p, first, last, a move number, q (read from standard input)."""
    game, record, seats = game_file(read_json(file, line), game_name)
    states = positions(game, record)
    if index >= len(states):
        fail(f"the game has {counted(len(states) - 1, 'move')}; there is no move {index}")
    names = seat_names(record, seats, states[0].num_players)
    Replayer(game, record, states, names, console()).run(index)
