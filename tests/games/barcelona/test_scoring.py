"""Cerdà Scoring, the 19 scoring conditions of the appendix, game end, final scoring, tie-breakers."""

from __future__ import annotations

import pytest

from eixample.games.barcelona import board, cerda_scoring, game_end, scoring, turn
from eixample.games.barcelona.state import BarcelonaState
from eixample.games.barcelona.tables import CORNER, L1, L2
from tests.games.barcelona.helpers import scenario

SP = board.SPACE_INDEX
X = board.CROSSING_INDEX
B = board.BUILDING_INDEX


def _build(s: BarcelonaState, name: str, kind: int, markers: tuple[int, ...]) -> None:
    b = B[name]
    s.bld_type[b] = kind
    s.bld_tiles[b] = (*s.bld_tiles[b], kind)
    s.bld_markers[b] = markers


def _count(s: BarcelonaState, condition: str, p: int = 0) -> int:
    return scoring.condition_count(s, condition, p)


# ---------------------------------------------------------------------------- the 19 conditions
def test_condition_longest_block_line_counts_blocks_with_a_marker_in_any_position() -> None:
    s = scenario()
    _build(s, "B01", L2, (1, 0))  # under another player's marker still counts
    _build(s, "B02", L1, (0,))
    _build(s, "B03", L1, (0,))
    _build(s, "B22U", CORNER, (0,))
    assert _count(s, "longest_block_line") == 3


def test_condition_cloth_and_coins_in_warehouse_capped_at_5() -> None:
    s = scenario()
    s.cloth[0], s.coins[0] = 7, 2
    assert scoring.condition_count(s, "cloth_in_warehouse", 0, cap=5) == 5
    assert _count(s, "coins_in_warehouse") == 2


def test_condition_longest_narrow_and_wide_lines_of_own_tiles_on_one_street() -> None:
    s = scenario()
    narrow = next(st for st in board.STREET_SPACES if not s.t.space_wide[st[0]])
    for x in narrow[:3]:
        s.space_owner[x] = 0
    s.space_owner[narrow[3]] = 1
    other = next(st for st in board.STREET_SPACES if not s.t.space_wide[st[0]] and st != narrow)
    s.space_owner[other[0]] = 0
    assert _count(s, "longest_narrow_line") == 3
    diagonal = board.STREET_SPACES[board.DIAGONAL]
    s.space_owner[diagonal[0]] = 0
    s.space_owner[diagonal[2]] = 0
    assert _count(s, "longest_wide_line") == 1
    s.space_owner[diagonal[1]] = 0
    assert _count(s, "longest_wide_line") == 3


def test_condition_intersections_adjacent_to_3_buildings() -> None:
    s = scenario()
    s.cross_owner[X["C12"]] = 0  # touches B01, B02, B11U/L, B12
    s.cross_owner[X["C44"]] = 0
    _build(s, "B01", L1, (1,))
    _build(s, "B02", L1, (2,))
    assert _count(s, "intersections_near_3_buildings") == 0
    _build(s, "B11U", CORNER, (1,))
    assert _count(s, "intersections_near_3_buildings") == 1


def test_condition_cerda_multiplier() -> None:
    s = scenario()
    s.cerda[0] = s.t.cerda_top
    assert _count(s, "cerda_multiplier") == 4


def test_condition_public_services_count() -> None:
    s = scenario()
    s.services_built[0] = 0b1011
    assert _count(s, "public_services") == 3


def test_condition_narrow_and_wide_tiles_placed() -> None:
    s = scenario()
    wide = [x for x in range(44) if s.t.space_wide[x]][:2]
    narrow = [x for x in range(44) if not s.t.space_wide[x]][:5]
    for x in wide + narrow:
        s.space_owner[x] = 0
    assert _count(s, "wide_tiles") == 2 and _count(s, "narrow_tiles") == 5


def test_condition_passengers_adjacent_to_2_buildings_and_passengers() -> None:
    s = scenario()
    s.space_passenger[SP["V1.0"]] = 0  # between B00U and B01
    s.space_passenger[SP["H4.0"]] = 0  # the bottom edge borders one block only
    s.passengers[0] = 2
    _build(s, "B00U", CORNER, (1,))
    assert _count(s, "passengers_near_2_buildings") == 0
    _build(s, "B01", L1, (1,))
    assert _count(s, "passengers_near_2_buildings") == 1
    assert _count(s, "passengers") == 2


def test_condition_modernisme_markers_top_and_tiles() -> None:
    s = scenario()
    s.mod_top[0:5] = [1, 0, 1, 0, 0]
    s.mod_tile[0:5] = [3, -1, -1, 4, -1]
    assert _count(s, "modernisme_markers_top") == 2
    assert _count(s, "modernisme_tiles") == 2


def test_condition_cobblestones_and_intersections() -> None:
    s = scenario()
    s.cobbles[0], s.inters[0] = 4, 3
    assert _count(s, "cobblestones") == 4 and _count(s, "intersections") == 3


def test_condition_empty_marker_stacks() -> None:
    s = scenario()
    s.markers_left[0:5] = [0, 0, 1, 0, 1]
    assert _count(s, "empty_marker_stacks") == 3


def test_condition_corner_buildings_on_different_blocks() -> None:
    s = scenario()
    _build(s, "B00U", CORNER, (0,))
    _build(s, "B00L", CORNER, (0,))
    _build(s, "B33L", CORNER, (0,))
    _build(s, "B22L", CORNER, (1,))
    assert _count(s, "corner_buildings_different_blocks") == 2


