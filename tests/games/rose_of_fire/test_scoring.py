"""Rulebook: End of the game (final end-of-phase and end-of-period procedures), final scoring,
tie-breakers, and the worked examples with their numbers."""

from __future__ import annotations

from eixample.games import rose_of_fire
from eixample.games.rose_of_fire.components import CROWN, LOW, MIDDLE, UPPER
from eixample.games.rose_of_fire.end_of_phase import (
    first_player,
    popularity_cards,
    prestige_card,
    strike_card,
)
from eixample.games.rose_of_fire.scoring import final_scoring
from eixample.games.rose_of_fire.state import NSRC, SRC

from .helpers import at_play, give, put_tile


def test_immigration_example_upper_class_house_at_level_five_brings_four_strikers() -> None:
    """Rulebook: strikers = immigration level - status; level 5 and an upper-class house
    (status 1) bring 4 strikers, a low-budget house (status 4) 1."""
    s = at_play(3)
    s.level = 5
    give(s, 0, "c03")  # upper or low
    s.red_bag = [4, 0, 0]
    s.apply("card c03")
    s.apply("tile LB2 Y")
    s.apply("house U")
    assert s.raval[0] == 4 and s.supply[0] == 16


def test_final_end_of_phase_strike_prestige_and_majorities_give_vp() -> None:
    s = at_play(3)
    s.phase = 5
    s.barricade, s.supply = [0, 3, 0], [20, 17, 20]
    s.prestige = [7, -2, 1]
    put_tile(s, "LA1", 0, owner=2, house=MIDDLE)
    s.vp[1] = s.vp_src[NSRC + SRC["cards"]] = 10
    strike_card(s, (0, -1))
    prestige_card(s, (0, -1))
    popularity_cards(s, (0, -1))
    assert s.vp == [4, 6, 1]  # Strike on a negative space -4; Prestige card +4; one majority +1
    assert all(s.t.card_kind[c] != 3 for h in s.hands for c in h)  # no card given out


def test_final_scoring_outside_houses_influence_tokens_and_conviction() -> None:
    s = at_play(3)
    put_tile(s, "LA1", 0, owner=0, house=UPPER)
    put_tile(s, "LA3", 0, owner=0, house=LOW)
    s.influence_owner[0] = 0  # K1, 3 VP
    s.influence_owner[1] = 0  # K2, 5 VP
    s.tokens[:3] = [2, 2, 0]  # 4 unused tokens: 1 VP (ruling R27)
    s.conviction[0] = CROWN  # kept secret: +2 per Crown card
    s.tokens[3:6] = [3, 2, 1]  # 6 unused tokens: 3 VP
    s.conviction[1] = -1
    final_scoring(s, (0, -1))
    assert s.vp[0] == 2 + 3 + 5 + 1 + 4 and s.vp[1] == 3 and s.ended
    b = s.score_breakdown()[0]
    assert (b["outside"], b["influence"], b["tokens"], b["conviction"]) == (2, 8, 1, 4)


def test_conviction_scores_nothing_under_anarchy() -> None:
    s = at_play(3)
    s.anarchy = 1
    s.influence_owner[0] = 0  # bought after Anarchy began (ruling R24): it scores
    s.conviction[0] = CROWN
    final_scoring(s, (0, -1))
    assert s.score_breakdown()[0]["conviction"] == 0 and s.score_breakdown()[0]["influence"] == 3


def test_winner_ties_broken_by_prestige_then_turn_order() -> None:
    s = at_play(3)
    s.vp = [10, 10, 10]
    s.prestige = [2, 5, 5]
    s.first = 2
    s.ended = True
    assert s.winners() == [2]  # P2 and P3 tie on prestige; P3 plays first
    s.prestige = [2, 6, 5]
    assert s.winners() == [1]


def test_first_player_marker_goes_to_the_strike_card_receiver() -> None:
    s = at_play(3)
    s.strike_to = 2
    first_player(s, (0, -1))
    assert s.first == 2
    s.strike_to = -1
    first_player(s, (0, -1))
    assert s.first == 2  # nobody received it: the marker stays (ruling R6)


def test_a_whole_game_ends_after_phase_five_with_final_scoring() -> None:
    from eixample.core.rng import Rng

    from .helpers import play_randomly

    s = play_randomly(rose_of_fire.new_game(4, 21), Rng(5))
    assert s.phase == 5 and s.is_terminal() and s.current_player() == -1
    assert "Final scores" in s.log_text()[-1]
