"""One test per rule, named after its rulebook section (see docs/rules-coverage.md)."""

from __future__ import annotations

import pytest

from eixample.core.errors import IllegalActionError
from eixample.games.barcelona import actions, board, construction, new_game, tracks
from eixample.games.barcelona.components import ACTION_KINDS
from eixample.games.barcelona.frames import (
    ACTIONS,
    BUILD,
    COBBLE,
    DISCARD,
    GAIN,
    IMPROVE,
    INTERSECTION,
    PASSENGER,
    SERVICE,
    STREET,
    STREET_KIND,
    TAKE,
    TRAM,
)
from eixample.games.barcelona.state import NSRC
from eixample.games.barcelona.tables import CORNER, L1, L2, L3
from tests.games.barcelona.helpers import at_rest, decide, scenario, street_with

W, M, U = 0, 1, 2
X = board.CROSSING_INDEX
SP = board.SPACE_INDEX
B = board.BUILDING_INDEX


# ---------------------------------------------------------------------------- GAME SETUP
@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_citizen_tracks_prefilled_by_player_count(players: int) -> None:
    s = new_game(players, 3)
    for k in range(3):
        marks = s.t.track_prefill[k]
        expected = [1 if (m == 3 and players <= 3) or (m == 2 and players == 2) else 0 for m in marks]
        assert s.track[k] == expected
        in_hands = sum(h.count(k) for h in s.hands)
        assert s.bag[k] + in_hands + sum(expected) == s.t.citizen_counts[k]


def test_setup_three_cerda_tiles_and_their_modernisme_twins_removed() -> None:
    s = new_game(4, 5)
    assert len(set(s.cerda_tiles)) == 3
    twins = {s.t.cerda_twin[c] for c in s.cerda_tiles}
    in_game = set(s.mod_stack) | set(s.mod_offer)
    assert not twins & in_game
    assert len(in_game) == len(s.t.modernisme_ids) - 3


def test_setup_modernisme_offer_of_four_face_up() -> None:
    s = new_game(3, 2)
    assert len(s.mod_offer) == 4 and all(m >= 0 for m in s.mod_offer)


@pytest.mark.parametrize(("players", "tiles"), [(2, 2), (3, 3), (4, 3)])
def test_setup_five_public_services_without_the_cheapest_with_2_players(players: int, tiles: int) -> None:
    s = new_game(players, 9)
    assert len(s.services) == 5 and len(set(s.services)) == 5
    assert s.service_left == [tiles] * 5


def test_setup_player_boards() -> None:
    s = new_game(4, 1)
    t = s.t
    for p in range(4):
        assert (s.coins[p], s.cloth[p]) == (1, 1)
        assert s.cobbles[p] == 0 and s.capacity(p) == t.warehouse_open
        assert s.narrow_left[p * 2 : p * 2 + 2] == [4, 6] and s.wide_left[p] == 5
        assert s.markers_left[p * 5 : p * 5 + 5] == [2, 2, 2, 1, 1]
        assert s.cerda[p] == t.cerda_start and s.sagrada[p] == 0 and s.vp[p] == 0
        assert s.tram[p] == -1 and s.passengers[p] == 0 and s.inters[p] == 0


def test_setup_each_player_draws_two_hidden_citizens() -> None:
    s = new_game(4, 1)
    assert all(len(h) == 2 for h in s.hands)
    assert s.view(0)["player_list"][1]["hand"] is None
    assert s.view(1)["player_list"][1]["hand"] is not None


def test_setup_printed_or_shuffled_action_tiles() -> None:
    printed = new_game(4, 1, action_tiles="printed")
    assert printed.street_action == printed.t.printed_actions
    shuffled = {new_game(4, seed).street_action for seed in range(6)}
    assert len(shuffled) > 1
    for tiles in shuffled:
        assert sorted(tiles) == sorted(printed.t.action_tiles)


def test_setup_rejects_bad_options() -> None:
    for bad in ({"players": 5}, {"players": 4, "action_tiles": "random"}, {"players": 4, "colour": 1}):
        players = bad.pop("players")
        with pytest.raises(ValueError):
            new_game(players, 1, **bad)


