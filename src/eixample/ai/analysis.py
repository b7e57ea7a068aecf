"""The coach: win probabilities, the bot's preferred choices and the cost of each move played.

Everything here searches from one seat's view (through `player_view`), like a bot at that seat,
so a hint computed for a player never uses what that player may not know. Rewards of the search
(the winners' share of 1 at the end of a game, else the logistic of the evaluation margin) are
read as win probabilities after scaling them to sum to 1.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace

from eixample.ai.match import derive_seed
from eixample.ai.mcts import ActionEstimate, MctsBot, MctsSettings
from eixample.ai.scoring import after, outcome
from eixample.ai.specs import EXPERT
from eixample.ai.view import player_view
from eixample.core.protocol import Action, Game, JsonDict, State
from eixample.core.records import replay

COACH_SETTINGS = replace(EXPERT, iterations=400, reuse=False)
"""The default search of one analysed decision: the expert bot's, at 400 iterations."""


@dataclass(frozen=True)
class Choice:
    """One legal action with its estimated win probability for every seat."""

    action: Action
    win_probability: list[float]
    visits: int


@dataclass(frozen=True)
class MoveNote:
    """One decision of a game: who decided, what was played, what the bot prefers, and how
    much win probability the move played gave away (0 when it is the bot's choice)."""

    move: int
    seat: int
    action: Action
    win_probability: list[float]
    best: Action
    loss: float

    def to_json(self) -> JsonDict:
        return {"move": self.move, "seat": self.seat, "action": self.action,
                "win_probability": [round(p, 4) for p in self.win_probability],
                "best": self.best, "loss": round(self.loss, 4)}


def win_probabilities(rewards: Sequence[float]) -> list[float]:
    """Per-seat rewards scaled to sum to 1 (equal shares when they are all zero)."""
    total = sum(rewards)
    if total <= 0:
        return [1.0 / len(rewards)] * len(rewards)
    return [reward / total for reward in rewards]


def rank_choices(state: State, seat: int, settings: MctsSettings = COACH_SETTINGS,
                 seed: int = 0) -> list[Choice]:
    """Every legal action of `seat`'s decision in `state`, best first, with win probabilities,
    searched from `seat`'s view only. `seat` must be the seat to decide."""
    if state.is_terminal() or state.current_player() != seat:
        raise ValueError(f"seat {seat} has no decision to take here")
    bot = MctsBot("coach", seed, settings)
    with player_view(state, seat) as view:
        estimates = bot.estimates(view)
        unexplored = [estimate.action for estimate in estimates if estimate.visits == 0]
        judged = {action: _judge_once(view.resample(bot.rng.next_u64()), action, bot)
                  for action in unexplored}
    return [_choice(estimate, judged) for estimate in estimates]


def top_actions(state: State, seat: int, k: int = 3, settings: MctsSettings = COACH_SETTINGS,
                seed: int = 0) -> list[Choice]:
    """The bot's `k` preferred actions for `seat`'s decision, with win probabilities (a hint)."""
    return rank_choices(state, seat, settings, seed)[:k]


def _judge_once(world: State, action: Action, bot: MctsBot) -> list[float]:
    """The reward of one determinization after `action`, for actions the search never tried."""
    world.apply(action)
    return bot.reward(world)


def _choice(estimate: ActionEstimate, judged: dict[Action, list[float]]) -> Choice:
    rewards = judged.get(estimate.action, estimate.rewards)
    return Choice(estimate.action, win_probabilities(rewards), estimate.visits)


Progress = Callable[[int, int], None]


def position_value(state: State, seat: int, settings: MctsSettings = COACH_SETTINGS,
                   seed: int = 0) -> list[float]:
    """Each seat's win probability in `state`, as `seat` can judge it from its own view (the
    outcome itself once the game is over)."""
    bot = MctsBot("coach", seed, settings)
    if state.is_terminal():
        return win_probabilities(outcome(state))
    with player_view(state, seat) as view:
        return win_probabilities(bot.position_value(view))


