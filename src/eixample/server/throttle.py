"""Token buckets kept in the database, for the account limits (failed sign-ins per address and per
user name, sign-ups and account mails per address, mails to one e-mail address): every server
process on the database counts against the same share, and a restart gives nobody a new one.

A bucket holds at most `capacity` tokens and refills evenly over `period` seconds; a counted
event takes one. Its row is keyed by the bucket's kind and the SHA-256 digest of its key (an
address, a user name's normal form, an e-mail address), so no address or typed name is stored.
Each change locks the row; a first event of two processes at once for a new key meets the
primary key, and the loser counts again on the row the winner made. Rows whose bucket has
refilled completely are deleted now and then.

The methods do database work: call them from a worker thread (`asyncio.to_thread`).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable
from datetime import UTC, datetime

from sqlalchemy import delete
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import sessionmaker

from eixample.server.db import Store, ThrottleRow, now

ONE = 1.0 - 1e-9
"""A whole token, give or take the rounding of the refill arithmetic."""
PRUNE_EVERY = 200
"""Counted events of a process between two deletions of the refilled rows of its kind."""


class SharedBuckets:
    """The buckets of one kind of limit, shared by every process on the database."""

    def __init__(
        self, store: Store, kind: str, capacity: int, period: float, clock: Callable[[], datetime] = now
    ) -> None:
        self.kind = kind
        self.capacity = float(max(1, capacity))
        self.period = period
        self.rate = self.capacity / period
        self._clock = clock
        self._sessions = sessionmaker(store.engine, expire_on_commit=False)
        self._since_prune = 0

    def _bucket(self, key: str) -> str:
        return f"{self.kind}:{hashlib.sha256(key.encode()).hexdigest()}"

    def _refilled(self, row: ThrottleRow | None, stamp: datetime) -> float:
        if row is None:
            return self.capacity
        at = row.at if row.at.tzinfo is not None else row.at.replace(tzinfo=UTC)
        return min(self.capacity, row.tokens + max(0.0, (stamp - at).total_seconds()) * self.rate)

    def tokens(self, key: str) -> float:
        with self._sessions() as session:
            return self._refilled(session.get(ThrottleRow, self._bucket(key)), self._clock())

    def has(self, key: str) -> bool:
        """A token is there (nothing taken)."""
        return self.tokens(key) >= ONE

    def wait(self, key: str) -> int:
        """Whole seconds until the bucket holds a token again (at least 1)."""
        return max(1, math.ceil((ONE - self.tokens(key)) / self.rate))

    def take(self, key: str) -> bool:
        """Take a token; False (nothing taken) if the bucket is empty."""
        try:
            taken = self._take(key)
        except IntegrityError:  # another process made the row meanwhile: count on it
            taken = self._take(key)
        self._prune()
        return taken

    def _take(self, key: str) -> bool:
        stamp = self._clock()
        bucket = self._bucket(key)
        with self._sessions() as session, session.begin():
            row = session.get(ThrottleRow, bucket, with_for_update=True)
            tokens = self._refilled(row, stamp)
            taken = tokens >= ONE
            if row is None:
                row = ThrottleRow(bucket=bucket)
                session.add(row)
            row.tokens = tokens - 1.0 if taken else tokens
            row.at = stamp
        return taken

    def _prune(self) -> None:
        self._since_prune += 1
        if self._since_prune < PRUNE_EVERY:
            return
        self._since_prune = 0
        # a bucket untouched for a whole period has refilled: its row says nothing any more
        oldest = self._clock().timestamp() - self.period
        with self._sessions() as session, session.begin():
            session.execute(delete(ThrottleRow).where(
                ThrottleRow.bucket.startswith(f"{self.kind}:"),
                ThrottleRow.at < datetime.fromtimestamp(oldest, UTC),
            ))
