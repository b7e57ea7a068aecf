"""Player accounts: sign up, sign in and out, and the session cookie that says who is signed in.

- A password is kept as an Argon2id hash (argon2-cffi's PasswordHasher), computed in worker
  threads, a few at a time (`ServerLimits.password_hashes_at_once`).
- A signed-in browser holds the cookie `eixample_session` (HttpOnly, SameSite=Lax, Secure over
  https, Path=/): a random id that the database keeps only as its SHA-256 digest. Every sign-in
  makes a new id and ends the session the browser held before, so an id planted in a browser
  before it signs in is worth nothing after.
- Every request that may change something (POST, PUT, PATCH, DELETE) and carries the cookie of a
  live session must send that session's CSRF token in the `X-CSRF-Token` header, whatever the
  route (`CsrfGuard`); otherwise 403 with the code `csrf`. Requests without the cookie (guests,
  seat tokens, API clients) are not concerned.
- Sign-in failures are counted per client address and per user name (known or not): past
  `ServerLimits.signin_failures_per_address_minute` / `signin_failures_per_account_hour` every
  sign-in from there / with that name is refused with 429 for a while. An unknown name costs the
  same password hash as a known one, and both get the same answer.

Other modules depend on `current_account` (the signed-in account or None) and `require_account`
(the account, or 401 with the code `not_signed_in`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import secrets
import threading
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any, Literal

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import bindparam, delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import sessionmaker
from starlette.datastructures import Headers
from starlette.requests import HTTPConnection, cookie_parser
from starlette.types import ASGIApp, Receive, Scope, Send

from eixample.server.db import (
    AccountRow,
    AccountTokenRow,
    GameRow,
    PasskeyRow,
    SeatRow,
    SessionRow,
    Store,
    now,
    token_digest,
)
from eixample.server.errors import ApiError, bad_request, too_many
from eixample.server.guard import SAFE_METHODS
from eixample.server.limits import ServerLimits
from eixample.server.mail import Mailer, MailError, language, localized
from eixample.server.pages import page_html
from eixample.server.schemas import Strict
from eixample.server.throttle import SharedBuckets

SESSION_COOKIE = "eixample_session"
CSRF_HEADER = "X-CSRF-Token"
SIGNED_IN_KEY = "eixample.signed_in"
"""Where a request's scope keeps its session once looked up (None: no live session)."""
NAME_LENGTH = (2, 32)
PASSWORD_LENGTH = (8, 256)
NAME_PUNCTUATION = "_-. "
RESERVED_NAMES = frozenset({"admin", "administrator", "eixample", "deleted player", "moderator", "system"})
TOUCH_AFTER = timedelta(minutes=10)
"""A session's `seen_at` is written at most this often."""
SIGNIN_FAILED = "wrong user name or password"
DELETED_NAME = "Deleted player"
"""The name a deleted account's seats show from then on."""
VERIFY_LIFETIME = timedelta(days=2)
RESET_LIFETIME = timedelta(hours=1)
MAILS_PER_EMAIL_HOUR = 3


class AccountFields(BaseModel):
    """What the server keeps of an account and its player sees (GET /api/account)."""

    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    email: str | None
    email_verified: bool
    role: str
    created_at: datetime
    has_password: bool = Field(description="the account signs in with a password (else with passkeys only)")


class Account(AccountFields):
    suspended: bool = False
    """A moderator suspended the account (server/admin.py): it opens no session until lifted."""


@dataclass(frozen=True)
class SignedIn:
    """A live session: its account, the digest of its id, and its CSRF token."""

    account: Account
    session_hash: str
    csrf: str


# -- names and addresses --------------------------------------------------------------------------


