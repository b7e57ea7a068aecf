"""What the games' observation encoders share: parts rewritten only where their inputs changed.

An encoder splits its observation into groups of parts, each with a key (the values of the state's
fields it reads, as a fresh object) and a writer that returns, as plain lists, the entries it sets
to 1 and the entries it sets to other values. The groups write the observation as seat 0 would see
it, minus what only the observer may see; `GroupedWriter.write` turns it to the observing seat by
one gather (the parts by seat rotate, `Part.seat_axis`) and adds the observer's own entries.

Per thread and state object, the writer keeps the last vector and each group's key and entries:
the groups whose key changed have their old entries cleared and their new ones set, in at most
three numpy operations for all of them. Successive positions of a game differ in a few fields, so
most groups are skipped. The state's identity only finds a likely match: the keys, which compare
values, decide what is reused, so any position may come in any order and the result is always that
of writing every part afresh.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from eixample.core.observation import ObservationSpec

Vector = npt.NDArray[np.float32]
Entries = tuple[list[int], list[int], list[Any]]
"""What a group writes: the indexes set to 1, and other indexes with their values."""
_UNSET = object()
_NOTHING: Entries = ([], [], [])


@dataclass(frozen=True)
class Group:
    """Parts that `write(state, key)` fills (as `Entries`, as seat 0 sees them) from what
    `key(state)` returns; every entry it does not name is 0."""

    key: Callable[[Any], Any]
    write: Callable[[Any, Any], Entries]


def seat_order(spec: ObservationSpec, seats: int, viewer: int) -> npt.NDArray[np.intp]:
    """For each entry of `viewer`'s observation, the entry of seat 0's that holds its value."""
    n = seats
    order = np.arange(spec.size, dtype=np.intp)
    for part in spec.parts:
        if part.seat_axis is None:
            continue
        block = order[part.slice].reshape(part.shape)
        axes: list[slice] = [slice(None)] * len(part.shape)
        axes[part.seat_axis] = slice(part.seat_start, part.seat_start + n)
        by_seat = tuple(axes)
        block[by_seat] = np.roll(block[by_seat], -viewer, axis=part.seat_axis)
    return order


class GroupedWriter:
    KEPT = 256
    """Vectors kept per thread: one per state object most recently written (the interleaved games
    of a vector environment each keep theirs)."""

    def __init__(
        self, spec: ObservationSpec, seats: int, groups: Sequence[Group], own: Callable[[Any, int], Entries]
    ):
        self.size, self.seats, self.groups, self.own = spec.size, seats, tuple(groups), own
        self.orders = [seat_order(spec, seats, viewer) for viewer in range(seats)]
        self._local = threading.local()

    def write(self, state: Any, viewer: int, out: Vector) -> None:
        if not (isinstance(viewer, int) and 0 <= viewer < self.seats):
            raise ValueError(f"no seat {viewer!r} in a {self.seats}-player game")
        kept: dict[int, tuple[Vector, list[Any], list[Entries]]] | None = getattr(self._local, "kept", None)
        if kept is None:
            kept = self._local.kept = {}
        entry = kept.get(id(state))
        if entry is None:
            if len(kept) >= self.KEPT:
                del kept[next(iter(kept))]
            count = len(self.groups)
            entry = kept[id(state)] = (np.zeros(self.size, np.float32), [_UNSET] * count, [_NOTHING] * count)
        vector, keys, written = entry
        clear: list[int] = []
        ones: list[int] = []
        where: list[int] = []
        values: list[Any] = []
        changed: list[tuple[int, Any, Entries]] = []
        for g, group in enumerate(self.groups):
            key = group.key(state)
            if key != keys[g]:
                old_ones, old_where, _ = written[g]
                clear += old_ones
                clear += old_where
                new = group.write(state, key)
                ones += new[0]
                where += new[1]
                values += new[2]
                changed.append((g, key, new))
        own_ones, own_where, own_values = self.own(state, viewer)
        # indexes as arrays (faster than numpy's handling of lists), the gather with no checks or
        # buffering (`orders` holds only valid indexes)
        if clear:
            vector[np.array(clear, np.intp)] = 0
        if ones:
            vector[np.array(ones, np.intp)] = 1
        if where:
            vector[np.array(where, np.intp)] = values
        for g, key, new in changed:  # only once the vector holds them
            keys[g], written[g] = key, new
        vector.take(self.orders[viewer], out=out, mode="clip")
        if own_ones:
            out[np.array(own_ones, np.intp)] = 1
        if own_where:
            out[np.array(own_where, np.intp)] = own_values
