"""The per-address token buckets behind the rate limits, on a clock the test moves."""

from __future__ import annotations

import pytest

from eixample.server.errors import ApiError
from eixample.server.limits import RateLimits, ServerLimits, TokenBuckets


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_bucket_allows_its_share_then_refills_steadily() -> None:
    clock = Clock()
    buckets = TokenBuckets(20, clock)  # 20 a minute: one every 3 s
    assert [buckets.take("a") for _ in range(21)] == [True] * 20 + [False]
    assert buckets.take("b")  # another address has its own bucket
    assert buckets.wait("a") == 3
    clock.now += 2.9
    assert not buckets.has("a") and not buckets.take("a")  # refused requests take nothing
    clock.now += 0.1
    assert buckets.has("a") and buckets.take("a") and not buckets.take("a")
    clock.now += 3600  # a quiet hour refills to the share, never beyond
    assert [buckets.take("a") for _ in range(21)] == [True] * 20 + [False]


def test_full_buckets_are_forgotten() -> None:
    clock = Clock()
    buckets = TokenBuckets(60, clock)
    for address in range(500):
        buckets.take(f"10.0.0.{address}")
    assert len(buckets) == 500
    clock.now += 61
    for _ in range(1000):
        buckets.take("busy")
    assert len(buckets) <= 2  # the quiet ones were full again, and dropped


def test_refusals_say_when_to_try_again() -> None:
    clock = Clock()
    rates = RateLimits(ServerLimits(games_per_minute=2), clock)
    rates.hit("create", "1.2.3.4")
    rates.hit("create", "1.2.3.4")
    with pytest.raises(ApiError) as refused:
        rates.hit("create", "1.2.3.4")
    assert refused.value.status == 429 and refused.value.headers == {"Retry-After": "30"}
    assert "too many games created" in refused.value.message
    rates.check("token", "1.2.3.4")  # the kinds are counted apart
    clock.now += 30
    rates.hit("create", "1.2.3.4")
