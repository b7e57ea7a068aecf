"""Observations for the research interfaces: each game's structured encoding, as numpy vectors.

A game that provides `Game.observation_spec` writes its own lossless observation
(`State.write_observation`, e.g. `games/barcelona/observation.py`); `Observer` puts it in a
float32 vector. A game without one falls back on the hashed encoding of its view
(`table.encode_view`, lossy), so every research game still plugs in.

    python -m eixample.interop.encoding --markdown     # the parts of every game (docs/research.md)
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

from eixample.core.observation import ObservationSpec, SpecBuilder
from eixample.core.protocol import Game, State
from eixample.interop.table import OBSERVATION_SIZE, GameTable, encode_view, research_games

Vector = npt.NDArray[np.float32]
Writer = Callable[[State, int, Vector], None]
BatchWriter = Callable[[Sequence[State], int, Vector], None]


def _write_hashed(state: State, player: int, out: Vector) -> None:
    out[:] = encode_view(state.view(player))


def game_spec(game: Game, players: int, **options: Any) -> ObservationSpec:
    """The game's observation parts, or the single part of the hashed fallback."""
    if callable(getattr(game, "observation_spec", None)):
        return game.observation_spec(players, **options)
    builder = SpecBuilder(game.name, players)
    builder.add(
        "hashed_view",
        (OBSERVATION_SIZE,),
        "the view, feature-hashed (`table.encode_view`)",
        low=-1e9,
        high=1e9,
    )
    return builder.build()


@dataclass(frozen=True)
class Observer:
    """Writes one table's observations: `spec` names the parts, `write(state, player, out)` fills a
    float32 vector of `spec.size` in place, `observe(state, player)` returns a fresh one, and
    `write_batch(states, player, out)` fills the rows of a float32 array, one per state."""

    spec: ObservationSpec
    write: Writer
    low: Vector
    high: Vector
    write_many: BatchWriter | None = None
    """The game's own writer of many states at once (`write_observations`), if it has one."""

    @classmethod
    def of(cls, table: GameTable) -> Observer:
        game = table.game
        spec = game_spec(game, table.players, **table.options)
        structured = callable(getattr(game, "observation_spec", None))
        writer: Writer = _write_state if structured else _write_hashed
        many = getattr(game, "write_observations", None) if structured else None
        low, high = spec.bounds()
        return cls(spec, writer, np.array(low, np.float32), np.array(high, np.float32),
                   many if callable(many) else None)

    def write_batch(self, states: Sequence[State], player: int, out: Vector) -> None:
        """`player`'s observations of `states` (positions at this table) into the rows of `out`,
        a float32 array of `len(states)` rows: in one call where the game writes many at once
        (with numpy over the whole batch: far cheaper per state than one call each), else row by
        row. Either way row `i` is what `write(states[i], player, row)` writes."""
        if out.shape != (len(states), self.spec.size):
            raise ValueError(f"{len(states)} observations of {self.spec.size} entries do not fit an "
                             f"array of shape {out.shape}")
        if self.write_many is not None:
            self.write_many(states, player, out)
            return
        for i, state in enumerate(states):
            self.write(state, player, out[i])

    @cached_property
    def size(self) -> int:
        return self.spec.size

    def observe(self, state: State, player: int) -> Vector:
        out = np.empty(self.spec.size, np.float32)
        self.write(state, player, out)
        return out

    def parts(self, vector: Vector) -> dict[str, Vector]:
        """The vector split into its named parts, each in its shape (views, not copies)."""
        return {part.name: vector[part.slice].reshape(part.shape) for part in self.spec.parts}

    def __deepcopy__(self, memo: dict[int, Any]) -> Observer:
        return self  # immutable, shared by every copy of an environment or state


def _write_state(state: State, player: int, out: Vector) -> None:
    state.write_observation(player, out)


def markdown(spec: ObservationSpec) -> str:
    """A table of the parts: index range, shape, bounds and meaning."""
    lines = ["| part | entries | shape | values | meaning |", "|---|---|---|---|---|"]
    for part in spec.parts:
        shape = " x ".join(str(d) for d in part.shape)
        values = "0 or 1" if (part.low, part.high) == (0, 1) else f"{part.low:g} to {part.high:g}"
        lines.append(
            f"| `{part.name}` | {part.start}-{part.stop - 1} | {shape} | {values} | {part.meaning} |"
        )
    return "\n".join(lines)


def _player_counts(game: Game) -> list[int]:
    return list(range(game.min_players, game.max_players + 1))


def main(argv: list[str] | None = None) -> None:
    from eixample.core.registry import get_game

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--markdown", action="store_true", help="print the parts of every game as tables")
    parser.parse_args(argv)
    for name in research_games():
        game = get_game(name)
        specs = {players: game_spec(game, players) for players in _player_counts(game)}
        shown = max(2, game.min_players) if game.max_players >= 2 else game.min_players
        sizes = ", ".join(f"{players} player{'s' if players > 1 else ''}: {spec.size}"
                          for players, spec in specs.items())
        print(f"### {game.title} (entries: {sizes})\n")
        print(f"Shown for {shown} players: a part by seat has a row per seat, the observer's first.\n")
        print(markdown(specs[shown]))
        for players, spec in specs.items():
            extra = [part for part in spec.parts if part.name not in specs[shown].names()]
            if extra:
                print(f"\nWith {players} player{'s' if players > 1 else ''}, also:\n")
                print(markdown(ObservationSpec(spec.game, players, tuple(extra))))
        print()


if __name__ == "__main__":
    main()