def name_key(name: str) -> str:
    """The form of a user name that is unique: NFKC-normalised and case-folded ("Ana", "ANA" and
    "Ａｎａ" are one name)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def check_name(name: str) -> str:
    """The name as typed, if it is a valid user name (ApiError 422 with the code `account_name`
    otherwise): 2 to 32 letters or digits of any script, with `_ - .` and single spaces inside."""
    low, high = NAME_LENGTH
    valid = (
        low <= len(name) <= high
        and name == name.strip()
        and "  " not in name
        and all(char in NAME_PUNCTUATION or unicodedata.category(char)[0] in "LN" for char in name)
        and any(unicodedata.category(char)[0] in "LN" for char in name)
    )
    if not valid:
        raise bad_request(
            f"a user name has {low} to {high} letters or digits, with _ - . or single spaces inside",
            "account_name", min=low, max=high,
        )
    if name_key(name) in RESERVED_NAMES:
        raise bad_request("this user name is reserved", "account_name_reserved")
    return name


def email_key(email: str) -> str:
    return unicodedata.normalize("NFKC", email.strip()).casefold()


def check_email(email: str) -> str:
    """A plausible e-mail address (the verification link proves it): one @, a dotted domain."""
    email = email.strip()
    local, at, domain = email.rpartition("@")
    valid = (
        at == "@" and 0 < len(local) <= 64 and "." in domain.strip(".") and len(email) <= 254
        and not any(char.isspace() or unicodedata.category(char)[0] == "C" for char in email)
        and "@" not in local and ".." not in domain
    )
    if not valid:
        raise bad_request("this is not an e-mail address", "account_email")
    return email


def check_password(password: str, name: str) -> None:
    low, high = PASSWORD_LENGTH
    if not low <= len(password) <= high:
        raise bad_request(f"a password has {low} to {high} characters", "account_password", min=low, max=high)
    if name_key(password) == name_key(name):
        raise bad_request("the password must not be the user name", "account_password_name")


# -- the database -------------------------------------------------------------------------------


def _account(row: AccountRow) -> Account:
    return Account(
        id=row.id, name=row.name, email=row.email, email_verified=bool(row.email_verified),
        role=row.role, created_at=_aware(row.created_at), has_password=row.password_hash is not None,
        suspended=row.suspended_at is not None,
    )


SESSION_LOOKUP = (
    select(
        SessionRow.csrf, SessionRow.seen_at, SessionRow.expires_at, AccountRow.id, AccountRow.name,
        AccountRow.email, AccountRow.email_verified, AccountRow.role, AccountRow.created_at,
        AccountRow.password_hash.is_not(None).label("has_password"),
    )
    .join(AccountRow, AccountRow.id == SessionRow.account_id)
    .where(SessionRow.id_hash == bindparam("id_hash"), AccountRow.deleted_at.is_(None),
           AccountRow.suspended_at.is_(None))
)


class SessionCache:
    """The live sessions this process found in the database lately, each trusted for
    `seconds` (never past its expiry), so that a player's burst of requests costs one look-up.
    Every change that ends a session or alters its account forgets what it touches; a look-up
    that was under way meanwhile (the generation moved on) is not kept."""

    MOST = 20_000
    """Sessions kept at most (the oldest found leave first)."""

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self._clock = clock
        self._found: OrderedDict[str, tuple[SignedIn, float]] = OrderedDict()
        self._lock = threading.Lock()
        self.generation = 0

    def get(self, session_hash: str) -> SignedIn | None:
        entry = self._found.get(session_hash)
        if entry is None:
            return None
        if entry[1] <= self._clock():
            with self._lock:
                self._found.pop(session_hash, None)
            return None
        return entry[0]

    def keep(self, signed_in: SignedIn, expires_in: float, generation: int) -> None:
        """Keep a session found by a look-up that began at `generation`."""
        if self.seconds <= 0 or expires_in <= 0:
            return
        with self._lock:
            if generation != self.generation:
                return
            self._found[signed_in.session_hash] = (signed_in, self._clock() + min(self.seconds, expires_in))
            self._found.move_to_end(signed_in.session_hash)
            while len(self._found) > self.MOST:
                self._found.popitem(last=False)

    def forget(self, *, session_hash: str | None = None, account_id: str | None = None) -> None:
        with self._lock:
            self.generation += 1
            if session_hash is not None:
                self._found.pop(session_hash, None)
            if account_id is not None:
                for key in [key for key, (found, _) in self._found.items() if found.account.id == account_id]:
                    del self._found[key]


class AccountStore:
    """The accounts and sessions tables (in the game database: same engine, rows in db.py)."""

    def __init__(self, store: Store, cache_seconds: float = 0.0) -> None:
        self._store = store
        self._sessions = sessionmaker(store.engine, expire_on_commit=False)
        self.cache = SessionCache(cache_seconds)

    def create(
        self, name: str, password_hash: str | None, email: str | None, account_id: str | None = None
    ) -> Account | None:
        """A new account (with this id, if given); None if its name (in its normalised form) is taken."""
        row = AccountRow(
            id=account_id or secrets.token_hex(16), name=name, name_key=name_key(name), email=email,
            email_key=None, email_verified=False, password_hash=password_hash, role="player",
            created_at=now(),
        )
        try:
            with self._sessions() as session, session.begin():
                session.add(row)
        except IntegrityError:
            return None
        return _account(row)

    def credentials(self, key: str) -> tuple[Account, str | None] | None:
        """The live account of a name key and its password hash (None if there is no such account)."""
        with self._sessions() as session:
            row = session.scalar(
                select(AccountRow).where(AccountRow.name_key == key, AccountRow.deleted_at.is_(None))
            )
            return None if row is None else (_account(row), row.password_hash)

    def get(self, account_id: str) -> Account | None:
        with self._sessions() as session:
            row = session.get(AccountRow, account_id)
            return None if row is None or row.deleted_at is not None else _account(row)

    def open_session(self, account_id: str, session_hash: str, csrf: str, lifetime: timedelta) -> None:
        """A new session; the expired ones of every account are cleared meanwhile."""
        stamp = now()
        with self._sessions() as session, session.begin():
            session.execute(delete(SessionRow).where(SessionRow.expires_at < stamp))
            session.add(SessionRow(
                id_hash=session_hash, account_id=account_id, csrf=csrf, created_at=stamp, seen_at=stamp,
                expires_at=stamp + lifetime,
            ))

    def session(self, session_hash: str) -> SignedIn | None:
        """The live session of a digest: unexpired, its account not deleted. Its `seen_at` is
        brought up to date when older than TOUCH_AFTER. (Asked on every signed-in request that
        changes something: plain columns, no ORM objects.)"""
        cached = self.cache.get(session_hash)
        if cached is not None:
            return cached
        generation = self.cache.generation
        stamp = now()
        with self._store.engine.connect() as connection:
            row = connection.execute(SESSION_LOOKUP, {"id_hash": session_hash}).first()
            if row is None or _aware(row.expires_at) <= stamp:
                return None
            if stamp - _aware(row.seen_at) > TOUCH_AFTER:
                connection.execute(
                    update(SessionRow).where(SessionRow.id_hash == session_hash).values(seen_at=stamp)
                )
                connection.commit()
            account = Account(
                id=row.id, name=row.name, email=row.email, email_verified=bool(row.email_verified),
                role=row.role, created_at=_aware(row.created_at), has_password=bool(row.has_password),
            )
            signed_in = SignedIn(account, session_hash, row.csrf)
        self.cache.keep(signed_in, (_aware(row.expires_at) - stamp).total_seconds(), generation)
        return signed_in

    def close_session(self, session_hash: str) -> None:
        with self._sessions() as session, session.begin():
            session.execute(delete(SessionRow).where(SessionRow.id_hash == session_hash))
        self.cache.forget(session_hash=session_hash)

    def close_sessions(self, account_id: str) -> int:
        """End every session of the account (signed out everywhere); how many there were."""
        with self._sessions() as session, session.begin():
            result = session.execute(delete(SessionRow).where(SessionRow.account_id == account_id))
        self.cache.forget(account_id=account_id)
        return int(result.rowcount)  # type: ignore[attr-defined]

    def close_other_sessions(self, account_id: str, keep: str) -> None:
        with self._sessions() as session, session.begin():
            session.execute(
                delete(SessionRow).where(SessionRow.account_id == account_id, SessionRow.id_hash != keep)
            )
        self.cache.forget(account_id=account_id)

    # single-use tokens

    def issue_token(self, purpose: str, account_id: str | None, data: str | None, lifetime: timedelta) -> str:
        """A new single-use token (only its digest is stored); expired tokens are cleared meanwhile."""
        token = secrets.token_urlsafe(32)
        stamp = now()
        with self._sessions() as session, session.begin():
            session.execute(delete(AccountTokenRow).where(AccountTokenRow.expires_at < stamp))
            session.add(AccountTokenRow(
                id_hash=token_digest(token), purpose=purpose, account_id=account_id, data=data,
                created_at=stamp, expires_at=stamp + lifetime,
            ))
        return token

    def take_token(self, purpose: str, token: str) -> tuple[str | None, str | None] | None:
        """Use a token up: its account and data, if it is unexpired and for `purpose`; it is
        deleted either way (used or expired), so it never works twice."""
        with self._sessions() as session, session.begin():
            row = session.get(AccountTokenRow, token_digest(token), with_for_update=True)
            if row is None or row.purpose != purpose:
                return None
            session.delete(row)
            if _aware(row.expires_at) <= now():
                return None
            return row.account_id, row.data

    def peek_token(self, purpose: str, token: str) -> str | None:
        """The account of an unexpired token for `purpose`, leaving it unused."""
        with self._sessions() as session:
            row = session.get(AccountTokenRow, token_digest(token))
            if row is None or row.purpose != purpose or _aware(row.expires_at) <= now():
                return None
            return row.account_id

    # e-mail and password

    def set_email(self, account_id: str, email: str | None) -> None:
        """A new (unverified) address: the account no longer claims its verified one."""
        with self._sessions() as session, session.begin():
            session.execute(
                update(AccountRow).where(AccountRow.id == account_id)
                .values(email=email, email_key=None, email_verified=False)
            )
            session.execute(delete(AccountTokenRow).where(
                AccountTokenRow.account_id == account_id, AccountTokenRow.purpose == "verify"))
        self.cache.forget(account_id=account_id)

    def verify_email(self, account_id: str, email: str) -> str:
        """Mark the account's address verified: "verified", "changed" (the account's address is
        another one now, or it is gone) or "taken" (another account verified it first)."""
        try:
            with self._sessions() as session, session.begin():
                row = session.get(AccountRow, account_id, with_for_update=True)
                if row is None or row.deleted_at is not None or row.email != email:
                    return "changed"
                row.email_key = email_key(email)
                row.email_verified = True
        except IntegrityError:
            return "taken"
        self.cache.forget(account_id=account_id)
        return "verified"

    def by_email(self, email: str) -> Account | None:
        """The live account whose verified address this is."""
        with self._sessions() as session:
            row = session.scalar(select(AccountRow).where(
                AccountRow.email_key == email_key(email), AccountRow.deleted_at.is_(None)))
            return None if row is None else _account(row)

    def password_hash(self, account_id: str) -> str | None:
        with self._sessions() as session:
            return session.scalar(select(AccountRow.password_hash).where(AccountRow.id == account_id))

    def set_password(self, account_id: str, password_hash: str) -> None:
        with self._sessions() as session, session.begin():
            session.execute(
                update(AccountRow).where(AccountRow.id == account_id).values(password_hash=password_hash)
            )
        self.cache.forget(account_id=account_id)

    def delete(self, account_id: str) -> None:
        """Delete an account: its name, address, password, passkeys, sessions and tokens go; its
        seats keep their games and moves under DELETED_NAME. The row stays, emptied, so that what
        refers to the account id (seats, results) still refers to something."""
        with self._sessions() as session, session.begin():
            session.execute(
                update(AccountRow).where(AccountRow.id == account_id).values(
                    name=DELETED_NAME, name_key=f"deleted:{account_id}", email=None, email_key=None,
                    email_verified=False, password_hash=None, deleted_at=now(),
                )
            )
            for table in (SessionRow, AccountTokenRow, PasskeyRow):
                session.execute(delete(table).where(table.account_id == account_id))
            session.execute(update(SeatRow).where(SeatRow.account_id == account_id).values(name=DELETED_NAME))
        self.cache.forget(account_id=account_id)

    def unfinished_seats(self, account_id: str) -> list[tuple[str, int]]:
        """(game id, seat) of every person's seat the account holds in a game not yet over."""
        with self._sessions() as session:
            rows = session.execute(
                select(SeatRow.game_id, SeatRow.seat)
                .join(GameRow, GameRow.id == SeatRow.game_id)
                .where(SeatRow.account_id == account_id, SeatRow.kind == "person",
                       GameRow.status != "finished")
                .order_by(SeatRow.game_id, SeatRow.seat)
            )
            return [(game_id, seat) for game_id, seat in rows]

    def session_count(self, account_id: str) -> int:
        with self._sessions() as session:
            rows = session.scalars(select(SessionRow.id_hash).where(SessionRow.account_id == account_id))
            return len(list(rows))


