"""Passkeys (WebAuthn, through the `webauthn` package): add one to an account, make an account
with a passkey alone, sign in with one.

Each ceremony has two steps: the server hands out options with a fresh challenge and a ceremony
token (its digest and the challenge kept as a single-use account token for five minutes, in the
database, so that any server process can finish it), then checks the browser's answer against
them. The relying party is the request's host name, the expected origin the request's own. User
verification (the device's PIN or biometrics) is required: a passkey is a whole sign-in on its
own. Passkeys are discoverable, so signing in needs no user name.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from datetime import timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field, JsonValue
from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import sessionmaker
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import InvalidAuthenticationResponse, InvalidRegistrationResponse
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from eixample.server.accounts import (
    ERRORS,
    AccountOut,
    Accounts,
    NameField,
    accounts_of,
    check_name,
    name_key,
    require_session,
    signed_in_answer,
)
from eixample.server.db import AccountRow, PasskeyRow, Store, now
from eixample.server.errors import ApiError
from eixample.server.schemas import Strict

RP_NAME = "Eixample"
CEREMONY_LIFETIME = timedelta(minutes=5)
PASSKEYS_PER_ACCOUNT = 20
CEREMONY = "webauthn"


class PasskeyStore:
    """The passkeys table (rows in db.py)."""

    def __init__(self, store: Store) -> None:
        self._sessions = sessionmaker(store.engine, expire_on_commit=False)

    def ids(self, account_id: str) -> list[str]:
        with self._sessions() as session:
            return list(session.scalars(select(PasskeyRow.id).where(PasskeyRow.account_id == account_id)))

    def add(self, account_id: str, credential_id: str, public_key: bytes, sign_count: int,
            transports: list[str], name: str) -> bool:
        """Store a new passkey; False if its id is stored already."""
        try:
            with self._sessions() as session, session.begin():
                session.add(PasskeyRow(
                    id=credential_id, account_id=account_id, public_key=public_key, sign_count=sign_count,
                    transports=transports, name=name, created_at=now(),
                ))
        except IntegrityError:
            return False
        return True

    def find(self, credential_id: str) -> tuple[str, bytes, int] | None:
        """The live account, public key and counter of a passkey."""
        with self._sessions() as session:
            row = session.execute(
                select(PasskeyRow.account_id, PasskeyRow.public_key, PasskeyRow.sign_count)
                .join(AccountRow, AccountRow.id == PasskeyRow.account_id)
                .where(PasskeyRow.id == credential_id, AccountRow.deleted_at.is_(None))
            ).first()
            return None if row is None else (row[0], bytes(row[1]), int(row[2]))

    def used(self, credential_id: str, sign_count: int) -> None:
        with self._sessions() as session, session.begin():
            session.execute(update(PasskeyRow).where(PasskeyRow.id == credential_id)
                            .values(sign_count=sign_count, last_used_at=now()))

    def listing(self, account_id: str) -> list[dict[str, Any]]:
        with self._sessions() as session:
            rows = session.scalars(
                select(PasskeyRow).where(PasskeyRow.account_id == account_id).order_by(PasskeyRow.created_at)
            )
            return [{"id": row.id, "name": row.name, "created_at": row.created_at,
                     "last_used_at": row.last_used_at} for row in rows]

    def remove(self, account_id: str, credential_id: str) -> str:
        """"removed", "missing", or "last" (the account's only way to sign in: kept)."""
        with self._sessions() as session, session.begin():
            account = session.get(AccountRow, account_id, with_for_update=True)
            count = session.scalar(
                select(func.count()).select_from(PasskeyRow).where(PasskeyRow.account_id == account_id)
            ) or 0
            owned = session.get(PasskeyRow, credential_id)
            if owned is None or owned.account_id != account_id:
                return "missing"
            if account is not None and account.password_hash is None and count <= 1:
                return "last"
            session.execute(delete(PasskeyRow).where(PasskeyRow.id == credential_id))
            return "removed"


def _store(request: Request) -> PasskeyStore:
    store: Store = request.app.state.store
    passkeys: PasskeyStore | None = getattr(request.app.state, "passkeys", None)
    if passkeys is None:
        passkeys = request.app.state.passkeys = PasskeyStore(store)
    return passkeys


def _party(request: Request) -> tuple[str, str]:
    """The relying party id (the host name the request named) and the expected origin."""
    host = request.url.hostname or "localhost"
    return host, f"{request.url.scheme}://{request.url.netloc}"


def _failed(message: str = "the passkey could not be checked") -> ApiError:
    return ApiError(401, message, code="passkey_failed")


async def _begin(accounts: Accounts, kind: str, challenge: bytes, **data: str) -> str:
    payload = json.dumps({"kind": kind, "challenge": bytes_to_base64url(challenge), **data})
    return await asyncio.to_thread(accounts.store.issue_token, CEREMONY, None, payload, CEREMONY_LIFETIME)


async def _finish(accounts: Accounts, ceremony: str, kind: str) -> dict[str, str]:
    """The ceremony's data, used up; 401 `passkey_failed` for an unknown, used or expired one."""
    taken = await asyncio.to_thread(accounts.store.take_token, CEREMONY, ceremony)
    data: dict[str, str] = json.loads(taken[1]) if taken is not None and taken[1] else {}
    if data.get("kind") != kind:
        raise _failed("this passkey request has expired: start again")
    return data


def _creation_options(request: Request, user_id: bytes, name: str, exclude: list[str]) -> Any:
    rp_id, _origin = _party(request)
    return generate_registration_options(
        rp_id=rp_id, rp_name=RP_NAME, user_id=user_id, user_name=name, user_display_name=name,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.REQUIRED,
        ),
        exclude_credentials=[PublicKeyCredentialDescriptor(id=base64url_to_bytes(key)) for key in exclude],
    )


