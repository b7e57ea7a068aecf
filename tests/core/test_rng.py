from __future__ import annotations

from collections import Counter

import pytest

from eixample.core.rng import Rng


def test_same_seed_same_sequence() -> None:
    a, b = Rng(42), Rng(42)
    assert [a.next_u64() for _ in range(5)] == [b.next_u64() for _ in range(5)]


def test_state_is_a_plain_int_that_restores_the_sequence() -> None:
    a = Rng(7)
    a.next_u64()
    saved = a.state
    first = [a.below(10) for _ in range(5)]
    assert [Rng(saved).below(10) for _ in range(1)] == first[:1]
    b = Rng(0)
    b.state = saved
    assert [b.below(10) for _ in range(5)] == first


def test_below_is_roughly_uniform_and_in_range() -> None:
    rng = Rng(1)
    counts = Counter(rng.below(6) for _ in range(6000))
    assert set(counts) == set(range(6))
    assert all(800 < c < 1200 for c in counts.values())
    with pytest.raises(ValueError):
        rng.below(0)


def test_shuffle_is_a_permutation() -> None:
    items = list(range(20))
    Rng(3).shuffle(items)
    assert sorted(items) == list(range(20)) and items != list(range(20))
