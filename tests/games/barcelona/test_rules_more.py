"""More rule tests, each named after its rulebook section (see docs/rules-coverage.md): rules the
first rule tests leave out, the rulings of barcelona-facts.md, and the engine's own rulings where
the rulebook is silent."""

from __future__ import annotations

import itertools

import pytest

from eixample.games.barcelona import (
    actions,
    board,
    cerda_scoring,
    construction,
    game_end,
    new_game,
    scoring,
    tracks,
    turn,
)
from eixample.games.barcelona.components import Benefit
from eixample.games.barcelona.frames import (
    ACTIONS,
    BUILD,
    COBBLE,
    GAIN,
    INTERSECTION,
    SAGRADA,
    SERVICE,
    STREET_KIND,
    TAKE,
    TRAM,
)
from eixample.games.barcelona.state import BarcelonaState
from eixample.games.barcelona.tables import CORNER, L1, L2, L3
from tests.games.barcelona.helpers import at_rest, decide, scenario

W, M, U = 0, 1, 2
X = board.CROSSING_INDEX
SP = board.SPACE_INDEX
B = board.BUILDING_INDEX


def _citizens(s: BarcelonaState, crossings: dict[str, tuple[int, ...]]) -> None:
    for name, stack in crossings.items():
        s.cross_cit[X[name]] = stack


def _build(s: BarcelonaState, action: str, use: str) -> None:
    """Construct a Building as player 0's building phase (the turn then ends by itself)."""
    s.stack = [s.stack[0], (BUILD, 0)]
    s._legal = None
    s.apply(action)
    s.apply(use)


def _built(s: BarcelonaState, name: str, kind: int, markers: tuple[int, ...]) -> None:
    b = B[name]
    s.bld_type[b] = kind
    s.bld_tiles[b] = (*s.bld_tiles[b], kind)
    s.bld_markers[b] = markers
    s.bld_stock[kind] -= 1


def _finish_turn(s: BarcelonaState) -> None:
    """Play the current turn to its end with the simplest choices."""
    player = s.turn_player
    while not s.is_terminal() and s.turn_player == player:
        legal = s.legal_actions()
        for quiet in ("end actions", "benefits none", "no passenger", "skip action"):
            if quiet in legal:
                s.apply(quiet)
                break
        else:
            s.apply(legal[0])


def _only_sagrada_tile(s: BarcelonaState, tile_id: str) -> None:
    """Leave `tile_id` as the only Sagrada Família tile of its level in the offer."""
    t = s.t
    level = t.sagrada_level[t.sagrada_ids.index(tile_id)]
    for i, ident in enumerate(t.sagrada_ids):
        if t.sagrada_level[i] == level:
            s.sagrada_offer[i] = 1 if ident == tile_id else 0


# ---------------------------------------------------------------------------- GAME SETUP
def test_setup_1_a_building_bonus_tile_on_each_row() -> None:
    s = new_game(4, 2)
    assert s.row_bonus == [1, 1, 1, 1]
    assert s.view(None)["city"]["row_bonus"] == [5, 5, 5, 5]


def test_setup_3_building_tiles_in_four_stacks_and_sagrada_tiles_by_level() -> None:
    s = new_game(3, 2)
    assert dict(zip(("corner", "L1", "L2", "L3"), s.bld_stock, strict=True)) == {
        "corner": 8,
        "L1": 12,
        "L2": 8,
        "L3": 7,
    }
    assert len(s.sagrada_offer) == 16 and all(s.sagrada_offer)
    slots = {level for level in s.t.sagrada_slot_level if level}
    assert set(s.t.sagrada_level) == slots, "one group of tiles for each slot level"


def test_setup_3_coins_and_cloth_are_an_unlimited_supply() -> None:
    s = scenario()
    for p in range(4):
        s.cobbles[p] = 6
        s.coins[p], s.cloth[p] = 8, 2  # 32 coins and 8 cloth on the table, more than the 30 tokens
    decide(s, (GAIN, 0))
    s.apply("gain coins")
    assert s.coins[0] == 10


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_2_public_service_stacks_show_their_3_coin_tile_on_top(players: int) -> None:
    services = new_game(players, 4).view(None)["public_services"]
    assert len(services) == 5
    assert all((p["next_cost"], p["next_vp"]) == (3, 10) for p in services)


def test_setup_4_modernisme_markers_at_the_bottom_and_nothing_built_yet() -> None:
    s = new_game(4, 6)
    assert s.mod_top == [0] * 20 and s.mod_tile == [-1] * 20
    assert s.services_built == [0] * 4 and s.sagrada_tiles == [()] * 4
    for player in s.view(None)["player_list"]:
        assert not any(space["top"] for space in player["modernisme"])
        assert not any(i["built"] for i in player["intersections"])
        assert not any(p["placed"] for p in player["passengers"])
        assert player["tram"] is None


