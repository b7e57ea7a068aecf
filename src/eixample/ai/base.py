"""The bot interface: a bot decides from a `PlayerView`, never from the real state."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import final

from eixample.ai.view import PlayerView, player_view
from eixample.core.errors import EixampleError
from eixample.core.protocol import Action, State
from eixample.core.rng import Rng


class BotError(EixampleError, RuntimeError):
    """A bot asked to decide out of turn, or answering with an action that is not legal."""


class Bot(ABC):
    """A seated player driven by code. Deterministic given its seed (with an iteration budget)."""

    def __init__(self, spec: str, seed: int) -> None:
        self.spec = spec
        self.seed = seed
        self.rng = Rng(seed)

    @final
    def choose(self, state: State, player: int) -> Action:
        """The action `player` takes in `state`. The bot's own code sees only a `PlayerView`."""
        if state.current_player() != player:
            raise BotError(f"bot '{self.spec}' asked to decide for seat {player}, but seat "
                           f"{state.current_player()} is to decide")
        with player_view(state, player) as view:
            action = self.decide(view)
        if action not in state.legal_actions():
            raise BotError(f"bot '{self.spec}' chose '{action}', which is not legal")
        return action

    @abstractmethod
    def decide(self, view: PlayerView) -> Action:
        """Pick one of `view.legal_actions()`."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.spec!r}, seed={self.seed})"
