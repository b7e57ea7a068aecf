"""One test per rulebook section of The Rose of Fire, named after it (Czech rulebook, translated
in the spec; rulings in docs/rose-of-fire/rules-coverage.md)."""

from __future__ import annotations

import itertools

import pytest

from eixample.core.errors import IllegalActionError
from eixample.games import rose_of_fire
from eixample.games.rose_of_fire.components import COLONIES, CROWN, LOW, MIDDLE, PERSONALITIES, UPPER, WORKING
from eixample.games.rose_of_fire.end_of_period import block_scoring, suppression
from eixample.games.rose_of_fire.end_of_phase import majorities, popularity_cards, rebellion, strike_card
from eixample.games.rose_of_fire.influence import payments
from eixample.games.rose_of_fire.setup import conservation_problem
from eixample.games.rose_of_fire.state import BLOCK, EXTRA, KEEP, NSRC, REWARD, SRC

from .helpers import at_play, give, put_tile, space

Y, L, G = 0, 1, 2


# ---------------------------------------------------------------------- Setup
@pytest.mark.parametrize(("players", "hand", "bomb"), [(2, 5, 10), (3, 4, 8), (4, 4, 4)])
def test_setup_hands_bomb_prestige_and_conviction(players: int, hand: int, bomb: int) -> None:
    s = rose_of_fire.new_game(players, 5)
    assert all(len(h) == hand for h in s.hands)  # 4 City cards, 5 with 2 players
    assert all(s.t.card_kind[c] == 0 for h in s.hands for c in h)
    assert s.bomb == bomb == s.t.bomb_start[players]  # start spaces II, III, IIII (data)
    assert s.prestige == [1] * players  # Auca space "1"
    assert s.montjuic == 16 and s.vp == [0] * players
    assert all(c >= 0 for c in s.conviction)  # one token drawn per family, kept apart
    assert sum(s.red_bag) == 36 - players and sum(s.tokens) == 0
    assert s.phase == 1 and len(s.round_track) == 1 and conservation_problem(s) == ""


def test_setup_first_player_is_random_from_the_seed() -> None:
    firsts = {rose_of_fire.new_game(4, seed).first for seed in range(30)}
    assert firsts == {0, 1, 2, 3}


# ---------------------------------------------------------------------- Phase structure
def test_immigration_level_no_six_before_phase_five() -> None:
    for seed in range(40):
        s = rose_of_fire.new_game(3, seed)
        s.imm_pool = [6, 6, 6, 3]
        s.phase = 1
        from eixample.games.rose_of_fire.turn import start_phase

        s.stack = []
        start_phase(s, (0, 0))
        assert s.level == 3 and s.imm_pool == [6, 6, 6]


def test_immigration_level_phase_five_takes_any_token() -> None:
    from eixample.games.rose_of_fire.turn import start_phase

    s = rose_of_fire.new_game(3, 1)
    s.imm_pool, s.phase, s.stack = [6], 4, []
    start_phase(s, (0, 0))
    assert s.phase == 5 and s.level == 6


def test_players_take_turns_clockwise_from_the_first_player() -> None:
    s = at_play(3)
    seats = []
    while s.phase == 1:
        if s.decision_kind() == "play":
            seats.append(s.current_player())
        s.apply(s.legal_actions()[0])
    assert seats[:6] == [0, 1, 2, 0, 1, 2] and len(seats) >= 12  # 4 cards each


# ---------------------------------------------------------------------- I. the city tile
def test_tile_goes_next_to_same_colour_or_on_a_starting_space() -> None:
    s = at_play(3)
    give(s, 0, "c01")  # yellow, upper or middle
    s.apply("card c01")
    spaces = {a.split()[1] for a in s.legal_actions()}
    assert spaces == {"LB2", "RD2", "SB6"}  # the yellow starting spaces
    s.apply("tile LB2 Y")
    s.apply("house M")
    s.stack[-1:] = s.stack[-1:]  # next players
    # a second yellow tile may go next to it (orthogonally only, ruling R8)
    from eixample.games.rose_of_fire.turn import legal_spaces

    near = {s.t.space_names[x] for x in legal_spaces(s, Y)}
    assert {"LA2", "LB1", "LB3", "LC2"} <= near and "LA1" not in near and "LC3" not in near