def test_setup_5_the_first_player_starts() -> None:
    s = new_game(4, 1, first_player=2)
    assert s.first_player == 2 and s.turn_player == 2 and s.current_player() == 2
    chosen = {new_game(4, seed, first_player="random").first_player for seed in range(12)}
    assert chosen <= {0, 1, 2, 3} and len(chosen) > 1
    again = [new_game(4, 5, first_player="random").first_player for _ in range(2)]
    assert again[0] == again[1], "the seed decides"


# ---------------------------------------------------------------------------- PLAYING THE GAME
def test_playing_the_game_turns_go_clockwise_from_the_first_player() -> None:
    s = new_game(3, 1, first_player=1, action_tiles="printed")
    order = [s.turn_player]
    for _ in range(4):
        _finish_turn(s)
        order.append(s.turn_player)
    assert order == [1, 2, 0, 1, 2]


def test_playing_the_game_place_then_build_then_cerda_scoring_then_draw() -> None:
    s = scenario()
    start = s.t.cerda_start
    trigger = s.t.track_triggers[W][0]
    for i in range(trigger - 1):
        s.track[W][i] = 1
    s.hands[0] = (W, W)
    _citizens(s, {"C02": (W,)})
    s._legal = None
    bag = sum(s.bag)
    s.apply("place C01")
    s.apply("end actions")
    assert s.decision_kind() == "build" and s.legal_actions() == ["build L1 B01"]
    assert s.hands[0] == () and s.cerda_scored == [0, 0, 0]
    s.apply("build L1 B01")
    s.apply("use C01+C02")
    log = s.log_text()
    built = next(i for i, line in enumerate(log) if "builds Level 1 on B01" in line)
    scored = next(i for i, line in enumerate(log) if line.startswith("Cerdà Scoring 1"))
    assert built < scored
    assert s.cerda_scored == [1, 0, 0]
    assert s.cerda[0] == start, "the Level-1 step was taken, then reset by the scoring"
    assert len(s.hands[0]) == 2 and sum(s.bag) == bag - 2
    assert s.turn_player == 1


def test_playing_the_game_an_action_is_completed_before_another_begins() -> None:
    s = scenario()
    s.hands[0] = (W, W)
    s._legal = None
    s.apply("place C00")  # V0 streets, H0 cobblestone, D public service
    s.apply("act V0 streets")
    assert s.legal_actions() == ["streets wide", "streets narrow"]
    s.apply("streets narrow")
    s.apply("street V0.1")
    legal = s.legal_actions()
    assert legal and all(a.startswith("street ") for a in legal), "no other action before the second tile"
    s.apply("street V0.3")
    legal = s.legal_actions()
    assert "act H0 cobblestone" in legal and "end actions" in legal
    assert "act V0 streets" not in legal


# ---------------------------------------------------------------------------- PLACING CITIZENS
def test_placing_citizens_on_a_diagonal_crossing_offers_the_actions_of_its_three_streets() -> None:
    s = scenario()
    s.hands[0] = (W, W)
    s.coins[0], s.cloth[0] = 4, 0
    s._legal = None
    s.apply("place C22")
    assert s.coins[0] == 3
    acts = {a for a in s.legal_actions() if a.startswith("act ")}
    assert acts == {"act V2 tram", "act H2 take_modernisme", "act D public_service"}


def test_placing_citizens_on_your_own_intersection_gives_you_its_benefits() -> None:
    s = scenario()
    s.cross_owner[X["C12"]] = 0
    s.inters[0] = 1
    s.hands[0] = (W, W)
    s._legal = None
    s.apply("place C12")
    assert s.current_player() == 0 and s.decision_kind() == "intersection_benefits"
    assert s.legal_actions() == ["benefits none", "benefits 1"]
    coins = s.coins[0]
    s.apply("benefits 1")
    assert s.coins[0] == coins + s.t.intersection_benefit[0].coin


def test_placing_citizens_intersection_benefits_come_only_from_built_intersections() -> None:
    s = scenario()
    s.cross_owner[X["C12"]] = 1
    s.inters[1] = 3
    s.hands[0] = (W, W)
    s._legal = None
    s.apply("place C12")
    assert set(s.legal_actions()) == {
        "benefits none",
        "benefits 1",
        "benefits 2",
        "benefits 3",
        "benefits 1+2",
        "benefits 1+3",
        "benefits 2+3",
    }


def test_placing_citizens_with_a_single_citizen_left() -> None:
    s = scenario()
    s.hands[0] = (M,)
    s._legal = None
    s.apply("place C12")
    assert s.cross_cit[X["C12"]] == (M,) and s.decision_kind() == "actions"


