"""Solo mode: one player against Gaudí's Assistant (docs/barcelona/solo.md, data/solo.toml, solo.py).

One test per automa rule (cards, meeple, citizens, the card's action, conversions, buildings,
difficulty, setup, end and result), then property tests over random solo games as for the
multiplayer game."""

from __future__ import annotations

import dataclasses
import json
import shutil
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from eixample.core.errors import DataFileError, IllegalActionError
from eixample.core.messages import english
from eixample.core.protocol import TERMINAL
from eixample.games import barcelona
from eixample.games.barcelona import actions, board, construction, solo, turn
from eixample.games.barcelona.components import ACTION_KINDS, DATA_DIR, DIFFICULTIES, Benefit, load_components
from eixample.games.barcelona.frames import AUTOMA, BENEFITS
from eixample.games.barcelona.state import NSRC, BarcelonaState
from eixample.games.barcelona.tables import CORNER, L1, L2, L3
from tests.games.barcelona.helpers import check_invariants, random_playout

W, M, U = 0, 1, 2
X = board.CROSSING_INDEX
SP = board.SPACE_INDEX
B = board.BUILDING_INDEX
K = {kind: i for i, kind in enumerate(ACTION_KINDS)}
NORTH, EAST, SOUTH, WEST = range(4)
SCHEMAS = Path(__file__).resolve().parents[3] / "docs" / "schemas"


def solo_game(seed: int = 1, difficulty: str = "normal") -> BarcelonaState:
    """A fresh solo game with the printed action map, for tests that arrange the table by hand."""
    return barcelona.new_game(players=1, seed=seed, difficulty=difficulty, action_tiles="printed")


def card_of(s: BarcelonaState, kind: str) -> int:
    return s.t.solo.card_kind.index(K[kind])


def card_pointing(s: BarcelonaState, direction: int) -> int:
    return s.t.solo.card_direction.index(direction)


def with_card(s: BarcelonaState, card: int) -> BarcelonaState:
    """The Assistant's current card is `card` (as if just drawn)."""
    s.solo_deck = tuple(c for c in range(solo.SOLO_CARDS) if c != card)
    s.solo_drawn = (card,)
    return s


def without_priorities(s: BarcelonaState) -> BarcelonaState:
    """The meeple follows only the card's direction (for the tie-break tests)."""
    s.t = dataclasses.replace(s.t, solo=dataclasses.replace(s.t.solo, priorities=()))
    return s


def automa_turn(s: BarcelonaState, card: int, meeple: str | None = None) -> list[str]:
    """Let the Assistant take a turn now with `card` on top of its deck; its log lines."""
    s.solo_deck = (*(c for c in range(solo.SOLO_CARDS) if c != card), card)
    s.solo_drawn = ()
    if meeple is not None:
        s.solo_meeple = X[meeple]
    before = len(s.log_text())
    turn.start_turn(s, solo.AUTOMA)
    s._legal = None
    s._settle()
    return s.log_text()[before:]


def finish_player_turn(s: BarcelonaState) -> None:
    """Play the player's turn out with the most passive choices (the Assistant then plays)."""
    turns = s.turns
    while s.turns == turns and not s.is_terminal():
        legal = s.legal_actions()
        for passive in ("end actions", "no passenger", "skip action", "benefits none"):
            if passive in legal:
                s.apply(passive)
                break
        else:
            s.apply(legal[0])