def _check_registration(request: Request, credential: dict[str, JsonValue], challenge: str) -> Any:
    rp_id, origin = _party(request)
    try:
        return verify_registration_response(
            credential=credential, expected_challenge=base64url_to_bytes(challenge), expected_rp_id=rp_id,
            expected_origin=origin, require_user_verification=True,
        )
    except (InvalidRegistrationResponse, ValueError, KeyError, TypeError) as error:
        raise _failed() from error


def _transports(credential: dict[str, JsonValue]) -> list[str]:
    response = credential.get("response")
    found = response.get("transports") if isinstance(response, dict) else None
    return [str(item)[:32] for item in found[:8]] if isinstance(found, list) else []


# -- the API --------------------------------------------------------------------------------------

Credential = Annotated[dict[str, JsonValue], Field(description="the browser's PublicKeyCredential, as JSON")]
Ceremony = Annotated[str, Field(min_length=1, max_length=200, description="the token of the options' answer")]
PasskeyName = Annotated[str, Field(max_length=64)]


class CeremonyOut(BaseModel):
    ceremony: str
    options: dict[str, Any] = Field(description="the options for navigator.credentials (WebAuthn JSON)")


class PasskeySignUpOptions(Strict):
    name: NameField


class Registration(Strict):
    ceremony: Ceremony
    credential: Credential
    name: PasskeyName | None = Field(default=None, description="what to call the passkey (its device)")


class Assertion(Strict):
    ceremony: Ceremony
    credential: Credential


class PasskeyOut(BaseModel):
    id: str
    name: str
    created_at: Any
    last_used_at: Any


class PasskeyListOut(BaseModel):
    passkeys: list[PasskeyOut]


class PasskeyDelete(Strict):
    id: Annotated[str, Field(min_length=1, max_length=1400)]


router = APIRouter(tags=["account"])


@router.post("/api/account/passkeys/options", response_model=CeremonyOut, responses=ERRORS)
async def passkey_options(request: Request) -> dict[str, Any]:
    """Options to add a passkey to the signed-in account."""
    signed_in = await require_session(request)
    account = signed_in.account
    existing = await asyncio.to_thread(_store(request).ids, account.id)
    if len(existing) >= PASSKEYS_PER_ACCOUNT:
        raise ApiError(409, f"an account has at most {PASSKEYS_PER_ACCOUNT} passkeys",
                       code="too_many_passkeys")
    options = _creation_options(request, bytes.fromhex(account.id), account.name, existing)
    ceremony = await _begin(accounts_of(request), "add", options.challenge, account=account.id)
    return {"ceremony": ceremony, "options": json.loads(options_to_json(options))}


@router.post("/api/account/passkeys", status_code=201, response_model=PasskeyOut, responses=ERRORS)
async def add_passkey(request: Request, body: Registration) -> dict[str, Any]:
    """Add the passkey the browser made with the options of POST /api/account/passkeys/options."""
    signed_in = await require_session(request)
    data = await _finish(accounts_of(request), body.ceremony, "add")
    if data.get("account") != signed_in.account.id:
        raise _failed("this passkey request belongs to another session")
    verified = _check_registration(request, body.credential, data["challenge"])
    credential_id = bytes_to_base64url(verified.credential_id)
    name = (body.name or "").strip()[:64] or "passkey"
    stored = await asyncio.to_thread(
        _store(request).add, signed_in.account.id, credential_id, verified.credential_public_key,
        verified.sign_count, _transports(body.credential), name,
    )
    if not stored:
        raise ApiError(409, "this passkey is registered already", code="passkey_known")
    [entry] = [item for item in await asyncio.to_thread(_store(request).listing, signed_in.account.id)
               if item["id"] == credential_id]
    return entry


