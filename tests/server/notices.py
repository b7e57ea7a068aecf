"""Helpers of the turn notices' tests: a server whose notices wait a moment only, the seats of a
game given to accounts and their addresses verified (written in the database: the accounts' own
flows for both are tested with them), and the notices as stored."""

from __future__ import annotations

import sqlite3
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import httpx

from tests.server.harness import GENEROUS_LIMITS, ServerProcess, seat_headers

NOTICE_LIMITS: dict[str, Any] = {
    **GENEROUS_LIMITS,
    "notice_grace_seconds": 0.8,
    "notice_poll_seconds": 0.2,
    "push_to_loopback": True,
    "signups_per_address_hour": 100_000,
}
"""Notices sent 0.8 s after the turn passed, looked for every 0.2 s."""
PUBLIC_URL = "http://eixample.test"


def run_sql(server: ServerProcess, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Run one statement on the server's database (SQLite file or PostgreSQL): its rows."""
    if server.database_url is None:
        connection = sqlite3.connect(server.db_path, timeout=30)
        try:
            rows = connection.execute(sql.replace("%s", "?"), params).fetchall()
            connection.commit()
            return rows
        finally:
            connection.close()
    import psycopg

    with psycopg.connect(server.database_url.replace("postgresql+psycopg://", "postgresql://")) as connection:
        cursor = connection.execute(sql, params)
        return cursor.fetchall() if cursor.description else []


def own_seat(server: ServerProcess, game_id: str, seat: int, account_id: str) -> None:
    run_sql(server, "UPDATE seats SET account_id = %s WHERE game_id = %s AND seat = %s",
            (account_id, game_id, seat))


def verify_email(server: ServerProcess, account_id: str) -> None:
    run_sql(server, "UPDATE accounts SET email_verified = %s WHERE id = %s",
            (1 if server.database_url is None else True, account_id))


def notices_of(server: ServerProcess, game_id: str) -> list[tuple[int, int, str, str | None]]:
    """(seat, move, state, reason) of each of a game's notices."""
    query = "SELECT seat, move, state, reason FROM turn_notices WHERE game_id = %s ORDER BY id"
    rows = run_sql(server, query, (game_id,))
    return [(row[0], row[1], row[2], row[3]) for row in rows]


def move(api: httpx.Client, game_id: str, token: str, action: str, expected: int) -> None:
    body = {"action": action, "expected_move": expected}
    response = api.post(f"/api/games/{game_id}/moves", json=body, headers=seat_headers(token))
    assert response.status_code == 200, response.text


def text_of(message: EmailMessage) -> str:
    body = message.get_body(preferencelist=("plain",))
    assert body is not None
    return str(body.get_content())


def is_turn_mail(message: EmailMessage) -> bool:
    """A "your turn" mail (every one has an unsubscribe link; the accounts' own mails have none)."""
    return message["List-Unsubscribe"] is not None


def mails_to(messages: list[EmailMessage], address: str) -> list[EmailMessage]:
    """The "your turn" mails sent to `address`."""
    return [message for message in messages if address in str(message["To"]) and is_turn_mail(message)]


def turn_mail(mailbox: Any, address: str, timeout: float = 30) -> EmailMessage:
    """The first "your turn" mail to `address` (received or to come)."""
    message: EmailMessage = mailbox.wait_for(
        lambda message: address in str(message["To"]) and is_turn_mail(message), timeout
    )
    return message


def server_with_mail(folder: Path, smtp_env: dict[str, str], **options: Any) -> ServerProcess:
    folder.mkdir()
    return ServerProcess(folder, limits=NOTICE_LIMITS, env={**smtp_env, "EIXAMPLE_PUBLIC_URL": PUBLIC_URL},
                         **options)