def _aware(stamp: datetime) -> datetime:
    """A stored time as UTC (SQLite hands it back without its zone)."""
    return stamp if stamp.tzinfo is not None else stamp.replace(tzinfo=UTC)


# -- passwords ------------------------------------------------------------------------------------


class Passwords:
    """Argon2id hashing in worker threads, at most `at_once` at the same time. A name that has no
    password (no such account, or one with passkeys only) is checked against a dummy hash, so
    that the answer takes as long as for a real one."""

    def __init__(self, at_once: int) -> None:
        self.hasher = PasswordHasher()
        self._slots = asyncio.Semaphore(max(1, at_once))
        self._dummy: str | None = None

    async def hash(self, password: str) -> str:
        async with self._slots:
            return await asyncio.to_thread(self.hasher.hash, password)

    async def verify(self, password_hash: str | None, password: str) -> bool:
        async with self._slots:
            return await asyncio.to_thread(self._verify, password_hash, password)

    def _verify(self, password_hash: str | None, password: str) -> bool:
        if self._dummy is None:  # made on first use, so that starting the server costs no hash
            self._dummy = self.hasher.hash(secrets.token_urlsafe(16))
        try:
            self.hasher.verify(password_hash or self._dummy, password)
        except (VerificationError, InvalidHashError):
            return False
        return password_hash is not None


