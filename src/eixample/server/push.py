"""Web Push for "your turn" notices: the server's VAPID key pair, the browsers' subscriptions, and
the encrypted messages sent to them (pywebpush: RFC 8291 encryption, RFC 8292 VAPID).

The key pair is made at the first start and kept in the data folder (`vapid-private.pem`, mode
0600); servers that share a database must share the file too (a subscription is bound to the
public key it was made with). A subscription the push service answers 404 or 410 for has expired
and is dropped.
"""

from __future__ import annotations

import asyncio
import base64
import ipaddress
import json
import logging
import os
import secrets
import socket
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid02
from pywebpush import WebPushException, webpush
from sqlalchemy import DateTime, Integer, String, delete, select
from sqlalchemy.orm import Mapped, mapped_column, sessionmaker

from eixample.server.db import Store, now
from eixample.server.errors import bad_request
from eixample.server.table import TableBase

log = logging.getLogger(__name__)

KEY_FILE = "vapid-private.pem"
ENDPOINT_LENGTH = 1024
SUBSCRIPTIONS_PER_ACCOUNT = 10
"""Browsers subscribed per account: a further one replaces the oldest."""
PUSH_TIMEOUT_SECONDS = 10.0
PUSH_TTL_SECONDS = 24 * 3600
"""How long a push service keeps a message for a browser that is offline."""
GONE = (404, 410)


def secret_file(path: Path, make: Any) -> bytes:
    """The content of a secret file, made by `make()` (bytes) if it does not exist yet: written
    with mode 0600 under another name and linked into place, so that of several processes starting
    together one makes it and the others read the whole of it."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        draft = path.with_name(f".{path.name}.{secrets.token_hex(6)}")
        descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "wb") as file:
            file.write(make())
            file.flush()
            os.fsync(file.fileno())
        try:
            os.link(draft, path)
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    return path.read_bytes()


def _new_private_pem() -> bytes:
    vapid = Vapid02()
    vapid.generate_keys()
    pem: bytes = vapid.private_pem()
    return pem


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class PushKeys:
    """The server's VAPID key pair, from the data folder (made there at the first start)."""

    def __init__(self, data_dir: str | os.PathLike[str]) -> None:
        self.path = Path(data_dir) / KEY_FILE
        pem = secret_file(self.path, _new_private_pem)
        self.vapid = Vapid02.from_pem(pem)
        raw = self.vapid.public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.public_key = b64url(raw)
        """The application server key a browser subscribes with (base64url, uncompressed P-256)."""


class PushSubscriptionRow(TableBase):
    __tablename__ = "push_subscriptions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[str] = mapped_column(String(32), index=True)
    endpoint: Mapped[str] = mapped_column(String(ENDPOINT_LENGTH), unique=True)
    p256dh: Mapped[str] = mapped_column(String(128))
    auth: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


def _loopback_test_endpoint(endpoint: str, loopback_http: bool) -> bool:
    parts = urlsplit(endpoint)
    return loopback_http and parts.scheme == "http" and parts.hostname == "127.0.0.1"


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return False
    return True


def public_address(host: str) -> bool:
    """An IP address on the internet (not loopback, private, link-local, multicast or reserved)."""
    try:
        return ipaddress.ip_address(host.split("%", 1)[0]).is_global
    except ValueError:
        return False