def check_solo_invariants(s: BarcelonaState) -> None:
    check_invariants(s)
    assert s.solo and s.n == 2 and s.num_players == 2
    assert sorted(s.solo_deck + s.solo_drawn) == list(range(solo.SOLO_CARDS))
    assert 0 <= s.solo_meeple < len(board.CROSSINGS)
    assert s.hands[solo.AUTOMA] == ()
    assert s.coins[solo.AUTOMA] == 0 and s.cloth[solo.AUTOMA] == 0
    assert s.tram[solo.AUTOMA] == -1
    assert s.current_player() in (0, TERMINAL)
    assert all(frame[1] == 0 or frame[0] in (AUTOMA, 31) for frame in s.stack)
    assert s.scores() == [s.vp[0], (s.vp[1] * s.t.solo.percent[s.options["difficulty"]] + 50) // 100]
    assert [sum(line.values()) for line in s.score_breakdown()] == s.scores()


def solo_playout(seed: int, difficulty: str = "normal", check: bool = True) -> Iterator[BarcelonaState]:
    """A solo game with uniformly random legal choices; the state after every action."""
    return random_playout(
        1, seed, check, invariants=check_solo_invariants, salt=0x5010, difficulty=difficulty
    )


@cache
def finished(seed: int, difficulty: str = "normal") -> BarcelonaState:
    last = None
    for state in solo_playout(seed, difficulty, check=False):
        last = state
    assert last is not None
    return last


# ---------------------------------------------------------------------------- setup
def test_solo_setup_two_seats_meeple_deck_and_hands() -> None:
    s = solo_game(seed=4)
    assert s.solo and s.n == 2 and s.num_players == 2
    assert s.options["difficulty"] == "normal" and s.options["first_player"] == 0
    assert s.record()["players"] == 1 and s.to_json()["players"] == 1
    assert len(s.hands[0]) == 2 and s.hands[1] == ()
    assert board.CROSSINGS[s.solo_meeple] == "C22"
    assert sorted(s.solo_deck) == list(range(8)) and s.solo_drawn == ()
    assert s.current_player() == 0 and s.decision_kind() == "place"
    assert s.log_text() == ["New game: solo against Gaudí's Assistant (normal); you start."]
    # the Assistant's own board: the same stacks and tracks as a player's, but no Warehouse
    assert (s.coins[0], s.cloth[0]) == (s.t.start_coin, s.t.start_cloth)
    assert (s.coins[1], s.cloth[1]) == (0, 0)
    assert s.wide_left[1:] == list(s.t.wide_stacks) and s.markers_left[5:] == list(s.t.marker_stacks)


def test_solo_setup_prefills_the_tracks_marked_3_and_2() -> None:
    s = solo_game(seed=5)
    assert s.t.solo.prefill == frozenset({2, 3})
    two = barcelona.new_game(2, 5)
    assert s.track == two.track
    for k in range(3):
        expected = [1 if m in (2, 3) else 0 for m in s.t.track_prefill[k]]
        assert s.track[k] == expected
        assert s.bag[k] + s.hands[0].count(k) + sum(expected) == s.t.citizen_counts[k]


def test_solo_setup_uses_the_two_player_public_services() -> None:
    s = solo_game()
    assert s.service_left == [len(s.t.service_costs[i]) - 1 for i in s.services]


def test_solo_deck_is_shuffled_with_the_game_seed() -> None:
    assert solo_game(seed=7).solo_deck == solo_game(seed=7).solo_deck
    assert len({solo_game(seed=seed).solo_deck for seed in range(12)}) > 6


def test_solo_options_are_checked() -> None:
    with pytest.raises(ValueError, match="difficulty is only for a solo game"):
        barcelona.new_game(2, 1, difficulty="hard")
    with pytest.raises(ValueError, match="difficulty must be one of easy, normal, hard"):
        barcelona.new_game(1, 1, difficulty="nightmare")
    with pytest.raises(ValueError, match="you always start"):
        barcelona.new_game(1, 1, first_player="random")
    with pytest.raises(ValueError, match="1 to 4 players"):
        barcelona.new_game(0, 1)
    for level in DIFFICULTIES:
        assert barcelona.new_game(1, 1, difficulty=level).options["difficulty"] == level
    assert barcelona.new_game(1, 1).options["difficulty"] == "normal"


def test_multiplayer_games_have_no_solo_parts() -> None:
    s = barcelona.new_game(2, 3)
    assert not s.solo and s.solo_meeple == -1 and s.solo_deck == () and s.solo_drawn == ()
    assert "difficulty" not in s.options and "solo" not in s.view(0)
    assert "difficulty" not in s.score_breakdown()[1]


# ---------------------------------------------------------------------------- the solo cards
def test_the_eight_cards_one_per_action_two_per_direction() -> None:
    t = solo_game().t.solo
    assert sorted(t.card_kind) == list(range(8))
    assert sorted(t.card_direction) == [0, 0, 1, 1, 2, 2, 3, 3]
    assert solo.card_text(solo_game(), card_of(solo_game(), "streets")) == "card 3 (Streets, east)"


def test_the_assistant_draws_the_top_card_after_the_players_turn() -> None:
    s = solo_game(seed=3)
    top = s.solo_deck[-1]
    finish_player_turn(s)
    assert s.solo_drawn == (top,) and len(s.solo_deck) == 7
    assert f"Gaudí's Assistant draws {solo.card_text(s, top)}" in s.log_text()
    assert s.current_player() == 0 and s.turn_player == 0 and s.turns == 2


def test_an_empty_deck_is_reshuffled_before_drawing() -> None:
    s = solo_game(seed=2)
    s.solo_deck, s.solo_drawn = (), tuple(range(8))
    lines = automa_turn(s, 0)
    s.solo_deck, s.solo_drawn = (), tuple(range(8))
    turn.start_turn(s, 1)
    s._settle()
    assert "Gaudí's Assistant shuffles the 8 solo cards into a new deck" in s.log_text()
    assert len(s.solo_drawn) == 1 and len(s.solo_deck) == 7
    assert sorted(s.solo_deck + s.solo_drawn) == list(range(8))
    assert lines[0] == f"Gaudí's Assistant draws {solo.card_text(s, 0)}"


def test_every_deck_deals_each_card_once() -> None:
    s = finished(11)
    cycles: list[list[int]] = [[]]
    for line in s.log_text():
        if "shuffles the 8 solo cards" in line:
            cycles.append([])
        elif line.startswith("Gaudí's Assistant draws card"):
            cycles[-1].append(int(line.split()[4]))
    assert sum(len(c) for c in cycles) == s.turns // 2
    for cycle in cycles:
        assert len(cycle) == len(set(cycle)) <= 8
    for cycle in cycles[:-1]:
        assert sorted(cycle) == list(range(1, 9))


# ---------------------------------------------------------------------------- the meeple
def test_the_meeple_moves_to_an_adjacent_empty_crossing_along_any_street() -> None:
    s = solo_game()
    s.solo_meeple = X["C22"]
    targets = {board.CROSSINGS[x] for x in solo.meeple_targets(s)}
    assert targets == {"C12", "C21", "C23", "C32", "C11", "C33"}  # the diagonal counts
    s.solo_meeple = X["C01"]
    assert {board.CROSSINGS[x] for x in solo.meeple_targets(s)} == {"C00", "C02", "C11"}


def test_the_meeple_skips_crossings_with_citizens_and_goes_further_when_needed() -> None:
    s = solo_game()
    s.solo_meeple = X["C22"]
    s.cross_cit[X["C12"]] = (W,)
    assert "C12" not in {board.CROSSINGS[x] for x in solo.meeple_targets(s)}
    for name in ("C21", "C23", "C32", "C11", "C33"):
        s.cross_cit[X[name]] = (W,)
    targets = solo.meeple_targets(s)
    assert targets and all(solo.DISTANCE[X["C22"]][x] == 2 for x in targets)
    assert X["C02"] in targets and X["C44"] in targets


TIE_BREAKS = [(NORTH, "C12"), (EAST, "C23"), (SOUTH, "C32"), (WEST, "C21")]


@pytest.mark.parametrize(("direction", "expected"), TIE_BREAKS)
def test_the_cards_direction_breaks_ties(direction: int, expected: str) -> None:
    s = without_priorities(with_card(solo_game(), 0))
    s = with_card(s, card_pointing(s, direction))
    s.solo_meeple = X["C22"]
    assert board.CROSSINGS[solo.choose_crossing(s, solo.meeple_targets(s), (W, M))] == expected


def test_the_direction_sweeps_clockwise_from_the_arrow() -> None:
    s = without_priorities(solo_game())
    s = with_card(s, card_pointing(s, NORTH))
    s.solo_meeple = X["C22"]
    order = []
    for _ in range(6):
        x = solo.choose_crossing(s, solo.meeple_targets(s), (W, M))
        order.append(board.CROSSINGS[x])
        s.cross_cit[x] = (W,)
    assert order == ["C12", "C23", "C33", "C32", "C21", "C11"]  # N, E, SE, S, W, NW


def test_the_meeple_prefers_a_crossing_where_it_can_build() -> None:
    s = with_card(solo_game(), card_pointing(solo_game(), NORTH))
    s.solo_meeple = X["C22"]
    s.cross_cit[X["C31"]] = (W,)  # block B21 (C21, C22, C31, C32) needs one more citizen
    chosen = board.CROSSINGS[solo.choose_crossing(s, solo.meeple_targets(s), (W, M))]
    assert chosen == "C32"  # C21 and C32 both allow a Level-2 building; north sweeps to C32 first
    assert solo.best_building_with(s, X["C32"], (W, M)) > solo.best_building_with(s, X["C32"], (W, W))
    assert solo.best_building_with(s, X["C12"], (W, M)) == 0


def test_without_buildings_the_meeple_prefers_its_intersection_then_avoids_the_players() -> None:
    s = with_card(solo_game(), card_pointing(solo_game(), WEST))
    s.solo_meeple = X["C22"]
    assert board.CROSSINGS[solo.choose_crossing(s, solo.meeple_targets(s), (W, M))] == "C11"  # most open
    s.cross_owner[X["C11"]] = 0  # the player's Intersection
    assert board.CROSSINGS[solo.choose_crossing(s, solo.meeple_targets(s), (W, M))] == "C33"
    s.cross_owner[X["C32"]] = 1  # its own Intersection
    assert board.CROSSINGS[solo.choose_crossing(s, solo.meeple_targets(s), (W, M))] == "C32"


def test_the_citizens_go_on_the_meeples_crossing_higher_class_on_top() -> None:
    s = solo_game(seed=8)
    s.bag = [1, 0, 1]
    lines = automa_turn(s, card_of(s, "improve_modernisme"), meeple="C00")
    x = s.solo_meeple
    assert solo.DISTANCE[X["C00"]][x] == 1
    assert s.cross_cit[x] == (W, U)
    assert f"Gaudí's Assistant moves the meeple to {board.CROSSINGS[x]}" in lines
    assert f"Gaudí's Assistant places Working class/Upper class (top last) on {board.CROSSINGS[x]}" in lines
    assert s.coins[1] == 0  # placing never costs it anything


def test_an_empty_bag_means_no_placement() -> None:
    s = solo_game()
    s.bag = [0, 0, 0]
    lines = automa_turn(s, card_of(s, "improve_modernisme"), meeple="C22")
    assert "Gaudí's Assistant finds the bag empty and places no citizens" in lines
    assert s.solo_meeple == X["C22"] and not any(s.cross_cit)


# ---------------------------------------------------------------------------- the card's action
def test_gain_card_scores_3_vp_and_converts_the_cloth() -> None:
    s = solo_game()
    assert solo.perform(s, K["cloth_or_coins"])
    assert s.vp[1] == 3 + s.t.solo.cloth_vp
    assert (s.coins[1], s.cloth[1]) == (0, 0)
    assert s.score_breakdown()[1]["cloth"] == s.vp[1]


def test_gains_are_converted_at_the_documented_rates() -> None:
    s = solo_game()
    rates = s.t.solo
    solo.gain(s, Benefit(coin=2, cloth=1, resource=2, vp=1))
    assert s.vp[1] == 2 * rates.coin_vp + rates.cloth_vp + 2 * rates.resource_vp + 1
    assert (s.coins[1], s.cloth[1]) == (0, 0)
    total = 2 * rates.coin_vp + rates.cloth_vp + 2 * rates.resource_vp
    assert f"Gaudí's Assistant converts 2 coins, 1 cloth, 2 resources into {total} VP" in s.log_text()
    before = s.cerda[1]
    solo.gain(s, Benefit(cerda=1))
    assert s.cerda[1] == before + 1


def test_streets_card_builds_a_wide_tile_touching_the_meeple_for_free() -> None:
    s = with_card(solo_game(), card_of(solo_game(), "streets"))
    s.solo_meeple = X["C22"]  # every street through C22 is Wide
    assert solo.perform(s, K["streets"])
    built = [sp for sp in range(44) if s.space_owner[sp] == 1]
    assert len(built) == 1 and built[0] in board.CROSSING_SPACES[X["C22"]]
    assert s.wide_left[1 * len(s.t.wide_stacks)] == s.t.wide_stacks[0] - 1
    assert s.vp_src[1 * NSRC + 0] == 2  # streets: a line of 1 Wide tile


def test_streets_card_builds_two_narrow_tiles_in_a_line_near_the_meeple() -> None:
    s = with_card(solo_game(), card_of(solo_game(), "streets"))
    s.solo_meeple = X["C01"]  # V1, H0: Narrow
    assert solo.perform(s, K["streets"])
    built = [sp for sp in range(44) if s.space_owner[sp] == 1]
    assert len(built) == 2 and all(sp in board.CROSSING_SPACES[X["C01"]] for sp in built)
    assert board.SPACE_STREET[built[0]] == board.SPACE_STREET[built[1]]  # the second extends the line
    assert actions.street_tiles_left(s, 1, False) == sum(s.t.narrow_stacks) - 2


def test_intersection_card_builds_on_the_meeples_crossing_without_paying() -> None:
    s = with_card(solo_game(), card_of(solo_game(), "intersection"))
    s.solo_meeple = X["C11"]
    assert s.t.crossing_cost[X["C11"]] == 1 and s.coins[1] == 0
    assert solo.perform(s, K["intersection"])
    assert s.cross_owner[X["C11"]] == 1 and s.inters[1] == 1
    s.solo_meeple = X["C11"]
    assert solo.perform(s, K["intersection"])
    others = [x for x in range(25) if s.cross_owner[x] == 1 and x != X["C11"]]
    assert s.inters[1] == 2 and len(others) == 1 and solo.DISTANCE[X["C11"]][others[0]] == 1


def test_improve_card_raises_the_rightmost_marker_with_a_tile_first() -> None:
    s = solo_game()
    assert solo.perform(s, K["improve_modernisme"])
    assert s.mod_top[5:10] == [0, 0, 0, 0, 1]
    s.mod_tile[5 + 1] = s.mod_offer[0]
    assert solo.perform(s, K["improve_modernisme"])
    assert s.mod_top[5:10] == [0, 1, 0, 0, 1]


def test_take_card_takes_the_tile_worth_most_into_its_rightmost_space_free() -> None:
    s = solo_game()
    offer = s.mod_offer[:]
    assert solo.perform(s, K["take_modernisme"])
    taken = s.mod_tile[5 + 4]
    assert taken in offer and taken not in s.mod_offer and s.cloth[1] == 0
    assert all(tile >= 0 for tile in s.mod_offer)  # refilled


def test_public_service_card_builds_the_best_service_for_free() -> None:
    s = with_card(solo_game(), card_of(solo_game(), "public_service"))
    slot = 0  # every stack shows the same tile at the start: the leftmost
    service = s.services[slot]
    left = s.service_left[slot]
    top_vp = s.t.service_vp[service][actions.service_tile(s, slot)]
    assert top_vp == s.t.service_vp[service][0]  # the 3-coin tile is on top
    assert solo.perform(s, K["public_service"])
    assert s.services_built[1] == 1 << service and s.coins[1] == 0
    assert s.service_left[slot] == left - 1
    assert s.score_breakdown()[1]["public_services"] == top_vp
    name = english((f"bcn.service.{s.t.service_ids[service]}", {}))
    assert f"Gaudí's Assistant builds {name}: {top_vp} VP" in s.log_text()
    assert solo.perform(s, K["public_service"])
    assert bin(s.services_built[1]).count("1") == 2  # never the same service twice


def test_passenger_card_places_a_passenger_never_the_tram() -> None:
    s = with_card(solo_game(), card_of(solo_game(), "tram"))
    s.solo_meeple = X["C22"]
    lines_before = len(s.log_text())
    assert solo.perform(s, K["tram"])
    placed = [sp for sp in range(44) if s.space_passenger[sp] == 1]
    assert s.passengers[1] >= 1 and placed[0] in board.CROSSING_SPACES[X["C22"]]
    assert s.tram[1] == -1
    assert any("takes the action of street" in line for line in s.log_text()[lines_before:])


def test_passenger_on_a_street_tile_scores_it_again_for_its_owner() -> None:
    s = with_card(solo_game(), card_of(solo_game(), "tram"))
    s.solo_meeple = X["C01"]
    for sp in board.CROSSING_SPACES[X["C01"]]:
        s.space_owner[sp] = 0
    before = s.vp[0]
    assert solo.perform(s, K["tram"])
    assert s.vp[0] > before


def test_cobblestone_card_goes_next_to_a_cobblestone_by_direction() -> None:
    s = with_card(solo_game(), card_pointing(solo_game(), NORTH))
    assert solo.perform(s, K["cobblestone"])
    assert s.sidewalk[board.SIDEWALK_INDEX["S12"]] == 1 and s.cobbles[1] == 1
    s = with_card(solo_game(), card_pointing(solo_game(), EAST))
    assert solo.perform(s, K["cobblestone"])
    assert s.sidewalk[board.SIDEWALK_INDEX["S23"]] == 1


def test_an_impossible_action_scores_the_cards_fallback_vp() -> None:
    s = solo_game()
    card = card_of(s, "tram")
    s.passengers[1] = len(s.t.passenger_cost)
    s.bag = [0, 0, 0]
    before = s.vp[1]
    lines = automa_turn(s, card, meeple="C22")
    fallback = s.t.solo.card_fallback_vp[card]
    assert f"Gaudí's Assistant cannot perform Tram: scores {fallback} VP instead" in lines
    assert s.vp[1] == before + fallback


def test_the_players_intersection_lets_the_player_choose_during_the_assistants_turn() -> None:
    s = without_priorities(solo_game(seed=6))
    card = card_pointing(s, NORTH)
    s.cross_owner[X["C12"]] = 0
    s.inters[0] = 1
    s.solo_deck = (*(c for c in range(8) if c != card), card)
    s.solo_drawn = ()
    s.solo_meeple = X["C22"]
    turn.start_turn(s, 1)
    s._settle()
    assert s.current_player() == 0 and s.decision_kind() == "intersection_benefits"
    assert s.stack[-1][:2] == (BENEFITS, 0)
    assert s.cross_cit[X["C12"]]
    s.apply("benefits 1")
    assert s.coins[0] == s.t.start_coin + 1
    assert s.turn_player == 0 and s.decision_kind() == "place"  # the Assistant's turn went on and ended


def test_the_assistants_intersection_pays_it_at_once_when_the_player_places_there() -> None:
    s = solo_game(seed=6)
    s.cross_owner[X["C01"]] = 1
    s.inters[1] = 1
    s.apply("place C01")
    if s.decision_kind() == "order":
        s.apply(s.legal_actions()[0])
    assert s.current_player() == 0 and s.decision_kind() == "actions"
    assert s.vp[1] == s.t.solo.coin_vp  # its first Intersection benefit: 1 coin, converted
    assert "Gaudí's Assistant takes Intersection benefits 1" in s.log_text()


# ---------------------------------------------------------------------------- buildings
def test_the_assistant_builds_the_highest_level_it_can_with_its_citizens() -> None:
    s = with_card(solo_game(), card_pointing(solo_game(), NORTH))
    s.solo_meeple = X["C22"]
    s.cross_cit[X["C21"]] = (U,)
    s.cross_cit[X["C31"]] = (M,)
    s.cross_cit[X["C32"]] = (W,)
    s.cross_cit[X["C22"]] = (W, M)
    choice = solo.choose_build(s)
    assert choice is not None
    kind, b, combo = choice
    assert (kind, board.BUILDING_SPACES[b].name) == (L3, "B21") and X["C22"] in combo and X["C21"] in combo
    low = construction.lowest_visible(s, tuple(s.cross_cit[x][-1] for x in combo))  # after the citizens moved
    solo._build(s)
    assert s.bld_type[B["B21"]] == L3 and s.bld_markers[B["B21"]] == (1,)
    breakdown = s.score_breakdown()[1]
    assert breakdown["buildings"] == low + 7 and breakdown["building_bonus"] == s.t.row_bonus_vp[2]
    assert s.sagrada[1] == 2 and len(s.sagrada_tiles[1]) == 1  # the level-1 slot: a tile, converted
    assert s.cerda[1] == s.t.cerda_start - 2
    assert s.cross_cit[X["C22"]] == (W,)  # its top citizen went to the track


def test_the_assistant_prefers_buildings_next_to_its_meeple() -> None:
    s = with_card(solo_game(), card_pointing(solo_game(), NORTH))
    s.solo_meeple = X["C44"]
    s.cross_cit[X["C00"]] = (W,)
    s.cross_cit[X["C01"]] = (W,)  # Corner B00U far away
    s.cross_cit[X["C43"]] = (W,)
    s.cross_cit[X["C44"]] = (W,)  # Corner B33L next to the meeple
    choice = solo.choose_build(s)
    assert choice is not None and (choice[0], board.BUILDING_SPACES[choice[1]].name) == (CORNER, "B33L")


def test_the_assistant_builds_every_turn_it_can() -> None:
    s = finished(5)
    built = sum(1 for line in s.log_text() if line.startswith("Gaudí's Assistant builds") and " on B" in line)
    assert built >= s.turns // 2 - 3
    assert any(layer in (L1, L2, L3) for layers in s.bld_tiles for layer in layers)


# ---------------------------------------------------------------------------- difficulty, end, result
def test_difficulty_only_multiplies_the_assistants_vp() -> None:
    normal = finished(3)
    record = normal.record()
    assert record["options"]["difficulty"] == "normal"
    for level in DIFFICULTIES:
        again = barcelona.replay({**record, "options": {**record["options"], "difficulty": level}})
        assert again.vp == normal.vp and again.log_text()[1:-1] == normal.log_text()[1:-1]
        percent = again.t.solo.percent[level]
        assert again.scores() == [again.vp[0], (again.vp[1] * percent + 50) // 100]
        assert again.score_breakdown()[1]["difficulty"] == again.scores()[1] - again.vp[1]
    t = normal.t.solo.percent
    assert t["easy"] < t["normal"] < t["hard"]


def test_a_solo_game_ends_after_the_assistants_turn_with_a_result() -> None:
    s = finished(9)
    assert s.is_terminal() and s.current_player() == TERMINAL
    assert s.turns % 2 == 0 and s.end_triggered
    player, automa = s.scores()
    view = s.view(0)["solo"]
    assert view["margin"] == player - automa and view["automa_vp"] == automa
    if player != automa:
        assert s.winners() == [0 if player > automa else 1]
        assert view["result"] == ("won" if player > automa else "lost")
    assert s.log_text()[-1].startswith(f"Final scores: you {player}, Gaudí's Assistant {automa} (")
    assert "margin" in s.log_text()[-1]


def test_ties_use_the_rulebook_tie_breakers() -> None:
    s = finished(9)
    percent = s.t.solo.percent["normal"]
    assert percent == 100
    s.vp[1] = s.vp[0]
    s.cerda[0], s.cerda[1] = 3, 2
    assert s.winners() == [0]
    s.cerda[1] = 3
    s.sagrada[0], s.sagrada[1] = 1, 4
    assert s.winners() == [1]


def test_the_view_shows_the_solo_game_but_never_the_deck_order() -> None:
    s = solo_game(seed=12)
    finish_player_turn(s)
    view = s.view(0)
    shown = view["solo"]
    assert shown["difficulty"] == "normal" and shown["multiplier_percent"] == 100
    assert shown["card"]["number"] == s.solo_drawn[-1] + 1
    assert shown["meeple"] == board.CROSSINGS[s.solo_meeple]
    assert shown["deck_left"] == 7 and shown["drawn"] == [s.solo_drawn[-1] + 1]
    assert view["player_list"][1]["name"] == "Gaudí's Assistant" and view["player_list"][1]["hand"] is None
    assert "solo_deck" not in json.dumps(view)
    assert view["scores"] == s.scores()


# ---------------------------------------------------------------------------- hidden information
def test_resample_redraws_the_deck_and_keeps_the_players_view() -> None:
    s = solo_game(seed=13)
    finish_player_turn(s)
    decks = set()
    for seed in range(20):
        other = s.resample(0, seed)
        assert other.view(0) == s.view(0)
        assert sorted(other.solo_deck) == sorted(s.solo_deck) and other.solo_drawn == s.solo_drawn
        decks.add(other.solo_deck)
        assert other.legal_actions() == s.legal_actions()
    assert len(decks) > 5


def test_a_resampled_solo_game_plays_to_the_end() -> None:
    s = solo_game(seed=14)
    finish_player_turn(s)
    other = s.resample(0, 99)
    while not other.is_terminal():
        other.apply(other.legal_actions()[-1])
    assert other.winners()


# ---------------------------------------------------------------------------- formats
@cache
def validator(name: str) -> Draft202012Validator:
    return Draft202012Validator(json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8")))


def problems(name: str, document: Any) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message[:160]}" for e in validator(name).iter_errors(document)]


def test_solo_views_records_and_saved_states_follow_the_schemas() -> None:
    for i, state in enumerate(solo_playout(15, "hard", check=False)):
        if i % 40 and not state.is_terminal():
            continue
        for viewer in (None, 0, 1):
            assert problems("view", state.view(viewer)) == []
        assert problems("record", json.loads(json.dumps(state.record()))) == []
        assert problems("state", json.loads(json.dumps(state.to_json()))) == []


def test_a_solo_record_with_a_difficulty_for_several_players_does_not_validate() -> None:
    record = barcelona.new_game(2, 1).record()
    record["options"]["difficulty"] = "hard"
    assert problems("record", record)


# ---------------------------------------------------------------------------- the data file
@pytest.fixture
def folder(tmp_path: Path) -> Path:
    copy = tmp_path / "data"
    shutil.copytree(DATA_DIR, copy)
    return copy


def corrupt(folder: Path, old: str, new: str) -> None:
    path = folder / "solo.toml"
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} must occur once in solo.toml"
    path.write_text(text.replace(old, new), encoding="utf-8")


def problem(folder: Path) -> str:
    with pytest.raises(DataFileError) as error:
        load_components(folder)
    return str(error.value)


def test_the_solo_data_loads_with_its_provenance() -> None:
    data = load_components().solo
    assert len(data.card) == 8 and {c.source for c in data.card} == {"reconstruction"}
    assert data.meeple.source == data.conversion.source == "reconstruction"
    assert [d.id for d in data.difficulty] == ["easy", "normal", "hard"]


def test_a_ninth_card_is_rejected(folder: Path) -> None:
    corrupt(folder, "number = 8\n", "number = 9\n")
    message = problem(folder)
    assert "solo.toml: card[7].number: Input should be less than or equal to 8" in message


def test_a_duplicate_card_number_is_rejected(folder: Path) -> None:
    corrupt(folder, "number = 8\n", "number = 7\n")
    message = problem(folder)
    assert "solo.toml: card 7: duplicate id (listed 2 times)" in message
    assert "solo.toml: card 8: missing" in message


def test_an_unknown_direction_is_rejected(folder: Path) -> None:
    corrupt(folder, 'action = "streets"\ndirection = "east"', 'action = "streets"\ndirection = "up"')
    message = problem(folder)
    assert "solo.toml: card[2].direction: Input should be 'north', 'east', 'south' or 'west'" in message


def test_an_unknown_meeple_start_or_priority_is_rejected(folder: Path) -> None:
    corrupt(folder, 'start = "C22"', 'start = "C55"')
    assert "solo.toml: meeple start: unknown crossing id 'C55'" in problem(folder)
    corrupt(folder, 'start = "C55"', 'start = "C22"')
    corrupt(folder, '"own_intersection",', '"nearest_cafe",')
    assert "solo.toml: meeple.priorities[1]: Input should be" in problem(folder)


def test_difficulties_must_grow(folder: Path) -> None:
    corrupt(folder, 'id = "easy"\npercent = ', 'id = "easy"\npercent = 500 # ')
    message = problem(folder)
    assert "solo.toml: difficulty: multipliers must not decrease from easy to normal to hard" in message


def test_a_gain_choice_on_another_card_is_rejected(folder: Path) -> None:
    corrupt(folder, 'action = "cobblestone"\n', 'action = "cobblestone"\ngain = "coins"\n')
    assert "solo.toml: card 2: 'gain' is only for a cloth_or_coins card, not cobblestone" in problem(folder)


def test_a_solo_game_plays_with_a_corrected_data_folder(folder: Path) -> None:
    corrupt(folder, 'id = "hard"\npercent = ', 'id = "hard"\npercent = 200 # ')
    s = barcelona.new_game(1, 3, difficulty="hard", data_dir=str(folder))
    assert s.t.solo.percent["hard"] == 200


# ---------------------------------------------------------------------------- properties
GAMES = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**32)
levels = st.sampled_from(DIFFICULTIES)


