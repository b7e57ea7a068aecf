"""A position estimate for bots: each player's VP plus what their position is worth.

It values resources and track positions, counts the end-game scoring (cobblestones, passengers,
Modernisme tiles) and the Cerdà Scorings still to come as they would score now, and credits
what keeps paying (Intersections, Modernisme tiles) by the share of the game still to play.
"""

from __future__ import annotations

from operator import mul
from typing import TYPE_CHECKING

from eixample.games.barcelona import frames, scoring

if TYPE_CHECKING:
    from eixample.games.barcelona.state import BarcelonaState

COIN = 1.5
CLOTH = 1.6
SAGRADA_STEP = 1.0
INTERSECTION_PER_OPPONENT = 1.5
CITIZEN_IN_HAND = 1.0
MODERNISME_GROWTH = 1.5
CERDA_POSITION = 0.5  # per step, per Cerdà Scoring still to come: a higher multiplier later

# What a decision still pending for a player is worth, in VP: the actions of the crossing not
# yet taken, a Building about to be constructed. Without it a one-decision look-ahead cannot
# tell a crossing with three good actions from an empty one.
ACTION_VALUE = (4.5, 4.0, 5.0, 5.0, 3.5, 4.5, 9.0, 3.5)  # by action kind, as in ACTION_KINDS
BUILDING_EFFECT_VALUE = 2.0
INTERSECTION_BENEFIT_VALUE = 2.0


def pending_value(s: BarcelonaState) -> list[float]:
    from eixample.games.barcelona import actions, board, construction

    values = [0.0] * s.n
    for frame in s.stack:
        kind, p = frame[0], frame[1]
        if kind == frames.ACTIONS:
            x, mask = frame[2], frame[3]
            for i, street in enumerate(board.CROSSING_STREETS[x]):
                if mask >> i & 1:
                    action = s.street_action[street]
                    if actions.action_available(s, p, action):
                        values[p] += ACTION_VALUE[action]
        elif (kind == frames.BUILD_PHASE and construction.legal_builds(s, p)) or kind == frames.BUILD:
            values[p] += construction.lowest_visible(s) + BUILDING_EFFECT_VALUE
        elif kind == frames.CITIZENS_CHOICE:
            building = frame[2]
            row = board.BUILDING_SPACES[frame[3]].block[0]
            best = max(
                construction.lowest_visible(s, tuple(s.cross_cit[x][-1] for x in combo))
                for combo in construction.citizen_choices(s, building, frame[3])
            )
            values[p] += best + s.t.building_vp[building] + BUILDING_EFFECT_VALUE
            values[p] += s.t.row_bonus_vp[row] if s.row_bonus[row] else 0
        elif kind == frames.BENEFITS:
            values[p] += frame[2] * INTERSECTION_BENEFIT_VALUE
        elif kind == frames.STREET:
            values[p] += frame[3] * (3.0 if frame[2] else 1.5)
        elif kind in FIRST_FRAME_KIND:
            values[p] += ACTION_VALUE[FIRST_FRAME_KIND[kind]]
    return values


def _first_frame_kinds() -> dict[int, int]:
    """The first decision of each action, mapped to that action's kind."""
    first = (
        frames.GAIN, frames.COBBLE, frames.STREET_KIND, frames.INTERSECTION,
        frames.IMPROVE, frames.TAKE, frames.SERVICE, frames.TRAM,
    )
    return {frame: kind for kind, frame in enumerate(first)}


FIRST_FRAME_KIND = _first_frame_kinds()


def game_progress(s: BarcelonaState) -> float:
    """How far the game is towards its end, 0..1: the fullest track towards its last trigger."""
    t = s.t
    return max(min(1.0, sum(s.track[k]) / (t.track_triggers[k][2] + 1)) for k in range(3))


PARTS = ("vp", "pending", "coins", "cloth", "sagrada", "intersections", "hand", "cobbles_passengers",
         "modernisme", "modernisme_growth", "cerda_tiles", "cerda_position")
"""The parts of a seat's evaluation, in the order `seat_parts` gives them."""
PART_WEIGHTS = (1.0, 1.0, COIN, CLOTH, SAGRADA_STEP, INTERSECTION_PER_OPPONENT, CITIZEN_IN_HAND, 1.0, 1.0,
                MODERNISME_GROWTH, 1.0, 1.0)
"""What `evaluate` makes of each part: VP for one of it."""


def seat_parts(s: BarcelonaState) -> list[list[float]]:
    """Per seat, the parts of its evaluation (PARTS order), each before its weight: VP, the value
    of the pending decisions, coins and cloth (counted up to 6), Sagrada Família steps, the
    Intersections' future benefits, citizens in hand, the Warehouse and Passenger VP uncovered,
    Modernisme VP now and its growth to come, the Cerdà Scorings to come and the Cerdà position."""
    t = s.t
    remaining = 1.0 - game_progress(s)
    pending_tiles = [tile for k, tile in enumerate(s.cerda_tiles) if not s.cerda_scored[k]]
    km = len(t.modernisme_take)
    pending = pending_value(s)
    parts = []
    for p in range(s.n):
        growth = 0.0
        for slot in range(p * km, (p + 1) * km):
            tile = s.mod_tile[slot]
            if tile >= 0:
                growth += t.modernisme_vp[tile] * remaining * scoring.modernisme_multiplier(s, slot)
        parts.append([
            float(s.vp[p]),
            pending[p],
            float(min(s.coins[p], 6)),
            float(min(s.cloth[p], 6)),
            float(s.sagrada[p]),
            s.inters[p] * max(1, s.n - 1) * remaining,
            float(len(s.hands[p])),
            float(t.cobblestone_vp[s.cobbles[p]] + t.passenger_vp[s.passengers[p]]),
            float(scoring.modernisme_vp(s, p)),
            growth,
            float(sum(scoring.cerda_tile_vp(s, tile, p) for tile in pending_tiles)),
            CERDA_POSITION * s.cerda[p] * len(pending_tiles),
        ])
    return parts


def evaluate(s: BarcelonaState) -> list[float]:
    if s.ended:
        return [float(v) for v in s.vp]
    return [sum(map(mul, PART_WEIGHTS, parts)) for parts in seat_parts(s)]
