"""`eixample play`: people play in the terminal, against bots or friends at the same keyboard.

Input is read line by line from standard input, so a game can be scripted. At the prompt, type a
choice number, a move in its text form, or a command (see HELP).
"""

from __future__ import annotations

import difflib
import json
import secrets
import sys
from collections.abc import Callable
from enum import Enum, StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.text import Text

from eixample.ai.base import Bot
from eixample.ai.match import derive_seed
from eixample.ai.specs import make_bot
from eixample.cli.common import (
    GAME_HELP,
    TABLE_WIDTH,
    check_bot,
    check_players,
    console,
    default_players,
    fail,
    game_file,
    load_game,
    read_json,
    replay_or_fail,
    seat_label,
)
from eixample.cli.render import (
    decision_hint,
    game_help,
    has_compact,
    log_lines,
    render,
    render_choices,
    render_compact,
    render_details,
)
from eixample.cli.render.words import action_words
from eixample.cli.tables import breakdown_table, outcome_line
from eixample.core.errors import IllegalActionError
from eixample.core.protocol import Action, Game, JsonDict, State
from eixample.core.records import can_undo, undo

HUMAN = "human"
SOLO = "solo"
"""The seats of a solo game's own opponent: the game plays them, nobody is asked."""
HUMAN_WORDS = ("human", "you", "me")
SAVE_FORMAT = 1
RECENT_LOG = 2
"""Log lines shown with each decision (the log command shows them all)."""

HELP = """\
Choose by number (e.g. 3) or type the move itself (see the game's moves below);
a near miss gets the nearest legal move as a suggestion.
Commands:
  help         this text
  show         draw the table (compact) and the choices again
  table        the whole table: every track, tile and player board
  log          the whole game log
  details      the long texts of the table (tile texts), if the game has them
  undo         take back your last decision (only within your own turn)
  save FILE    save the game; resume it later with: eixample play --load FILE
  quit (q)     leave the game (save first to resume it)"""


class Difficulty(StrEnum):
    easy = "easy"
    normal = "normal"
    hard = "hard"


class Outcome(Enum):
    STAY = "stay"
    DONE = "done"
    QUIT = "quit"