@GAMES
@given(seeds, levels)
def test_every_solo_game_ends_with_invariants_kept(seed: int, level: str) -> None:
    """Every solo game ends; the player always decides; citizens, tiles, cards conserved; the
    Assistant never holds resources nor places the Tram; VP never decrease."""
    previous = [0, 0]
    last = None
    for state in solo_playout(seed, level):
        assert all(v >= p for v, p in zip(state.vp, previous, strict=True)), "VP decreased"
        previous = state.vp[:]
        last = state
    assert last is not None and last.is_terminal() and last.winners()


@GAMES
@given(seeds, levels)
def test_replaying_a_solo_record_gives_an_identical_state(seed: int, level: str) -> None:
    last = None
    for state in solo_playout(seed, level, check=False):
        last = state
    assert last is not None
    record = json.loads(json.dumps(last.record()))
    assert record["players"] == 1 and record["options"]["difficulty"] == level
    assert barcelona.replay(record).to_json() == last.to_json()


@GAMES
@given(seeds, levels)
def test_solo_states_round_trip_through_json(seed: int, level: str) -> None:
    for i, state in enumerate(solo_playout(seed, level, check=False)):
        if i % 17 and not state.is_terminal():
            continue
        saved = json.loads(json.dumps(state.to_json()))
        again = barcelona.from_json(saved)
        assert again.to_json() == state.to_json()
        assert again.legal_actions() == state.legal_actions()
        assert again.clone().to_json() == state.to_json()


