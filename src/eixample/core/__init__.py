"""Game-agnostic core: the Game/State protocol, seeded RNG, records and replay."""

from eixample.core.errors import IllegalActionError, MalformedRecordError
from eixample.core.protocol import TERMINAL, Action, Game, State
from eixample.core.rng import Rng

__all__ = ["TERMINAL", "Action", "Game", "IllegalActionError", "MalformedRecordError", "Rng", "State"]