# ---------------------------------------------------------------------------- ACTIONS
def test_place_cobblestone_next_to_the_start_gains_the_printed_resource() -> None:
    s = scenario()
    assert s.t.sidewalk_benefit[board.SIDEWALK_INDEX["S12"]] == Benefit(coin=1)
    decide(s, (COBBLE, 0, 0))
    s.apply("cobble S12")
    assert s.coins[0] == 2 and s.cobbles[0] == 1 and s.sidewalk[board.SIDEWALK_INDEX["S12"]] == 0


def test_place_cobblestone_a_printed_action_benefit_is_performed() -> None:
    s = decide(scenario(), (COBBLE, 0, 1))  # anywhere, as with Universitat de Barcelona
    assert s.t.sidewalk_benefit[board.SIDEWALK_INDEX["S02"]].action == "streets"  # type: ignore[union-attr]
    s.apply("cobble S02")
    assert s.stack[-1][0] == STREET_KIND
    assert s.legal_actions() == ["streets wide", "streets narrow"]


def test_build_streets_two_narrow_tiles_need_not_connect() -> None:
    s = decide(scenario(), (STREET_KIND, 0))
    s.apply("streets narrow")
    s.apply("street V0.1")
    assert "street H4.3" in s.legal_actions()
    s.apply("street H4.3")
    assert s.space_owner[SP["V0.1"]] == 0 and s.space_owner[SP["H4.3"]] == 0
    assert s.vp_src[0] == 1 + 1  # two lines of one tile
    assert at_rest(s)


def test_build_streets_wide_not_possible_once_its_stack_is_empty() -> None:
    s = scenario()
    s.wide_left[0] = 0
    decide(s, (STREET_KIND, 0))
    assert s.legal_actions() == ["streets narrow"]


def test_build_an_intersection_takes_the_leftmost_one_and_pays_its_printed_cost() -> None:
    s = scenario()
    for sp in board.CROSSING_SPACES[X["C12"]] + board.CROSSING_SPACES[X["C23"]]:
        s.space_owner[sp] = 3  # cover the adjacent benefits
    s.coins[0], s.cloth[0] = 3, 0
    decide(s, (INTERSECTION, 0, 0))
    s.apply("intersection C12")  # the first one costs nothing
    assert s.coins[0] == 3 and s.inters[0] == 1
    s.inters[0] = 4
    decide(s, (INTERSECTION, 0, 0))
    s.apply("intersection C23")  # the fifth one costs 3 coins
    assert s.coins[0] == 3 - s.t.intersection_cost[4] == 0
    assert s.inters[0] == 5


def test_build_an_intersection_pays_the_crossing_cost_even_under_citizens() -> None:
    s = scenario()
    for sp in board.CROSSING_SPACES[X["C31"]]:
        s.space_owner[sp] = 2  # cover the adjacent benefits
    s.cross_cit[X["C31"]] = (W, U)
    s.inters[0] = 2
    s.coins[0], s.cloth[0] = 4, 0
    decide(s, (INTERSECTION, 0, 0))
    s.apply("intersection C31")
    assert s.coins[0] == 4 - s.t.intersection_cost[2] - s.t.crossing_cost[X["C31"]] == 1
    assert s.cross_cit[X["C31"]] == (W, U) and s.cross_owner[X["C31"]] == 0


def test_build_an_intersection_not_possible_with_all_five_built() -> None:
    s = scenario()
    s.inters[0] = 5
    s.coins[0] = 3
    decide(s, (INTERSECTION, 0, 1))
    assert at_rest(s)


def test_build_a_public_service_not_offered_once_its_stack_is_empty() -> None:
    s = scenario()
    s.coins[0] = 3
    s.service_left[0] = 0
    decide(s, (SERVICE, 0))
    offered = {a.split()[1] for a in s.legal_actions() if a.startswith("service ")}
    assert s.t.service_ids[s.services[0]] not in offered
    assert len(offered) == 4


def test_build_a_public_service_with_two_players_the_1_coin_tile_is_not_used() -> None:
    s = scenario(players=2)
    service = s.services[0]
    for p in (0, 1):
        s.coins[p] = 3
        decide(s, (SERVICE, p))
        s.apply(f"service {s.t.service_ids[service]}")
    assert s.vp[:2] == [10, 6]
    entry = s.view(None)["public_services"][0]
    assert entry["left"] == 0 and entry["next_cost"] is None


def test_move_your_tram_the_passenger_is_the_leftmost_and_costs_what_it_shows() -> None:
    s = scenario()
    s.tram[0] = SP["H0.0"]
    s.passengers[0] = 1
    s.coins[0], s.cloth[0] = 1, 0
    decide(s, (TRAM, 0, 0))
    s.apply("tram H0.1")
    assert s.legal_actions() == ["passenger", "no passenger"]
    s.apply("passenger")
    assert s.t.passenger_cost[1] == (1, 0) and s.coins[0] == 0
    assert s.passengers[0] == 2 and s.space_passenger[SP["H0.1"]] == 0
    placed = [p["placed"] for p in s.view(0)["player_list"][0]["passengers"]]
    assert placed == [True, True, False, False, False]
    assert set(s.legal_actions()) == {"act H0 cobblestone", "skip action"}