def positions(game: Game, record: JsonDict) -> Iterator[tuple[int, State]]:
    """Every position of a recorded game, from the setup (0) to the end (one per action played
    more): its number and the state, one object moved on after each step (do not change it).
    Raises MalformedRecordError for a record that does not replay, at once."""
    replay(game, record)  # checks every action before the long work starts
    return _walk(replay(game, record, upto=0), list(record["actions"]))


def _walk(state: State, actions: list[Action]) -> Iterator[tuple[int, State]]:
    yield 0, state
    for move, action in enumerate(actions):
        state.apply(action)
        yield move + 1, state


def analyse_game(game: Game, record: JsonDict, settings: MctsSettings = COACH_SETTINGS, seed: int = 0,
                 progress: Progress | None = None) -> list[MoveNote]:
    """A note for every decision of a recorded game. Raises MalformedRecordError for a record
    that does not replay. `progress(done, total)` is called after each decision."""
    walk = positions(game, record)
    actions: list[Action] = list(record["actions"])
    notes = []
    for move, state in walk:
        if move == len(actions):
            break
        notes.append(judge_move(state, actions[move], move, settings, derive_seed(seed, move)))
        if progress is not None:
            progress(move + 1, len(actions))
    return notes


@dataclass(frozen=True)
class CurvePoint:
    """Each seat's win probability at one position of a game (before decision `move`; the last
    point, after every decision, is the outcome), judged from the deciding seat's view."""

    move: int
    win_probability: list[float]

    def as_json(self) -> JsonDict:
        return {"move": self.move, "win_probability": [round(p, 4) for p in self.win_probability]}


def win_probability_curve(game: Game, record: JsonDict, settings: MctsSettings = COACH_SETTINGS,
                          seed: int = 0, moves: Sequence[int] | None = None,
                          progress: Progress | None = None) -> list[CurvePoint]:
    """Each seat's win probability along a recorded game: one point per position (0 to the
    number of actions), or only at the positions `moves`, each searched from the view of the
    seat deciding there with `settings` (the budget of one point) and a seed of its own, so a
    part of the curve computed alone equals the same part of the whole. Raises
    MalformedRecordError for a record that does not replay."""
    walk = positions(game, record)
    wanted = None if moves is None else set(moves)
    total = len(record["actions"]) + 1 if wanted is None else len(wanted)
    points = []
    for move, state in walk:
        if wanted is not None and move not in wanted:
            continue
        seat = 0 if state.is_terminal() else state.current_player()
        points.append(CurvePoint(move, position_value(state, seat, settings, derive_seed(seed, move))))
        if progress is not None:
            progress(len(points), total)
    return points


def judge_move(state: State, action: Action, move: int, settings: MctsSettings = COACH_SETTINGS,
               seed: int = 0) -> MoveNote:
    """The note of one decision: the search picks its preferred action; then the positions
    after it and after the action played (if different) are each searched with the same
    budget and compared. Both follow from one determinization of what the deciding seat knew,
    so neither uses a draw that seat could not foresee."""
    seat = state.current_player()
    best = rank_choices(state, seat, settings, seed)[0].action
    world = state.resample(seat, derive_seed(seed, 1))
    after_best = position_value(after(world, best), seat, settings, derive_seed(seed, 2))
    if action == best:
        return MoveNote(move, seat, action, after_best, best, 0.0)
    after_played = position_value(after(world, action), seat, settings, derive_seed(seed, 3))
    loss = max(0.0, after_best[seat] - after_played[seat])
    return MoveNote(move, seat, action, after_best, best, loss)


def biggest_mistakes(notes: Sequence[MoveNote], count: int = 10, at_least: float = 0.01) -> list[MoveNote]:
    """The moves that gave away the most win probability (at least `at_least`), worst first."""
    mistakes = [note for note in notes if note.loss >= at_least]
    return sorted(mistakes, key=lambda note: (-note.loss, note.move))[:count]