# ---------------------------------------------------------------------------- PLACING CITIZENS
def test_placing_citizens_only_on_crossings_without_citizens() -> None:
    s = scenario()
    s.cross_cit[X["C12"]] = (W,)
    s._legal = None
    assert "place C12" not in s.legal_actions()
    assert "place C13" in s.legal_actions() or s.coins[0] < 1


def test_placing_citizens_pays_the_crossing_cost_first() -> None:
    s = scenario()
    s.hands[0] = (M, M)
    s.coins[0] = 1
    costly = next(x for x in range(25) if s.t.crossing_cost[x] == 1)
    s.apply(f"place {board.CROSSINGS[costly]}")
    assert s.coins[0] == 0
    assert s.cross_cit[costly] == (M, M)


def test_placing_citizens_not_possible_without_the_coins() -> None:
    s = scenario()
    s.coins[0] = 0
    s._legal = None
    costly = [board.CROSSINGS[x] for x in range(25) if s.t.crossing_cost[x] > 0]
    assert not set(costly) & {a.split()[1] for a in s.legal_actions()}


def test_placing_citizens_in_an_order_of_your_choosing() -> None:
    s = scenario()
    s.hands[0] = (W, U)
    s._legal = None
    s.apply("place C12")
    assert s.legal_actions() == ["top W", "top U"]
    s.apply("top W")
    assert s.cross_cit[X["C12"]] == (U, W)


def test_placing_citizens_reveals_them_and_empties_the_hand() -> None:
    s = scenario()
    s.hands[0] = (W, U)
    s._legal = None
    s.apply("place C12")
    s.apply("top U")
    assert s.hands[0] == ()
    assert s.view(1)["city"]["crossings"][X["C12"]]["citizens"] == ["W", "U"]


def test_crossing_actions_each_once_in_any_order_and_optional() -> None:
    s = scenario()
    s.hands[0] = (W, W)
    s._legal = None
    s.apply("place C11")  # on the diagonal: vertical, horizontal and diagonal actions
    acts = [a for a in s.legal_actions() if a.startswith("act ")]
    assert {a.split()[1] for a in acts} <= {"V1", "H1", "D"}
    assert "end actions" in s.legal_actions()
    first = acts[-1]
    s.apply(first)
    while s.stack[-1][0] != ACTIONS:
        s.apply(s.legal_actions()[0])
    assert first not in s.legal_actions()
    s.apply("end actions")
    assert s.stack[-1][0] != ACTIONS


def test_a_crossing_off_the_diagonal_has_two_actions() -> None:
    s = scenario()
    s.hands[0] = (W, W)
    s._legal = None
    s.apply("place C12")
    acts = {a.split()[1] for a in s.legal_actions() if a.startswith("act ")}
    assert acts <= {"V2", "H1"}


def test_an_action_whose_cost_cannot_be_paid_is_not_available() -> None:
    s = scenario()
    improve = street_with(s, "improve_modernisme")
    x = next(x for x in range(25) if improve in board.CROSSING_STREETS[x] and s.t.crossing_cost[x] == 0)
    s.cloth[0] = 0
    for i in range(5):
        s.mod_top[i] = 1 if s.t.modernisme_improve[i] == 0 else 0
    s.hands[0] = (W, W)
    s._legal = None
    s.apply(f"place {board.CROSSINGS[x]}")
    assert not any(a.endswith("improve_modernisme") for a in s.legal_actions())


# ---------------------------------------------------------------------------- INTERSECTIONS (benefits)
@pytest.mark.parametrize(("built", "allowed"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3)])
def test_intersection_owner_chooses_1_2_3_different_benefits(built: int, allowed: int) -> None:
    s = scenario()
    s.inters[1] = built
    s.cross_owner[X["C12"]] = 1
    s.hands[0] = (W, W)
    s._legal = None
    s.apply("place C12")
    assert s.current_player() == 1, "the Intersection's owner decides, on the placing player's turn"
    sizes = {len(a.split()[1].split("+")) for a in s.legal_actions() if a != "benefits none"}
    assert max(sizes) == min(allowed, built)
    assert "benefits none" in s.legal_actions()
    s.apply(s.legal_actions()[-1])
    assert s.current_player() == 0


def test_placing_on_an_intersection_ignores_the_crossing_cost() -> None:
    s = scenario()
    costly = next(x for x in range(25) if s.t.crossing_cost[x] == 1)
    s.cross_owner[costly] = 2
    s.inters[2] = 1
    s.coins[0] = 0
    s.hands[0] = (W, W)
    s._legal = None
    assert f"place {board.CROSSINGS[costly]}" in s.legal_actions()