def test_condition_bottom_markers_on_non_corner_buildings() -> None:
    s = scenario()
    _build(s, "B01", L2, (0, 1))
    _build(s, "B02", L2, (1, 0))
    _build(s, "B03", L1, (0,))
    _build(s, "B00U", CORNER, (0,))
    assert _count(s, "bottom_markers_non_corner") == 2


def test_every_condition_has_a_counter() -> None:
    s = scenario()
    assert set(scoring.COUNTERS) == set(s.t.condition_text)
    assert len(scoring.COUNTERS) == 19


# ---------------------------------------------------------------------------- CERDÀ SCORING
def _fill_to_trigger(s: BarcelonaState, track: int, section: int) -> None:
    trigger = s.t.track_triggers[track][section]
    for i in range(trigger + 1):
        s.track[track][i] = 1


def test_cerda_scoring_triggers_when_a_section_is_filled_to_its_marked_space() -> None:
    s = scenario()
    trigger = s.t.track_triggers[1][0]
    for i in range(trigger):
        s.track[1][i] = 1
    assert not cerda_scoring.section_triggered(s, 0)
    s.track[1][trigger] = 1
    assert cerda_scoring.section_triggered(s, 0)


@pytest.mark.parametrize("position_mark", [0, 1, 2, 3, 4])
def test_cerda_scoring_multiplier_is_the_highest_mark_reached(position_mark: int) -> None:
    s = scenario()
    t = s.t
    pos = t.cerda_multiplier.index(position_mark)
    assert t.cerda_multiplier[pos] == position_mark
    if pos + 1 <= t.cerda_top:
        assert t.cerda_multiplier[pos + 1] in (position_mark, position_mark + 1)
    assert t.cerda_multiplier[t.cerda_start] == 1


def test_cerda_scoring_resets_markers_above_start_after_first_and_second_only() -> None:
    s = scenario()
    t = s.t
    for section in range(3):
        s.cerda = [t.cerda_top, 0, t.cerda_start + 1, t.cerda_start]
        _fill_to_trigger(s, 0, section)
        offer_before = s.mod_offer[:]
        cerda_scoring.run_cerda_scorings(s)
        assert s.cerda_scored[section] == 1
        assert s.mod_offer != offer_before, "the Modernisme offer is refreshed after each scoring"
        if section < 2:
            assert s.cerda == [t.cerda_start, 0, t.cerda_start, t.cerda_start]
        else:
            assert s.cerda == [t.cerda_top, 0, t.cerda_start + 1, t.cerda_start]
            assert s.end_triggered


def test_cerda_scoring_a_section_is_scored_only_once() -> None:
    s = scenario()
    _fill_to_trigger(s, 0, 0)
    cerda_scoring.run_cerda_scorings(s)
    vp = s.vp[:]
    _fill_to_trigger(s, 1, 0)
    cerda_scoring.run_cerda_scorings(s)
    assert s.vp == vp


def test_cerda_scorings_triggered_together_resolve_in_section_order() -> None:
    s = scenario()
    _fill_to_trigger(s, 0, 1)  # sections 1 and 2 of the Working track at once
    cerda_scoring.run_cerda_scorings(s)
    assert s.cerda_scored == [1, 1, 0]
    assert [line for line in s.log_text() if "Cerdà Scoring" in line][:2][0].startswith("Cerdà Scoring 1")


def test_cerda_scoring_tile_vp_times_count_times_multiplier() -> None:
    s = scenario()
    t = s.t
    tile = next(i for i, c in enumerate(t.cerda_condition) if c == "corner_buildings_different_blocks")
    _build(s, "B00U", CORNER, (0,))
    s.cerda[0] = t.cerda_multiplier.index(2)
    assert scoring.cerda_tile_vp(s, tile, 0) == t.cerda_vp[tile] * 1 * 2


# ---------------------------------------------------------------------------- GAME END AND FINAL SCORING
def test_game_end_the_round_is_completed_after_the_third_section_triggers() -> None:
    s = scenario(players=3)
    s.turn_player = 1
    s.end_triggered = True
    turn.end_turn(s, 1)
    assert not s.ended and s.turn_player == 2
    turn.end_turn(s, 2)
    assert s.ended and s.current_player() == -1


def test_final_scoring_cobblestones_passengers_and_modernisme() -> None:
    s = scenario()
    t = s.t
    s.cobbles[1], s.passengers[1] = 2, 1
    tile = next(i for i, c in enumerate(t.modernisme_condition) if c == "passengers")
    s.mod_tile[5 + 0] = tile
    s.passengers[1] = 1
    game_end.final_scoring(s)
    expected = t.cobblestone_vp[2] + t.passenger_vp[1] + t.modernisme_vp[tile] * 1 * t.modernisme_bottom[0]
    assert s.vp[1] == expected


def test_tie_breakers_cerda_then_sagrada_then_markers_then_shared() -> None:
    s = scenario()
    s.vp = [50, 50, 50, 10]
    s.cerda = [5, 5, 4, 9]
    s.sagrada = [3, 3, 9, 9]
    s.ended = True
    assert s.winners() == [0, 1]  # still tied: shared victory
    _build(s, "B01", L1, (1,))
    assert s.winners() == [1]
    s.cerda[2] = 6
    assert s.winners() == [2]
