"""The session cache of server/accounts.py: a live session found in the database is trusted for
`session_cache_seconds` at most, never past its expiry, forgotten by whatever ends it or changes its
account in this process, and a look-up under way while something was forgotten is not kept."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from eixample.server.accounts import Account, AccountStore, SessionCache, SignedIn
from eixample.server.db import Store


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def signed_in(session_hash: str, account_id: str = "a1") -> SignedIn:
    account = Account(id=account_id, name="Ana", email=None, email_verified=False, role="player",
                      created_at=datetime(2026, 1, 1, tzinfo=UTC), has_password=True)
    return SignedIn(account, session_hash, "csrf")


def test_a_session_is_trusted_for_the_cache_time_and_never_past_its_expiry() -> None:
    clock = Clock()
    cache = SessionCache(5.0, clock)
    cache.keep(signed_in("s1"), expires_in=3600, generation=cache.generation)
    cache.keep(signed_in("s2"), expires_in=2, generation=cache.generation)
    clock.now += 2.5
    assert cache.get("s1") is not None and cache.get("s2") is None  # s2 expired first
    clock.now += 2.5
    assert cache.get("s1") is None


def test_forgetting_a_session_or_an_account_drops_it_and_a_lookup_under_way_is_not_kept() -> None:
    cache = SessionCache(5.0, Clock())
    for name, account in (("s1", "a1"), ("s2", "a1"), ("s3", "a2")):
        cache.keep(signed_in(name, account), expires_in=3600, generation=cache.generation)
    cache.forget(account_id="a1")
    assert cache.get("s1") is None and cache.get("s2") is None and cache.get("s3") is not None
    cache.forget(session_hash="s3")
    assert cache.get("s3") is None
    begun = cache.generation  # a look-up reads the database...
    cache.forget(account_id="a9")  # ...while something ends a session...
    cache.keep(signed_in("s4"), expires_in=3600, generation=begun)  # ...so what it found is stale
    assert cache.get("s4") is None


def test_the_cache_is_bounded_and_zero_seconds_keeps_nothing() -> None:
    cache = SessionCache(5.0, Clock())
    for number in range(SessionCache.MOST + 10):
        cache.keep(signed_in(f"s{number}"), expires_in=3600, generation=cache.generation)
    assert cache.get("s0") is None and cache.get(f"s{SessionCache.MOST + 9}") is not None
    off = SessionCache(0.0, Clock())
    off.keep(signed_in("s1"), expires_in=3600, generation=off.generation)
    assert off.get("s1") is None


@pytest.mark.parametrize("change", ["close_sessions", "set_password", "set_email", "delete", "close_other"])
def test_every_change_to_a_session_or_its_account_reaches_the_cache_at_once(
    tmp_path: Path, change: str
) -> None:
    store = Store(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    try:
        accounts = AccountStore(store, cache_seconds=60.0)
        ana = accounts.create("Ana", "hash", None)
        assert ana is not None
        accounts.open_session(ana.id, "h" * 64, "csrf", timedelta(days=1))
        assert accounts.session("h" * 64) is not None and accounts.cache.get("h" * 64) is not None
        if change == "close_sessions":
            accounts.close_sessions(ana.id)
        elif change == "set_password":
            accounts.set_password(ana.id, "new hash")
        elif change == "set_email":
            accounts.set_email(ana.id, "ana@example.test")
        elif change == "delete":
            accounts.delete(ana.id)
        else:
            accounts.close_other_sessions(ana.id, keep="k" * 64)
        assert accounts.cache.get("h" * 64) is None
        found = accounts.session("h" * 64)
        if change in ("set_password", "set_email"):  # the session lives on, read anew
            expected = "ana@example.test" if change == "set_email" else None
            assert found is not None and found.account.email == expected
        else:
            assert found is None
    finally:
        store.close()