def test_move_your_tram_placing_a_passenger_is_optional() -> None:
    s = scenario()
    s.tram[0] = SP["H0.0"]
    decide(s, (TRAM, 0, 0))
    s.apply("tram H0.1")
    s.apply("no passenger")
    assert s.passengers[0] == 0 and s.space_passenger[SP["H0.1"]] == -1
    assert at_rest(s)


def test_move_your_tram_no_passenger_once_all_five_are_placed() -> None:
    s = scenario()
    s.tram[0] = SP["H0.0"]
    s.passengers[0] = 5
    s.coins[0] = s.cloth[0] = 2
    decide(s, (TRAM, 0, 0))
    s.apply("tram H0.1")
    assert at_rest(s)


# ---------------------------------------------------------------------------- CONSTRUCT A BUILDING
def test_construct_a_building_any_level_on_an_empty_space() -> None:
    s = scenario()
    _citizens(s, {"C01": (U,), "C02": (M,), "C11": (W,)})
    assert {kind for kind, b in construction.legal_builds(s, 0) if b == B["B01"]} == {L1, L2, L3}


def test_building_categories_level_3_scores_7_vp_besides_the_track_value() -> None:
    s = scenario()
    start = s.cerda[0]
    _citizens(s, {"C01": (U,), "C02": (W,), "C11": (W,)})
    _build(s, "build L3 B01", "use C01+C02+C11")
    assert construction.lowest_visible(s) == 2  # the Middle track still shows its 2
    assert s.vp_src[1] == 2 + 7 and s.vp_src[2] == 5
    assert s.cerda[0] == start - 2 and s.sagrada[0] == 2


def test_construct_a_building_step_4_scores_the_lowest_value_left_after_step_3() -> None:
    s = scenario()
    t = s.t
    s.track[M][0] = 1
    # only the Working track still shows a 2
    assert construction.lowest_visible(s) == t.track_values[W][0] == 2
    _citizens(s, {"C01": (W,), "C02": (M,)})
    _build(s, "build L1 B01", "use C01+C02")
    assert s.track[W][0] == 1 and s.track[M][1] == 1
    assert s.vp_src[1] == 3, "the 2 covered by the Working citizen is not scored"


def test_overbuilding_your_own_building_stacks_a_second_marker_of_yours() -> None:
    s = scenario()
    _built(s, "B01", L1, (0,))
    s.markers_left[0:5] = [1, 2, 2, 1, 1]
    _citizens(s, {"C01": (M,), "C02": (W,)})
    _build(s, "build L2 B01", "use C01+C02")
    assert s.bld_tiles[B["B01"]] == (L1, L2)
    assert s.bld_markers[B["B01"]] == (0, 0)
    assert scoring.markers_on_board(s, 0) == 2


def test_overbuilding_takes_no_second_building_bonus() -> None:
    s = scenario()
    _built(s, "B01", L1, (1,))
    s.row_bonus[0] = 0
    _citizens(s, {"C01": (M,), "C02": (W,)})
    _build(s, "build L2 B01", "use C01+C02")
    assert s.vp_src[2] == 0


# ---------------------------------------------------------------------------- CITIZEN TRACKS
def test_citizen_tracks_a_full_section_sends_citizens_to_the_next_section() -> None:
    s = scenario()
    t = s.t
    first = [i for i, section in enumerate(t.track_section[W]) if section == 0]
    for i in first:
        s.track[W][i] = 1
    _citizens(s, {"C01": (W,), "C02": (M,)})
    _build(s, "build L1 B01", "use C01+C02")
    nxt = first[-1] + 1
    assert t.track_section[W][nxt] == 1 and s.track[W][nxt] == 1


# ---------------------------------------------------------------------------- CERDÀ SCORING
def test_cerda_scoring_new_offer_reshuffles_the_discards_when_the_stack_runs_out() -> None:
    s = scenario()
    s.mod_discard = s.mod_stack[:2]
    s.mod_stack = []
    before = {*s.mod_offer, *s.mod_discard}
    for i in range(s.t.track_triggers[U][0] + 1):
        s.track[U][i] = 1
    cerda_scoring.run_cerda_scorings(s)
    assert all(tile >= 0 for tile in s.mod_offer)
    assert len(s.mod_stack) == 2 and s.mod_discard == []
    assert {*s.mod_offer, *s.mod_stack} == before


