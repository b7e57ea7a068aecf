"""A position estimate for bots: each player's VP plus what their position is worth.

It values resources and track positions, and counts the end-game scoring (cobblestones,
passengers, Modernisme tiles) and the Cerdà Scorings still to come as they would score now.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from eixample.games.barcelona import scoring

if TYPE_CHECKING:
    from eixample.games.barcelona.state import BarcelonaState

COIN = 1.0
CLOTH = 1.5
SAGRADA_STEP = 1.0
INTERSECTION = 2.0
CITIZEN_IN_HAND = 1.0


def evaluate(s: BarcelonaState) -> list[float]:
    if s.ended:
        return [float(v) for v in s.vp]
    t = s.t
    values: list[float] = []
    pending = [tile for k, tile in enumerate(s.cerda_tiles) if not s.cerda_scored[k]]
    progress = s.turns / max(1, s.n * 11)
    for p in range(s.n):
        value = float(s.vp[p])
        value += COIN * s.coins[p] + CLOTH * s.cloth[p]
        value += SAGRADA_STEP * s.sagrada[p] + INTERSECTION * s.inters[p] * (1.0 - progress)
        value += CITIZEN_IN_HAND * len(s.hands[p])
        value += t.cobblestone_vp[s.cobbles[p]] + t.passenger_vp[s.passengers[p]]
        value += scoring.modernisme_vp(s, p)
        for tile in pending:
            value += scoring.cerda_tile_vp(s, tile, p)
        values.append(value)
    return values
