"""The rating of a finished game (server/ratings.py): who is rated, the places they took, and the
openskill update (docs/ratings.md)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from eixample.server.ratings import (
    Finished,
    SeatFacts,
    entrants,
    new_skill,
    places,
    player_key,
    rate,
    shown,
)

AT = datetime(2026, 11, 28, 9, 0, tzinfo=UTC)


def account(seat: int, name: str) -> SeatFacts:
    return SeatFacts(seat, "person", account_id=name)


def finished(seats: list[SeatFacts], result: dict[str, Any], gone: frozenset[int] = frozenset(),
             *, rated: bool = True, game: str = "tictactoe") -> Finished:
    return Finished("g1", game, rated, result, tuple(seats), gone, AT)


def test_places_winners_first_then_by_score_with_equal_scores_sharing() -> None:
    assert places([10, 30, 20, 20], [1], frozenset(), 4) == [4, 1, 2, 2]
    assert places([5, 5], [0, 1], frozenset(), 2) == [1, 1]  # a shared win is a tie
    assert places([9, 9, 3], [0], frozenset(), 3) == [1, 2, 3]  # a tie-break decided the winner


def test_places_without_scores_put_the_winners_first_and_the_rest_together() -> None:
    assert places(None, [2], frozenset(), 3) == [2, 2, 1]


def test_a_seat_that_resigned_or_ran_out_of_time_is_last_whatever_it_scored() -> None:
    assert places([50, 10, 20], [0], frozenset({0}), 3) == [3, 2, 1]
    assert places([50, 40, 20], [0], frozenset({0, 1}), 3) == [2, 2, 1]


def test_a_resigned_winner_is_never_the_winner() -> None:
    seats = [account(0, "ana"), account(1, "biel")]
    game = finished(seats, {"scores": [1, 0], "winners": [0]}, frozenset({0}))
    ana, biel = entrants(game) or []
    assert (ana.place, ana.won) == (2, False)
    assert (biel.place, biel.won) == (1, True)


def test_accounts_and_bot_levels_are_the_rated_players() -> None:
    assert player_key("tictactoe", account(0, "a1")) == "account:a1"
    assert player_key("tictactoe", SeatFacts(1, "bot", bot="greedy")) == "bot:beginner"
    assert player_key("barcelona", SeatFacts(1, "bot", bot="mcts:seconds=1")) == "bot:strong"
    assert player_key("tictactoe", SeatFacts(1, "bot", bot="mcts:iterations=7")) is None  # not a level
    assert player_key("tictactoe", SeatFacts(1, "person")) is None  # a guest


def test_a_game_of_an_account_against_a_bot_level_is_rated() -> None:
    seats = [account(0, "ana"), SeatFacts(1, "bot", bot="greedy")]
    game = finished(seats, {"scores": [0, 1], "winners": [1]})
    rated = entrants(game)
    assert rated is not None
    expected = [("account:ana", 2, False), ("bot:beginner", 1, True)]
    assert [(e.player, e.place, e.won) for e in rated] == expected


@pytest.mark.parametrize(
    "seats,rated",
    [
        ([account(0, "ana"), SeatFacts(1, "person")], True),  # a guest at the table
        ([account(0, "ana"), SeatFacts(1, "bot", bot="random:x=1")], True),  # a bot of its own
        ([SeatFacts(0, "bot", bot="greedy"), SeatFacts(1, "bot", bot="mcts:seconds=1")], True),  # no person
        ([account(0, "ana"), account(1, "ana")], True),  # one account holding both seats
        ([account(0, "ana"), account(1, "biel")], False),  # created unrated
        ([account(0, "ana"), SeatFacts(1, "automa")], True),  # a solo game: one player
    ],
    ids=["guest", "custom-bot", "bots-only", "same-account", "unrated-option", "solo"],
)
def test_unrated_games(seats: list[SeatFacts], rated: bool) -> None:
    assert entrants(finished(seats, {"scores": [1, 0], "winners": [0]}, rated=rated)) is None


def test_the_winner_gains_and_the_loser_loses() -> None:
    (win_mu, win_sigma), (lose_mu, lose_sigma) = rate([new_skill(), new_skill()], [1, 2])
    mu, sigma = new_skill()
    assert win_mu > mu > lose_mu
    assert win_sigma < sigma and lose_sigma < sigma
    assert shown(win_mu, win_sigma) > shown(mu, sigma)


def test_a_tie_between_equals_changes_their_mu_alike_and_not_at_all() -> None:
    (a_mu, a_sigma), (b_mu, b_sigma) = rate([new_skill(), new_skill()], [1, 1])
    assert a_mu == pytest.approx(b_mu) and a_sigma == pytest.approx(b_sigma)
    assert a_mu == pytest.approx(new_skill()[0])


def test_beating_a_stronger_player_gains_more() -> None:
    strong = (30.0, 3.0)
    beat_strong = rate([new_skill(), strong], [1, 2])[0][0]
    beat_equal = rate([new_skill(), new_skill()], [1, 2])[0][0]
    assert beat_strong > beat_equal


def test_three_places_order_the_new_ratings() -> None:
    after = rate([new_skill()] * 3, [2, 1, 3])
    assert after[1][0] > after[0][0] > after[2][0]


def test_a_newcomer_shows_the_base_rating() -> None:
    assert shown(*new_skill()) == 1000
