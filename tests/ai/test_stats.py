"""Win-rate intervals: the Wilson score interval every report of bot strength uses."""

from __future__ import annotations

import pytest

from eixample.ai.stats import BotRecord, wilson_interval


def test_wilson_interval_matches_published_figures() -> None:
    # 137 wins in 200 games: the interval the strength journal reports for the parallel expert
    # (benchmarks/results/strength-barcelona.md)
    low, high = wilson_interval(137, 200)
    assert (round(low, 3), round(high, 3)) == (0.618, 0.745)
    # Wilson's own worked case (Newcombe 1998, table I): 81 of 263 -> 0.2553-0.3662
    low, high = wilson_interval(81, 263)
    assert low == pytest.approx(0.2553, abs=5e-4) and high == pytest.approx(0.3662, abs=5e-4)


def test_wilson_interval_at_the_edges() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and 0.25 < high < 0.3  # no win is not "never wins"
    low, high = wilson_interval(10, 10)
    assert high == 1.0 and 0.7 < low < 0.75
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(1 - high)  # symmetric about one half


def test_more_games_narrow_the_interval() -> None:
    few, many = wilson_interval(7, 10), wilson_interval(700, 1000)
    assert few[0] < many[0] < 0.7 < many[1] < few[1]


def test_a_bot_record_gives_its_interval() -> None:
    record = BotRecord(games=40, wins=30)
    assert record.win_interval == wilson_interval(30, 40)