def reaches_public_hosts(endpoint: str, loopback_http: bool = False) -> bool:
    """Whether every address the endpoint's host name resolves to is a public one (the server
    must not be made to post to the machines around it), or it is the tests' loopback service."""
    if _loopback_test_endpoint(endpoint, loopback_http):
        return True
    parts = urlsplit(endpoint)
    try:
        found = socket.getaddrinfo(parts.hostname or "", parts.port or 443, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        return False
    return bool(found) and all(public_address(str(entry[4][0])) for entry in found)


def check_subscription(endpoint: str, p256dh: str, auth: str, *, loopback_http: bool = False) -> None:
    """Refuse (422) a subscription that is not one a browser's push service gives: an https
    address (http only to 127.0.0.1 when `loopback_http`, for tests) whose host, when written as an
    address, is a public one; a P-256 public key and a 16-byte secret."""
    parts = urlsplit(endpoint)
    loopback = _loopback_test_endpoint(endpoint, loopback_http)
    if not (parts.scheme == "https" or loopback) or not parts.hostname or parts.username or parts.password:
        raise bad_request("endpoint: a push service's https address")
    host = parts.hostname.strip("[]")
    if not loopback and _is_address(host) and not public_address(host):
        raise bad_request("endpoint: a push service's address on the internet")
    try:
        key, secret = b64url_decode(p256dh), b64url_decode(auth)
    except (ValueError, TypeError):
        raise bad_request("keys: base64url text") from None
    if len(key) != 65 or key[0] != 4:
        raise bad_request("keys.p256dh: an uncompressed P-256 public key (65 bytes)")
    if len(secret) != 16:
        raise bad_request("keys.auth: a 16-byte secret")


class PushStore:
    def __init__(self, store: Store) -> None:
        self._sessions = sessionmaker(store.engine, expire_on_commit=False)

    def add(self, account_id: str, endpoint: str, p256dh: str, auth: str) -> None:
        """Keep a browser's subscription for the account (one endpoint belongs to one account:
        the last that subscribed it); past the cap, the oldest goes."""
        with self._sessions() as session, session.begin():
            session.execute(delete(PushSubscriptionRow).where(PushSubscriptionRow.endpoint == endpoint))
            session.add(PushSubscriptionRow(account_id=account_id, endpoint=endpoint, p256dh=p256dh,
                                            auth=auth, created_at=now()))
            session.flush()
            rows = session.scalars(
                select(PushSubscriptionRow.id)
                .where(PushSubscriptionRow.account_id == account_id)
                .order_by(PushSubscriptionRow.id.desc())
            ).all()
            if len(rows) > SUBSCRIPTIONS_PER_ACCOUNT:
                old = list(rows[SUBSCRIPTIONS_PER_ACCOUNT:])
                session.execute(delete(PushSubscriptionRow).where(PushSubscriptionRow.id.in_(old)))

    def remove(self, account_id: str, endpoint: str) -> int:
        with self._sessions() as session, session.begin():
            result = session.execute(
                delete(PushSubscriptionRow).where(
                    PushSubscriptionRow.account_id == account_id, PushSubscriptionRow.endpoint == endpoint
                )
            )
            return int(result.rowcount)  # type: ignore[attr-defined]

    def drop(self, endpoint: str) -> None:
        with self._sessions() as session, session.begin():
            session.execute(delete(PushSubscriptionRow).where(PushSubscriptionRow.endpoint == endpoint))

    def of(self, account_id: str) -> list[PushSubscriptionRow]:
        with self._sessions() as session:
            return list(session.scalars(
                select(PushSubscriptionRow)
                .where(PushSubscriptionRow.account_id == account_id)
                .order_by(PushSubscriptionRow.id)
            ))


class Pusher:
    """Sends one encrypted message to each of an account's subscriptions."""

    def __init__(
        self, keys: PushKeys, store: PushStore, contact: str, *, loopback_http: bool = False
    ) -> None:
        self.keys = keys
        self.loopback_http = loopback_http
        self.store = store
        self.contact = contact
        """The `sub` claim of the VAPID token: a mailto: or https: address push services may use."""
        self.sent = 0

    async def send(self, account_id: str, payload: dict[str, Any]) -> bool:
        """True if at least one subscription's push service took the message."""
        subscriptions = await asyncio.to_thread(self.store.of, account_id)
        taken = False
        data = json.dumps(payload, ensure_ascii=False)
        for row in subscriptions:
            taken = await asyncio.to_thread(self._send_one, row, data) or taken
        return taken

    def _send_one(self, row: PushSubscriptionRow, data: str) -> bool:
        if not reaches_public_hosts(row.endpoint, self.loopback_http):
            log.warning("a push subscription's host is not on the internet: not sent")
            return False
        info = {"endpoint": row.endpoint, "keys": {"p256dh": row.p256dh, "auth": row.auth}}
        try:
            webpush(info, data, vapid_private_key=self.keys.vapid, vapid_claims={"sub": self.contact},
                    timeout=PUSH_TIMEOUT_SECONDS, ttl=PUSH_TTL_SECONDS)
        except WebPushException as error:
            status = getattr(error.response, "status_code", None)
            if status in GONE:
                self.store.drop(row.endpoint)
                log.info("dropped an expired push subscription (status %s)", status)
            else:
                log.warning("a push service refused a message (status %s)", status)
            return False
        except Exception as error:
            log.warning("cannot reach a push service (%s)", type(error).__name__)
            return False
        self.sent += 1
        return True
