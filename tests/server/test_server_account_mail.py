"""Accounts, continued: e-mail verification and password reset by mailed single-use links, new
passwords, signing out everywhere, and deleting an account (its games keep their moves)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import httpx
import pytest

from eixample.server.accounts import DELETED_NAME, AccountStore
from eixample.server.db import GameData, SeatData, Store
from tests.server.harness import ServerProcess
from tests.server.signin import PASSWORD, sign_in, sign_up, unique_name
from tests.server.smtp import SmtpServer

LINK = re.compile(r"(https?://\S+/account/(verify|reset))#token=([A-Za-z0-9_-]+)")


@pytest.fixture(scope="module")
def mail_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProcess, SmtpServer]]:
    with SmtpServer() as smtp:
        process = ServerProcess(tmp_path_factory.mktemp("mail-data"), env=smtp.env()).start()
        try:
            yield process, smtp
        finally:
            process.stop()


@pytest.fixture()
def server_with_mail(mail_server: tuple[ServerProcess, SmtpServer]) -> ServerProcess:
    return mail_server[0]


@pytest.fixture()
def smtp(mail_server: tuple[ServerProcess, SmtpServer]) -> SmtpServer:
    return mail_server[1]


def link_in(message: EmailMessage) -> tuple[str, str, str]:
    found = LINK.search(message.get_content())
    assert found is not None, message.get_content()
    return found[1], found[2], found[3]


def verified_player(server: ServerProcess, smtp: SmtpServer) -> tuple[httpx.Client, str]:
    address = f"{unique_name()}@example.test"
    player = sign_up(server, email=address)
    _, _, token = link_in(smtp.mailbox.to(address))
    assert player.post("/api/account/email/verify", json={"token": token}).status_code == 200
    return player, address


def test_an_address_given_at_sign_up_is_verified_by_its_link_once(
    server_with_mail: ServerProcess, smtp: SmtpServer
) -> None:
    address = f"{unique_name()}@example.test"
    with sign_up(server_with_mail, email=address) as player:
        message = smtp.mailbox.to(address)
        base, kind, token = link_in(message)
        assert (base, kind) == (f"{server_with_mail.url}/account/verify", "verify")
        assert token not in repr(server_with_mail.db_dump())  # only its digest is kept
        with httpx.Client(base_url=server_with_mail.url) as other_device:  # no sign-in needed
            assert other_device.post("/api/account/email/verify", json={"token": token}).json() == {
                "verified": True}
            again = other_device.post("/api/account/email/verify", json={"token": token})
        assert again.status_code == 410 and again.json()["code"] == "link_expired"
        me = player.get("/api/account").json()
        assert me["email"] == address and me["email_verified"] is True


def test_an_address_verified_by_one_account_cannot_be_verified_by_another(
    server_with_mail: ServerProcess, smtp: SmtpServer
) -> None:
    first, address = verified_player(server_with_mail, smtp)
    with first, sign_up(server_with_mail) as second:
        smtp.messages.clear()
        answer = second.post("/api/account/email", json={"email": address.upper()})
        assert answer.json() == {"email": address.upper(), "verification_sent": True}
        _, _, token = link_in(smtp.mailbox.to(address.upper()))
        refused = second.post("/api/account/email/verify", json={"token": token})
        assert refused.status_code == 409 and refused.json()["code"] == "email_taken"
        assert second.get("/api/account").json()["email_verified"] is False


def test_a_password_reset_link_sets_a_new_password_and_ends_every_session(
    server_with_mail: ServerProcess, smtp: SmtpServer
) -> None:
    player, address = verified_player(server_with_mail, smtp)
    with player, httpx.Client(base_url=server_with_mail.url) as forgetful:
        answer = forgetful.post("/api/account/password/forgot", json={"email": address})
        assert answer.status_code == 202 and answer.json() == {"accepted": True}
        message = smtp.mailbox.wait_for(lambda m: address in str(m["To"]) and "password" in str(m["Subject"]))
        _, kind, token = link_in(message)
        assert kind == "reset"
        short = forgetful.post("/api/account/password/reset", json={"token": token, "password": "short"})
        assert short.status_code == 422  # the link still works
        assert token not in repr(server_with_mail.db_dump())
        new = {"token": token, "password": "a new password!"}
        reset = forgetful.post("/api/account/password/reset", json=new)
        assert reset.status_code == 200, reset.text
        assert player.get("/api/account").status_code == 401  # the old session ended
        assert forgetful.get("/api/account").json()["name"] == player.name  # this browser is signed in
    with httpx.Client(base_url=server_with_mail.url) as client:
        again = client.post("/api/account/password/reset", json={**new, "password": "another one!"})
        assert again.status_code == 410 and again.json()["code"] == "link_expired"
        old = client.post("/api/account/signin", json={"name": player.name, "password": PASSWORD})
        assert old.status_code == 401
    with sign_in(server_with_mail, player.name, "a new password!") as again:
        log = server_with_mail.log()
        for secret in (token, again.session_id, again.csrf, "a new password!", PASSWORD):
            assert secret not in log  # nothing secret reaches the server's log


def test_a_reset_for_an_unknown_or_unverified_address_answers_alike_and_sends_nothing(
    server_with_mail: ServerProcess, smtp: SmtpServer
) -> None:
    unverified = f"{unique_name()}@example.test"
    with sign_up(server_with_mail, email=unverified), httpx.Client(base_url=server_with_mail.url) as client:
        smtp.mailbox.to(unverified)  # its verification link
        answers = [
            client.post("/api/account/password/forgot", json={"email": email})
            for email in (f"{unique_name()}@example.test", unverified)
        ]
    assert [(a.status_code, a.json()) for a in answers] == [(202, {"accepted": True})] * 2
    assert not [m for m in smtp.messages if "password" in str(m["Subject"]) and unverified in str(m["To"])]


def test_without_mail_the_features_that_need_it_say_so(server: ServerProcess) -> None:
    with httpx.Client(base_url=server.url) as client:
        answer = client.post("/api/account/password/forgot", json={"email": "ana@example.test"})
    assert answer.status_code == 503 and answer.json()["code"] == "mail_disabled"
    with sign_up(server, email="ana@example.test") as player:
        assert player.account["mail"] is False
        assert player.post("/api/account/email/send").json()["code"] == "mail_disabled"


def test_a_new_password_needs_the_current_one_and_ends_the_other_sessions(server: ServerProcess) -> None:
    with sign_up(server) as laptop, sign_in(server, laptop.name) as phone:
        change = {"password": "not it", "new_password": "brand new pass"}
        wrong = laptop.post("/api/account/password", json=change)
        assert wrong.status_code == 401 and wrong.json()["code"] == "wrong_password"
        right = laptop.post("/api/account/password", json={**change, "password": PASSWORD})
        assert right.status_code == 204
        assert laptop.get("/api/account").status_code == 200
        assert phone.get("/api/account").status_code == 401
    sign_in(server, laptop.name, "brand new pass").close()


def test_sign_out_everywhere_ends_every_session(server: ServerProcess) -> None:
    with sign_up(server) as laptop, sign_in(server, laptop.name) as phone:
        assert phone.post("/api/account/signout-everywhere").status_code == 204
        assert laptop.get("/api/account").status_code == 401
        assert phone.get("/api/account").status_code == 401


def test_deleting_an_account_needs_its_password_and_frees_its_name(server: ServerProcess) -> None:
    with sign_up(server) as player, sign_in(server, player.name) as phone:
        wrong = player.request("DELETE", "/api/account", json={"password": "not it"})
        assert wrong.status_code == 401 and player.get("/api/account").status_code == 200
        assert player.request("DELETE", "/api/account", json={"password": PASSWORD}).status_code == 204
        assert player.get("/api/account").status_code == 401
        assert phone.get("/api/account").status_code == 401
    with httpx.Client(base_url=server.url) as client:
        signin = client.post("/api/account/signin", json={"name": player.name, "password": PASSWORD})
        assert signin.status_code == 401
    sign_up(server, player.name).close()  # the name is free again


def test_a_deleted_accounts_games_keep_their_moves_under_a_neutral_name(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    try:
        accounts = AccountStore(store)
        ana = accounts.create("Ana", "hash", "ana@example.test")
        assert ana is not None
        stamp = datetime.now(UTC)
        store.create_game(GameData(
            id="g1", game="tictactoe", players=2, seed=1, options={}, status="finished", move_count=0,
            to_move=0, result={"scores": [1, 0]}, created_at=stamp, updated_at=stamp,
            seats=[SeatData(0, "person", "Ana", None, None, account_id=ana.id),
                   SeatData(1, "person", "Biel", None, None)],
        ))
        accounts.open_session(ana.id, "c" * 64, "csrf", timedelta(days=1))
        accounts.delete(ana.id)
        game = store.load_game("g1")
        assert game is not None and [seat.name for seat in game.seats] == [DELETED_NAME, "Biel"]
        assert game.seats[0].account_id == ana.id and game.result == {"scores": [1, 0]}
        [row] = [row for row in store.dump()["accounts"] if row["id"] == ana.id]
        assert row["email"] is None and row["password_hash"] is None and row["deleted_at"] is not None
        assert store.dump()["sessions"] == []
        assert accounts.create("Ana", None, None) is not None  # the name is free
    finally:
        store.close()
