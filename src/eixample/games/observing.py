"""What the games' observation encoders share: parts rewritten only where their inputs changed.

An encoder splits its observation into groups of parts, each with a key (the values of the state's
fields it reads, as a fresh object) and a writer that returns, as plain lists, the entries it sets
to 1 and the entries it sets to other values. The groups write the observation as seat 0 would see
it, minus what only the observer may see; `GroupedWriter.write` turns it to the observing seat by
one gather (the parts by seat rotate, `Part.seat_axis`) and adds the observer's own entries.

Per thread and state object, the writer keeps the last vector and each group's key: the groups
whose key changed have their parts cleared (by ranges, not entries: converting Python numbers to
numpy costs by the entry) and their new entries set, in at most two numpy operations for all.
Successive positions of a game differ in a few fields, so most groups are skipped. The state's
identity only finds a likely match: the keys, which compare values, decide what is reused, so any
position may come in any order and the result is always that of writing every part afresh.
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
Entries = tuple[list[int], "list[int] | npt.NDArray[np.intp]", list[Any]]
"""What a group writes: the indexes set to 1, and other indexes with their values (a fixed array
of indexes when the group always writes the same entries: only the values are converted)."""
_UNSET = object()


@dataclass(frozen=True)
class Group:
    """Parts that `write(state, key)` fills (as `Entries`, as seat 0 sees them) from what
    `key(state)` returns; every entry of the `parts` it does not name is 0."""

    parts: tuple[str, ...]
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
        # a viewer whose order changes nothing gets a plain copy, faster than the gather
        self.gathers: list[npt.NDArray[np.intp] | None] = [
            None if np.array_equal(order, np.arange(spec.size)) else order for order in self.orders
        ]
        self.runs = [_runs(spec, group.parts) for group in self.groups]
        self._local = threading.local()

    def write(self, state: Any, viewer: int, out: Vector) -> None:
        if not (isinstance(viewer, int) and 0 <= viewer < self.seats):
            raise ValueError(f"no seat {viewer!r} in a {self.seats}-player game")
        kept: dict[int, tuple[Vector, list[Any]]] | None = getattr(self._local, "kept", None)
        if kept is None:
            kept = self._local.kept = {}
        entry = kept.get(id(state))
        if entry is None:
            if len(kept) >= self.KEPT:
                del kept[next(iter(kept))]
            entry = kept[id(state)] = (np.zeros(self.size, np.float32), [_UNSET] * len(self.groups))
        vector, keys = entry
        ones: list[int] = []
        where: list[int] = []
        values: list[Any] = []
        changed: list[tuple[int, Any]] = []
        runs = self.runs
        for g, group in enumerate(self.groups):
            key = group.key(state)
            if key != keys[g]:
                keys[g] = _UNSET  # until the vector holds the group's new entries
                changed.append((g, key))
                for start, stop in runs[g]:
                    vector[start:stop] = 0
                hot, other, other_values = group.write(state, key)
                ones += hot
                if type(other) is np.ndarray:  # a fixed destination: only the values to convert
                    vector[other] = other_values
                else:
                    where += other
                    values += other_values
        # indexes as arrays (faster than numpy's handling of lists)
        if ones:
            vector[np.array(ones, np.intp)] = 1
        if where:
            vector[np.array(where, np.intp)] = values
        for g, key in changed:
            keys[g] = key
        gather = self.gathers[viewer]
        if gather is None:
            np.copyto(out, vector)
        else:
            vector.take(gather, out=out, mode="clip")
        own_ones, own_where, own_values = self.own(state, viewer)
        if own_ones:
            out[np.array(own_ones, np.intp)] = 1
        if own_where:
            out[np.array(own_where, np.intp)] = own_values


def _runs(spec: ObservationSpec, names: Sequence[str]) -> list[tuple[int, int]]:
    """The entries of the named parts as few ranges as possible (adjacent parts merged)."""
    runs: list[tuple[int, int]] = []
    for part in sorted((spec.part(name) for name in names), key=lambda part: part.start):
        if runs and runs[-1][1] == part.start:
            runs[-1] = (runs[-1][0], part.stop)
        else:
            runs.append((part.start, part.stop))
    return runs


class Kept:
    """Per thread, the last `size` objects made by `make(state, viewer)`, one per state object
    (by identity) and viewer: an encoder's written vector with what it was written from. Only a
    likely match: an encoder that finds one compares its fields with the state's before reusing
    anything."""

    def __init__(self, make: Callable[[Any, int], Any], size: int = 256):
        self.make, self.size = make, size
        self._local = threading.local()

    def get(self, state: Any, viewer: int) -> Any:
        kept: dict[tuple[int, int], Any] | None = getattr(self._local, "kept", None)
        if kept is None:
            kept = self._local.kept = {}
        key = (id(state), viewer)
        entry = kept.get(key)
        if entry is None:
            if len(kept) >= self.size:
                del kept[next(iter(kept))]
            entry = kept[key] = self.make(state, viewer)
        return entry
