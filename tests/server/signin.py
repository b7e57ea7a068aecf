"""Accounts in tests: sign up or sign in against a running test server (anything with a `url`:
ServerProcess, InProcessServer) and get an httpx client that holds the session cookie and sends
the session's CSRF token with every request.

    player = sign_up(server)                 # a new account with a unique name
    player.post("/api/games", json=...)      # signed in, X-CSRF-Token sent
    again = sign_in(server, player.name)     # a second device: its own session
"""

from __future__ import annotations

import secrets
from typing import Any, Protocol

import httpx

PASSWORD = "a long enough password"
CSRF_HEADER = "X-CSRF-Token"


class HasUrl(Protocol):
    @property
    def url(self) -> str: ...


class SignedInClient(httpx.Client):
    """An httpx client signed in as one account."""

    name: str
    password: str
    account: dict[str, Any]
    """The answer of the sign-up or sign-in (GET /api/account's shape)."""

    def __enter__(self) -> SignedInClient:  # already open: it signed in
        return self

    @property
    def csrf(self) -> str:
        return str(self.account["csrf"])

    @property
    def session_id(self) -> str:
        """The session cookie's value (for tests that replay or plant it)."""
        return str(self.cookies["eixample_session"])


def unique_name(prefix: str = "player") -> str:
    return f"{prefix}{secrets.token_hex(4)}"


def sign_up(
    server: HasUrl, name: str | None = None, password: str = PASSWORD, email: str | None = None
) -> SignedInClient:
    """A new account (a unique name unless `name` is given), signed in."""
    name = name or unique_name()
    body: dict[str, Any] = {"name": name, "password": password}
    if email is not None:
        body["email"] = email
    return _signed_in(server, "/api/account/signup", body, 201)


def sign_in(server: HasUrl, name: str, password: str = PASSWORD) -> SignedInClient:
    """A new session of an existing account, in a client of its own (another device)."""
    return _signed_in(server, "/api/account/signin", {"name": name, "password": password}, 200)


def _signed_in(server: HasUrl, path: str, body: dict[str, Any], status: int) -> SignedInClient:
    client = SignedInClient(base_url=server.url, timeout=30)
    answer = client.post(path, json=body)
    if answer.status_code != status:
        client.close()
        raise AssertionError(f"{path}: {answer.status_code} {answer.text}")
    client.name = str(body["name"])
    client.password = str(body["password"])
    client.account = answer.json()
    client.headers[CSRF_HEADER] = client.csrf
    return client
