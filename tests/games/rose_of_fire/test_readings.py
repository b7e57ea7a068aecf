"""The readings of rules version 2 of The Rose of Fire (docs/rose-of-fire/rules-coverage.md,
rulings R21, R30, R36, R41), each beside the behaviour version 1 keeps for games recorded
before it."""

from __future__ import annotations

import pytest

from eixample.games import rose_of_fire
from eixample.games.rose_of_fire.components import LOW, UPPER
from eixample.games.rose_of_fire.end_of_phase import strike_card
from eixample.games.rose_of_fire.state import BUY, DROP, NSRC, PLAY, SRC, WHEN

from .helpers import at_play, give, put_tile

Y = 0


def test_rules_versions_default_to_the_latest_and_are_kept_in_the_options() -> None:
    assert rose_of_fire.GAME.rules_versions() == [1, 2]
    s = rose_of_fire.new_game(3, 1)
    assert s.rules_version == rose_of_fire.LATEST_RULES == 2
    assert s.record()["options"]["rules"] == 2 and s.to_json()["options"]["rules"] == 2
    old = rose_of_fire.new_game(3, 1, rules=1)
    assert old.rules_version == 1 and old.clone().rules_version == 1
    assert rose_of_fire.replay(old.record()).rules_version == 1
    for bad in (0, 3, "2", True, 2.0):
        with pytest.raises(ValueError, match="rules"):
            rose_of_fire.new_game(3, 1, rules=bad)


def test_a_saved_state_without_a_rules_version_is_of_version_1() -> None:
    """Every state saved before versions existed was played under version 1."""
    data = rose_of_fire.new_game(3, 1).to_json()
    del data["options"]["rules"]
    assert rose_of_fire.from_json(data).rules_version == 1


# ---------------------------------------------------------------------- R21
def ability_card_before_raval(rules: int) -> rose_of_fire.RoseState:
    """P1 plays p14 (yellow, middle class, ability: calm Raval 2) at immigration level 5 with 3
    strikers in Raval: the house sends 3 more (limit 5 with 3 players)."""
    s = at_play(3, rules=rules)
    give(s, 0, "p14")
    s.level = 5
    s.raval[0], s.supply[0] = 3, s.supply[0] - 3
    s.apply("card p14")
    s.apply(s.legal_actions()[0])
    s.apply("house M")
    return s


def test_ruling_r21_a_calming_ability_may_come_before_the_strikers_go_to_raval() -> None:
    """"Efekty této události lze vyhodnotit kdykoli během hráčova tahu, ale ještě předtím, než
    se vyhodnotí důsledky dokončení bloku": calming first keeps a striker off the barricades."""
    s = ability_card_before_raval(2)
    assert s.stack[-1][0] == WHEN and s.decision_kind() == "ability"
    assert s.legal_actions() == ["ability first", "strikers first"]
    s.apply("ability first")  # 3 - 2 = 1 in Raval, then + 3 = 4: under the limit
    assert (s.raval[0], s.barricade[0]) == (4, 0)

    later = ability_card_before_raval(2)
    later.apply("strikers first")  # 3 + 3 = 6: 2 leave (1 to the barricades), then - 2 = 2
    assert (later.raval[0], later.barricade[0]) == (2, 1)


def test_ruling_r21_rules_1_resolve_the_ability_after_the_strikers() -> None:
    s = ability_card_before_raval(1)
    assert s.stack[-1][0] != WHEN and "ability first" not in s.legal_actions()
    assert (s.raval[0], s.barricade[0]) == (2, 1)


def test_ruling_r21_no_question_when_the_order_changes_nothing() -> None:
    s = at_play(3)
    give(s, 0, "p10")  # an influence token: nothing to do with Raval
    s.level = 5
    s.apply("card p10")
    s.apply(s.legal_actions()[0])
    s.apply(s.legal_actions()[0])
    assert s.decision_kind() != "ability" and s.token_count(0) == 1


# ---------------------------------------------------------------------- R30
def turn_at_the_token_limit(rules: int) -> rose_of_fire.RoseState:
    """P2 begins a turn holding 6 tokens, with an upper-class card (2 tokens drawn, keep 1)."""
    s = at_play(3, rules=rules)
    give(s, 0, "c04")
    give(s, 1, "c01")
    s.red_bag[0] -= 6
    s.tokens[3:6] = [6, 0, 0]
    s.apply("card c04")
    s.apply("tile LB2 Y")
    s.apply("house M")
    while s.current_player() == 0:
        s.apply("done")
    assert s.current_player() == 1
    return s