# ---------------------------------------------------------------------------- GAIN CLOTH/COINS
def test_gain_cloth_gives_1_cloth_and_3_vp() -> None:
    s = decide(scenario(), (GAIN, 0))
    s.apply("gain cloth")
    assert (s.cloth[0], s.vp[0], s.coins[0]) == (2, 3, 1)


def test_gain_coins_gives_2_coins() -> None:
    s = decide(scenario(), (GAIN, 0))
    s.apply("gain coins")
    assert (s.coins[0], s.vp[0]) == (3, 0)


def test_warehouse_overflow_lets_the_player_choose_what_to_return() -> None:
    s = scenario()
    s.coins[0], s.cloth[0] = 2, s.capacity(0) - 2
    decide(s, (GAIN, 0))
    s.apply("gain coins")
    assert s.stack[-1][0] == DISCARD and s.legal_actions() == ["discard coin", "discard cloth"]
    s.apply("discard cloth")
    s.apply("discard cloth")
    assert s.coins[0] + s.cloth[0] == s.capacity(0) and s.coins[0] == 4
    assert at_rest(s)


# ---------------------------------------------------------------------------- PLACE COBBLESTONE
def test_cobblestone_next_to_another_cobblestone_gains_the_printed_benefit() -> None:
    s = decide(scenario(), (COBBLE, 0, 0))
    start = s.t.sidewalk_start
    options = {board.SIDEWALK_INDEX[a.split()[1]] for a in s.legal_actions()}
    assert options == set(board.SIDEWALK_NEIGHBOURS[start])
    target = sorted(options)[0]
    benefit = s.t.sidewalk_benefit[target]
    s.apply(f"cobble {board.SIDEWALK[target]}")
    assert s.sidewalk[target] == 0 and s.cobbles[0] == 1
    if benefit is not None and benefit.vp:
        assert s.vp[0] == benefit.vp


def test_cobblestone_frees_a_warehouse_space_and_shows_its_end_value() -> None:
    s = scenario()
    before = s.capacity(0)
    decide(s, (COBBLE, 0, 0))
    s.apply(s.legal_actions()[0])
    assert s.capacity(0) == before + 1
    assert s.view(0)["player_list"][0]["cobblestone_vp_now"] == s.t.cobblestone_vp[1]


def test_cobblestone_not_available_when_the_warehouse_has_none_left() -> None:
    s = scenario()
    s.cobbles[0] = 6
    decide(s, (COBBLE, 0, 0))
    assert at_rest(s)


# ---------------------------------------------------------------------------- BUILD WIDE/NARROW STREETS
def test_streets_only_on_dedicated_spaces_of_their_width() -> None:
    s = decide(scenario(), (STREET_KIND, 0))
    assert s.legal_actions() == ["streets wide", "streets narrow"]
    s.apply("streets wide")
    spaces = [SP[a.split()[1]] for a in s.legal_actions()]
    assert spaces and all(s.t.space_wide[x] for x in spaces)


def test_streets_narrow_places_two_tiles_scoring_1_vp_per_connected_tile() -> None:
    s = decide(scenario(), (STREET_KIND, 0))
    s.apply("streets narrow")
    narrow = [sp for sp in range(44) if not s.t.space_wide[sp]]
    street = board.STREET_SPACES[board.SPACE_STREET[narrow[0]]]
    s.space_owner[street[0]] = 3  # another player's tile: ownership does not matter
    s._legal = None
    s.apply(f"street {board.SPACES[street[1]]}")
    assert s.vp_src[0 * NSRC] == 2  # a line of 2
    s.apply(f"street {board.SPACES[street[2]]}")
    assert s.vp_src[0 * NSRC] == 2 + 3


def test_streets_wide_scores_2_vp_per_connected_tile() -> None:
    s = decide(scenario(), (STREET_KIND, 0))
    s.apply("streets wide")
    diagonal = board.STREET_SPACES[board.DIAGONAL]
    s.space_owner[diagonal[0]] = 1
    s.space_owner[diagonal[2]] = 2
    s._legal = None
    s.apply(f"street {board.SPACES[diagonal[1]]}")
    assert s.vp_src[0] == 2 * 3
    assert at_rest(s) or s.stack[-1][0] != STREET