async def _take_or_refuse(buckets: SharedBuckets, key: str, what: str) -> None:
    if not await asyncio.to_thread(buckets.take, key):
        raise too_many(what, await asyncio.to_thread(buckets.wait, key))


async def _refuse_if_empty(buckets: SharedBuckets, key: str, what: str) -> None:
    if not await asyncio.to_thread(buckets.has, key):
        raise too_many(what, await asyncio.to_thread(buckets.wait, key))


# -- the service --------------------------------------------------------------------------------


class Accounts:
    """Accounts, sessions and their limits; one per application (`app.state.accounts`)."""

    def __init__(self, store: Store, limits: ServerLimits, mailer: Mailer | None = None) -> None:
        self.store = AccountStore(store, limits.session_cache_seconds)
        self.limits = limits
        self.mailer = mailer if mailer is not None else Mailer()
        self.passwords = Passwords(limits.password_hashes_at_once)
        self._signups = SharedBuckets(store, "signup-address", limits.signups_per_address_hour, 3600.0)
        self._address_failures = SharedBuckets(
            store, "signin-address", limits.signin_failures_per_address_minute, 60.0)
        self._name_failures = SharedBuckets(
            store, "signin-name", limits.signin_failures_per_account_hour, 3600.0)
        self._mails_from = SharedBuckets(store, "mail-address", limits.account_mails_per_address_hour, 3600.0)
        self._mails_to = SharedBuckets(store, "mail-to", MAILS_PER_EMAIL_HOUR, 3600.0)
        self._mail_tasks: set[asyncio.Task[None]] = set()

    @property
    def session_lifetime(self) -> timedelta:
        return timedelta(days=self.limits.session_days)

    async def lookup(self, session_id: str) -> SignedIn | None:
        """The live session of a cookie's id (None for an unknown, expired or ended one)."""
        if not session_id or len(session_id) > 200:
            return None
        session_hash = token_digest(session_id)
        cached = self.store.cache.get(session_hash)  # no worker thread for a session found lately
        if cached is not None:
            return cached
        return await asyncio.to_thread(self.store.session, session_hash)

    async def sign_up(self, name: str, password: str, email: str | None, address: str) -> tuple[Account, str]:
        """A new account with a password, signed in: the account and the new session's id."""
        check_name(name)
        check_password(password, name)
        if email is not None:
            email = check_email(email) if email.strip() else None
        await self.count_signup(address)
        password_hash = await self.passwords.hash(password)
        account = await asyncio.to_thread(self.store.create, name, password_hash, email)
        if account is None:
            raise ApiError(409, "this user name is taken", code="account_name_taken")
        return account, await self.open_session(account)

    async def sign_in(self, name: str, password: str, address: str) -> tuple[Account, str]:
        """The account whose name and password these are, and a new session's id; ApiError 401
        (the same for an unknown name and a wrong password) or 429 when throttled."""
        key = name_key(name)
        await self._check_failures(address, key)
        found = await asyncio.to_thread(self.store.credentials, key)
        account, password_hash = found if found is not None else (None, None)
        if not await self.passwords.verify(password_hash, password) or account is None:
            await self._count_failure(address, key)
            raise ApiError(401, SIGNIN_FAILED, code="signin_failed")
        return account, await self.open_session(account)

    async def count_signup(self, address: str) -> None:
        """Count one account made from the address; 429 once it has made its share."""
        await _take_or_refuse(self._signups, address, "too many accounts made from your address")

    async def check_address_failures(self, address: str) -> None:
        """429 while the address has used its share of failed sign-ins."""
        await _refuse_if_empty(self._address_failures, address, "too many failed sign-ins from your address")

    async def count_address_failure(self, address: str) -> None:
        await asyncio.to_thread(self._address_failures.take, address)

    async def _check_failures(self, address: str, key: str) -> None:
        await self.check_address_failures(address)
        await _refuse_if_empty(self._name_failures, key, "too many failed sign-ins with this user name")

    async def _count_failure(self, address: str, key: str) -> None:
        await self.count_address_failure(address)
        await asyncio.to_thread(self._name_failures.take, key)

    async def confirm_password(self, account: Account, password: str | None, address: str) -> None:
        """For a change that needs the password again (a new password, deleting the account):
        ApiError 401 if the account has a password and this is not it (counted as a failed
        sign-in, and throttled like one). An account without a password needs none."""
        password_hash = await asyncio.to_thread(self.store.password_hash, account.id)
        if password_hash is None:
            return
        key = name_key(account.name)
        await self._check_failures(address, key)
        if password is None or not await self.passwords.verify(password_hash, password):
            await self._count_failure(address, key)
            raise ApiError(401, "this is not the account's password", code="wrong_password")

    # -- mail -------------------------------------------------------------------------------

    async def _check_mail(self, address: str) -> None:
        if not self.mailer.enabled:
            raise ApiError(503, "this server sends no mail", code="mail_disabled")
        await _take_or_refuse(self._mails_from, address, "too many mails asked for from your address")

    def _mail_later(self, to: str, subject: str, text: str) -> None:
        """Send in the background (the answer never waits for, nor tells of, the SMTP server);
        at most MAILS_PER_EMAIL_HOUR to one address."""
        if not self.mailer.enabled:
            return

        async def send() -> None:
            if not await asyncio.to_thread(self._mails_to.take, email_key(to)):
                return
            with contextlib.suppress(MailError):  # mail.py logged it, without the text
                await self.mailer.send(to, subject, text)

        task = asyncio.create_task(send())
        self._mail_tasks.add(task)
        task.add_done_callback(self._mail_tasks.discard)

    async def send_verification(self, account: Account, email: str, base_url: str, lang: str = "en") -> None:
        token = await asyncio.to_thread(self.store.issue_token, "verify", account.id, email, VERIFY_LIFETIME)
        link = f"{base_url}/account/verify#token={token}"
        args = {"name": account.name, "email": email, "days": VERIFY_LIFETIME.days, "link": link}
        self._mail_later(email, *localized(lang, "accountMail.verify", args))

    async def change_email(self, account: Account, email: str | None, address: str, base_url: str,
                           lang: str = "en") -> bool:
        """Give the account a new address (or none): unverified until its link is opened. True
        when a verification link was sent."""
        email = check_email(email) if email is not None and email.strip() else None
        if email is not None and self.mailer.enabled:
            await self._check_mail(address)
        await asyncio.to_thread(self.store.set_email, account.id, email)
        if email is None or not self.mailer.enabled:
            return False
        await self.send_verification(account, email, base_url, lang)
        return True

    async def resend_verification(self, account: Account, address: str, base_url: str,
                                  lang: str = "en") -> None:
        current = await asyncio.to_thread(self.store.get, account.id)
        if current is None or current.email is None or current.email_verified:
            raise ApiError(409, "there is no unverified address to verify", code="nothing_to_verify")
        await self._check_mail(address)
        await self.send_verification(current, current.email, base_url, lang)

    async def verify_email(self, token: str) -> None:
        taken = await asyncio.to_thread(self.store.take_token, "verify", token)
        if taken is None or taken[0] is None or taken[1] is None:
            raise ApiError(410, "this link has expired or was used already", code="link_expired")
        outcome = await asyncio.to_thread(self.store.verify_email, taken[0], taken[1])
        if outcome == "taken":
            raise ApiError(409, "another account has verified this address", code="email_taken")
        if outcome == "changed":
            raise ApiError(410, "the account's address has changed since this link was sent",
                           code="link_expired")

    async def forgot_password(self, email: str, address: str, base_url: str, lang: str = "en") -> None:
        """Mail a reset link if a verified address is this one; the answer is the same (and as
        quick) whether or not it is."""
        await self._check_mail(address)
        account = await asyncio.to_thread(self.store.by_email, email)
        if account is None:
            return
        token = await asyncio.to_thread(self.store.issue_token, "reset", account.id, None, RESET_LIFETIME)
        link = f"{base_url}/account/reset#token={token}"
        minutes = int(RESET_LIFETIME.total_seconds() // 60)
        args = {"name": account.name, "minutes": minutes, "link": link}
        self._mail_later(email, *localized(lang, "accountMail.reset", args))

    async def reset_password(self, token: str, password: str) -> tuple[Account, str]:
        """Set a new password with a reset link's token: every session of the account ends, and
        a new one begins. An invalid new password leaves the link usable."""
        peeked = await asyncio.to_thread(self.store.peek_token, "reset", token)
        account = None if peeked is None else await asyncio.to_thread(self.store.get, peeked)
        if account is None:
            raise ApiError(410, "this link has expired or was used already", code="link_expired")
        check_password(password, account.name)
        password_hash = await self.passwords.hash(password)
        taken = await asyncio.to_thread(self.store.take_token, "reset", token)
        if taken is None or taken[0] != account.id:  # another request used it meanwhile
            raise ApiError(410, "this link has expired or was used already", code="link_expired")
        await asyncio.to_thread(self.store.set_password, account.id, password_hash)
        await asyncio.to_thread(self.store.close_sessions, account.id)
        return account, await self.open_session(account)

    async def change_password(self, signed_in: SignedIn, current: str | None, new: str, address: str) -> None:
        """A new password (the current one confirmed, if any); the account's other sessions end."""
        account = signed_in.account
        check_password(new, account.name)
        await self.confirm_password(account, current, address)
        password_hash = await self.passwords.hash(new)
        await asyncio.to_thread(self.store.set_password, account.id, password_hash)
        await asyncio.to_thread(self.store.close_other_sessions, account.id, signed_in.session_hash)

    async def delete(self, account: Account, password: str | None, confirm_name: str | None,
                     address: str) -> None:
        """Delete the account: the password again if it has one, else its name typed again."""
        has_password = await asyncio.to_thread(self.store.password_hash, account.id) is not None
        if has_password:
            await self.confirm_password(account, password, address)
        elif confirm_name is None or name_key(confirm_name) != name_key(account.name):
            raise bad_request("type the account's user name to delete it", "confirm_name")
        await asyncio.to_thread(self.store.delete, account.id)

    async def open_session(self, account: Account) -> str:
        """A new session of the account: its id, for the cookie (only its digest is stored);
        ApiError 403 while a moderator has suspended the account."""
        if account.suspended:
            raise ApiError(403, "this account is suspended by a moderator", code="account_suspended")
        session_id = secrets.token_urlsafe(32)
        csrf = secrets.token_urlsafe(32)
        await asyncio.to_thread(
            self.store.open_session, account.id, token_digest(session_id), csrf, self.session_lifetime
        )
        return session_id

    async def sign_out(self, signed_in: SignedIn) -> None:
        await asyncio.to_thread(self.store.close_session, signed_in.session_hash)


def accounts_of(connection: HTTPConnection) -> Accounts:
    accounts: Accounts = connection.app.state.accounts
    return accounts


# -- what other modules depend on ---------------------------------------------------------------


async def current_session(connection: HTTPConnection) -> SignedIn | None:
    """The live session the request's cookie names (looked up once per request), or None."""
    if SIGNED_IN_KEY in connection.scope:
        known: SignedIn | None = connection.scope[SIGNED_IN_KEY]
        return known
    session_id = connection.cookies.get(SESSION_COOKIE)
    signed_in = await accounts_of(connection).lookup(session_id) if session_id else None
    connection.scope[SIGNED_IN_KEY] = signed_in
    return signed_in


async def current_account(connection: HTTPConnection) -> Account | None:
    """FastAPI dependency: the signed-in account, or None for a guest (works for WebSockets too)."""
    signed_in = await current_session(connection)
    return None if signed_in is None else signed_in.account


async def require_account(account: Annotated[Account | None, Depends(current_account)]) -> Account:
    """FastAPI dependency: the signed-in account; 401 with the code `not_signed_in` for a guest."""
    if account is None:
        raise ApiError(401, "sign in first: this needs an account", code="not_signed_in")
    return account


# -- CSRF ---------------------------------------------------------------------------------------


class CsrfGuard:
    """Pure ASGI middleware: a request that may change something and carries the cookie of a live
    session must carry that session's CSRF token in `X-CSRF-Token` (403, code `csrf`, otherwise).
    A cookie that names no live session is ignored (the request is a guest's)."""

    def __init__(self, app: ASGIApp, *, accounts: Accounts) -> None:
        self.app = app
        self.accounts = accounts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in SAFE_METHODS:
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        session_id = cookie_parser(headers.get("cookie", "")).get(SESSION_COOKIE)
        if session_id:
            signed_in = await self.accounts.lookup(session_id)
            scope[SIGNED_IN_KEY] = signed_in
            token = headers.get(CSRF_HEADER.lower(), "")
            if signed_in is not None and not hmac.compare_digest(token.encode(), signed_in.csrf.encode()):
                body = {
                    "error": f"a signed-in request that changes something needs the {CSRF_HEADER} header "
                             "of its session (GET /api/account gives it)",
                    "code": "csrf",
                    "args": {},
                }
                await JSONResponse(body, status_code=403)(scope, receive, send)
                return
        await self.app(scope, receive, send)


# -- the API --------------------------------------------------------------------------------------

Password = Annotated[str, Field(min_length=1, max_length=PASSWORD_LENGTH[1])]
NameField = Annotated[str, Field(min_length=1, max_length=64)]
MailLanguage = Literal["en", "fr", "de", "ja", "cs"] | None
LANG_FIELD = Field(default=None, description="the page's language, for the mail this may send (else the "
                                             "Accept-Language header's, else English)")


class SignUpRequest(Strict):
    name: NameField = Field(description="2 to 32 letters or digits, with _ - . or single spaces inside")
    password: Password = Field(description=f"{PASSWORD_LENGTH[0]} to {PASSWORD_LENGTH[1]} characters")
    email: Annotated[str, Field(max_length=254)] | None = Field(
        default=None, description="optional; verified by a link sent to it")
    lang: MailLanguage = LANG_FIELD


class SignInRequest(Strict):
    name: NameField
    password: Password


class AccountOut(AccountFields):
    csrf: str = Field(description=f"send it in the {CSRF_HEADER} header with every request that changes "
                                  "something while signed in")
    mail: bool = Field(description="this server sends mail (e-mail verification, password reset)")


class AccountStatusOut(BaseModel):
    signed_in: bool
    account: AccountOut | None


router = APIRouter(tags=["account"])


def _address(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"


def _account_out(accounts: Accounts, account: Account, csrf: str) -> dict[str, Any]:
    shown = account.model_dump(include=set(AccountFields.model_fields))
    return {**shown, "csrf": csrf, "mail": accounts.mailer.enabled}


def set_session_cookie(request: Request, response: Response, session_id: str, lifetime: timedelta) -> None:
    response.set_cookie(
        SESSION_COOKIE, session_id, max_age=int(lifetime.total_seconds()), path="/", httponly=True,
        samesite="lax", secure=request.url.scheme == "https",
    )


def clear_session_cookie(request: Request, response: Response) -> None:
    response.delete_cookie(
        SESSION_COOKIE, path="/", httponly=True, samesite="lax", secure=request.url.scheme == "https"
    )


async def signed_in_answer(
    request: Request, response: Response, account: Account, session_id: str
) -> dict[str, Any]:
    """End the session the browser held before (if any), set the new one's cookie."""
    accounts = accounts_of(request)
    previous = await current_session(request)
    if previous is not None:
        await accounts.sign_out(previous)
    set_session_cookie(request, response, session_id, accounts.session_lifetime)
    signed_in = await accounts.lookup(session_id)
    assert signed_in is not None
    request.scope[SIGNED_IN_KEY] = signed_in
    return _account_out(accounts, account, signed_in.csrf)


ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"description": "not signed in, or a wrong user name or password"},
    403: {"description": "a signed-in request without its CSRF token"},
    409: {"description": "the user name is taken"},
    422: {"description": "an invalid name, password or e-mail address"},
    429: {"description": "too many sign-ups or failed sign-ins: see Retry-After"},
}