@router.get("/api/account/passkeys", response_model=PasskeyListOut, responses=ERRORS)
async def list_passkeys(request: Request) -> dict[str, Any]:
    """The signed-in account's passkeys."""
    signed_in = await require_session(request)
    return {"passkeys": await asyncio.to_thread(_store(request).listing, signed_in.account.id)}


@router.post("/api/account/passkeys/delete", status_code=204, responses=ERRORS)
async def delete_passkey(request: Request, body: PasskeyDelete) -> Response:
    """Remove one of the account's passkeys (not the last way to sign in: 409 `last_sign_in`)."""
    signed_in = await require_session(request)
    outcome = await asyncio.to_thread(_store(request).remove, signed_in.account.id, body.id)
    if outcome == "missing":
        raise ApiError(404, "the account has no such passkey", code="no_such_passkey")
    if outcome == "last":
        raise ApiError(409, "this passkey is the account's only way to sign in", code="last_sign_in")
    return Response(status_code=204)


@router.post("/api/account/passkey-signup/options", response_model=CeremonyOut, responses=ERRORS)
async def passkey_signup_options(request: Request, body: PasskeySignUpOptions) -> dict[str, Any]:
    """Options to make an account whose only way to sign in is a passkey."""
    accounts = accounts_of(request)
    name = check_name(body.name)
    if await asyncio.to_thread(accounts.store.credentials, name_key(name)) is not None:
        raise ApiError(409, "this user name is taken", code="account_name_taken")
    address = request.client.host if request.client is not None else "unknown"
    await accounts.count_signup(address)
    account_id = secrets.token_hex(16)
    options = _creation_options(request, bytes.fromhex(account_id), name, [])
    ceremony = await _begin(accounts, "signup", options.challenge, account=account_id, name=name)
    return {"ceremony": ceremony, "options": json.loads(options_to_json(options))}


@router.post("/api/account/passkey-signup", status_code=201, response_model=AccountOut, responses=ERRORS)
async def passkey_signup(request: Request, response: Response, body: Registration) -> dict[str, Any]:
    """Make the account with the passkey the browser made, and sign in."""
    accounts = accounts_of(request)
    data = await _finish(accounts, body.ceremony, "signup")
    verified = _check_registration(request, body.credential, data["challenge"])
    account = await asyncio.to_thread(accounts.store.create, data["name"], None, None, data["account"])
    if account is None:
        raise ApiError(409, "this user name is taken", code="account_name_taken")
    name = (body.name or "").strip()[:64] or "passkey"
    await asyncio.to_thread(
        _store(request).add, account.id, bytes_to_base64url(verified.credential_id),
        verified.credential_public_key, verified.sign_count, _transports(body.credential), name,
    )
    session_id = await accounts.open_session(account)
    return await signed_in_answer(request, response, account, session_id)


@router.post("/api/account/passkey-signin/options", response_model=CeremonyOut, responses=ERRORS)
async def passkey_signin_options(request: Request) -> dict[str, Any]:
    """Options to sign in with a passkey (any of this site's: no user name needed)."""
    rp_id, _origin = _party(request)
    options = generate_authentication_options(
        rp_id=rp_id, user_verification=UserVerificationRequirement.REQUIRED)
    ceremony = await _begin(accounts_of(request), "signin", options.challenge)
    return {"ceremony": ceremony, "options": json.loads(options_to_json(options))}


@router.post("/api/account/passkey-signin", response_model=AccountOut, responses=ERRORS)
async def passkey_signin(request: Request, response: Response, body: Assertion) -> dict[str, Any]:
    """Sign in with the passkey the browser chose: a new session, as a password sign-in makes."""
    accounts = accounts_of(request)
    address = request.client.host if request.client is not None else "unknown"
    await accounts.check_address_failures(address)
    data = await _finish(accounts, body.ceremony, "signin")
    credential_id = str(body.credential.get("id", ""))[:1400]
    found = await asyncio.to_thread(_store(request).find, credential_id) if credential_id else None
    if found is None:
        await accounts.count_address_failure(address)
        raise _failed("this passkey belongs to no account here")
    account_id, public_key, sign_count = found
    rp_id, origin = _party(request)
    try:
        verified = verify_authentication_response(
            credential=body.credential, expected_challenge=base64url_to_bytes(data["challenge"]),
            expected_rp_id=rp_id, expected_origin=origin, credential_public_key=public_key,
            credential_current_sign_count=sign_count, require_user_verification=True,
        )
    except (InvalidAuthenticationResponse, ValueError, KeyError, TypeError) as error:
        await accounts.count_address_failure(address)
        raise _failed() from error
    await asyncio.to_thread(_store(request).used, credential_id, verified.new_sign_count)
    account = await asyncio.to_thread(accounts.store.get, account_id)
    if account is None:
        raise _failed("this passkey belongs to no account here")
    session_id = await accounts.open_session(account)
    return await signed_in_answer(request, response, account, session_id)