def test_cerda_scoring_counts_at_the_multiplier_of_each_player_at_that_moment() -> None:
    s = scenario()
    t = s.t
    tile = next(i for i, c in enumerate(t.cerda_condition) if c == "intersections")
    s.cerda_tiles = (tile, *s.cerda_tiles[1:])
    s.inters = [2, 2, 2, 2]
    s.cerda = [t.cerda_multiplier.index(m) for m in (0, 1, 2, 4)]
    for i in range(t.track_triggers[M][0] + 1):
        s.track[M][i] = 1
    cerda_scoring.run_cerda_scorings(s)
    assert s.vp == [t.cerda_vp[tile] * 2 * m for m in (0, 1, 2, 4)]


# ---------------------------------------------------------------------------- SAGRADA FAMÍLIA TRACK
def test_sagrada_familia_tile_resources_in_any_combination() -> None:
    s = scenario()
    _only_sagrada_tile(s, "SF01")  # 2 resources
    decide(s, (SAGRADA, 0, 1))
    assert s.legal_actions() == ["sagrada SF01"]
    s.apply("sagrada SF01")
    assert s.legal_actions() == ["mix coin 2 cloth 0", "mix coin 1 cloth 1", "mix coin 0 cloth 2"]
    s.apply("mix coin 1 cloth 1")
    assert (s.coins[0], s.cloth[0]) == (2, 2)
    assert s.sagrada_tiles[0] == (s.t.sagrada_ids.index("SF01"),)


def test_sagrada_familia_a_slot_without_tiles_of_its_level_gives_nothing() -> None:
    s = scenario()
    for i, level in enumerate(s.t.sagrada_level):
        if level == 1:
            s.sagrada_offer[i] = 0
    s.sagrada[0] = 1
    _citizens(s, {"C01": (M,), "C02": (W,)})
    _build(s, "build L2 B01", "use C01+C02")
    assert s.sagrada[0] == 2 and s.sagrada_tiles[0] == ()
    assert s.turn_player == 1


# ---------------------------------------------------------------------------- GAME END AND FINAL SCORING
def test_game_end_every_player_plays_the_same_number_of_turns() -> None:
    s = new_game(3, 1, first_player=1, action_tiles="printed")
    s.end_triggered = True
    turn.end_turn(s, 2)
    assert not s.ended and s.turn_player == 0
    turn.end_turn(s, 0)
    assert s.ended and s.turns == 2


def test_game_end_triggered_in_the_last_players_turn_ends_at_once() -> None:
    s = scenario(players=3)
    s.turn_player = 2
    s.end_triggered = True
    turn.end_turn(s, 2)
    assert s.is_terminal() and s.current_player() == -1 and s.turns == 1


def test_final_scoring_each_modernisme_tile_at_its_own_multiplier() -> None:
    s = scenario()
    t = s.t
    wide = next(i for i, c in enumerate(t.modernisme_condition) if c == "wide_tiles")
    narrow = next(i for i, c in enumerate(t.modernisme_condition) if c == "narrow_tiles")
    s.mod_tile[0], s.mod_tile[4] = wide, narrow
    s.mod_top[4] = 1
    wide_spaces = [x for x in range(44) if t.space_wide[x]][:2]
    narrow_spaces = [x for x in range(44) if not t.space_wide[x]][:3]
    for x in wide_spaces + narrow_spaces:
        s.space_owner[x] = 0
    game_end.final_scoring(s)
    expected = t.modernisme_vp[wide] * 2 * t.modernisme_bottom[0]
    expected += t.modernisme_vp[narrow] * 3 * t.modernisme_top[4]
    assert s.score_breakdown()[0]["modernisme"] == expected


# ---------------------------------------------------------------------------- APPENDIX
APPENDIX_VP = {
    "longest_block_line": 2,
    "cloth_in_warehouse": 2,
    "coins_in_warehouse": 2,
    "longest_narrow_line": 2,
    "intersections_near_3_buildings": 3,
    "cerda_multiplier": 2,
    "longest_wide_line": 2,
    "public_services": 2,
    "narrow_tiles": 1,
    "passengers_near_2_buildings": 3,
    "wide_tiles": 2,
    "modernisme_markers_top": 2,
    "passengers": 2,
    "cobblestones": 2,
    "intersections": 2,
    "empty_marker_stacks": 3,
    "corner_buildings_different_blocks": 3,
    "modernisme_tiles": 2,
    "bottom_markers_non_corner": 2,
}


def test_appendix_every_scoring_tile_gives_the_vp_per_unit_of_its_condition() -> None:
    t = scenario().t
    assert set(APPENDIX_VP) == set(t.condition_text)
    tiles = [*zip(t.cerda_condition, t.cerda_vp, t.cerda_cap, strict=True)]
    tiles += [*zip(t.modernisme_condition, t.modernisme_vp, t.modernisme_cap, strict=True)]
    for condition, vp, cap in tiles:
        assert vp == APPENDIX_VP[condition], condition
        assert cap == (5 if condition in ("cloth_in_warehouse", "coins_in_warehouse") else 0), condition