@router.post("/api/account/signup", status_code=201, response_model=AccountOut, responses=ERRORS)
async def sign_up(request: Request, response: Response, body: SignUpRequest) -> dict[str, Any]:
    """Make an account with a user name and password (and, optionally, an e-mail address), and
    sign in with it: the answer sets the session cookie and holds the CSRF token."""
    accounts = accounts_of(request)
    account, session_id = await accounts.sign_up(body.name, body.password, body.email, _address(request))
    if account.email is not None and accounts.mailer.enabled:
        await accounts.send_verification(account, account.email, _base_url(request),
                                         _mail_language(request, body.lang))
    return await signed_in_answer(request, response, account, session_id)


@router.post("/api/account/signin", response_model=AccountOut, responses=ERRORS)
async def sign_in(request: Request, response: Response, body: SignInRequest) -> dict[str, Any]:
    """Sign in with a user name and password: a new session (cookie) every time; the session the
    browser held before ends. A wrong password and an unknown name get the same 401."""
    accounts = accounts_of(request)
    account, session_id = await accounts.sign_in(body.name, body.password, _address(request))
    return await signed_in_answer(request, response, account, session_id)


@router.post("/api/account/signout", status_code=204, responses=ERRORS)
async def sign_out(request: Request) -> Response:
    """End this browser's session (nothing happens for a guest)."""
    signed_in = await current_session(request)
    if signed_in is not None:
        await accounts_of(request).sign_out(signed_in)
    response = Response(status_code=204)
    clear_session_cookie(request, response)
    return response