def test_two_players_do_not_use_sant_marti() -> None:
    s = at_play(2)
    from eixample.games.rose_of_fire.turn import legal_spaces

    names = {s.t.space_names[x] for c in range(3) for x in legal_spaces(s, c)}
    assert names and not any(n.startswith("S") for n in names)
    assert not any(a.startswith("tile S") for a in rose_of_fire.GAME.all_actions(2))


def test_wild_card_places_any_colour() -> None:
    s = at_play(3)
    give(s, 0, "p03")  # a wild Popularity card
    assert s.t.card_colour[s.t.card_index["p03"]] == -1
    s.apply("card p03")
    colours = {a.split()[2] for a in s.legal_actions()}
    assert colours == {"Y", "L", "G"}


# ---------------------------------------------------------------------- II. the house
def test_house_must_be_a_type_the_card_shows() -> None:
    s = at_play(3)
    give(s, 0, "c04")  # middle or working
    s.apply("card c04")
    s.apply("tile LB2 Y")
    assert s.legal_actions() == ["house M", "house W"]
    with pytest.raises(IllegalActionError):
        s.apply("house U")


def test_upper_class_house_draws_two_tokens_keeps_one_and_moves_the_bomb() -> None:
    s = at_play(3)
    give(s, 0, "c01")
    s.red_bag = [1, 1, 0]  # one crown, one colonies: the two differ
    s.conviction = [2, 2, 2]
    s.apply("card c01")
    s.apply("tile LB2 Y")
    bomb = s.bomb
    s.apply("house U")
    assert s.stack[-1][0] == KEEP and s.legal_actions() == ["keep 1", "keep 2"]
    assert s.bomb == bomb + 1
    keep_colonies = {v: k for k, v in s.view(0)["player_list"][0]["secret_choice"].items()}["colonies"]
    s.apply(keep_colonies)
    assert s.tokens[:3] == [0, 1, 0] and s.red_bag == [1, 0, 0]


def test_two_alike_drawn_still_ask_and_name_a_place_not_a_symbol() -> None:
    """Rulebook: City cards, upper-class house (*). One action, at a place drawn at random, so
    that neither the number of choices nor the place tells the others the tokens were alike."""
    places = set()
    for seed in range(12):
        s = at_play(3, seed)
        give(s, 0, "c01")
        s.red_bag = [0, 2, 0]
        s.conviction = [2, 2, 2]
        s.apply("card c01")
        s.apply("tile LB2 Y")
        s.apply("house U")
        (only,) = s.legal_actions()
        assert s.view(0)["player_list"][0]["secret_choice"] == {only: "colonies"}
        places.add(only)
        s.apply(only)
        assert s.tokens[:3] == [0, 1, 0] and s.red_bag == [0, 1, 0]
    assert places == {"keep 1", "keep 2"}


def test_no_house_left_of_the_card_types_means_the_card_is_discarded() -> None:
    s = at_play(3)
    give(s, 0, "c04", "c01")  # c04: middle/working
    s.houses_left[MIDDLE] = s.houses_left[WORKING] = 0
    legal = s.legal_actions()
    assert "discard c04" in legal and "card c04" not in legal and "discard c01" not in legal
    s.apply("discard c04")
    assert s.t.card_index["c04"] in s.city_discard


# ---------------------------------------------------------------------- III. Raval
def test_strikers_are_level_minus_status() -> None:
    s = at_play(3)
    s.level = 5
    give(s, 0, "c03")  # upper or low
    s.apply("card c03")
    s.apply("tile LB2 Y")
    s.apply("house L")  # status 4: 5 - 4 = 1
    assert s.raval[0] == 1