@pytest.mark.parametrize("condition", ["coins_in_warehouse", "cloth_in_warehouse"])
def test_appendix_coins_and_cloth_in_warehouse_count_up_to_5(condition: str) -> None:
    s = scenario()
    tile = next(i for i, c in enumerate(s.t.modernisme_condition) if c == condition)
    s.cobbles[0] = 6
    s.coins[0] = s.cloth[0] = 5
    s.mod_tile[0] = tile
    assert scoring.modernisme_vp(s, 0) == 2 * 5 * s.t.modernisme_bottom[0]
    s.coins[0] = s.cloth[0] = 7
    assert scoring.modernisme_vp(s, 0) == 2 * 5 * s.t.modernisme_bottom[0]
    s.coins[0] = s.cloth[0] = 3
    assert scoring.modernisme_vp(s, 0) == 2 * 3 * s.t.modernisme_bottom[0]


def test_appendix_longest_line_of_blocks_also_counts_vertically() -> None:
    s = scenario()
    _built(s, "B01", L1, (0,))
    _built(s, "B11U", CORNER, (0,))
    _built(s, "B21", L2, (2, 0))
    _built(s, "B03", L1, (0,))
    assert scoring.longest_block_line(s, 0) == 3


# ---------------------------------------------------------------------------- RULINGS (barcelona-facts.md)
def test_ruling_3_cerda_step_backs_come_before_the_sagrada_tile() -> None:
    s = scenario()
    _only_sagrada_tile(s, "SF03")  # 1 Cerdà step and 2 VP
    s.cerda[0] = 0
    s.sagrada[0] = 1
    s.markers_left[0:5] = [0, 0, 0, 0, 0]
    _citizens(s, {"C01": (M,), "C02": (W,)})
    _build(s, "build L2 B01", "use C01+C02")
    assert s.cerda[0] == 0, "the step back is ignored at the bottom"
    s.apply("sagrada SF03")
    assert s.cerda[0] == 1, "the tile's step comes after the step back"


def test_ruling_4_the_bag_is_public_and_the_same_in_every_view() -> None:
    s = new_game(4, 8)
    bags = [s.view(viewer)["bag"] for viewer in (None, 0, 1, 2, 3)]
    assert all(bag == {"W": s.bag[0], "M": s.bag[1], "U": s.bag[2]} for bag in bags)
    sizes = [p["hand_size"] for p in s.view(None)["player_list"]]
    assert sizes == [2, 2, 2, 2]


def test_ruling_7_an_empty_bag_gives_what_is_left() -> None:
    s = scenario()
    s.hands[0] = ()
    s.bag = [0, 1, 0]
    turn.end_turn(s, 0)
    assert s.hands[0] == (M,) and s.bag == [0, 0, 0]


def test_ruling_7_a_player_who_cannot_place_citizens_skips_that_step() -> None:
    s = scenario()
    s.hands[0] = ()
    s._legal = None
    s._settle()
    assert s.turn_player == 1 and len(s.hands[0]) == 2


# ---------------------------------------------------------------------------- ENGINE RULINGS
def test_engine_ruling_drawing_tops_the_hand_up_to_two() -> None:
    s = scenario()
    s.hands[0] = (U,)
    turn.end_turn(s, 0)
    assert len(s.hands[0]) == 2 and s.hands[0][0] == U


def test_engine_ruling_a_round_in_which_nobody_can_place_or_build_ends_the_game() -> None:
    """The idle end (issue 14, point 4): a whole round in which nobody places citizens or builds
    ends the game after that round; every Cerdà Scoring tile not scored yet is scored then, in
    section order, before the final scoring."""
    s = scenario(players=2)
    s.bag = [0, 0, 0]
    s.hands = [(), ()]
    condition = s.t.cerda_condition
    s.cerda_tiles = (s.cerda_tiles[0], condition.index("public_services"), condition.index("intersections"))
    s.services_built = [0b11, 0b1]  # 2 and 1 Public Services
    s.inters = [1, 3]
    s.cerda_scored = [1, 0, 0]
    expected = [2 * 2 + 2 * 1, 2 * 1 + 2 * 3]  # 2 VP each, at multiplier x1 (the start)
    assert s.cerda == [s.t.cerda_start] * 2, "disks on the start: the reset after the second changes nothing"
    s._legal = None
    s._settle()
    assert s.ended and s.turns == 2
    assert any("Nobody can place citizens or build" in line for line in s.log_text())
    assert s.cerda_scored == [1, 1, 1]
    assert [line.split(" (")[0] for line in s.log_text() if line.startswith("Cerdà Scoring")] == [
        "Cerdà Scoring 2",
        "Cerdà Scoring 3",
    ]
    assert [b["cerda_scoring"] for b in s.score_breakdown()] == expected