def test_streets_covered_benefits_are_gained() -> None:
    s = scenario()
    coin_space = next(
        x for x in range(44) if not s.t.space_wide[x] and (b := s.t.space_benefit[x]) and b.coin
    )
    decide(s, (STREET, 0, 0, 1))
    before = s.coins[0]
    s.apply(f"street {board.SPACES[coin_space]}")
    assert s.coins[0] == before + s.t.space_benefit[coin_space].coin  # type: ignore[union-attr]


def test_streets_emptied_stack_advances_on_the_cerda_track() -> None:
    s = scenario()
    s.narrow_left[0:2] = [1, 6]
    decide(s, (STREET, 0, 0, 1))
    empty = next(x for x in range(44) if not s.t.space_wide[x] and s.t.space_benefit[x] is None)
    before = s.cerda[0]
    s.apply(f"street {board.SPACES[empty]}")
    assert s.cerda[0] == before + 1
    s.wide_left[0] = 1
    decide(s, (STREET, 0, 1, 1))
    wide_empty = next(
        x for x in range(44) if s.t.space_wide[x] and s.space_owner[x] < 0 and s.t.space_benefit[x] is None
    )
    s.apply(f"street {board.SPACES[wide_empty]}")
    assert s.cerda[0] == before + 3


def test_streets_take_tiles_from_the_leftmost_stack() -> None:
    s = decide(scenario(), (STREET, 0, 0, 2))
    s.apply(s.legal_actions()[0])
    assert s.narrow_left[0:2] == [3, 6]


# ---------------------------------------------------------------------------- BUILD AN INTERSECTION
def test_intersection_pays_board_cost_and_space_cost_even_under_citizens() -> None:
    s = scenario()
    s.inters[0] = 2  # the next one is the third: 2 coins on the player board
    costly = next(x for x in range(25) if s.t.crossing_cost[x] == 1)
    s.cross_cit[costly] = (W, M)
    s.coins[0] = 3
    decide(s, (INTERSECTION, 0, 0))
    s.cloth[0] = 0
    gained = sum(b.coin for sp in board.CROSSING_SPACES[costly] if (b := s.t.space_benefit[sp]) is not None)
    s.apply(f"intersection {board.CROSSINGS[costly]}")
    assert s.cross_owner[costly] == 0 and s.cross_cit[costly] == (W, M)
    assert s.coins[0] == 3 - 2 - 1 + gained and s.inters[0] == 3


def test_intersection_not_available_without_the_coins() -> None:
    s = scenario()
    s.inters[0] = 2
    s.coins[0] = 1
    decide(s, (INTERSECTION, 0, 0))
    assert at_rest(s)


def test_intersection_gains_only_visible_adjacent_benefits() -> None:
    s = scenario()
    x = X["C13"]
    covered = next(sp for sp in board.CROSSING_SPACES[x] if s.t.space_benefit[sp] is not None)
    s.space_owner[covered] = 2
    s.coins[0], s.cloth[0] = 3, 0
    decide(s, (INTERSECTION, 0, 0))
    before = (s.coins[0], s.cerda[0])
    s.apply("intersection C13")
    gained_coins = sum(
        (s.t.space_benefit[sp].coin if s.t.space_benefit[sp] else 0)  # type: ignore[union-attr]
        for sp in board.CROSSING_SPACES[x]
        if sp != covered
    )
    assert s.coins[0] == before[0] - 1 + gained_coins


def test_intersection_not_on_a_crossing_with_an_intersection() -> None:
    s = scenario()
    s.cross_owner[X["C22"]] = 1
    decide(s, (INTERSECTION, 0, 0))
    assert "intersection C22" not in s.legal_actions()


# ---------------------------------------------------------------------------- MODERNISME
def test_improve_moves_exactly_one_bottom_marker_to_its_top_position() -> None:
    s = scenario()
    s.mod_top[0] = 1
    s.cloth[0] = 3
    decide(s, (IMPROVE, 0))
    assert "improve 1" not in s.legal_actions()
    s.apply("improve 2")
    assert s.mod_top[0:5] == [1, 1, 0, 0, 0] and s.cloth[0] == 3 - s.t.modernisme_improve[1]


