"""Games between bots: seating, seeding and playing one game to the end."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from eixample.ai.base import Bot
from eixample.ai.specs import make_bot
from eixample.core.protocol import Action, Game, JsonDict, State
from eixample.core.registry import get_game
from eixample.core.rng import splitmix64

MAX_ACTIONS = 100_000
"""A game longer than this is taken for a game that never ends."""

_MASK = (1 << 64) - 1

Observer = Callable[[State, int, Action], None]


def derive_seed(*parts: int) -> int:
    """A 63-bit seed mixed from integers (a game seed and a seat, say)."""
    mixed = 0
    for part in parts:
        mixed = splitmix64(mixed ^ (part & _MASK))[1]
    return mixed >> 1


def lineup(specs: Sequence[str], players: int, game_index: int) -> tuple[str, ...]:
    """The bots of game `game_index`: seat s plays specs[(game_index + s) % len(specs)], so seats
    rotate from game to game."""
    return tuple(specs[(game_index + seat) % len(specs)] for seat in range(players))


def play_out(state: State, bots: Sequence[Bot], observer: Observer | None = None) -> State:
    """Let the bots play `state` to the end (in place); `observer` sees each action before it
    is applied."""
    for _ in range(MAX_ACTIONS):
        if state.is_terminal():
            return state
        seat = state.current_player()
        action = bots[seat].choose(state, seat)
        if observer is not None:
            observer(state, seat, action)
        state.apply(action)
    raise RuntimeError(f"the game did not end within {MAX_ACTIONS} actions")


@dataclass(frozen=True)
class MatchTask:
    """One game to play: everything needed, and picklable for worker processes."""

    game: str
    seed: int
    bots: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)

    def bot_seed(self, seat: int) -> int:
        return derive_seed(self.seed, seat)


@dataclass(frozen=True)
class MatchResult:
    bots: tuple[str, ...]
    record: JsonDict
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    breakdown: tuple[dict[str, int], ...]

    def line(self) -> JsonDict:
        """The JSON Lines form: the record plus who sat where and how it ended."""
        return {"record": self.record, "bots": list(self.bots), "scores": list(self.scores),
                "winners": list(self.winners)}


def new_state(game: Game, task: MatchTask) -> State:
    return game.new_game(len(task.bots), task.seed, **task.options)


Sample = TypeVar("Sample")


def sampled_positions(task: MatchTask, take: Callable[[State], Sample], every: int,
                      first: int = 0) -> tuple[list[Sample], State]:
    """Play `task` out with its bots and keep `take(position)` of the positions before decisions
    `first`, `first + every`, ... (counted from 0): the examples of a training's self-play, with
    the finished game."""
    positions: list[Sample] = []
    decisions = iter(range(MAX_ACTIONS))

    def observe(position: State, seat: int, action: Action) -> None:
        number = next(decisions)
        if number >= first and (number - first) % every == 0:
            positions.append(take(position))

    bots = [make_bot(spec, task.bot_seed(seat)) for seat, spec in enumerate(task.bots)]
    return positions, play_out(new_state(get_game(task.game), task), bots, observe)


def play_match(task: MatchTask) -> MatchResult:
    """Play one game between bots and sum it up. Runs in worker processes."""
    game = get_game(task.game)
    bots = [make_bot(spec, task.bot_seed(seat)) for seat, spec in enumerate(task.bots)]
    state = play_out(new_state(game, task), bots)
    return MatchResult(bots=task.bots, record=state.record(), scores=tuple(state.scores()),
                       winners=tuple(state.winners()), breakdown=tuple(state.score_breakdown()))