def test_engine_ruling_the_idle_end_scores_nothing_twice() -> None:
    s = scenario(players=2)
    s.bag = [0, 0, 0]
    s.hands = [(), ()]
    s.cerda_scored = [1, 1, 1]
    s._legal = None
    s._settle()
    assert s.ended and not any(line.startswith("Cerdà Scoring") for line in s.log_text())
    assert all(b["cerda_scoring"] == 0 for b in s.score_breakdown())


def test_engine_ruling_the_second_narrow_tile_is_placed_when_possible_else_only_one() -> None:
    s = scenario()
    s.narrow_left[0:2] = [0, 1]
    cerda = s.cerda[0]
    decide(s, (STREET_KIND, 0))
    s.apply("streets narrow")
    s.apply("street V0.1")
    assert at_rest(s), "one tile left: the action places one"
    assert s.cerda[0] == cerda + 1


def test_engine_ruling_every_track_space_covered_scores_the_highest_printed_value() -> None:
    s = scenario()
    s.track = [[1] * len(track) for track in s.track]
    assert construction.lowest_visible(s) == max(max(values) for values in s.t.track_values)


def test_engine_ruling_sagrada_steps_are_taken_at_once_and_stop_at_the_top() -> None:
    s = scenario()
    top = s.t.sagrada_top
    s.sagrada[0] = top - 1
    _citizens(s, {"C01": (U,), "C02": (W,), "C11": (W,)})
    _build(s, "build L3 B01", "use C01+C02+C11")
    assert s.sagrada[0] == top
    assert s.decision_kind() == "sagrada_tile"
    assert {s.t.sagrada_level[s.t.sagrada_ids.index(a.split()[1])] for a in s.legal_actions()} == {
        s.t.sagrada_slot_level[top]
    }


def test_engine_ruling_a_tram_may_end_on_the_street_of_another_tram() -> None:
    s = scenario()
    s.tram[0] = SP["H0.0"]
    s.tram[1] = SP["H0.3"]
    destinations = {board.SPACES[d] for d in actions.tram_destinations(s, 0)}
    assert {"H0.1", "H0.2"} <= destinations and "H0.3" not in destinations


def test_engine_ruling_a_public_service_whose_effect_cannot_be_used_is_still_built() -> None:
    s = scenario()
    assert s.t.service_ids[3] == "passeig" and 3 in s.services
    s.narrow_left[0:2] = [0, 0]
    s.wide_left[0] = 0
    s.coins[0] = 3
    cerda = s.cerda[0]
    decide(s, (SERVICE, 0))
    s.apply("service passeig")
    assert s.vp[0] == 10 and s.cerda[0] == cerda + 2 and s.services_built[0] == 1 << 3
    assert at_rest(s)


def test_engine_ruling_a_printed_action_that_cannot_be_performed_is_skipped() -> None:
    s = scenario()
    s.inters[0] = 5
    decide(s, (COBBLE, 0, 1))
    assert s.t.sidewalk_benefit[board.SIDEWALK_INDEX["S24"]].action == "intersection"  # type: ignore[union-attr]
    s.apply("cobble S24")
    assert s.cobbles[0] == 1 and at_rest(s)


def test_take_a_modernisme_project_the_stack_is_rebuilt_as_soon_as_it_would_become_empty() -> None:
    """Take a Modernisme Project: "If at any point the Modernisme tiles stack would become empty,
    reshuffle the discarded tiles to create a new stack" (issue 14, point 2)."""
    s = scenario()
    last, discarded = s.mod_stack[0], s.mod_stack[1]
    s.mod_stack, s.mod_discard = [last], [discarded]
    decide(s, (TAKE, 0, 1))
    s.apply(s.legal_actions()[0])
    assert last in s.mod_offer, "the last tile of the stack refills the offer"
    assert s.mod_stack == [discarded] and s.mod_discard == [], "and the discards are the new stack at once"
    decide(s, (TAKE, 0, 1))
    s.apply(s.legal_actions()[0])
    assert discarded in s.mod_offer and s.mod_stack == [] and s.mod_discard == []


def test_cerda_scoring_the_tiles_it_discards_do_not_come_straight_back() -> None:
    """Cerdà Scoring: the offer is discarded and four tiles revealed from the stack, which was rebuilt
    when its last tile was drawn, so the tiles just discarded wait in the discards."""
    s = scenario()
    last, earlier = s.mod_stack[0], s.mod_stack[1:6]
    s.mod_stack, s.mod_discard = [last], list(earlier)
    decide(s, (TAKE, 0, 1))
    s.apply(s.legal_actions()[0])
    assert sorted(s.mod_stack) == sorted(earlier) and s.mod_discard == []
    shown = [tile for tile in s.mod_offer if tile >= 0]
    for i in range(s.t.track_triggers[U][0] + 1):
        s.track[U][i] = 1
    cerda_scoring.run_cerda_scorings(s)
    assert set(s.mod_offer) <= set(earlier), "the new offer comes from the rebuilt stack"
    assert sorted(s.mod_discard) == sorted(shown), "the discarded offer stays discarded"
    assert len(s.mod_stack) == 1




