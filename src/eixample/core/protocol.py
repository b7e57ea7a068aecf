"""The Game/State protocol every game on the platform implements.

Server, bots and command line speak only this protocol. A decision is one action: a short,
stable, human-readable string ("place C12", "order M/W", "build L2 B6"). `legal_actions()` lists
them; `apply()` takes one of them and mutates the state in place; `clone()` copies a state cheaply
so that bots can search.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from eixample.core.observation import ObservationSpec

from eixample.core.messages import english

Action = str
"""An action is its own stable text form."""

TERMINAL = -1
"""`current_player()` of a finished game."""

JsonDict = dict[str, Any]


@runtime_checkable
class State(Protocol):
    """A game in progress. Mutated in place by `apply`; copied by `clone`."""

    @property
    def num_players(self) -> int: ...

    def current_player(self) -> int:
        """The seat (0-based) that decides now, or TERMINAL when the game is over."""
        ...

    def legal_actions(self) -> list[Action]:
        """Every action the current player may take now. Never empty before the end."""
        ...

    def apply(self, action: Action) -> None:
        """Apply one legal action. An illegal or malformed action raises IllegalActionError
        and leaves the state unchanged."""
        ...

    def clone(self) -> State: ...

    def is_terminal(self) -> bool: ...

    def scores(self) -> list[int]:
        """Victory points of each seat, final scoring included once the game is over."""
        ...

    def winners(self) -> list[int]:
        """Seats sharing the victory (after tie-breakers); empty before the end."""
        ...

    def score_breakdown(self) -> list[dict[str, int]]:
        """Per seat, victory points by source. Values sum to `scores()`."""
        ...

    def evaluation(self) -> list[float]:
        """Per seat, a game-specific estimate of final victory points from here: current points
        plus a value for resources, track positions and scoring still to come. Bots use it to
        judge positions without knowing the game."""
        ...

    def describe_decision(self) -> str:
        """The pending decision in words, for people."""
        ...

    def evaluations_after(self, actions: Sequence[Action]) -> list[list[float]] | None:
        """`evaluation()` after each of `actions` (the whole legal list), as copies with each
        action applied would give it, computed without the copies; or None where the game has
        no such shortcut for the pending decision (then bots copy and apply)."""
        ...

    def stage(self) -> int:
        """A count that grows at each of the game's checkpoints (a phase or round begun): where
        it changes, what the checkpoint hands out is known. Searches may end rollouts there."""
        ...

    def win_estimate(self) -> list[float] | None:
        """Each seat's learned chance to win from here (summing to 1), or None for a game or
        position without a learned model: then bots judge by `evaluation()`."""
        ...

    def decision_message(self) -> Any:
        """The pending decision as clients render it: a structured entry {"key", "args"} rendered
        through the message catalogs (docs/formats.md), or a plain text for a game without them."""
        ...

    def view(self, player: int | None) -> JsonDict:
        """JSON-ready view of the table for one seat, or for a spectator (None). Contains nothing
        that seat may not know."""
        ...

    def record(self) -> JsonDict:
        """The game record: game name, players, seed, options and actions in text form."""
        ...

    def to_json(self) -> JsonDict:
        """The complete state, hidden parts included (for saving, never for a player)."""
        ...

    def resample(self, player: int, rng_seed: int) -> State:
        """A state whose `view(player)` equals this one's, with every hidden part (opponents'
        hands, bag order, face-down stacks, future chance) drawn afresh from what `player` can
        know, using `rng_seed`."""
        ...

    def write_observation(self, player: int, out: Any) -> None:
        """Write `player`'s structured observation into `out`, a float32 numpy vector laid out as
        `Game.observation_spec` says: exactly what `view(player)` shows but the log, as numbers,
        and nothing that seat may not know (research games only)."""
        ...

    def undo_floor(self) -> int:
        """How many actions of the record can never be undone: the count up to and including
        the last random draw or decision of another seat."""
        ...


class Game(Protocol):
    """A game on the platform: creates, replays and restores states."""

    name: str
    title: str
    min_players: int
    max_players: int
    speed_ratio: float
    """The least ratio of random-playout decisions/s to OpenSpiel's python_tic_tac_toe moves/s
    this game's engine is held to (`eixample bench`)."""

    def new_game(self, players: int, seed: int, **options: Any) -> State: ...

    def replay(self, record: JsonDict) -> State: ...

    def from_json(self, data: JsonDict) -> State: ...

    def option_names(self) -> list[str]:
        """Options `new_game` accepts besides players and seed."""
        ...

    def switch_options(self) -> list[str]:
        """Those of `option_names()` that are true or false (the lobby shows a checkbox)."""
        ...

    def option_choices(self, players: int) -> dict[str, list[str | int]]:
        """Those of `option_names()` whose value is one of a few, with the values each may take
        in a game of `players` (the lobby shows a menu; an option left out is not offered for
        that many players)."""
        ...

    def option_ranges(self, players: int) -> dict[str, tuple[int, int]]:
        """Those of `option_names()` that are a whole number, with the least and greatest each may
        be in a game of `players` (the lobby shows a number field; an option left out is not
        offered for that many players)."""
        ...

    def bot_levels(self) -> dict[str, str]:
        """The bot levels offered for this game, weakest first: plain names ("beginner", ...)
        each mapped to a bot spec measured for this game; empty for the platform's default
        levels (`eixample.ai.specs.LEVELS`)."""
        ...

    def all_actions(self, players: int, **options: Any) -> list[str]:
        """Every action text that can ever be legal in a game with these options, in a fixed
        order: the global action numbering of the research interfaces (`eixample.interop`)."""
        ...

    def rules_versions(self) -> list[int]:
        """The game's rules versions, oldest first. With more than one, `new_game` takes the
        option `rules` (the newest when left out) and every state's options include it; a game
        made before versions is matched to its rules (`eixample.core.versions`)."""
        ...


    def observation_spec(self, players: int, **options: Any) -> ObservationSpec:
        """The named parts of `State.write_observation`'s vector in a game with these options
        (see `eixample.core.observation`). A research game may also offer
        `write_observations(states, player, out)`: `player`'s observations of many states of one
        table at once, row `i` of `out` exactly what `states[i].write_observation(player, row)`
        writes (`eixample.interop.encoding.Observer.write_batch` uses it, else writes row by row)."""
        ...


class StateDefaults:
    """What a state may leave out of the protocol, for a game to inherit: the decision described
    in English from its `decision_message()`, no shortcut for evaluations after actions, no
    learned win estimate, no stages."""

    __slots__ = ()

    def decision_message(self) -> Any:
        raise NotImplementedError

    def describe_decision(self) -> str:
        return english(self.decision_message())

    def evaluations_after(self, actions: Sequence[Action]) -> list[list[float]] | None:
        """No shortcut unless the game has one."""
        return None

    def win_estimate(self) -> list[float] | None:
        """No learned model unless the game has one."""
        return None

    def stage(self) -> int:
        """No checkpoints unless the game has them."""
        return 0