@router.get("/api/account", response_model=AccountOut, responses=ERRORS)
async def account(request: Request) -> dict[str, Any]:
    """The signed-in account, with the session's CSRF token; 401 (`not_signed_in`) for a guest."""
    signed_in = await current_session(request)
    if signed_in is None:
        raise ApiError(401, "not signed in", code="not_signed_in")
    return _account_out(accounts_of(request), signed_in.account, signed_in.csrf)


@router.get("/api/account/status", response_model=AccountStatusOut)
async def account_status(request: Request) -> dict[str, Any]:
    """Who is signed in, for pages: the account (as GET /api/account) or none, always 200."""
    signed_in = await current_session(request)
    if signed_in is None:
        return {"signed_in": False, "account": None}
    account = _account_out(accounts_of(request), signed_in.account, signed_in.csrf)
    return {"signed_in": True, "account": account}


async def require_session(connection: HTTPConnection) -> SignedIn:
    """The live session, or ApiError 401 (`not_signed_in`)."""
    signed_in = await current_session(connection)
    if signed_in is None:
        raise ApiError(401, "sign in first: this needs an account", code="not_signed_in")
    return signed_in


def _mail_language(request: Request, asked: str | None) -> str:
    """The language of a mail this request asks for: the page's, else the browser's, else English."""
    return language(asked, request.headers.get("accept-language"))


