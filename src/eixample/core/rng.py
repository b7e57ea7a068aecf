"""Seeded randomness whose whole state is one integer, so copying a game state copies it for free.

SplitMix64 (Steele, Lea, Flood 2014): small, fast in pure Python, good statistical quality for
shuffles and draws. Every random event of a game goes through the game's own `Rng`.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TypeVar

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15

T = TypeVar("T")

SEED_LIMIT = 1 << 63
"""Every game takes a seed from 0 to SEED_LIMIT - 1: the range a signed 64-bit column stores."""


def check_seed(seed: object) -> int:
    """`seed` if it is a game seed; ValueError saying the range otherwise."""
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < SEED_LIMIT:
        shown = repr(seed) if len(repr(seed)) <= 40 else f"{repr(seed)[:40]}…"
        raise ValueError(f"seed must be an integer from 0 to 2**63 - 1, not {shown}")
    return seed


def splitmix64(state: int) -> tuple[int, int]:
    """Advance `state`; return (new_state, 64-bit output)."""
    state = (state + _GAMMA) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


class Rng:
    """A seeded generator. `state` is a plain int: save it, copy it, restore it."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & _MASK

    def next_u64(self) -> int:
        self.state, out = splitmix64(self.state)
        return out

    def below(self, n: int) -> int:
        """Uniform integer in [0, n). Rejection sampling keeps it unbiased."""
        if n <= 0:
            raise ValueError("below(n) needs n > 0")
        limit = _MASK - (_MASK + 1) % n
        while True:
            value = self.next_u64()
            if value <= limit:
                return value % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: list[T]) -> T:
        return items[self.below(len(items))]

    def sample(self, items: list[T], k: int) -> list[T]:
        pool = list(items)
        self.shuffle(pool)
        return pool[:k]

    def fork(self) -> Rng:
        """An independent generator seeded from this one."""
        return Rng(self.next_u64())


def seed_from(rng_seed: int | Rng) -> int:
    """`rng_seed` itself, or a seed drawn from it if it is a generator."""
    return rng_seed.next_u64() if isinstance(rng_seed, Rng) else rng_seed