class KeyboardGame:
    """One game at the keyboard: humans type, bots answer, the table is drawn between."""

    def __init__(self, game: Game, state: State, seats: list[str], out: Console,
                 read_line: Callable[[], str], echo: bool = False) -> None:
        self.game = game
        self.state = state
        self.seats = seats
        self.out = out
        self.read_line = read_line
        self.echo = echo
        self.bots: dict[int, Bot] = {
            seat: make_bot(spec, derive_seed(state.record()["seed"], seat))
            for seat, spec in enumerate(seats) if spec not in (HUMAN, SOLO)
        }

    def run(self) -> None:
        while not self.state.is_terminal():
            seat = self.state.current_player()
            if seat in self.bots:
                self.bot_turn(seat)
            elif self.human_turn(seat) is Outcome.QUIT:
                return
        self.show_end()

    # -- turns --------------------------------------------------------------------------------

    def bot_turn(self, seat: int) -> None:
        action = self.bots[seat].choose(self.state, seat)
        self.out.print(Text(f"{self.name(seat)} plays: {self.words(action)}", style="cyan"))
        self.state.apply(action)

    def human_turn(self, seat: int) -> Outcome:
        self.show_decision(seat)
        while True:
            self.out.print(f"{escape(self.name(seat))}> ", end="")
            line = self.read_line()
            if not line:
                self.out.print("\nEnd of input: leaving the game.")
                return Outcome.QUIT
            if self.echo:
                self.out.print(Text(line.rstrip("\n")))
            outcome = self.handle(seat, line.strip())
            if outcome is not Outcome.STAY:
                return outcome

    def handle(self, seat: int, line: str) -> Outcome:
        """Act on one line of input; bad input gets a message and changes nothing."""
        if not line:
            self.say("Type a choice number, a move, or help.")
            return Outcome.STAY
        legal = self.state.legal_actions()
        action = _match_action(line, legal)
        if action is not None:
            self.out.print(Text(f"{self.name(seat)} plays: {self.words(action, seat)}", style="green"))
            self.state.apply(action)
            return Outcome.DONE
        word, _, argument = line.partition(" ")
        command = _COMMANDS.get(word.lower())
        if command is None:
            return self.bad_choice(line, legal)
        return command(self, seat, argument.strip())

    def bad_choice(self, line: str, legal: list[Action]) -> Outcome:
        if line.lstrip("-").isdigit():
            self.say(f"There is no choice {line}: pick a number from 1 to {len(legal)}.")
            return Outcome.STAY
        nearest = nearest_action(line, legal)
        seat = self.state.current_player()
        if nearest is None:
            self.say(f"'{line}' is not a legal move now, nor a command. Type help for the commands.")
        else:
            number = legal.index(nearest) + 1
            self.say(f"'{line}' is not a legal move now. Did you mean {number}) {nearest} "
                     f"({self.words(nearest, seat)})? Type {number} or the move; help for the commands.")
        return Outcome.STAY

    # -- commands -----------------------------------------------------------------------------

    def cmd_help(self, seat: int, argument: str) -> Outcome:
        self.out.print(Text(HELP))
        extra = game_help(self.game.name)
        if extra:
            self.out.print(Text(extra))
        hint = decision_hint(self.game.name, self.state.view(seat).get("decision_kind"))
        if hint:
            self.out.print(Text(f"This decision: {hint}", style="bold"))
        return Outcome.STAY

    def cmd_details(self, seat: int, argument: str) -> Outcome:
        details = render_details(self.game.name, self.state.view(seat))
        if details is None:
            self.say(f"{self.game.title} has no long texts: everything is on the table.")
        else:
            self.out.print(details)
        return Outcome.STAY

    def cmd_show(self, seat: int, argument: str) -> Outcome:
        self.show_decision(seat)
        return Outcome.STAY

    def cmd_table(self, seat: int, argument: str) -> Outcome:
        self.out.rule(f"{self.game.title}: the whole table")
        self.out.print(render(self.game.name, self.state.view(seat)))
        return Outcome.STAY

    def cmd_log(self, seat: int, argument: str) -> Outcome:
        lines = log_lines(self.state.view(seat))
        self.out.print(Text("\n".join(lines) if lines else "The log is empty."))
        return Outcome.STAY

    def cmd_undo(self, seat: int, argument: str) -> Outcome:
        if not can_undo(self.state):
            self.say("Nothing to undo: you can only take back your own decisions within your turn.")
            return Outcome.STAY
        taken_back = self.state.record()["actions"][-1]
        try:
            self.state = undo(self.game, self.state)
        except IllegalActionError as error:
            self.say(str(error))
            return Outcome.STAY
        self.out.print(Text(f"Took back: {taken_back}", style="yellow"))
        return Outcome.DONE

    def cmd_save(self, seat: int, argument: str) -> Outcome:
        if not argument:
            self.say("Usage: save FILE")
            return Outcome.STAY
        try:
            Path(argument).write_text(json.dumps(self.saved(), indent=1) + "\n", encoding="utf-8")
        except OSError as error:
            self.say(f"Cannot save to {argument}: {error.strerror or error}")
            return Outcome.STAY
        self.out.print(Text(f"Saved to {argument}. Resume with: eixample play --load {argument}",
                            style="green"), soft_wrap=True)
        return Outcome.STAY

    def cmd_quit(self, seat: int, argument: str) -> Outcome:
        self.out.print("Leaving the game unfinished.")
        return Outcome.QUIT

    # -- display ------------------------------------------------------------------------------

    def show_decision(self, seat: int) -> None:
        """What the decision needs, on a screen of 80 x 24: the compact table, the last moves,
        the decision and its choices (`table` draws the whole table)."""
        view = self.state.view(seat)
        if not has_compact(self.game.name):  # a compact table leaves no line to spare
            self.out.rule(f"{self.game.title}: {self.name(seat)}")
        self.out.print(render_compact(self.game.name, view))
        for line in log_lines(view)[-RECENT_LOG:]:
            self.out.print(Text(line, style="dim"), overflow="ellipsis", no_wrap=True)  # log: all of it
        self.out.print(Text(self.state.describe_decision(), style="bold"))
        self.out.print(render_choices(self.game.name, view, self.state.legal_actions()))

    def show_end(self) -> None:
        names = [self.who(seat) for seat in range(self.state.num_players)]
        self.out.rule(f"{self.game.title}: game over")
        view = self.state.view(None)
        # the whole table where it fits (a wide terminal, a file), else the compact one
        whole = self.out.width >= TABLE_WIDTH
        self.out.print(render(self.game.name, view) if whole else render_compact(self.game.name, view))
        self.out.print(Text(outcome_line(self.state, names), style="bold green"))
        self.out.print(breakdown_table(self.state, names))

    def words(self, action: Action, seat: int | None = None) -> str:
        """`action` in the web app's words, as `seat` sees the table (None: a spectator)."""
        return action_words(self.game.name, action, self.state.view(seat))

    def say(self, message: str) -> None:
        self.out.print(Text(message, style="red"), soft_wrap=True)

    def who(self, seat: int) -> str:
        if self.seats[seat] == SOLO:
            return self.solo_opponent()
        if self.seats[seat] != HUMAN:
            return self.seats[seat]
        return "you" if self.seats.count(HUMAN) == 1 else HUMAN

    def solo_opponent(self) -> str:
        solo = self.state.view(None).get("solo")
        name = solo.get("opponent") if isinstance(solo, dict) else None
        return name if isinstance(name, str) else "solo opponent"

    def name(self, seat: int) -> str:
        return f"{seat_label(seat)} ({self.who(seat)})"

    def saved(self) -> JsonDict:
        return {"format": SAVE_FORMAT, "game": self.game.name, "record": self.state.record(),
                "seats": list(self.seats)}