def test_strikers_never_negative() -> None:
    s = at_play(3)
    s.level = 2
    give(s, 0, "c03")
    s.apply("card c03")
    s.apply("tile LB2 Y")
    s.apply("house L")  # 2 - 4 < 0: none
    assert s.raval[0] == 0 and s.supply[0] == 20


@pytest.mark.parametrize(
    ("players", "before", "added", "raval", "barricades"),
    [(3, 5, 3, 4, 2), (3, 4, 3, 5, 1), (3, 5, 1, 4, 1), (2, 5, 1, 6, 0), (2, 6, 2, 6, 1)],
)
def test_raval_limit_overflow(players: int, before: int, added: int, raval: int, barricades: int) -> None:
    """Rulebook example: blue has 5 in Raval and adds 3: twice 2 leave Raval, 2 to the
    barricades, 2 back to the supply, 4 stay (limit 5; 6 with 2 players)."""
    from eixample.games.rose_of_fire.turn import send_strikers

    s = at_play(players)
    s.raval[0], s.supply[0] = before, 20 - before
    send_strikers(s, 0, added)
    assert (s.raval[0], s.barricade[0]) == (raval, barricades)
    assert s.supply[0] + s.raval[0] + s.barricade[0] == 20


# ---------------------------------------------------------------------- IV. the obelisk
def test_completing_a_block_gives_prestige_and_the_status_bonus() -> None:
    s = at_play(3)
    put_tile(s, "LA1", Y, owner=1, house=UPPER)  # status 1
    put_tile(s, "LA2", Y, owner=2, house=LOW)  # status 4
    put_tile(s, "LB1", Y, owner=1, house=WORKING)  # P2 total 1 + 3 = 4: tie with P3
    s.prestige = [1, 3, 2]
    give(s, 0, "c04")
    s.apply("card c04")
    s.apply("tile LB2 Y")
    s.apply("house M")  # P1 total 2
    assert s.blocks == [s.t.space_index["LA1"] and s.t.squares_of[space(s, "LA1")][0]]
    # everyone with a house +1; P2 wins the status tie on prestige (general tie rule) +1
    assert s.prestige == [2, 5, 3]
    assert s.obelisks_left == 9


def test_a_tile_completing_two_blocks_lets_the_player_choose_one() -> None:
    s = at_play(3)
    for name in ("LA1", "LA2", "LB1", "LA3", "LB3"):
        put_tile(s, name, Y)
    give(s, 0, "c04")
    s.apply("card c04")
    s.apply("tile LB2 Y")
    s.apply("house M")
    assert s.stack[-1][0] == BLOCK and sorted(s.legal_actions()) == ["block LA1", "block LA2"]
    s.apply("block LA2")
    assert len(s.blocks) == 1 and s.in_block[space(s, "LA1")] == -1
    assert s.in_block[space(s, "LA3")] >= 0


def test_tiles_of_a_block_never_join_another() -> None:
    from eixample.games.rose_of_fire.turn import completable

    s = at_play(3)
    for name in ("LA1", "LA2", "LB1", "LB2"):
        put_tile(s, name, Y)
    from eixample.games.rose_of_fire.turn import complete_block

    complete_block(s, 0, s.t.squares_of[space(s, "LA1")][0])
    put_tile(s, "LA3", Y)
    put_tile(s, "LB3", Y)
    assert completable(s, space(s, "LB3")) == []


# ---------------------------------------------------------------------- Action cards
def test_event_card_played_for_its_event_places_no_tile() -> None:
    s = at_play(3)
    give(s, 0, "p28")  # Universal Exposition: 3 VP
    tiles = sum(s.tiles_left)
    s.apply("event p28")
    assert s.vp[0] == 3 and sum(s.tiles_left) == tiles
    assert s.current_player() == 1


