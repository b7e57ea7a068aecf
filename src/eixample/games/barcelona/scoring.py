"""Scoring conditions of Cerdà Scoring and Modernisme tiles, final scoring and tie-breakers.

Each of the 19 conditions of the rulebook appendix counts, for one player, how many times it is
fulfilled; a tile multiplies that count by its VP (and by the Cerdà multiplier or the Modernisme
marker's multiplier).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING

from eixample.games.barcelona import board
from eixample.games.barcelona.tables import CORNER

if TYPE_CHECKING:
    from eixample.games.barcelona.state import BarcelonaState

Counter = Callable[["BarcelonaState", int], int]


def _longest_run(cells: set[tuple[int, int]]) -> int:
    best = 0
    for r, c in cells:
        if (r, c - 1) not in cells:
            length = 1
            while (r, c + length) in cells:
                length += 1
            best = max(best, length)
        if (r - 1, c) not in cells:
            length = 1
            while (r + length, c) in cells:
                length += 1
            best = max(best, length)
    return best


def blocks_with_marker(state: BarcelonaState, p: int) -> set[tuple[int, int]]:
    return {board.BUILDING_SPACES[b].block for b, markers in enumerate(state.bld_markers) if p in markers}


BLOCK_BIT: tuple[int, ...] = tuple(
    1 << (space.block[0] * board.BLOCKS + space.block[1]) for space in board.BUILDING_SPACES
)
"""Per building space, the bit of its block in a set of blocks."""


def longest_block_line(state: BarcelonaState, p: int) -> int:
    blocks = 0
    for b, markers in enumerate(state.bld_markers):
        if p in markers:
            blocks |= BLOCK_BIT[b]
    return _longest_run_of_blocks(blocks)


@cache
def _longest_run_of_blocks(blocks: int) -> int:
    """`_longest_run` of a set of blocks given as bits; remembered, as bots ask it for every position."""
    size = board.BLOCKS
    return _longest_run({divmod(i, size) for i in range(size * size) if blocks >> i & 1})


def _longest_own_line(state: BarcelonaState, p: int, wide: bool) -> int:
    best = 0
    for spaces in board.STREET_SPACES:
        if state.t.space_wide[spaces[0]] != wide:
            continue
        run = 0
        for s in spaces:
            run = run + 1 if state.space_owner[s] == p else 0
            best = max(best, run)
    return best


def longest_narrow_line(state: BarcelonaState, p: int) -> int:
    return _longest_own_line(state, p, wide=False)


def longest_wide_line(state: BarcelonaState, p: int) -> int:
    return _longest_own_line(state, p, wide=True)


def intersections_near_3_buildings(state: BarcelonaState, p: int) -> int:
    return sum(
        1
        for x, owner in enumerate(state.cross_owner)
        if owner == p and sum(1 for b in board.CROSSING_BUILDINGS[x] if state.bld_type[b] >= 0) >= 3
    )


def passengers_near_2_buildings(state: BarcelonaState, p: int) -> int:
    return sum(
        1
        for s, owner in enumerate(state.space_passenger)
        if owner == p and sum(1 for b in board.SPACE_BUILDINGS[s] if state.bld_type[b] >= 0) >= 2
    )


def own_tiles(state: BarcelonaState, p: int, wide: bool) -> int:
    return sum(1 for s, owner in enumerate(state.space_owner) if owner == p and state.t.space_wide[s] == wide)


def empty_marker_stacks(state: BarcelonaState, p: int) -> int:
    k = len(state.t.marker_stacks)
    return sum(1 for left in state.markers_left[p * k : (p + 1) * k] if left == 0)


def corner_buildings_different_blocks(state: BarcelonaState, p: int) -> int:
    return len(
        {
            board.BUILDING_SPACES[b].block
            for b, markers in enumerate(state.bld_markers)
            if markers and state.bld_type[b] == CORNER and p in markers
        }
    )


def bottom_markers_non_corner(state: BarcelonaState, p: int) -> int:
    return sum(
        1
        for b, markers in enumerate(state.bld_markers)
        if markers and markers[0] == p and not board.BUILDING_SPACES[b].corner
    )


def modernisme_slice(state: BarcelonaState, p: int) -> range:
    k = len(state.t.modernisme_take)
    return range(p * k, (p + 1) * k)


COUNTERS: dict[str, Counter] = {
    "longest_block_line": longest_block_line,
    "cloth_in_warehouse": lambda s, p: s.cloth[p],
    "coins_in_warehouse": lambda s, p: s.coins[p],
    "longest_narrow_line": longest_narrow_line,
    "intersections_near_3_buildings": intersections_near_3_buildings,
    "cerda_multiplier": lambda s, p: s.t.cerda_multiplier[s.cerda[p]],
    "longest_wide_line": longest_wide_line,
    "public_services": lambda s, p: bin(s.services_built[p]).count("1"),
    "narrow_tiles": lambda s, p: own_tiles(s, p, wide=False),
    "passengers_near_2_buildings": passengers_near_2_buildings,
    "wide_tiles": lambda s, p: own_tiles(s, p, wide=True),
    "modernisme_markers_top": lambda s, p: sum(s.mod_top[i] for i in modernisme_slice(s, p)),
    "passengers": lambda s, p: s.passengers[p],
    "cobblestones": lambda s, p: s.cobbles[p],
    "intersections": lambda s, p: s.inters[p],
    "empty_marker_stacks": empty_marker_stacks,
    "corner_buildings_different_blocks": corner_buildings_different_blocks,
    "modernisme_tiles": lambda s, p: sum(1 for i in modernisme_slice(s, p) if s.mod_tile[i] >= 0),
    "bottom_markers_non_corner": bottom_markers_non_corner,
}


def condition_count(state: BarcelonaState, condition: str, p: int, cap: int = 0) -> int:
    count = COUNTERS[condition](state, p)
    return min(count, cap) if cap else count


def cerda_tile_vp(state: BarcelonaState, tile: int, p: int) -> int:
    """VP one player scores from a Cerdà Scoring tile: VP x count x Cerdà multiplier."""
    t = state.t
    count = condition_count(state, t.cerda_condition[tile], p, t.cerda_cap[tile])
    return t.cerda_vp[tile] * count * t.cerda_multiplier[state.cerda[p]]


def modernisme_multiplier(state: BarcelonaState, slot: int) -> int:
    i = slot % len(state.t.modernisme_take)
    return state.t.modernisme_top[i] if state.mod_top[slot] else state.t.modernisme_bottom[i]


def modernisme_vp(state: BarcelonaState, p: int) -> int:
    """End-of-game VP of a player's Modernisme tiles: VP x count x marker multiplier."""
    t = state.t
    total = 0
    for slot in modernisme_slice(state, p):
        tile = state.mod_tile[slot]
        if tile >= 0:
            count = condition_count(state, t.modernisme_condition[tile], p, t.modernisme_cap[tile])
            total += t.modernisme_vp[tile] * count * modernisme_multiplier(state, slot)
    return total


def markers_on_board(state: BarcelonaState, p: int) -> int:
    return sum(markers.count(p) for markers in state.bld_markers)


def tie_break_key(state: BarcelonaState, p: int) -> tuple[int, int, int, int]:
    """Most VP, then furthest on the Cerdà track, on the Sagrada Família track, most markers."""
    return (state.vp[p], state.cerda[p], state.sagrada[p], markers_on_board(state, p))
