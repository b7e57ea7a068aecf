"""What the games' observation encoders share: parts rewritten only where their inputs changed.

An encoder splits its observation into groups of parts, each with a key (the values of the state's
fields it reads, as a fresh object) and a writer. `GroupedWriter.write` keeps, per thread and
observing seat, the last vector written and each group's last key: a group whose key is unchanged
is not rewritten, and the kept vector is copied into the caller's buffer. Successive positions of
a game differ in a few fields, so most groups are skipped. Vectors are kept by the identity of the
state object (a game in progress is one object), but only the keys, which compare values, decide
what is reused: any position may come in any order, and the result is always that of writing
every part afresh.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

Vector = npt.NDArray[np.float32]
_UNSET = object()


@dataclass(frozen=True)
class Group:
    """Parts (`regions`) that `write(state, viewer, vector, key)` fills from what `key(state,
    viewer)` returns; the writer may assume its regions are zero."""

    key: Callable[[Any, int], Any]
    regions: tuple[slice, ...]
    write: Callable[[Any, int, Vector, Any], None]


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
        kept: dict[tuple[int, int], tuple[Vector, list[Any]]] | None = getattr(self._local, "kept", None)
        if kept is None:
            kept = self._local.kept = {}
        # keyed by the state's identity only to find a likely match: the keys decide what is reused
        entry = kept.get((id(state), viewer))
        if entry is None:
            if len(kept) >= self.KEPT:
                del kept[next(iter(kept))]
            entry = kept[id(state), viewer] = (np.zeros(self.size, np.float32), [_UNSET] * len(self.groups))
        vector, keys = entry
        for g, group in enumerate(self.groups):
            key = group.key(state, viewer)
            if key != keys[g]:
                keys[g] = _UNSET  # a writer that fails leaves the group to be written again
                for region in group.regions:
                    vector[region] = 0
                group.write(state, viewer, vector, key)
                keys[g] = key
        out[:] = vector
