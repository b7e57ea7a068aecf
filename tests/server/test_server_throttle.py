"""The account limits' buckets in the database (server/throttle.py): shared by every process on the
database, refilled over their period, keyed by digests (no address or name stored), pruned."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from eixample.server.db import Store, ThrottleRow
from eixample.server.throttle import PRUNE_EVERY, SharedBuckets


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture()
def store(tmp_path: Path) -> Iterator[Store]:
    made = Store(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    yield made
    made.close()


def test_a_bucket_empties_refills_over_its_period_and_says_how_long_to_wait(store: Store) -> None:
    clock = Clock()
    buckets = SharedBuckets(store, "signin-address", 3, 60.0, clock)  # 3 a minute: one every 20 s
    assert [buckets.take("10.0.0.1") for _ in range(4)] == [True, True, True, False]
    assert not buckets.has("10.0.0.1") and buckets.wait("10.0.0.1") == 20
    assert buckets.has("10.0.0.2")  # another key has its own bucket
    clock.now += timedelta(seconds=20)
    assert buckets.take("10.0.0.1") and not buckets.take("10.0.0.1")


def test_two_processes_count_against_one_share(store: Store, tmp_path: Path) -> None:
    clock = Clock()
    other_store = Store(f"sqlite:///{tmp_path / 'db.sqlite3'}")  # another process's engine
    try:
        one = SharedBuckets(store, "signin-name", 4, 3600.0, clock)
        two = SharedBuckets(other_store, "signin-name", 4, 3600.0, clock)
        assert [one.take("ana"), two.take("ana"), one.take("ana"), two.take("ana")] == [True] * 4
        assert not one.take("ana") and not two.take("ana") and not two.has("ana")
    finally:
        other_store.close()


def test_rows_hold_digests_only_and_refilled_rows_are_pruned(store: Store) -> None:
    clock = Clock()
    buckets = SharedBuckets(store, "mail-to", 3, 3600.0, clock)
    buckets.take("ana@example.test")
    with store.engine.connect() as connection:
        keys = connection.execute(select(ThrottleRow.bucket)).scalars().all()
    assert len(keys) == 1 and keys[0].startswith("mail-to:") and "ana" not in keys[0]
    clock.now += timedelta(hours=2)  # the bucket has refilled: its row is stale
    for number in range(PRUNE_EVERY):
        buckets.take(f"other{number}@example.test")
    with store.engine.connect() as connection:
        keys = connection.execute(select(ThrottleRow.bucket)).scalars().all()
    assert len(keys) == PRUNE_EVERY and not any(key in keys for key in [buckets._bucket("ana@example.test")])
