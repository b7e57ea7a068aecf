from __future__ import annotations

import pytest

from eixample.ai.match import MatchResult, MatchTask, derive_seed, lineup, play_match
from eixample.ai.stats import summarise, wilson_interval
from eixample.ai.tournament import Ratings, finishing_ranks, schedule


def _result(bots: tuple[str, ...], scores: tuple[int, ...], winners: tuple[int, ...]) -> MatchResult:
    breakdown = tuple({"points": score, "bonus": 0} for score in scores)
    return MatchResult(bots, {"actions": []}, scores, winners, breakdown)


def test_lineups_rotate_seats() -> None:
    assert [lineup(["a", "b"], 2, game) for game in range(3)] == [("a", "b"), ("b", "a"), ("a", "b")]
    assert lineup(["a", "b", "c"], 2, 2) == ("c", "a")
    assert lineup(["a"], 3, 5) == ("a", "a", "a")


def test_derived_seeds_are_stable_and_distinct() -> None:
    assert derive_seed(1, 0) == derive_seed(1, 0)
    seeds = {derive_seed(game, seat) for game in range(50) for seat in range(4)}
    assert len(seeds) == 200
    assert all(0 <= seed < 2**63 for seed in seeds)


def test_round_robin_schedule() -> None:
    lineups = schedule(["a", "b", "c"], 2, 4)
    assert len(lineups) == 12
    assert lineups.count(("a", "b")) == lineups.count(("b", "a")) == 2
    assert len(schedule(["a", "b", "c", "d"], 3, 3)) == 4 * 3


@pytest.mark.parametrize(("specs", "players", "message"), [
    (["a", "a"], 2, "only once"), (["a", "b"], 3, "at least 3"),
])
def test_bad_schedules(specs: list[str], players: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        schedule(specs, players, 1)


def test_finishing_ranks_put_winners_first_then_scores() -> None:
    assert finishing_ranks(_result(("a", "b", "c"), (10, 12, 10), (0,))) == [1, 2, 3]
    assert finishing_ranks(_result(("a", "b", "c"), (5, 9, 9), (1, 2))) == [3, 1, 1]


def test_ratings_reward_the_winner() -> None:
    ratings = Ratings(["strong", "weak"])
    for _ in range(5):
        ratings.update(_result(("strong", "weak"), (3, 1), (0,)))
        ratings.update(_result(("weak", "strong"), (0, 2), (1,)))
    table = ratings.table()
    assert [standing.spec for standing in table] == ["strong", "weak"]
    assert table[0].games == table[1].games == 10
    assert table[0].wins == 10 and table[0].win_rate == 1.0
    assert table[0].ordinal > table[1].ordinal
    assert ratings.head_to_head == {("strong", "weak"): 10}


def test_summary_counts_shared_wins_and_points_by_source() -> None:
    results = [_result(("a", "b"), (4, 4), (0, 1)), _result(("b", "a"), (6, 2), (0,))]
    summary = summarise(results, ["a", "b"])
    assert summary.json() == {
        "games": 2,
        "bots": {"a": {"games": 2, "wins": 1, "win_rate": 0.5, "win_interval": list(wilson_interval(1, 2)),
                       "mean_score": 3.0},
                 "b": {"games": 2, "wins": 2, "win_rate": 1.0, "win_interval": list(wilson_interval(2, 2)),
                       "mean_score": 5.0}},
    }
    assert summary.seat_wins == [2, 1]
    assert summary.sources == ["points", "bonus"]
    assert summary.bots["b"].mean_by_source() == {"points": 5.0, "bonus": 0.0}


def test_a_match_sums_itself_up() -> None:
    result = play_match(MatchTask("tictactoe", 4, ("greedy", "random")))
    assert result.bots == ("greedy", "random")
    assert result.record["seed"] == 4
    assert sum(result.scores) <= 1
    assert result.line()["record"] == result.record
    assert result.breakdown == ({"win": result.scores[0]}, {"win": result.scores[1]})