def test_event_card_played_normally_ignores_the_event() -> None:
    s = at_play(3)
    give(s, 0, "p28")
    s.apply("card p28")
    s.apply(s.legal_actions()[0])
    s.apply(s.legal_actions()[0])
    assert s.vp[0] == 0 and sum(1 for v in s.tile if v >= 0) == 1


def test_crown_conviction_plays_tile_and_event() -> None:
    s = at_play(3)
    s.conviction[0] = CROWN
    give(s, 0, "p28")
    assert "both p28" in s.legal_actions()
    s.apply("both p28")
    s.apply(s.legal_actions()[0])
    s.apply(s.legal_actions()[0])
    assert s.vp[0] == 3 and sum(1 for v in s.tile if v >= 0) == 1
    assert s.conviction[0] == -1 and s.conviction_shown[0] == CROWN


def test_popularity_ability_adds_to_the_tile_and_house() -> None:
    s = at_play(3)
    give(s, 0, "p10")  # Friends at court: 1 influence token
    s.apply("card p10")
    s.apply(s.legal_actions()[0])
    s.apply(s.legal_actions()[0])
    assert s.token_count(0) == 1


def test_civil_guard_stays_on_the_table_until_the_next_rebellion() -> None:
    s = at_play(3)
    give(s, 0, "p19")
    s.apply("card p19")
    s.apply(s.legal_actions()[0])
    s.apply(s.legal_actions()[0])
    guard = s.t.card_index["p19"]
    assert s.table[0] == (guard,)
    s.barricade[0], s.supply[0] = 3, s.supply[0] - 3
    before = s.prestige[0]
    s.raval = [0, 0, 0]
    rebellion(s, (0, -1))
    assert s.prestige[0] == before and s.table[0] == () and guard in s.pop_discard


def test_strike_card_played_costs_two_vp_or_four_on_negative_prestige() -> None:
    s = at_play(3)
    give(s, 0, "strike")
    s.vp[0] = s.vp_src[SRC["cards"]] = 10
    s.apply("card strike")
    assert s.vp[0] == 8
    s2 = at_play(3)
    give(s2, 0, "strike")
    s2.vp[0] = s2.vp_src[SRC["cards"]] = 10
    s2.prestige[0] = -1
    s2.apply("card strike")
    assert s2.vp[0] == 6


def test_prestige_card_gives_its_vp_when_played() -> None:
    s = at_play(3)
    give(s, 0, "r4")
    s.apply("card r4")
    s.apply(s.legal_actions()[0])
    s.apply(s.legal_actions()[0])
    assert s.vp[0] == 4


def test_identical_cards_in_hand_are_one_choice() -> None:
    s = at_play(3)
    give(s, 0, "c01", "c07")  # same face
    assert [a for a in s.legal_actions() if a.startswith("card")] == ["card c01"]


# ---------------------------------------------------------------------- Prestige reward
@pytest.mark.parametrize(
    ("prestige", "gain"), [([5, 1, 1], 1), ([0, 2, 3], 3), ([3, 3, 1], 2), ([2, 5, 1], 2)]
)
def test_prestige_reward_by_standing(prestige: list[int], gain: int) -> None:
    from eixample.games.rose_of_fire.cards import reward_amount

    s = at_play(3)
    s.prestige = prestige
    assert reward_amount(s, 0) == gain


def test_personalities_conviction_makes_a_reward_three() -> None:
    from eixample.games.rose_of_fire.cards import prestige_reward

    s = at_play(3)
    s.conviction[0] = PERSONALITIES
    s.prestige = [9, 1, 1]  # alone at the top: +1 normally
    prestige_reward(s, 0)
    assert s.stack[-1][0] == REWARD
    s._legal = None
    assert s.legal_actions() == ["reward", "reward personalities"]
    s.apply("reward personalities")
    assert s.prestige[0] == 12 and s.conviction[0] == -1


