"""Accounts on PostgreSQL, with two server processes on one database: a session made through one
process is honoured by the other, and ended through one it is refused by both at once (nothing is
cached); the account tables' constraints hold there as on SQLite."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import httpx
import pytest

from eixample.server.accounts import AccountStore
from eixample.server.db import Store
from tests.server.harness import ServerProcess
from tests.server.postgres import PostgresCluster
from tests.server.signin import sign_in, sign_up

pytestmark = pytest.mark.postgres
COOKIE = "eixample_session"


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
    database = postgres.new_database()
    made = []
    try:
        for number in range(2):
            folder = tmp_path / f"server{number}"
            folder.mkdir()
            made.append(ServerProcess(folder, database_url=database).start())
        one, two = made
        with sign_up(one) as player:
            with httpx.Client(base_url=two.url, cookies={COOKIE: player.session_id}) as elsewhere:
                assert elsewhere.get("/api/account").json()["name"] == player.name
                refused = elsewhere.post("/api/account/signout")  # no CSRF token: refused there too
                assert refused.status_code == 403 and refused.json()["code"] == "csrf"
                with sign_in(two, player.name) as phone:
                    assert phone.post("/api/account/signout-everywhere").status_code == 204
                assert elsewhere.get("/api/account").status_code == 401
            assert player.get("/api/account").status_code == 401
    finally:
        for process in made:
            process.stop()