def _base_url(request: Request) -> str:
    """The server's address as the request named it (the Guard let only known host names in)."""
    return str(request.base_url).rstrip("/")


class EmailRequest(Strict):
    email: Annotated[str, Field(max_length=254)] | None = Field(description="the new address; null: none")
    lang: MailLanguage = LANG_FIELD


class LanguageRequest(Strict):
    lang: MailLanguage = LANG_FIELD


class TokenRequest(Strict):
    token: Annotated[str, Field(min_length=1, max_length=200)] = Field(description="the token of the link")


class ForgotRequest(Strict):
    email: Annotated[str, Field(min_length=1, max_length=254)]
    lang: MailLanguage = LANG_FIELD


class ResetRequest(Strict):
    token: Annotated[str, Field(min_length=1, max_length=200)]
    password: Password


class PasswordRequest(Strict):
    password: Password | None = Field(default=None, description="the current password, if any")
    new_password: Password


class DeleteRequest(Strict):
    password: Password | None = Field(default=None, description="the password, if the account has one")
    confirm_name: NameField | None = Field(default=None, description="without a password: the user name")


class EmailOut(BaseModel):
    email: str | None
    verification_sent: bool


@router.post("/api/account/email", response_model=EmailOut, responses=ERRORS)
async def change_email(request: Request, body: EmailRequest) -> dict[str, Any]:
    """Give the account a new e-mail address (or none): unverified until the link mailed to it is
    opened (when the server sends mail)."""
    signed_in = await require_session(request)
    accounts = accounts_of(request)
    sent = await accounts.change_email(signed_in.account, body.email, _address(request), _base_url(request),
                                       _mail_language(request, body.lang))
    current = await asyncio.to_thread(accounts.store.get, signed_in.account.id)
    return {"email": None if current is None else current.email, "verification_sent": sent}


