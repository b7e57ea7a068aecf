"""What the games' observation encoders share: parts rewritten only where their inputs changed.

An encoder splits its observation into groups of parts, each with a key (the values of the state's
fields it reads, as a fresh object) and a writer that returns, as plain lists, the entries it sets
to 1 and the entries it sets to other values. `GroupedWriter.write` keeps, per thread, state object
and observing seat, the last vector written and each group's key and entries: the groups whose key
changed have their old entries cleared and their new ones set, in at most three numpy operations
for all of them, and the kept vector is copied into the caller's buffer. Successive positions of a
game differ in a few fields, so most groups are skipped. The state's identity only finds a likely
match: the keys, which compare values, decide what is reused, so any position may come in any order
and the result is always that of writing every part afresh.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

Vector = npt.NDArray[np.float32]
Entries = tuple[list[int], list[int], list[Any]]
"""What a group writes: the indexes set to 1, and other indexes with their values."""
_UNSET = object()
_NOTHING: Entries = ([], [], [])


@dataclass(frozen=True)
class Group:
    """Parts that `write(state, viewer, key)` fills (as `Entries`) from what `key(state, viewer)`
    returns; every entry it does not name is 0."""

    key: Callable[[Any, int], Any]
    write: Callable[[Any, int, Any], Entries]


class GroupedWriter:
    KEPT = 256
    """Vectors kept per thread: one per state object and observing seat most recently written
    (the interleaved games of a vector environment each keep theirs)."""

    def __init__(self, size: int, viewers: int, groups: Sequence[Group]):
        self.size, self.viewers, self.groups = size, viewers, tuple(groups)
        self._local = threading.local()

    def write(self, state: Any, viewer: int, out: Vector) -> None:
        if not (isinstance(viewer, int) and 0 <= viewer < self.viewers):
            raise ValueError(f"no seat {viewer!r} in a {self.viewers}-player game")
        kept: dict[tuple[int, int], tuple[Vector, list[Any], list[Entries]]] | None = getattr(
            self._local, "kept", None
        )
        if kept is None:
            kept = self._local.kept = {}
        entry = kept.get((id(state), viewer))
        if entry is None:
            if len(kept) >= self.KEPT:
                del kept[next(iter(kept))]
            count = len(self.groups)
            entry = kept[id(state), viewer] = (
                np.zeros(self.size, np.float32),
                [_UNSET] * count,
                [_NOTHING] * count,
            )
        vector, keys, written = entry
        clear: list[int] = []
        ones: list[int] = []
        where: list[int] = []
        values: list[Any] = []
        changed: list[tuple[int, Any, Entries]] = []
        for g, group in enumerate(self.groups):
            key = group.key(state, viewer)
            if key != keys[g]:
                old_ones, old_where, _ = written[g]
                clear += old_ones
                clear += old_where
                new = group.write(state, viewer, key)
                ones += new[0]
                where += new[1]
                values += new[2]
                changed.append((g, key, new))
        if clear:
            vector[clear] = 0
        if ones:
            vector[ones] = 1
        if where:
            vector[where] = values
        for g, key, new in changed:  # only once the vector holds them
            keys[g], written[g] = key, new
        out[:] = vector
