"""Accounts on PostgreSQL, with two server processes on one database: a session made through one
process is honoured by the other; ended through one, it is refused by that one at once and by the
other within its session cache's time (`session_cache_seconds`); the account tables' constraints
hold there as on SQLite."""

from __future__ import annotations

import time
from datetime import timedelta
from pathlib import Path

import httpx
import pytest

from eixample.server.accounts import AccountStore
from eixample.server.db import Store
from tests.server.harness import GENEROUS_LIMITS
from tests.server.postgres import PostgresCluster, ServersOnOneDatabase
from tests.server.signin import sign_in, sign_up

pytestmark = pytest.mark.postgres
COOKIE = "eixample_session"
CACHE_SECONDS = 1.0


def test_the_account_store_on_postgresql(postgres: PostgresCluster) -> None:
    store = Store(postgres.new_database())
    try:
        accounts = AccountStore(store)
        ana = accounts.create("Ana", "hash", "ana@example.test")
        assert ana is not None and accounts.create("ANA", None, None) is None
        accounts.open_session(ana.id, "a" * 64, "csrf", timedelta(days=1))
        found = accounts.session("a" * 64)
        assert found is not None and found.account.name == "Ana" and found.csrf == "csrf"
        token = accounts.issue_token("verify", ana.id, "ana@example.test", timedelta(hours=1))
        assert accounts.take_token("verify", token) == (ana.id, "ana@example.test")
        assert accounts.take_token("verify", token) is None
        assert accounts.verify_email(ana.id, "ana@example.test") == "verified"
        other = accounts.create("Other", None, None)
        assert other is not None
        accounts.set_email(other.id, "ANA@example.test")
        assert accounts.verify_email(other.id, "ANA@example.test") == "taken"
        accounts.delete(ana.id)
        assert accounts.session("a" * 64) is None and accounts.create("Ana", None, None) is not None
    finally:
        store.close()


def test_a_session_holds_across_processes_and_ends_in_all(postgres: PostgresCluster, tmp_path: Path) -> None:
    limits = {**GENEROUS_LIMITS, "session_cache_seconds": CACHE_SECONDS}
    servers = ServersOnOneDatabase(tmp_path, postgres.new_database(), limits=limits)
    try:
        one, two = servers.start(), servers.start()
        with sign_up(one) as player:
            assert player.get("/api/account").status_code == 200  # process one now holds the session
            with httpx.Client(base_url=two.url, cookies={COOKIE: player.session_id}) as elsewhere:
                assert elsewhere.get("/api/account").json()["name"] == player.name
                refused = elsewhere.post("/api/account/signout")  # no CSRF token: refused there too
                assert refused.status_code == 403 and refused.json()["code"] == "csrf"
                with sign_in(two, player.name) as phone:
                    assert phone.post("/api/account/signout-everywhere").status_code == 204
                    ended = time.monotonic()
                assert elsewhere.get("/api/account").status_code == 401  # the process that ended it
            while player.get("/api/account").status_code != 401:  # the other: within its cache's time
                assert time.monotonic() - ended < CACHE_SECONDS + 10.0, "the other process still honours it"
                time.sleep(0.1)
    finally:
        servers.stop()


def test_failed_sign_ins_through_two_processes_count_against_one_share(
    postgres: PostgresCluster, tmp_path: Path
) -> None:
    limits = {**GENEROUS_LIMITS, "signin_failures_per_account_hour": 4}
    servers = ServersOnOneDatabase(tmp_path, postgres.new_database(), limits=limits)
    try:
        first, second = servers.start(), servers.start()
        with sign_up(first) as player:
            name = player.name
        wrong = {"name": name, "password": "not the password at all"}
        with first.client() as one, second.client() as two:
            answers = [client.post("/api/account/signin", json=wrong) for client in (one, two, one, two)]
            assert [answer.status_code for answer in answers] == [401] * 4
            for client in (one, two):  # the share is used up in both processes, the right password too
                refused = client.post("/api/account/signin", json={"name": name, "password": player.password})
                assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    finally:
        servers.stop()