def test_ruling_r30_influence_may_be_bought_before_the_card() -> None:
    """"Jako volnou akci během svého tahu může hráč získat kartu vlivu": buying first leaves
    room for the token the upper-class house brings."""
    s = turn_at_the_token_limit(2)
    assert s.stack[-1] == (BUY, 1) and s.stack[-2] == (PLAY, 1)
    assert "buy K1 with 2K" in s.legal_actions() and "done" in s.legal_actions()
    s.apply("buy K1 with 2K")
    s.apply("done")
    assert s.decision_kind() == "play"
    s.apply("card c01")
    s.apply(s.legal_actions()[0])
    s.apply("house U")
    s.apply("keep 1")
    assert s.token_count(1) == 5 and s.decision_kind() != "drop"
    assert s.influence_owner[0] == 1


def test_ruling_r30_rules_1_offer_purchases_only_after_the_card() -> None:
    s = turn_at_the_token_limit(1)
    assert s.decision_kind() == "play"
    s.apply("card c01")
    s.apply(s.legal_actions()[0])
    s.apply("house U")
    s.apply("keep 1")
    assert s.stack[-1][0] == DROP and s.token_count(1) == 7


# ---------------------------------------------------------------------- R36
def block_tie_at_the_top(rules: int) -> rose_of_fire.RoseState:
    """P1 completes a block where P2 and P3 tie on status 4; P3 has the higher prestige (15, the
    Auca's top) before the block's +1, P2 (14) catches up with it after."""
    s = at_play(3, rules=rules)
    put_tile(s, "LA1", Y, owner=1, house=LOW)
    put_tile(s, "LA2", Y, owner=2, house=LOW)
    put_tile(s, "LB1", Y)
    s.prestige = [1, 14, 15]
    give(s, 0, "c04")
    s.apply("card c04")
    s.apply("tile LB2 Y")
    s.apply("house M")
    assert len(s.blocks) == 1
    return s


def auca_vp(s: rose_of_fire.RoseState) -> list[int]:
    return [s.vp_src[p * NSRC + SRC["auca"]] for p in range(s.n)]


def test_ruling_r36_the_block_bonus_tie_goes_by_prestige_before_the_blocks_plus_one() -> None:
    """"Shodu vyhrává hráč, který má vyšší prestiž": P3 had more prestige when the block was
    completed, and takes the bonus (+1 VP beyond the top, with its +1 for being there)."""
    s = block_tie_at_the_top(2)
    assert s.prestige[1:] == [15, 15] and auca_vp(s) == [0, 0, 2]


def test_ruling_r36_rules_1_read_the_prestige_after_the_plus_one() -> None:
    s = block_tie_at_the_top(1)  # 15 and 15 after the +1: turn order gives it to P2
    assert s.prestige[1:] == [15, 15] and auca_vp(s) == [0, 1, 1]


# ---------------------------------------------------------------------- R41 the VP track
@pytest.mark.parametrize(("rules", "vp", "prestige", "after"), [(2, 1, 1, 0), (2, 3, 1, 1), (2, 3, -1, 0),
                                                                 (1, 1, 1, -1), (1, 0, -1, -4)])
def test_ruling_r41_the_strike_card_takes_no_score_below_0(
    rules: int, vp: int, prestige: int, after: int
) -> None:
    """The VP track starts at 0 and has no negative spaces: the card takes what the player has."""
    s = at_play(3, rules=rules)
    give(s, 0, "strike")
    s.vp[0] = s.vp_src[SRC["cards"]] = vp
    s.prestige[0] = prestige
    s.apply("card strike")
    assert s.vp[0] == after and sum(s.vp_src[:NSRC]) == after


def test_ruling_r41_the_final_strike_card_and_the_auca_bottom_take_no_score_below_0() -> None:
    s = at_play(3)
    s.phase = 5
    s.hands = [(), (), ()]
    s.barricade, s.supply = [2, 0, 0], [18, 20, 20]
    strike_card(s, (0, -1))
    s.prestige[1] = s.t.auca_min
    s.lose_prestige(1, 3)
    assert s.vp == [0, 0, 0] and s.vp_src == [0] * (3 * NSRC)


def test_upper_class_card_text_still_follows_the_strikers() -> None:
    """Rules 2 change only where the ability goes: the upper-class text (*) keeps its place."""
    s = at_play(3)
    give(s, 0, "c01")
    s.apply("card c01")
    s.apply(s.legal_actions()[0])
    bomb = s.bomb
    s.apply("house U")
    assert s.bomb == bomb + 1 and s.houses_left[UPPER] == s.t.houses_per_type - 1
