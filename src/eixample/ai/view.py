"""What a bot sees of the game: one seat's view, never the real state.

A `PlayerView` is the only object bot code receives. It answers the questions a seated player may
ask (the table as that seat sees it, the legal choices, who decides, the decision in words) and
deals determinizations: states drawn afresh from what that seat can know, via `resample`. The live
state and the seat sit in a private side table keyed by the view, not in any attribute, so a bot
can neither reach the state nor change seats by attribute access; and a view stops answering once
its decision is over.
"""

from __future__ import annotations

import copy
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from eixample.core.protocol import Action, JsonDict, State

_LIVE: weakref.WeakKeyDictionary[PlayerView, tuple[State, int]] = weakref.WeakKeyDictionary()


class ClosedViewError(RuntimeError):
    """A view used after the decision it was dealt for."""


class PlayerView:
    """One seat's window on a game, valid for one decision."""

    __slots__ = ("__weakref__",)

    def __init__(self, state: State, player: int) -> None:
        _LIVE[self] = (state, player)

    @property
    def player(self) -> int:
        """The seat this view belongs to."""
        return _backing(self)[1]

    @property
    def num_players(self) -> int:
        return _backing(self)[0].num_players

    def view(self) -> JsonDict:
        """The table as this seat sees it (a copy)."""
        state, player = _backing(self)
        return copy.deepcopy(state.view(player))

    def shows(self, view: JsonDict) -> bool:
        """True when the table as this seat sees it is exactly `view`: `view() == view` without
        the copy (a search asks this once per decision)."""
        state, player = _backing(self)
        return bool(state.view(player) == view)

    def legal_actions(self) -> list[Action]:
        return list(_backing(self)[0].legal_actions())

    def write_observation(self, out: Any) -> None:
        """The table as this seat sees it as the game's structured observation (a float32 vector
        of `Game.observation_spec`'s size, written into `out`): the same knowledge as `view()`."""
        state, player = _backing(self)
        state.write_observation(player, out)

    def current_player(self) -> int:
        return _backing(self)[0].current_player()

    def describe_decision(self) -> str:
        return _backing(self)[0].describe_decision()

    def resample(self, seed: int) -> State:
        """A determinization: a fresh state consistent with this seat's view, its hidden parts
        drawn with `seed`. The bot may search it freely; it is not the real game."""
        state, player = _backing(self)
        return state.resample(player, seed)

    def close(self) -> None:
        """End the decision: the view answers nothing more."""
        _LIVE.pop(self, None)

    def __repr__(self) -> str:
        return "PlayerView(closed)" if self not in _LIVE else f"PlayerView(player={self.player})"


def _backing(view: PlayerView) -> tuple[State, int]:
    try:
        return _LIVE[view]
    except KeyError:
        raise ClosedViewError("this view belongs to a decision that is over") from None


@contextmanager
def player_view(state: State, player: int) -> Iterator[PlayerView]:
    """A view of `state` for `player`, closed when the block ends."""
    view = PlayerView(state, player)
    try:
        yield view
    finally:
        view.close()
