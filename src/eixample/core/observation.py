"""The layout of a game's structured observation: a flat vector of named parts.

A game that offers observations for learning (`Game.observation_spec`, `State.write_observation`)
describes its vector here: each part has a name, a place in the vector, a shape, the least and
greatest value any entry may take, and a meaning. The vector is written in place by the game's
encoder (numpy lives there, not here: the engine itself never needs it). `docs/research.md` shows
the parts of every game, printed by `python -m eixample.interop.encoding --markdown`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from math import prod


@dataclass(frozen=True)
class Part:
    """One named part of an observation vector: entries `start` to `stop` (exclusive), read as an
    array of `shape` in row-major order."""

    name: str
    start: int
    shape: tuple[int, ...]
    low: float
    high: float
    meaning: str
    seat_axis: int | None = None
    """The axis along which the part goes seat by seat, the observer first (None: not by seat)."""
    seat_start: int = 0
    """Where the seats begin along that axis (entries before and after are not by seat)."""

    @cached_property
    def size(self) -> int:
        return prod(self.shape)

    @cached_property
    def stop(self) -> int:
        return self.start + self.size

    @property
    def slice(self) -> slice:
        return slice(self.start, self.stop)


@dataclass(frozen=True)
class ObservationSpec:
    """The parts of one game's observation for a number of players, in order, back to back."""

    game: str
    players: int
    parts: tuple[Part, ...]

    @cached_property
    def size(self) -> int:
        return self.parts[-1].stop if self.parts else 0

    def part(self, name: str) -> Part:
        for part in self.parts:
            if part.name == name:
                return part
        raise KeyError(f"no part {name!r} in the {self.game} observation")

    def names(self) -> list[str]:
        return [part.name for part in self.parts]

    def bounds(self) -> tuple[list[float], list[float]]:
        """Per entry, the least and the greatest value (for a Gymnasium Box)."""
        low: list[float] = []
        high: list[float] = []
        for part in self.parts:
            low += [part.low] * part.size
            high += [part.high] * part.size
        return low, high


class SpecBuilder:
    """Lays parts out one after the other."""

    def __init__(self, game: str, players: int):
        self.game = game
        self.players = players
        self.parts: list[Part] = []
        self.size = 0

    def add(self, name: str, shape: tuple[int, ...], meaning: str, high: float = 1.0, low: float = 0.0,
            seat_axis: int | None = None, seat_start: int = 0) -> int:
        """Append a part; its first entry's index."""
        part = Part(name, self.size, shape, low, high, meaning, seat_axis, seat_start)
        self.parts.append(part)
        self.size = part.stop
        return part.start

    def build(self) -> ObservationSpec:
        return ObservationSpec(self.game, self.players, tuple(self.parts))