def test_improve_works_without_a_tile_in_the_space() -> None:
    s = decide(scenario(), (IMPROVE, 0))
    assert "improve 1" in s.legal_actions() and s.mod_tile[0] == -1


def test_take_needs_an_empty_project_space_and_refills_the_offer() -> None:
    s = scenario()
    for i in range(4):
        s.mod_tile[i] = 100 + i
    s.coins[0], s.cloth[0] = 0, 4
    decide(s, (TAKE, 0, 0))
    assert {a.split()[-1] for a in s.legal_actions()} == {"5"}
    offered = s.mod_offer[:]
    top_of_stack = s.mod_stack[-1]
    action = s.legal_actions()[0]
    s.apply(action)
    taken = s.t.modernisme_ids.index(action.split()[1])
    assert s.mod_tile[4] == taken
    assert s.mod_offer[offered.index(taken)] == top_of_stack
    assert s.cloth[0] == 4 - s.t.modernisme_take[4]


def test_take_not_possible_with_all_project_spaces_full() -> None:
    s = scenario()
    for i in range(5):
        s.mod_tile[i] = 100 + i
    decide(s, (TAKE, 0, 0))
    assert at_rest(s)


def test_take_reshuffles_discards_when_the_stack_runs_out() -> None:
    s = scenario()
    s.mod_discard = s.mod_stack[:]
    s.mod_stack = []
    decide(s, (TAKE, 0, 1))
    s.apply(s.legal_actions()[0])
    assert all(m >= 0 for m in s.mod_offer)
    assert s.mod_discard == []


# ---------------------------------------------------------------------------- PUBLIC SERVICES
def _service_scenario(effect: str) -> tuple[object, int]:
    s = scenario()
    idx = next(
        i
        for i, e in enumerate(s.t.service_effect)
        if ("market", "tram", "intersection", "streets", "cobblestone", "sagrada", "modernisme")[e] == effect
    )
    s.services = (idx, *[i for i in range(7) if i != idx][:4])
    s.coins[0] = 3
    return s, idx


@pytest.mark.parametrize(
    "effect", ["market", "tram", "intersection", "streets", "cobblestone", "sagrada", "modernisme"]
)
def test_public_service_pays_gains_vp_two_cerda_steps_and_its_effect(effect: str) -> None:
    s, idx = _service_scenario(effect)
    assert isinstance(s, type(scenario()))
    s.cloth[0] = 0
    if effect == "market":
        s.bld_markers[B["B01"]] = (0,)
        s.bld_markers[B["B00U"]] = (0,)
        s.bld_markers[B["B00L"]] = (0,)
        s.bld_type[B["B01"]] = L1
        s.bld_type[B["B00U"]] = s.bld_type[B["B00L"]] = CORNER
    cerda = s.cerda[0]
    decide(s, (SERVICE, 0))
    s.apply(f"service {s.t.service_ids[idx]}")
    assert s.coins[0] == 0 and s.vp[0] == 10 and s.cerda[0] == cerda + 2
    assert s.services_built[0] >> idx & 1
    top = s.stack[-1][0]
    expected = {
        "tram": TRAM,
        "intersection": INTERSECTION,
        "streets": STREET_KIND,
        "cobblestone": COBBLE,
        "modernisme": TAKE,
    }
    if effect in expected:
        assert top == expected[effect]
    if effect == "market":
        assert s.cloth[0] == 2  # two blocks: B01 and B00 (both triangles count as one block)
    if effect == "sagrada":
        assert s.sagrada[0] == 2
    if effect == "intersection":
        assert s.stack[-1][2] == 1  # free: every coin cost ignored
        s.inters[0] = 2
        s.coins[0] = 0
        s._legal = None
        assert len(s.legal_actions()) == 25
    if effect == "cobblestone":
        assert len(s.legal_actions()) == 24  # anywhere on the sidewalk
    if effect == "modernisme":
        s.mod_tile[0:4] = [100, 101, 102, 103]
        s._legal = None
        assert s.legal_actions() and all(a.endswith("into 5") for a in s.legal_actions())


def test_public_service_each_type_at_most_once_and_prices_fall() -> None:
    s, idx = _service_scenario("streets")
    decide(s, (SERVICE, 0))
    s.apply(f"service {s.t.service_ids[idx]}")
    s.coins[0] = 3
    decide(s, (SERVICE, 0))
    assert f"service {s.t.service_ids[idx]}" not in s.legal_actions()
    s.coins[1] = 2
    decide(s, (SERVICE, 1))
    s.apply(f"service {s.t.service_ids[idx]}")
    assert s.vp[1] == 6 and s.coins[1] == 0