def test_auca_ends_turn_into_vp() -> None:
    s = at_play(3)
    s.prestige[0] = 14
    s.gain_prestige(0, 3)
    assert s.prestige[0] == 15 and s.vp[0] == 2
    s.prestige[1] = -4
    s.vp[1] = s.vp_src[NSRC + SRC["cards"]] = 5
    s.lose_prestige(1, 3)
    assert s.prestige[1] == -5 and s.vp[1] == 3


# ---------------------------------------------------------------------- End-of-phase procedure
def test_rebellion_bag_soldiers_draw_prestige_and_bomb() -> None:
    s = at_play(3)
    s.raval = [3, 2, 0]
    s.supply = [17, 18, 20]
    s.barricade[2], s.supply[2] = 4, 16  # 4 strikers on the barricades: 4 soldiers
    s.level = 5
    bomb = s.bomb
    rebellion(s, (0, -1))
    assert s.raval == [0, 0, 0]
    assert s.montjuic == 12 and s.bag_soldiers + s.barricade_soldiers == 4
    drawn = s.barricade[0] + s.barricade[1] + (s.barricade[2] - 4) + s.barricade_soldiers
    assert drawn == 5  # the immigration level
    assert s.bomb == bomb + s.barricade_soldiers
    assert s.prestige[2] == max(-5, 1 - s.barricade[2])
    assert conservation_problem(s) == ""


def test_rebellion_soldiers_capped_at_eight_and_by_montjuic() -> None:
    s = at_play(3)
    s.barricade, s.supply = [5, 5, 5], [15, 15, 15]
    s.level = 0
    rebellion(s, (0, -1))
    assert s.bag_soldiers == 8 and s.montjuic == 8
    rebellion(s, (0, -1))
    assert s.bag_soldiers == 16 and s.montjuic == 0
    rebellion(s, (0, -1))
    assert s.bag_soldiers == 16  # nothing left in Montjuïc (ruling R3)


def test_strike_card_to_most_barricades_ties_to_higher_prestige() -> None:
    s = at_play(3)
    s.barricade, s.supply = [2, 2, 1], [18, 18, 19]
    s.prestige = [1, 4, 9]
    s.hands = [(), (), ()]
    strike_card(s, (0, -1))
    assert s.t.card_index["strike"] in s.hands[1]  # tie on 2: higher prestige takes it (ruling R5)
    assert s.barricade == [0, 0, 0] and s.supply == [20, 20, 20]


def test_strike_card_nobody_on_the_barricades() -> None:
    s = at_play(3)
    s.hands = [(), (), ()]
    strike_card(s, (0, -1))
    assert s.strike_to == -1 and all(not h for h in s.hands)


def test_prestige_card_and_first_player_follow_a_whole_end_of_phase() -> None:
    s = at_play(3)
    while s.phase == 1:
        s.apply(s.legal_actions()[0])
    assert all(len(h) == 4 for h in s.hands)  # refilled with City cards to the limit
    prestige_cards = [p for p in range(3) if s.hand_of_kind(p, 2)]
    assert len(prestige_cards) == 1


def test_popularity_majorities_rulebook_example() -> None:
    """Rulebook example (end of phase 1, Right district): green wins middle with 1 house; yellow,
    green and blue tie on working with 1 house each, blue wins on prestige; yellow wins low-budget
    with 2 houses against red's and green's 1; upper-class houses never count."""
    s = rose_of_fire.new_game(4, 3, first_player=0)
    blue, yellow, green, red = 0, 1, 2, 3
    s.prestige = [6, 2, 3, 1]
    houses = [
        ("RA1", green, MIDDLE),
        ("RA2", yellow, WORKING),
        ("RA3", green, WORKING),
        ("RA4", blue, WORKING),
        ("RB1", yellow, LOW),
        ("RB2", yellow, LOW),
        ("RB3", red, LOW),
        ("RB4", green, LOW),
        ("RC1", red, UPPER),
        ("RC2", red, UPPER),
    ]
    for name, p, h in houses:
        put_tile(s, name, Y, owner=p, house=h)
    right = s.t.district_ids.index("R")
    won = {(h, w) for d, h, w, _ in majorities(s) if d == right}
    assert won == {(MIDDLE, green), (WORKING, blue), (LOW, yellow)}


