"""A position estimate for bots: each player's VP plus what their position is worth.

It values resources and track positions, counts the end-game scoring (cobblestones, passengers,
Modernisme tiles) and the Cerdà Scorings still to come as they would score now, and credits
what keeps paying (Intersections, Modernisme tiles) by the share of the game still to play.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from eixample.games.barcelona import scoring

if TYPE_CHECKING:
    from eixample.games.barcelona.state import BarcelonaState

COIN = 1.5
CLOTH = 1.6
SAGRADA_STEP = 1.0
INTERSECTION_PER_OPPONENT = 1.5
CITIZEN_IN_HAND = 1.0
MODERNISME_GROWTH = 1.5


def game_progress(s: BarcelonaState) -> float:
    """How far the game is towards its end, 0..1: the fullest track towards its last trigger."""
    t = s.t
    return max(min(1.0, sum(s.track[k]) / (t.track_triggers[k][2] + 1)) for k in range(3))


def evaluate(s: BarcelonaState) -> list[float]:
    if s.ended:
        return [float(v) for v in s.vp]
    t = s.t
    remaining = 1.0 - game_progress(s)
    pending = [tile for k, tile in enumerate(s.cerda_tiles) if not s.cerda_scored[k]]
    km = len(t.modernisme_take)
    values: list[float] = []
    for p in range(s.n):
        value = float(s.vp[p])
        value += COIN * min(s.coins[p], 6) + CLOTH * min(s.cloth[p], 6)
        value += SAGRADA_STEP * s.sagrada[p]
        value += INTERSECTION_PER_OPPONENT * s.inters[p] * max(1, s.n - 1) * remaining
        value += CITIZEN_IN_HAND * len(s.hands[p])
        value += t.cobblestone_vp[s.cobbles[p]] + t.passenger_vp[s.passengers[p]]
        value += scoring.modernisme_vp(s, p)
        for slot in range(p * km, (p + 1) * km):
            tile = s.mod_tile[slot]
            if tile >= 0:
                growth = t.modernisme_vp[tile] * MODERNISME_GROWTH * remaining
                value += growth * scoring.modernisme_multiplier(s, slot)
        for tile in pending:
            value += scoring.cerda_tile_vp(s, tile, p)
        values.append(value)
    return values