def test_estacio_de_franca_ignores_only_the_passenger_coin_cost() -> None:
    s, idx = _service_scenario("tram")
    decide(s, (SERVICE, 0))
    s.apply(f"service {s.t.service_ids[idx]}")
    s.passengers[0] = 1  # next passenger costs coins
    s.apply(s.legal_actions()[0])
    assert s.stack[-1][0] == PASSENGER
    coins_needed, cloth_needed = s.t.passenger_cost[1]
    s.cloth[0] = cloth_needed
    s._legal = None
    assert "passenger" in s.legal_actions()
    s.apply("passenger")
    assert s.coins[0] == 0 and s.cloth[0] == 0 and coins_needed > 0


# ---------------------------------------------------------------------------- MOVE YOUR TRAM
def test_tram_first_placement_anywhere_without_tram_or_passenger() -> None:
    s = scenario()
    s.tram[1] = SP["V0.0"]
    s.space_passenger[SP["V0.1"]] = 2
    decide(s, (TRAM, 0, 0))
    spaces = {a.split()[1] for a in s.legal_actions()}
    assert len(spaces) == 42 and "V0.0" not in spaces and "V0.1" not in spaces


def test_tram_moves_one_or_two_counted_spaces() -> None:
    s = scenario()
    s.tram[0] = SP["V2.1"]
    destinations = set(actions.tram_destinations(s, 0))
    one = set(board.SPACE_NEIGHBOURS[SP["V2.1"]])
    two = {t for m in one for t in board.SPACE_NEIGHBOURS[m]} - {SP["V2.1"]}
    assert destinations == one | two
    assert SP["V2.1"] not in destinations


def test_tram_moves_free_through_own_street_tiles() -> None:
    s = scenario()
    s.tram[0] = SP["H0.0"]
    for name in ("H0.1", "H0.2", "H0.3"):
        s.space_owner[SP[name]] = 0
    destinations = {board.SPACES[d] for d in actions.tram_destinations(s, 0)}
    assert "H0.3" in destinations  # 0 counted steps along own tiles
    assert "V4.1" in destinations  # then two counted steps down V4
    assert "V4.2" not in destinations


def test_tram_cannot_end_on_another_tram_but_may_pass_it() -> None:
    s = scenario()
    s.tram[0] = SP["H0.0"]
    s.tram[1] = SP["H0.1"]
    destinations = {board.SPACES[d] for d in actions.tram_destinations(s, 0)}
    assert "H0.1" not in destinations and "H0.2" in destinations


def test_passenger_on_a_street_tile_scores_it_again_for_its_owner() -> None:
    s = scenario()
    s.space_owner[SP["V1.0"]] = 2
    s.space_owner[SP["V1.1"]] = 2
    s.tram[0] = SP["V1.2"]
    s.cloth[0] = 1
    decide(s, (TRAM, 0, 0))
    s.apply("tram V1.1")
    s.apply("passenger")
    assert s.vp[2] == 2  # a narrow line of two
    assert s.space_passenger[SP["V1.1"]] == 0 and s.passengers[0] == 1 and s.cloth[0] == 0
    assert any(a.startswith("act V1 ") for a in s.legal_actions()) and "skip action" in s.legal_actions()


def test_passenger_not_where_another_passenger_is() -> None:
    s = scenario()
    s.space_passenger[SP["V1.1"]] = 1
    s.tram[0] = SP["V1.2"]
    decide(s, (TRAM, 0, 0))
    s.apply("tram V1.1")
    assert at_rest(s)


# ---------------------------------------------------------------------------- CONSTRUCT A BUILDING
def _ready_to_build(s: object, crossings: dict[str, tuple[int, ...]]) -> None:
    for name, stack in crossings.items():
        s.cross_cit[X[name]] = stack  # type: ignore[attr-defined]


def test_building_is_mandatory_when_possible() -> None:
    s = scenario()
    _ready_to_build(s, {"C01": (W,), "C02": (M,)})
    s.stack = [s.stack[0], (BUILD, 0)]
    s._legal = None
    legal = s.legal_actions()
    assert legal and all(a.startswith("build ") for a in legal)