@GAMES
@given(seeds)
def test_solo_views_never_contain_the_deck_or_bag_order(seed: int) -> None:
    for i, state in enumerate(solo_playout(seed, check=False)):
        if i % 7:
            continue
        for viewer in (None, 0):
            view = state.view(viewer)
            text = json.dumps(view)
            assert "rng" not in view and "solo_deck" not in text and "mod_stack" not in text
            assert set(view["solo"]) == {
                "opponent", "seat", "difficulty", "multiplier_percent", "player_vp", "automa_vp",
                "automa_vp_before_multiplier", "margin", "result", "card", "meeple", "deck_left", "drawn",
            }  # fmt: skip
            assert view["solo"]["deck_left"] == len(state.solo_deck)
            assert isinstance(view["bag"]["W"], int)
        if not state.is_terminal():
            assert state.resample(0, i).view(0) == state.view(0)


@GAMES
@given(seeds, st.text(max_size=20))
def test_illegal_actions_in_a_solo_game_are_refused_and_change_nothing(seed: int, junk: str) -> None:
    for i, state in enumerate(solo_playout(seed, check=False)):
        if i % 11 or state.is_terminal():
            continue
        before = state.to_json()
        legal = state.legal_actions()
        for bad in (junk, "place C99", "build L3 B00U", "act D tram", "benefits 1+2+3+4"):
            if bad in legal:
                continue
            with pytest.raises(IllegalActionError):
                state.apply(bad)
            assert state.to_json() == before