_COMMANDS: dict[str, Callable[[KeyboardGame, int, str], Outcome]] = {
    "help": KeyboardGame.cmd_help,
    "?": KeyboardGame.cmd_help,
    "show": KeyboardGame.cmd_show,
    "table": KeyboardGame.cmd_table,
    "log": KeyboardGame.cmd_log,
    "details": KeyboardGame.cmd_details,
    "undo": KeyboardGame.cmd_undo,
    "save": KeyboardGame.cmd_save,
    "quit": KeyboardGame.cmd_quit,
    "exit": KeyboardGame.cmd_quit,
    "q": KeyboardGame.cmd_quit,
}


def _match_action(line: str, legal: list[Action]) -> Action | None:
    """The legal action meant by `line`: its number (1-based) or its text (any case/spacing)."""
    if line.isdigit():
        number = int(line)
        return legal[number - 1] if 1 <= number <= len(legal) else None
    wanted = " ".join(line.split()).casefold()
    for action in legal:
        if " ".join(action.split()).casefold() == wanted:
            return action
    return None


def nearest_action(line: str, legal: list[Action]) -> Action | None:
    """The legal action `line` most likely means: the only one ending with it or starting with
    it ("C12" for "place C12"), else the closest text; None when nothing is close."""
    wanted = " ".join(line.split()).casefold()
    texts = {" ".join(action.split()).casefold(): action for action in legal}
    for test in (lambda text: text.endswith(" " + wanted), lambda text: text.startswith(wanted + " "),
                 lambda text: wanted in text.split()):
        found = [action for text, action in texts.items() if test(text)]
        if found:
            return found[0]
    close = difflib.get_close_matches(wanted, list(texts), n=1, cutoff=0.6)
    return texts[close[0]] if close else None


# -- setting up -----------------------------------------------------------------------------------


def parse_seats(entries: list[str], players: int, game: Game | None = None) -> dict[int, str]:
    """`--seat N=WHO` entries (N from 1) as {seat index: 'human' or bot spec}."""
    seats: dict[int, str] = {}
    for entry in entries:
        number, sep, who = entry.partition("=")
        if not sep or not number.strip().isdigit() or not who.strip():
            fail(f"--seat '{entry}': write SEAT=WHO, e.g. --seat 2=mcts or --seat 3=human")
        seat = int(number) - 1
        if not 0 <= seat < players:
            fail(f"--seat '{entry}': seats are numbered 1 to {players}")
        who = who.strip()
        seats[seat] = HUMAN if who.lower() in HUMAN_WORDS else check_bot(who, game)
    return seats