@router.post("/api/account/email/send", status_code=202, responses=ERRORS)
async def resend_verification(request: Request, body: LanguageRequest | None = None) -> dict[str, bool]:
    """Mail the verification link of the account's unverified address again (503 `mail_disabled`
    when the server sends no mail)."""
    signed_in = await require_session(request)
    lang = _mail_language(request, None if body is None else body.lang)
    await accounts_of(request).resend_verification(signed_in.account, _address(request), _base_url(request),
                                                   lang)
    return {"sent": True}


@router.post("/api/account/email/verify", responses=ERRORS)
async def verify_email(request: Request, body: TokenRequest) -> dict[str, bool]:
    """Confirm an address with the token of its link (no sign-in needed: the link may be opened on
    another device). 410 `link_expired` for a used or expired link."""
    await accounts_of(request).verify_email(body.token)
    return {"verified": True}


@router.post("/api/account/password/forgot", status_code=202, responses=ERRORS)
async def forgot_password(request: Request, body: ForgotRequest) -> dict[str, bool]:
    """Mail a password reset link to this address if an account has verified it. The answer is
    the same whether or not one has."""
    await accounts_of(request).forgot_password(body.email, _address(request), _base_url(request),
                                               _mail_language(request, body.lang))
    return {"accepted": True}


@router.post("/api/account/password/reset", response_model=AccountOut, responses=ERRORS)
async def reset_password(request: Request, response: Response, body: ResetRequest) -> dict[str, Any]:
    """Choose a new password with the token of a reset link: every session of the account ends and
    this browser is signed in anew."""
    account, session_id = await accounts_of(request).reset_password(body.token, body.password)
    return await signed_in_answer(request, response, account, session_id)


@router.post("/api/account/password", status_code=204, responses=ERRORS)
async def change_password(request: Request, body: PasswordRequest) -> Response:
    """A new password, the current one given again; the account's other sessions end."""
    signed_in = await require_session(request)
    await accounts_of(request).change_password(signed_in, body.password, body.new_password, _address(request))
    return Response(status_code=204)


@router.post("/api/account/signout-everywhere", status_code=204, responses=ERRORS)
async def sign_out_everywhere(request: Request) -> Response:
    """End every session of the account, on every device (this one included)."""
    signed_in = await require_session(request)
    await asyncio.to_thread(accounts_of(request).store.close_sessions, signed_in.account.id)
    response = Response(status_code=204)
    clear_session_cookie(request, response)
    return response


@router.delete("/api/account", status_code=204, responses=ERRORS)
async def delete_account(request: Request, body: DeleteRequest) -> Response:
    """Delete the account (its password again, or, without one, its user name). Its games keep
    their moves; its seats show "Deleted player"; it resigns its seats in games not yet over (a
    bot plays them to the end); every session ends."""
    signed_in = await require_session(request)
    account = signed_in.account
    accounts = accounts_of(request)
    await accounts.delete(account, body.password, body.confirm_name, _address(request))
    manager = getattr(request.app.state, "manager", None)
    for live in getattr(manager, "games", {}).values():  # the games held in memory show it at once
        for seat in live.seats:
            if seat.account_id == account.id:
                seat.name = DELETED_NAME
    await _resign_unfinished(request, account.id)
    response = Response(status_code=204)
    clear_session_cookie(request, response)
    return response


async def _resign_unfinished(request: Request, account_id: str) -> None:
    """Resign a deleted account's seats in unfinished games, so that nobody waits for it."""
    manager = getattr(request.app.state, "manager", None)
    table = getattr(manager, "table", None)
    if manager is None or table is None:
        return
    for game_id, seat in await asyncio.to_thread(accounts_of(request).store.unfinished_seats, account_id):
        with contextlib.suppress(ApiError):  # over meanwhile, resigned already, or not loadable
            await table.resign(await manager.get(game_id), seat)


@router.get("/account", include_in_schema=False)
@router.get("/account/{view}", include_in_schema=False)
async def account_page(view: str = "") -> HTMLResponse:
    """The account page: sign in or up, or the signed-in account's settings; /account/verify and
    /account/reset take the token of a mailed link (in the fragment, never sent to the server)."""
    return HTMLResponse(page_html("account"))
