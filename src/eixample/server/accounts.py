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
import hmac
import secrets
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker
from starlette.datastructures import Headers
from starlette.requests import HTTPConnection, cookie_parser
from starlette.types import ASGIApp, Receive, Scope, Send

from eixample.server.db import AccountRow, SessionRow, Store, now, token_digest
from eixample.server.errors import ApiError, bad_request, too_many
from eixample.server.guard import SAFE_METHODS
from eixample.server.limits import ServerLimits, TokenBuckets
from eixample.server.mail import Mailer
from eixample.server.schemas import Strict

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


@dataclass(frozen=True)
class Account:
    id: str
    name: str
    email: str | None
    email_verified: bool
    role: str
    created_at: datetime


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
        role=row.role, created_at=row.created_at,
    )


class AccountStore:
    """The accounts and sessions tables (in the game database: same engine, rows in db.py)."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._sessions = sessionmaker(store.engine, expire_on_commit=False)

    def create(self, name: str, password_hash: str | None, email: str | None) -> Account | None:
        """A new account; None if its name (in its normalised form) is taken."""
        row = AccountRow(
            id=secrets.token_hex(16), name=name, name_key=name_key(name), email=email, email_key=None,
            email_verified=False, password_hash=password_hash, role="player", created_at=now(),
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
        stamp = now()
        with self._sessions() as session, session.begin():
            session.add(SessionRow(
                id_hash=session_hash, account_id=account_id, csrf=csrf, created_at=stamp, seen_at=stamp,
                expires_at=stamp + lifetime,
            ))

    def session(self, session_hash: str) -> SignedIn | None:
        """The live session of a digest: unexpired, its account not deleted. Its `seen_at` is
        brought up to date when older than TOUCH_AFTER."""
        stamp = now()
        with self._sessions() as session:
            found = session.execute(
                select(SessionRow, AccountRow)
                .join(AccountRow, AccountRow.id == SessionRow.account_id)
                .where(SessionRow.id_hash == session_hash, AccountRow.deleted_at.is_(None))
            ).first()
            if found is None:
                return None
            row, account = found
            if _aware(row.expires_at) <= stamp:
                return None
            if stamp - _aware(row.seen_at) > TOUCH_AFTER:
                self._touch(session, session_hash, stamp)
            return SignedIn(_account(account), session_hash, row.csrf)

    @staticmethod
    def _touch(session: Session, session_hash: str, stamp: datetime) -> None:
        session.execute(update(SessionRow).where(SessionRow.id_hash == session_hash).values(seen_at=stamp))
        session.commit()

    def close_session(self, session_hash: str) -> None:
        with self._sessions() as session, session.begin():
            session.execute(delete(SessionRow).where(SessionRow.id_hash == session_hash))

    def close_sessions(self, account_id: str) -> int:
        """End every session of the account (signed out everywhere); how many there were."""
        with self._sessions() as session, session.begin():
            result = session.execute(delete(SessionRow).where(SessionRow.account_id == account_id))
            return int(result.rowcount)  # type: ignore[attr-defined]

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
        self._dummy = self.hasher.hash(secrets.token_urlsafe(16))

    async def hash(self, password: str) -> str:
        async with self._slots:
            return await asyncio.to_thread(self.hasher.hash, password)

    async def verify(self, password_hash: str | None, password: str) -> bool:
        async with self._slots:
            return await asyncio.to_thread(self._verify, password_hash, password)

    def _verify(self, password_hash: str | None, password: str) -> bool:
        try:
            self.hasher.verify(password_hash or self._dummy, password)
        except (VerificationError, InvalidHashError):
            return False
        return password_hash is not None


# -- the service --------------------------------------------------------------------------------


class Accounts:
    """Accounts, sessions and their limits; one per application (`app.state.accounts`)."""

    def __init__(self, store: Store, limits: ServerLimits, mailer: Mailer | None = None) -> None:
        self.store = AccountStore(store)
        self.limits = limits
        self.mailer = mailer if mailer is not None else Mailer()
        self.passwords = Passwords(limits.password_hashes_at_once)
        self._signups = TokenBuckets(limits.signups_per_address_hour, period=3600.0)
        self._address_failures = TokenBuckets(limits.signin_failures_per_address_minute)
        self._name_failures = TokenBuckets(limits.signin_failures_per_account_hour, period=3600.0)

    @property
    def session_lifetime(self) -> timedelta:
        return timedelta(days=self.limits.session_days)

    async def lookup(self, session_id: str) -> SignedIn | None:
        """The live session of a cookie's id (None for an unknown, expired or ended one)."""
        if not session_id or len(session_id) > 200:
            return None
        return await asyncio.to_thread(self.store.session, token_digest(session_id))

    async def sign_up(self, name: str, password: str, email: str | None, address: str) -> tuple[Account, str]:
        """A new account with a password, signed in: the account and the new session's id."""
        check_name(name)
        check_password(password, name)
        if email is not None:
            email = check_email(email) if email.strip() else None
        if not self._signups.take(address):
            raise too_many("too many accounts made from your address", self._signups.wait(address))
        password_hash = await self.passwords.hash(password)
        account = await asyncio.to_thread(self.store.create, name, password_hash, email)
        if account is None:
            raise ApiError(409, "this user name is taken", code="account_name_taken")
        return account, await self.open_session(account)

    async def sign_in(self, name: str, password: str, address: str) -> tuple[Account, str]:
        """The account whose name and password these are, and a new session's id; ApiError 401
        (the same for an unknown name and a wrong password) or 429 when throttled."""
        key = name_key(name)
        for buckets, what, bucket in (
            (self._address_failures, "too many failed sign-ins from your address", address),
            (self._name_failures, "too many failed sign-ins with this user name", key),
        ):
            if not buckets.has(bucket):
                raise too_many(what, buckets.wait(bucket))
        found = await asyncio.to_thread(self.store.credentials, key)
        account, password_hash = found if found is not None else (None, None)
        if not await self.passwords.verify(password_hash, password) or account is None:
            self._address_failures.take(address)
            self._name_failures.take(key)
            raise ApiError(401, SIGNIN_FAILED, code="signin_failed")
        return account, await self.open_session(account)

    async def open_session(self, account: Account) -> str:
        """A new session of the account: its id, for the cookie (only its digest is stored)."""
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


