"""Judging positions without knowing the game: margins, outcomes and rewards in [0, 1]."""

from __future__ import annotations

import math
from collections.abc import Sequence

from eixample.core.protocol import Action, State

NORMS = ("minmax", "rank", "sigmoid")
"""How a rollout's `evaluation()` becomes rewards in [0, 1]:
- minmax: each seat's place between the worst (0) and the best (1) estimate;
- rank: the share of opponents the seat is ahead of (ties count half);
- sigmoid: the logistic of the margin over the best opponent, divided by `scale`."""


def margin(values: Sequence[float], me: int) -> float:
    """`me`'s value minus the best opponent's (minus nothing when playing alone)."""
    others = [value for seat, value in enumerate(values) if seat != me]
    return values[me] - (max(others) if others else 0.0)


def after(state: State, action: Action) -> State:
    """A copy of `state` with `action` applied (`state` is left as it is)."""
    following = state.clone()
    following.apply(action)
    return following


def margins_after(state: State, actions: Sequence[Action], me: int) -> list[float]:
    """`me`'s evaluation margin one step after each of `actions` (applied to copies of `state`,
    unless the game's `evaluations_after` gives the same values without them)."""
    values = state.evaluations_after(actions)
    if values is None:
        values = [after(state, action).evaluation() for action in actions]
    return [margin(value, me) for value in values]


def follow_forced(state: State, mover: int) -> list[Action] | None:
    """Apply `mover`'s forced moves (a single legal action) to `state` in place. The legal actions
    of `mover`'s next real decision; None once the game is over or another seat decides."""
    while not state.is_terminal() and state.current_player() == mover:
        actions = state.legal_actions()
        if len(actions) > 1:
            return actions
        state.apply(actions[0])
    return None


def outcome(state: State) -> list[float]:
    """Reward vector of a finished game: the winners share 1, everyone else gets 0."""
    winners = state.winners()
    share = 1.0 / len(winners) if winners else 0.0
    return [share if seat in winners else 0.0 for seat in range(state.num_players)]


def normalise(values: Sequence[float], norm: str, scale: float) -> list[float]:
    """Rewards in [0, 1] from per-seat estimates, by the method `norm` (one of NORMS)."""
    if norm == "sigmoid" or len(values) < 2:
        return [_logistic(margin(values, seat) / scale) for seat in range(len(values))]
    if norm == "rank":
        return [_rank_share(values, seat) for seat in range(len(values))]
    if norm == "minmax":
        return _minmax(values)
    raise ValueError(f"unknown normalisation '{norm}' (known: {', '.join(NORMS)})")


def _logistic(x: float) -> float:
    if x < -60:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def _rank_share(values: Sequence[float], me: int) -> float:
    ahead = sum(1.0 if values[me] > v else 0.5 if values[me] == v else 0.0
                for seat, v in enumerate(values) if seat != me)
    return ahead / (len(values) - 1)


def _minmax(values: Sequence[float]) -> list[float]:
    low, high = min(values), max(values)
    if high - low < 1e-12:
        return [0.5] * len(values)
    return [(value - low) / (high - low) for value in values]
