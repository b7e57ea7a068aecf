"""Accounts (server/accounts.py): sign up, sign in and out, the session cookie, CSRF on every
change made with the cookie, throttled sign-ins, and answers that do not tell which names exist."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Annotated, Any

import httpx
import pytest
from fastapi import Depends, WebSocket
from fastapi.testclient import TestClient

from eixample.server.accounts import (
    Account,
    AccountStore,
    check_name,
    current_account,
    name_key,
    require_account,
)
from eixample.server.app import create_app
from eixample.server.db import Store
from eixample.server.errors import ApiError
from eixample.server.limits import ServerLimits
from tests.server.harness import GENEROUS_LIMITS, ServerProcess
from tests.server.signin import PASSWORD, SignedInClient, sign_in, sign_up, unique_name
from tests.server.test_server_migrations import first_release_database

COOKIE = "eixample_session"
ANSWER_TIMEOUT = 120.0
"""Seconds a test waits for an answer. A sign-up or sign-in costs an Argon2id hash (64 MiB, three
passes) and a sign-up two synchronous commits: on a heavily loaded machine these take seconds, and
httpx's default of 5 s turned a slow answer into a failed test. The limits are counted by the
server whatever the client waits, so waiting longer checks exactly the same."""
TICTACTOE = {"game": "tictactoe", "seats": [{"name": "A"}, {"kind": "bot", "bot": "random"}]}


@pytest.fixture()
def player(server: ServerProcess) -> Iterator[SignedInClient]:
    with sign_up(server) as client:
        yield client


def client_of(server: ServerProcess) -> httpx.Client:
    return httpx.Client(base_url=server.url, timeout=ANSWER_TIMEOUT)


def set_cookie_of(answer: httpx.Response) -> str:
    [header] = [value for value in answer.headers.get_list("set-cookie") if value.startswith(f"{COOKIE}=")]
    return header


def account_status(server: ServerProcess, session_id: str) -> int:
    with httpx.Client(base_url=server.url, cookies={COOKIE: session_id}, timeout=ANSWER_TIMEOUT) as client:
        return client.get("/api/account").status_code


# -- signing up and in ---------------------------------------------------------------------------


def test_sign_up_sets_an_httponly_samesite_cookie_and_answers_the_account(server: ServerProcess) -> None:
    name = unique_name("Ana")
    with client_of(server) as client:
        answer = client.post("/api/account/signup", json={"name": name, "password": PASSWORD})
        assert answer.status_code == 201, answer.text
        cookie = set_cookie_of(answer).lower()
        assert "httponly" in cookie and "samesite=lax" in cookie and "path=/" in cookie
        assert "secure" not in cookie  # plain http: a Secure cookie would never come back
        body = answer.json()
        assert body["name"] == name and body["role"] == "player" and body["email"] is None
        assert len(body["csrf"]) >= 32
        me = client.get("/api/account")
        assert me.status_code == 200 and me.json()["id"] == body["id"] and me.json()["csrf"] == body["csrf"]


def test_the_database_keeps_only_digests_and_an_argon2id_hash(server: ServerProcess) -> None:
    with sign_up(server) as player:
        dump = repr(server.db_dump())
        assert player.session_id not in dump and player.password not in dump
        digest = hashlib.sha256(player.session_id.encode()).hexdigest()
        rows = server.db_dump()
        [session] = [row for row in rows["sessions"] if row[0] == digest]
        [account] = [row for row in rows["accounts"] if row[0] == player.account["id"]]
        assert session[1] == player.account["id"]
        assert any(str(value).startswith("$argon2id$") for value in account)


def test_a_name_is_kept_as_typed_and_signs_in_in_any_case_or_width(server: ServerProcess) -> None:
    name = unique_name("Mar")
    with sign_up(server, name):
        pass
    wide = "".join(chr(ord(char) + 0xFEE0) if "!" <= char <= "~" else char for char in name.upper())
    with sign_in(server, wide) as again:
        assert again.account["name"] == name


def test_a_taken_name_is_refused_in_any_case_and_nothing_is_written(server: ServerProcess) -> None:
    with sign_up(server) as first:
        before = len(server.db_dump()["accounts"])
        with client_of(server) as client:
            taken = {"name": first.name.upper(), "password": PASSWORD}
            answer = client.post("/api/account/signup", json=taken)
        assert answer.status_code == 409 and answer.json()["code"] == "account_name_taken"
        assert COOKIE not in answer.headers.get("set-cookie", "")
        assert len(server.db_dump()["accounts"]) == before


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"name": "x", "password": PASSWORD}, "account_name"),
        ({"name": " padded", "password": PASSWORD}, "account_name"),
        ({"name": "two  spaces", "password": PASSWORD}, "account_name"),
        ({"name": "<script>", "password": PASSWORD}, "account_name"),
        ({"name": "___", "password": PASSWORD}, "account_name"),
        ({"name": "Deleted Player", "password": PASSWORD}, "account_name_reserved"),
        ({"name": "shortpass", "password": "1234567"}, "account_password"),
        ({"name": "samesame", "password": "SameSame"}, "account_password_name"),
        ({"name": "mailname", "password": PASSWORD, "email": "not an address"}, "account_email"),
        ({"name": "mailname", "password": PASSWORD, "email": "a@nodot"}, "account_email"),
    ],
)
def test_invalid_sign_ups_are_refused_with_their_code(
    server: ServerProcess, body: dict[str, Any], code: str
) -> None:
    with client_of(server) as client:
        answer = client.post("/api/account/signup", json=body)
    assert answer.status_code == 422 and answer.json()["code"] == code, answer.text


def test_names_of_any_script_are_valid() -> None:
    for name in ("Núria", "東京の人", "Jiří_Novák", "player.one", "anna-maria k"):
        assert check_name(name) == name
    assert name_key("ÀNGEL") == name_key("àngel")
    assert name_key("ＡＮＧＥＬ") == name_key("Angel") == "angel"


def test_an_e_mail_given_at_sign_up_is_kept_unverified(server: ServerProcess) -> None:
    address = f"{unique_name()}@example.test"
    with sign_up(server, email=address) as player:
        assert player.account["email"] == address and player.account["email_verified"] is False


# -- sessions ------------------------------------------------------------------------------------


def test_sign_out_ends_the_session_and_clears_the_cookie(server: ServerProcess) -> None:
    with sign_up(server) as player:
        session_id = player.session_id
        answer = player.post("/api/account/signout")
        assert answer.status_code == 204
        assert 'max-age=0' in set_cookie_of(answer).lower()
        assert player.get("/api/account").status_code == 401
        assert account_status(server, session_id) == 401


def test_every_sign_in_makes_a_new_session_and_ends_the_one_before(server: ServerProcess) -> None:
    with sign_up(server) as player:
        first = player.session_id
        answer = player.post("/api/account/signin", json={"name": player.name, "password": PASSWORD})
        assert answer.status_code == 200
        second = player.cookies[COOKIE]
        assert second != first
        assert account_status(server, first) == 401
        assert account_status(server, second) == 200


def test_a_session_id_planted_before_sign_in_is_not_accepted_after_it(server: ServerProcess) -> None:
    with sign_up(server) as player:
        planted = "planted-by-someone-else-" + "x" * 20
        with httpx.Client(base_url=server.url, cookies={COOKIE: planted}, timeout=ANSWER_TIMEOUT) as victim:
            answer = victim.post("/api/account/signin", json={"name": player.name, "password": PASSWORD})
            assert answer.status_code == 200
            assert set_cookie_of(answer).split(";")[0] != f"{COOKIE}={planted}"
        assert account_status(server, planted) == 401


def test_other_devices_keep_their_own_sessions(server: ServerProcess) -> None:
    with sign_up(server) as laptop, sign_in(server, laptop.name) as phone:
        assert laptop.session_id != phone.session_id and laptop.csrf != phone.csrf
        assert phone.post("/api/account/signout").status_code == 204
        assert laptop.get("/api/account").status_code == 200


def test_an_expired_session_is_not_accepted(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    try:
        accounts = AccountStore(store)
        account = accounts.create("Expiring", None, None)
        assert account is not None
        accounts.open_session(account.id, "a" * 64, "csrf", timedelta(days=1))
        accounts.open_session(account.id, "b" * 64, "csrf", timedelta(seconds=-1))
        assert accounts.session("a" * 64) is not None
        assert accounts.session("b" * 64) is None
        accounts.open_session(account.id, "c" * 64, "csrf", timedelta(days=1))
        assert {row["id_hash"][0] for row in store.dump()["sessions"]} == {"a", "c"}  # the expired one went
        assert accounts.close_sessions(account.id) == 2
        assert accounts.session("a" * 64) is None
    finally:
        store.close()


# -- CSRF ----------------------------------------------------------------------------------------


def test_a_change_with_the_cookie_but_no_csrf_token_is_refused(
    server: ServerProcess, player: SignedInClient
) -> None:
    before = server.db_dump()["games"]
    for headers in ({"X-CSRF-Token": ""}, {"X-CSRF-Token": "wrong"}):
        answer = player.post("/api/games", json=TICTACTOE, headers=headers)
        assert answer.status_code == 403 and answer.json()["code"] == "csrf", answer.text
    without = httpx.Client(base_url=server.url, cookies={COOKIE: player.session_id}, timeout=ANSWER_TIMEOUT)
    with without:
        assert without.post("/api/games", json=TICTACTOE).json()["code"] == "csrf"
        assert without.post("/api/account/signout").status_code == 403
    assert server.db_dump()["games"] == before
    assert player.get("/api/account").status_code == 200  # the refused sign-out ended nothing
    assert player.post("/api/games", json=TICTACTOE).status_code == 201  # the right token


def test_the_csrf_token_of_another_session_is_refused(server: ServerProcess) -> None:
    with sign_up(server) as one, sign_up(server) as other:
        answer = one.post("/api/games", json=TICTACTOE, headers={"X-CSRF-Token": other.csrf})
        assert answer.status_code == 403 and answer.json()["code"] == "csrf"


def test_csrf_guards_every_route_that_changes_something(
    server: ServerProcess, player: SignedInClient
) -> None:
    created = player.post("/api/games", json=TICTACTOE).json()
    token = created["seats"][0]["token"]
    gid = created["game_id"]
    naked = httpx.Client(base_url=server.url, cookies={COOKIE: player.session_id}, timeout=ANSWER_TIMEOUT)
    with naked:
        for path, body in (
            (f"/api/games/{gid}/moves", {"action": "mark 4", "expected_move": 0}),
            (f"/api/games/{gid}/chat", {"text": "hi"}),
            (f"/api/games/{gid}/resign", None),
            ("/api/replay", {}),
        ):
            answer = naked.post(path, json=body, headers={"X-Seat-Token": token})
            assert answer.status_code == 403 and answer.json()["code"] == "csrf", path
        for method in ("PUT", "PATCH", "DELETE"):
            assert naked.request(method, f"/api/games/{gid}").json()["code"] == "csrf"
        assert naked.get(f"/api/games/{gid}/state").status_code == 200  # reading needs no token


def test_guests_and_stale_cookies_play_as_before(server: ServerProcess) -> None:
    with client_of(server) as guest:
        assert guest.post("/api/games", json=TICTACTOE).status_code == 201
    with sign_up(server) as player:
        stale = player.session_id
        player.post("/api/account/signout")
    with httpx.Client(base_url=server.url, cookies={COOKIE: stale}, timeout=ANSWER_TIMEOUT) as client:
        assert client.post("/api/games", json=TICTACTOE).status_code == 201
        assert client.get("/api/account").json()["code"] == "not_signed_in"


# -- answers that tell nothing; throttling ----------------------------------------------------------


def test_an_unknown_name_and_a_wrong_password_get_the_same_answer(
    server: ServerProcess, player: SignedInClient
) -> None:
    with client_of(server) as client:
        guess = "not the password"
        wrong = client.post("/api/account/signin", json={"name": player.name, "password": guess})
        unknown = client.post("/api/account/signin", json={"name": unique_name(), "password": guess})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json() == {"error": "wrong user name or password", "code": "signin_failed",
                                              "args": {}}
    assert COOKIE not in wrong.headers.get("set-cookie", "") + unknown.headers.get("set-cookie", "")


def throttled_server(new_server: Callable[..., ServerProcess], **limits: int) -> ServerProcess:
    # the tests speak for other addresses as a reverse proxy would (X-Forwarded-For): the server
    # believes it from 127.0.0.1, named as its proxy (the `trusted_proxies` setting)
    return new_server(limits={**GENEROUS_LIMITS, **limits, "trusted_proxies": ["127.0.0.1"]}).start()


def test_wrong_passwords_from_one_address_are_throttled(new_server: Callable[..., ServerProcess]) -> None:
    server = throttled_server(new_server, signin_failures_per_address_minute=3)
    with sign_up(server) as player, client_of(server) as attacker:
        for attempt in range(3):  # a different name each time: the address is what is counted
            guess = {"name": unique_name(), "password": f"guess{attempt}"}
            answer = attacker.post("/api/account/signin", json=guess)
            assert answer.status_code == 401
        answer = attacker.post("/api/account/signin", json={"name": player.name, "password": PASSWORD})
        assert answer.status_code == 429 and int(answer.headers["Retry-After"]) >= 1
        other = attacker.post("/api/account/signin", json={"name": player.name, "password": PASSWORD},
                              headers={"X-Forwarded-For": "198.51.100.7"})
        assert other.status_code == 200  # another address is not concerned


def test_wrong_passwords_across_addresses_are_throttled_per_name(
    new_server: Callable[..., ServerProcess],
) -> None:
    server = throttled_server(new_server, signin_failures_per_account_hour=3)
    with sign_up(server) as player, client_of(server) as attacker:
        unknown = unique_name()
        for name in (player.name, unknown):
            for attempt in range(3):
                guess = {"name": name, "password": f"guess{attempt}"}
                answer = attacker.post("/api/account/signin", json=guess,
                                       headers={"X-Forwarded-For": f"203.0.113.{attempt + 1}"})
                assert answer.status_code == 401
        for name in (player.name.upper(), unknown):  # known or not, the name is throttled alike
            answer = attacker.post("/api/account/signin", json={"name": name, "password": PASSWORD},
                                   headers={"X-Forwarded-For": "203.0.113.99"})
            assert answer.status_code == 429, answer.text
            assert answer.json()["code"] == "too_many"
        assert player.get("/api/account").status_code == 200  # a signed-in session goes on


def test_sign_ups_from_one_address_are_limited(new_server: Callable[..., ServerProcess]) -> None:
    server = throttled_server(new_server, signups_per_address_hour=2)
    with sign_up(server), sign_up(server), client_of(server) as client:
        answer = client.post("/api/account/signup", json={"name": unique_name(), "password": PASSWORD})
        assert answer.status_code == 429


# -- for other modules: current_account and require_account --------------------------------------------


def test_current_and_required_account_dependencies(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'db.sqlite3'}", allowed_hosts=frozenset({"testserver"}),
                     limits=ServerLimits(), exclusive=False)

    @app.get("/api/test/who")
    async def who(account: Annotated[Account | None, Depends(current_account)]) -> dict[str, Any]:
        return {"name": None if account is None else account.name}

    @app.websocket("/ws/test/who")
    async def who_socket(websocket: WebSocket,
                         account: Annotated[Account | None, Depends(current_account)]) -> None:
        await websocket.accept()
        await websocket.send_json({"name": None if account is None else account.name})
        await websocket.close()

    @app.post("/api/test/mine")
    async def mine(account: Annotated[Account, Depends(require_account)]) -> dict[str, Any]:
        return {"id": account.id}

    with TestClient(app, base_url="https://testserver") as client:
        assert client.get("/api/test/who").json() == {"name": None}
        refused = client.post("/api/test/mine")
        assert refused.status_code == 401
        assert refused.json() == {"error": "sign in first: this needs an account", "code": "not_signed_in",
                                  "args": {}}
        answer = client.post("/api/account/signup", json={"name": "Dependent", "password": PASSWORD})
        assert "secure" in set_cookie_of(answer).lower()  # https: the cookie travels only over https
        csrf = answer.json()["csrf"]
        assert client.get("/api/test/who").json() == {"name": "Dependent"}
        with client.websocket_connect("wss://testserver/ws/test/who") as socket:  # the cookie goes too
            assert socket.receive_json() == {"name": "Dependent"}
        assert client.post("/api/test/mine").json()["code"] == "csrf"
        mine_answer = client.post("/api/test/mine", headers={"X-CSRF-Token": csrf})
        assert mine_answer.json() == {"id": answer.json()["id"]}


def test_require_account_raises_the_projects_error() -> None:
    import asyncio

    with pytest.raises(ApiError) as raised:
        asyncio.run(require_account(None))
    assert raised.value.status == 401 and raised.value.code == "not_signed_in"


# -- the schema ----------------------------------------------------------------------------------


def test_seats_of_an_earlier_release_belong_to_no_account(tmp_path: Path) -> None:
    store = Store(first_release_database(tmp_path / "games.sqlite3"))
    try:
        game = store.load_game("g1")
        assert game is not None and [seat.account_id for seat in game.seats] == [None, None]
        assert store.dump()["accounts"] == [] and store.dump()["sessions"] == []
    finally:
        store.close()


def test_the_status_says_who_is_signed_in_without_an_error_for_guests(server: ServerProcess) -> None:
    with client_of(server) as guest:
        assert guest.get("/api/account/status").json() == {"signed_in": False, "account": None}
    with sign_up(server) as player:
        status = player.get("/api/account/status").json()
        assert status["signed_in"] is True and status["account"]["name"] == player.name
        assert status["account"]["csrf"] == player.csrf


def test_an_unknown_name_costs_the_same_password_check_as_a_known_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from argon2 import PasswordHasher

    checked: list[str] = []
    verify = PasswordHasher.verify

    def counted(self: PasswordHasher, digest: str, password: str) -> bool:
        checked.append(digest)
        return verify(self, digest, password)

    monkeypatch.setattr(PasswordHasher, "verify", counted)
    app = create_app(f"sqlite:///{tmp_path / 'db.sqlite3'}", allowed_hosts=frozenset({"testserver"}),
                     exclusive=False)
    with TestClient(app) as client:
        made = client.post("/api/account/signup", json={"name": "Known", "password": PASSWORD})
        assert made.status_code == 201
        client.cookies.clear()
        answers = [client.post("/api/account/signin", json={"name": name, "password": "wrong password"})
                   for name in ("Known", "Unknown")]
    assert [answer.status_code for answer in answers] == [401, 401]
    assert answers[0].content == answers[1].content
    known, unknown = checked
    assert known.startswith("$argon2id$") and unknown.startswith("$argon2id$") and known != unknown
    assert known.split("$")[3] == unknown.split("$")[3]  # the same cost parameters: m, t, p