class SignUpRequest(Strict):
    name: NameField = Field(description="2 to 32 letters or digits, with _ - . or single spaces inside")
    password: Password = Field(description=f"{PASSWORD_LENGTH[0]} to {PASSWORD_LENGTH[1]} characters")
    email: Annotated[str, Field(max_length=254)] | None = Field(
        default=None, description="optional; verified by a link sent to it")


class SignInRequest(Strict):
    name: NameField
    password: Password


class AccountOut(BaseModel):
    id: str
    name: str
    email: str | None
    email_verified: bool
    role: str
    created_at: datetime
    csrf: str = Field(description=f"send it in the {CSRF_HEADER} header with every request that changes "
                                  "something while signed in")
    mail: bool = Field(description="this server sends mail (e-mail verification, password reset)")


class AccountStatusOut(BaseModel):
    signed_in: bool
    account: AccountOut | None


router = APIRouter(prefix="/api/account", tags=["account"])


def _address(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"


def _account_out(accounts: Accounts, account: Account, csrf: str) -> dict[str, Any]:
    return {
        "id": account.id, "name": account.name, "email": account.email,
        "email_verified": account.email_verified, "role": account.role, "created_at": account.created_at,
        "csrf": csrf, "mail": accounts.mailer.enabled,
    }


def set_session_cookie(request: Request, response: Response, session_id: str, lifetime: timedelta) -> None:
    response.set_cookie(
        SESSION_COOKIE, session_id, max_age=int(lifetime.total_seconds()), path="/", httponly=True,
        samesite="lax", secure=request.url.scheme == "https",
    )


def clear_session_cookie(request: Request, response: Response) -> None:
    response.delete_cookie(
        SESSION_COOKIE, path="/", httponly=True, samesite="lax", secure=request.url.scheme == "https"
    )


async def _signed_in_answer(
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


@router.post("/signup", status_code=201, response_model=AccountOut, responses=ERRORS)
async def sign_up(request: Request, response: Response, body: SignUpRequest) -> dict[str, Any]:
    """Make an account with a user name and password (and, optionally, an e-mail address), and
    sign in with it: the answer sets the session cookie and holds the CSRF token."""
    accounts = accounts_of(request)
    account, session_id = await accounts.sign_up(body.name, body.password, body.email, _address(request))
    return await _signed_in_answer(request, response, account, session_id)


@router.post("/signin", response_model=AccountOut, responses=ERRORS)
async def sign_in(request: Request, response: Response, body: SignInRequest) -> dict[str, Any]:
    """Sign in with a user name and password: a new session (cookie) every time; the session the
    browser held before ends. A wrong password and an unknown name get the same 401."""
    accounts = accounts_of(request)
    account, session_id = await accounts.sign_in(body.name, body.password, _address(request))
    return await _signed_in_answer(request, response, account, session_id)


@router.post("/signout", status_code=204, responses=ERRORS)
async def sign_out(request: Request) -> Response:
    """End this browser's session (nothing happens for a guest)."""
    signed_in = await current_session(request)
    if signed_in is not None:
        await accounts_of(request).sign_out(signed_in)
    response = Response(status_code=204)
    clear_session_cookie(request, response)
    return response


@router.get("", response_model=AccountOut, responses=ERRORS)
async def account(request: Request) -> dict[str, Any]:
    """The signed-in account, with the session's CSRF token; 401 (`not_signed_in`) for a guest."""
    signed_in = await current_session(request)
    if signed_in is None:
        raise ApiError(401, "not signed in", code="not_signed_in")
    return _account_out(accounts_of(request), signed_in.account, signed_in.csrf)


@router.get("/status", response_model=AccountStatusOut)
async def account_status(request: Request) -> dict[str, Any]:
    """Who is signed in, for pages: the account (as GET /api/account) or none, always 200."""
    signed_in = await current_session(request)
    if signed_in is None:
        return {"signed_in": False, "account": None}
    account = _account_out(accounts_of(request), signed_in.account, signed_in.csrf)
    return {"signed_in": True, "account": account}