# ---------------------------------------------------------------------------- declining costly actions
COSTLY = ("intersection", "improve_modernisme", "take_modernisme", "public_service")


@pytest.mark.parametrize("kind", COSTLY)
def test_playing_the_game_a_costly_action_granted_by_a_benefit_can_be_declined(kind: str) -> None:
    """Playing the Game: "If you cannot or are not willing to pay the costs of performing an
    action, then you cannot take that action" (issue 14, point 1), as rules 2 has it: whatever
    the choices cost (rules 3: test_versions.py)."""
    from eixample.games.barcelona import actions

    s = scenario(rules=2)
    s.coins[0], s.cloth[0] = 3, 1
    s.stack = [(ACTIONS, 0, 0, 0)]
    actions.gain(s, 0, Benefit(action=kind))
    s._legal = None
    s._settle()
    legal = s.legal_actions()
    assert legal[-1] == "decline" and len(legal) > 1, "the action's choices, and decline"
    before = (s.coins[:], s.cloth[:], s.vp[:], s.inters[:], s.mod_top[:], s.mod_tile[:], s.services_built[:])
    s.apply("decline")
    assert at_rest(s)
    assert (s.coins, s.cloth, s.vp, s.inters, s.mod_top, s.mod_tile, s.services_built) == before
    assert s.log_text()[-1].startswith("P1 declines the ")


def test_place_cobblestone_s44_grants_a_public_service_that_may_be_declined() -> None:
    """The audit's case: `cobble S44` used to leave only paid Public Service choices."""
    s = scenario()
    s.coins[0] = 3
    assert s.t.sidewalk_benefit[board.SIDEWALK_INDEX["S44"]].action == "public_service"  # type: ignore[union-attr]
    decide(s, (COBBLE, 0, 1))
    s.apply("cobble S44")
    legal = s.legal_actions()
    assert "decline" in legal and all(a.startswith("service ") for a in legal if a != "decline")
    s.apply("decline")
    assert at_rest(s) and s.coins[0] == 3 and s.cobbles[0] == 1 and s.services_built[0] == 0


@pytest.mark.parametrize(
    "frame",
    [(INTERSECTION, 0, 0), (SERVICE, 0), (TAKE, 0, 0), (INTERSECTION, 0, 1), (TAKE, 0, 1)],
    ids=["crossing intersection", "crossing service", "crossing take", "hospital", "operations"],
)
def test_actions_an_action_the_player_chose_or_a_public_service_performs_has_no_decline(
    frame: tuple[int, ...],
) -> None:
    """A crossing's action is declined by not choosing it ("end actions"); the actions a Public
    Service performs ignore their costs and are part of its benefit."""
    s = scenario()
    s.coins[0], s.cloth[0] = 3, 1
    decide(s, frame)
    assert s.legal_actions() and "decline" not in s.legal_actions()


def test_actions_a_granted_costly_action_that_cannot_be_paid_is_not_offered() -> None:
    from eixample.games.barcelona import actions

    s = scenario()
    s.coins[0] = 0
    s.stack = [(ACTIONS, 0, 0, 0)]
    actions.gain(s, 0, Benefit(action="public_service"))
    s._legal = None
    s._settle()
    assert at_rest(s), "nothing to pay with: no decision at all"


# ---------------------------------------------------------------------------- Sagrada steps ("may")
def test_sagrada_familia_track_a_step_is_never_worth_declining() -> None:
    """Sagrada Família track: "you may move it to the next space". The engine moves without asking;
    docs/rules-coverage.md proves that declining never helps, from these premises: a tile gives only
    VP, resources and Cerdà steps (never an action or anything negative), and a Cerdà disk that is
    further up never ends lower nor with fewer VP, whatever moves follow."""
    s = scenario()
    t = s.t
    for benefit in t.sagrada_benefit:
        assert benefit is not None and benefit.action is None
        gains = (benefit.vp, benefit.coin, benefit.cloth, benefit.resource, benefit.cerda, benefit.sagrada)
        assert min(gains) >= 0
    moves = (3, -2, 1, -1, 2, -3, 4)
    results = []
    for start in range(t.cerda_top + 1):
        s.cerda[0], s.vp[0] = start, 0
        for steps in moves:
            tracks.cerda_step(s, 0, steps)
            s.cerda[0] = min(s.cerda[0], t.cerda_start) if steps == -3 else s.cerda[0]  # a reset
        results.append((s.cerda[0], s.vp[0]))
    assert all(a[0] <= b[0] and a[1] <= b[1] for a, b in itertools.pairwise(results))