def test_popularity_card_lost_when_the_hand_is_full() -> None:
    s = at_play(3)
    put_tile(s, "LA1", Y, owner=0, house=MIDDLE)
    s.hands = [tuple(s.city_deck[:4]), (), ()]
    s.city_deck = s.city_deck[4:]
    pop = len(s.pop_deck)
    s.conviction = [-1, -1, -1]
    popularity_cards(s, (0, -1))
    assert len(s.pop_deck) == pop and len(s.hands[0]) == 4


def test_colonies_conviction_extra_popularity_card() -> None:
    s = at_play(3)
    s.hands = [(), (), ()]
    s.conviction = [COLONIES, CROWN, -1]
    s.stack = []
    popularity_cards(s, (0, -1))
    assert [f[:2] for f in s.stack] == [(EXTRA, 1), (EXTRA, 0)]  # both secret holders asked
    s._settle()
    assert s.legal_actions() == ["extra none", "extra colonies"]
    s.apply("extra colonies")
    assert s.hand_of_kind(0, 1) == 1 and s.conviction_shown[0] == COLONIES
    assert s.legal_actions() == ["extra none"]


# ---------------------------------------------------------------------- End-of-period procedure
def test_block_scoring_normal_table_returns_houses_and_flips_tiles() -> None:
    s = at_play(3)
    for name, h in (("LA1", UPPER), ("LA2", MIDDLE), ("LB1", WORKING), ("LB2", LOW)):
        put_tile(s, name, Y, owner=0, house=h)
    put_tile(s, "LC1", Y, owner=1, house=UPPER)  # outside the block: stays
    from eixample.games.rose_of_fire.turn import complete_block

    complete_block(s, 0, s.t.squares_of[space(s, "LA1")][0])
    block_scoring(s, (0, -1))
    assert s.vp[0] == 4 + 3 + 2 + 1 and s.vp[1] == 0
    assert s.houses_left[:4] == [5, 5, 5, 5] and s.owner[space(s, "LC1")] == 1
    assert s.complete_side(space(s, "LA1")) and s.obelisks_left == 10 and s.blocks == []


def test_block_scoring_reversed_under_anarchy() -> None:
    s = at_play(3)
    for name, h in (("LA1", UPPER), ("LA2", UPPER), ("LB1", LOW), ("LB2", LOW)):
        put_tile(s, name, Y, owner=0, house=h)
    from eixample.games.rose_of_fire.turn import complete_block

    complete_block(s, 0, s.t.squares_of[space(s, "LA1")][0])
    s.anarchy = 1
    block_scoring(s, (0, -1))
    assert s.vp[0] == 1 + 1 + 4 + 4


def test_suppression_of_protests_fewest_in_the_bag() -> None:
    s = at_play(3)
    s.bag, s.supply = [3, 1, 1], [17, 19, 19]
    s.bag_soldiers, s.montjuic = 2, 14
    s.prestige = [1, 1, 4]
    s.conviction = [-1, -1, -1]
    suppression(s, (0, -1))
    assert s.prestige == [1, 1, 5]  # tie on 1: P3 has more prestige; alone at the top: +1
    assert s.bag == [0, 0, 0] and s.supply == [20, 20, 20] and s.montjuic == 16


# ---------------------------------------------------------------------- Social-conflict track
def test_event_in_a_turn_removes_unacquired_cards_at_the_end_of_the_turn() -> None:
    s = at_play(3)
    s.bomb = s.t.event_space[CROWN] - 1
    s.influence_owner[1] = 2  # K2 acquired: stays
    give(s, 0, "c01")
    s.apply("card c01")
    s.apply("tile LB2 Y")
    s.red_bag = [5, 0, 0]
    s.apply("house U")
    assert s.pending_events == [CROWN] and s.influence_owner[0] == -1
    while s.current_player() == 0:
        s.apply(s.legal_actions()[-1])
    assert s.influence_owner[:3] == [-2, 2, -2]