def saved_seats(data: Any, players: int) -> list[str] | None:
    if data is None:
        return None
    if not isinstance(data, list) or len(data) != players or not all(isinstance(s, str) for s in data):
        fail(f"saved game: 'seats' must list {players} players ('human' or a bot spec)")
    return [seat if seat in (HUMAN, SOLO) else check_bot(seat) for seat in data]


def new_state(game: Game, players: int, seed: int, options: dict[str, Any]) -> State:
    try:
        return game.new_game(players, seed, **options)
    except (ValueError, TypeError) as error:
        if players == 1:
            fail(f"cannot set up {game.title} for one player (solo): {error}")
        fail(f"cannot set up {game.title}: {error}")


def player_count(game: Game, players: int | None, solo: bool, difficulty: Difficulty | None) -> int:
    """How many play: 1 with --solo, else --players or the game's default."""
    if solo and players not in (None, 1):
        fail(f"--solo is a one-player game: --players {players} does not go with it")
    count = 1 if solo else default_players(game) if players is None else players
    if difficulty is not None and count != 1:
        fail("--difficulty goes with --solo")
    # a count no game takes is refused here; the game itself explains the others
    return check_players(game, count) if count < 1 else count


def solo_options(count: int, difficulty: Difficulty | None) -> dict[str, Any]:
    """The game options of a solo game: only the difficulty, when one is asked for."""
    return {"difficulty": difficulty.value} if count == 1 and difficulty is not None else {}


def _stdin_line() -> str:
    return sys.stdin.readline()


def play_command(
    game_name: Annotated[str | None, typer.Option("--game", help=GAME_HELP)] = None,
    players: Annotated[int | None, typer.Option(
        help="Number of players (default: 2, or 1 with --solo).")] = None,
    seat: Annotated[list[str] | None, typer.Option(
        help="SEAT=WHO: who plays seat SEAT (numbered from 1): 'human', a bot spec or a level "
             "(beginner, intermediate, strong, strongest). Repeatable.",
    )] = None,
    opponent: Annotated[str, typer.Option(
        help="Bot spec or level for the seats after the first that --seat does not assign.")] = "greedy",
    load: Annotated[Path | None, typer.Option(
        help="Resume a game saved with 'save FILE' (or any record).")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed of a new game (default: random).")] = None,
    solo: Annotated[bool, typer.Option(
        help="Play alone (one player), against the game's own solo opponent.")] = False,
    difficulty: Annotated[Difficulty | None, typer.Option(
        help="Solo difficulty (default: the game's own).")] = None,
) -> None:
    """Play at the keyboard against bots or friends. Type help at the prompt for the commands."""
    if load is not None:
        if players is not None or seed is not None or solo or difficulty is not None:
            fail("--load resumes a saved game: --players, --seed, --solo and --difficulty do not apply")
        game, state, stored = _resume(load, game_name)
    else:
        game = load_game(game_name)
        count = player_count(game, players, solo, difficulty)
        options = solo_options(count, difficulty)
        state = new_state(game, count, secrets.randbelow(2**31) if seed is None else seed, options)
        stored = None
    solo_game = state.record()["players"] == 1  # the game seats its own opponent(s)
    opponent = check_bot(opponent, game)
    seats = stored or [HUMAN] + [SOLO if solo_game else opponent] * (state.num_players - 1)
    for index, who in parse_seats(seat or [], state.num_players, game).items():
        if seats[index] == SOLO:
            fail(f"--seat {index + 1}: that seat is the solo opponent, played by the game")
        seats[index] = who
    KeyboardGame(game, state, seats, console(), _stdin_line, echo=not sys.stdin.isatty()).run()


def _resume(path: Path, game_name: str | None) -> tuple[Game, State, list[str] | None]:
    game, record, seats = game_file(read_json(path), game_name)
    state = replay_or_fail(game, record)
    return game, state, saved_seats(seats, state.num_players)