def test_building_requirements_use_only_top_citizens_one_per_crossing() -> None:
    s = scenario()
    _ready_to_build(s, {"C01": (M, W), "C02": (W,)})
    builds = [kind for kind, b in construction.legal_builds(s, 0) if b == B["B01"]]
    assert L1 in builds and L2 not in builds  # the Middle citizen is not on top
    _ready_to_build(s, {"C01": (W, M)})
    assert (L2, B["B01"]) in construction.legal_builds(s, 0)
    assert (L3, B["B01"]) not in construction.legal_builds(s, 0)
    _ready_to_build(s, {"C11": (U,)})
    assert (L3, B["B01"]) in construction.legal_builds(s, 0)


def test_corner_buildings_only_on_triangles_with_their_three_crossings() -> None:
    s = scenario()
    _ready_to_build(s, {"C11": (W,), "C21": (W,)})  # C11, C21, C22 surround B11L
    builds = construction.legal_builds(s, 0)
    assert (CORNER, B["B11L"]) in builds and (CORNER, B["B11U"]) not in builds
    assert all(kind == CORNER for kind, b in builds if board.BUILDING_SPACES[b].corner)
    assert all(kind != CORNER for kind, b in builds if not board.BUILDING_SPACES[b].corner)


def test_overbuilding_level_2_on_1_and_level_3_on_1_or_2_never_on_corner_or_3() -> None:
    s = scenario()
    _ready_to_build(s, {"C01": (U,), "C02": (M,), "C11": (W,), "C12": (W,)})
    for current, allowed in ((L1, {L2, L3}), (L2, {L3}), (L3, set())):
        s.bld_type[B["B01"]] = current
        assert {kind for kind, b in construction.legal_builds(s, 0) if b == B["B01"]} == allowed
    _ready_to_build(s, {"C00": (U,), "C01": (U,)})
    s.bld_type[B["B00U"]] = CORNER
    assert not [b for _, b in construction.legal_builds(s, 0) if b == B["B00U"]]


def _build(s: object, action: str, use: str) -> None:
    s.stack = [s.stack[0], (BUILD, 0)]  # type: ignore[attr-defined]
    s._legal = None  # type: ignore[attr-defined]
    s.apply(action)  # type: ignore[attr-defined]
    s.apply(use)  # type: ignore[attr-defined]


def test_building_first_in_row_flips_the_bonus_for_5_vp() -> None:
    s = scenario()
    _ready_to_build(s, {"C01": (W,), "C02": (W,), "C03": (W,), "C12": (W,)})
    _build(s, "build L1 B01", "use C01+C02")
    assert s.vp_src[2] == 5 and s.row_bonus[0] == 0
    _build(s, "build L1 B02", "use C03+C12")
    assert s.vp_src[2] == 5, "only the first Building of a row gets the bonus"


def test_building_moves_citizens_to_the_leftmost_empty_spaces_of_their_tracks() -> None:
    s = scenario(players=2)
    _ready_to_build(s, {"C01": (W,), "C02": (U,)})
    w_before = s.track[W][:]
    first_empty = w_before.index(0)
    _build(s, "build L1 B01", "use C01+C02")
    assert s.track[W][first_empty] == 1 and sum(s.track[W]) == sum(w_before) + 1
    assert s.cross_cit[X["C01"]] == () and s.cross_cit[X["C02"]] == ()


def test_citizens_overflow_off_the_board_when_the_track_is_full() -> None:
    s = scenario()
    s.track[U] = [1] * len(s.track[U])
    _ready_to_build(s, {"C01": (U,), "C02": (W,)})
    _build(s, "build L1 B01", "use C01+C02")
    assert s.off_board[U] == 1


def test_building_scores_the_lowest_visible_track_value() -> None:
    s = scenario()
    _ready_to_build(s, {"C01": (W,), "C02": (W,)})
    s.track[W][0] = 1
    s.track[M][0] = 1
    s.track[U][0] = 1
    t = s.t
    before = [t.track_values[k][i] for k in range(3) for i, f in enumerate(s.track[k]) if not f]
    _build(s, "build L1 B01", "use C01+C02")
    after = [t.track_values[k][i] for k in range(3) for i, f in enumerate(s.track[k]) if not f]
    assert s.vp_src[1] == min(after), "scored after the citizens moved: covered values give nothing"
    assert min(after) >= min(before)