def test_anarchy_needs_a_soldier_drawn_in_a_rebellion() -> None:
    s = at_play(3)
    s.bomb = s.t.anarchy_space
    s.influence_owner[0] = 1
    s.level = 0
    rebellion(s, (0, -1))
    assert not s.anarchy  # no soldier drawn
    s.level = 3
    s.raval = [0, 0, 0]
    rebellion(s, (0, -1))  # only soldiers in the bag
    assert s.anarchy and s.influence_owner[0] == -3


# ---------------------------------------------------------------------- Influence
def test_token_limit_six_asks_to_drop() -> None:
    s = at_play(3)
    s.tokens[:3] = [3, 3, 0]
    give(s, 0, "p10")
    s.red_bag = [0, 0, 5]
    s.apply("card p10")
    s.apply(s.legal_actions()[0])
    s.apply(s.legal_actions()[0])
    assert s.decision_kind() == "drop" and len(s.legal_actions()) == 3
    assert all(int(text.split()[1]) in range(1, 8) for text in s.legal_actions())
    choice = s.view(0)["player_list"][0]["secret_choice"]
    assert sorted(choice.values()) == ["colonies", "crown", "personalities"]
    assert s.view(1)["player_list"][0]["secret_choice"] is None
    s.apply({v: k for k, v in choice.items()}["crown"])
    assert s.tokens[:3] == [2, 3, 1]


def test_buy_influence_card_with_two_for_one_conversion() -> None:
    s = at_play(3)
    s.tokens[:3] = [0, 0, 4]
    s.conviction[0] = -1
    give(s, 0, "c04")
    s.apply("card c04")
    s.apply(s.legal_actions()[0])
    s.apply(s.legal_actions()[0])
    legal = s.legal_actions()
    assert "buy K1 with 4P" in legal  # 2 personalities for each crown
    assert "buy P1 with 2P" in legal and "done" in legal
    s.apply("buy K1 with 4P")
    assert s.influence_owner[0] == 0 and s.tokens[:3] == [0, 0, 0]


def test_conviction_token_can_pay() -> None:
    s = at_play(3)
    s.tokens[:3] = [1, 0, 0]
    s.conviction[0] = CROWN
    give(s, 0, "c04")
    s.apply("card c04")
    s.apply(s.legal_actions()[0])
    s.apply(s.legal_actions()[0])
    assert "buy K1 with 1K+conv" in s.legal_actions()
    s.apply("buy K1 with 1K+conv")
    assert s.conviction[0] == -1 and s.conviction_shown[0] == CROWN


def _payments_by_definition(cost: tuple[int, int, int], held: tuple[int, int, int],
                            conviction: int) -> set[tuple[int, int, int, int]]:
    """Influence: each token a card asks for is paid with one token of its symbol or two of one
    other; the conviction token may take part (then it pays one token of its own symbol). Every
    way of choosing, token by token, what pays it."""
    asked = [symbol for symbol in range(3) for _ in range(cost[symbol])]
    found = set()
    for payers in itertools.product(range(3), repeat=len(asked)):
        used = [0, 0, 0]
        for symbol, payer in zip(asked, payers, strict=True):
            used[payer] += 1 if payer == symbol else 2
        if all(used[k] <= held[k] for k in range(3)):
            found.add((*used, -1))
        if conviction >= 0 and used[conviction] > 0:
            from_card = used[:]
            from_card[conviction] -= 1
            if all(from_card[k] <= held[k] for k in range(3)):
                found.add((*from_card, conviction))
    return found