def test_level_1_building_advances_one_cerda_step() -> None:
    s = scenario()
    _ready_to_build(s, {"C01": (W,), "C02": (W,)})
    before = s.cerda[0]
    _build(s, "build L1 B01", "use C01+C02")
    assert s.cerda[0] == before + 1


def test_level_3_building_7_vp_two_sagrada_steps_two_cerda_steps_back() -> None:
    s = scenario()
    _ready_to_build(s, {"C01": (U,), "C02": (W,), "C11": (W,)})
    before = s.cerda[0]
    expected = construction.lowest_visible(s, (U, W, W))
    _build(s, "build L3 B01", "use C01+C02+C11")
    assert s.cerda[0] == before - 2
    assert s.sagrada[0] == 2
    assert s.vp_src[1] == expected + 7


def test_building_marker_taken_leftmost_stacked_when_overbuilding_and_emptied_stack_cerda() -> None:
    s = scenario()
    _ready_to_build(s, {"C01": (W, W), "C02": (W, M)})
    s.bld_type[B["B01"]] = L1
    s.bld_tiles[B["B01"]] = (L1,)
    s.bld_stock[L1] -= 1
    s.bld_markers[B["B01"]] = (2,)
    s.markers_left[0:5] = [1, 2, 2, 1, 1]
    before = s.cerda[0]
    _build(s, "build L2 B01", "use C01+C02")
    assert s.bld_markers[B["B01"]] == (2, 0)
    assert s.markers_left[0:5] == [0, 2, 2, 1, 1]
    assert s.cerda[0] == before - 1 + 1  # L2 step back, emptied marker stack step forward


def test_building_without_markers_is_still_built_and_scored() -> None:
    s = scenario()
    s.markers_left[0:5] = [0] * 5
    _ready_to_build(s, {"C01": (W,), "C02": (W,)})
    _build(s, "build L1 B01", "use C01+C02")
    assert s.bld_type[B["B01"]] == L1 and s.bld_markers[B["B01"]] == () and s.vp[0] > 0


# ---------------------------------------------------------------------------- CERDÀ AND SAGRADA TRACKS
def test_cerda_track_top_gives_2_vp_per_forfeited_step_bottom_ignores() -> None:
    s = scenario()
    s.cerda[0] = s.t.cerda_top - 1
    tracks.cerda_step(s, 0, 3)
    assert s.cerda[0] == s.t.cerda_top and s.vp[0] == 4
    s.cerda[1] = 1
    tracks.cerda_step(s, 1, -3)
    assert s.cerda[1] == 0 and s.vp[1] == 0


def test_sagrada_track_crossing_a_slot_takes_a_tile_of_its_level() -> None:
    s = scenario()
    slot = next(i for i, level in enumerate(s.t.sagrada_slot_level) if level)
    s.sagrada[0] = slot - 1
    decide(s, (IMPROVE, 0))
    s.stack.pop()
    tracks.sagrada_step(s, 0, 1)
    s._legal = None
    level = s.t.sagrada_slot_level[slot]
    options = s.legal_actions()
    assert options and all(s.t.sagrada_level[s.t.sagrada_ids.index(a.split()[1])] == level for a in options)
    s.apply(options[0])
    assert s.sagrada_tiles[0] and not s.sagrada_offer[s.t.sagrada_ids.index(options[0].split()[1])]


# ---------------------------------------------------------------------------- TURN / BAD INPUT
def test_illegal_or_malformed_actions_raise_and_change_nothing() -> None:
    s = scenario()
    before = s.to_json()
    for bad in ("", "place", "place C55", "gain cloth", "PLACE C12", 12):
        with pytest.raises(IllegalActionError):
            s.apply(bad)  # type: ignore[arg-type]
    assert s.to_json() == before


def test_two_citizens_drawn_at_the_end_of_the_turn_and_next_player() -> None:
    s = scenario()
    s.apply("place C12")
    while s.current_player() == 0 and s.turn_player == 0:
        legal = s.legal_actions()
        s.apply("end actions" if "end actions" in legal else legal[0])
    assert s.turn_player == 1 and len(s.hands[0]) == 2
    assert ACTION_KINDS  # imported for readability of failures