def test_influence_payments_are_every_way_the_rule_allows() -> None:
    costs = sorted({tuple(cost) for cost in rose_of_fire.new_game(3, 1).t.influence_cost})
    for cost in costs:
        for held in itertools.product(range(5), repeat=3):
            for conviction in (-1, *range(3)):  # none, or its symbol
                paid = payments(cost, held, conviction)
                assert list(paid) == sorted(paid), (cost, held, conviction)
                assert set(paid) == _payments_by_definition(cost, held, conviction), (cost, held, conviction)


# ---------------------------------------------------------------------- Two players
def test_two_players_no_strike_option() -> None:
    s = rose_of_fire.new_game(2, 4, no_strike=True, first_player=0)
    s.barricade, s.supply = [2, 0], [18, 20]
    s.hands = [(), ()]
    strike_card(s, (0, -1))
    assert s.strike_shown == 0 and s.hands[0] == () and s.strike_to == 0
    with pytest.raises(ValueError):
        rose_of_fire.new_game(3, 4, no_strike=True)


# ---------------------------------------------------------------------- Rulings
def test_ruling_r15_an_empty_deck_is_refilled_from_its_discard_pile() -> None:
    s = at_play(3)
    s.city_discard = s.city_deck
    s.city_deck = ()
    card = s.draw_card(0)
    assert card >= 0 and s.city_discard == () and len(s.city_deck) == 36 - 12 - 1


def test_ruling_r19_no_tile_of_a_colour_left() -> None:
    from eixample.games.rose_of_fire.turn import legal_spaces

    s = at_play(3)
    s.tiles_left[Y] = 0
    assert legal_spaces(s, Y) == () and legal_spaces(s, L)


def test_ruling_r19_no_obelisk_left_no_block() -> None:
    s = at_play(3)
    for name in ("LA1", "LA2", "LB1"):
        put_tile(s, name, Y)
    s.obelisks_left = 0
    s.blocks = []
    give(s, 0, "c04")
    s.apply("card c04")
    s.apply("tile LB2 Y")
    s.apply("house M")
    assert s.blocks == [] and s.in_block[space(s, "LB2")] == -1


def test_ruling_r29_no_strike_final_penalty_still_applies() -> None:
    s = rose_of_fire.new_game(2, 4, no_strike=True, first_player=0)
    s.phase = 5
    s.barricade, s.supply = [0, 2], [20, 18]
    s.vp[1] = s.vp_src[NSRC + SRC["cards"]] = 5
    strike_card(s, (0, -1))
    assert s.vp == [0, 3]


def test_ruling_r32_colonies_not_offered_in_the_final_procedure() -> None:
    s = at_play(3)
    s.phase = 5
    s.hands = [(), (), ()]
    s.conviction = [COLONIES, COLONIES, COLONIES]
    s.stack = []
    popularity_cards(s, (0, -1))
    assert s.stack == []


def test_event_bomb_and_agitation_reach_the_other_players() -> None:
    s = at_play(3)
    give(s, 0, "p30")  # the Liceu bomb: bomb +2, every other player 1 striker into Raval
    bomb = s.bomb
    s.apply("event p30")
    assert s.bomb == bomb + 2 and s.raval == [0, 1, 1]


def test_prestige_card_tie_goes_by_turn_order() -> None:
    from eixample.games.rose_of_fire.end_of_phase import prestige_card

    s = at_play(3)
    s.first = 1
    s.prestige = [4, 2, 4]
    s.hands = [(), (), ()]
    prestige_card(s, (0, -1))
    assert s.hand_of_kind(2, 2) == 1  # P3 plays before P1 when P2 is first


def test_event_reached_in_a_rebellion_resolves_at_once() -> None:
    s = at_play(3)
    s.bomb = s.t.event_space[COLONIES] - 1
    s.raval = [0, 0, 0]
    s.level = 8  # the bag holds only soldiers: every figure drawn is a soldier
    rebellion(s, (0, -1))
    assert s.fired[COLONIES] and s.pending_events == []
    assert [s.influence_owner[k] for k in range(9) if s.t.influence_symbol[k] == COLONIES] == [-2, -2, -2]
