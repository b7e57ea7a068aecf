"""The turn notices in the application: the sender with its two channels (mail, Web Push), the
push and notice-settings endpoints, the unsubscribe page, and the service worker.

- `GET /api/push/key`: the server's VAPID public key (a browser subscribes with it).
- `POST /api/push/subscriptions` (signed in): keep the browser's subscription for the account;
  `DELETE /api/push/subscriptions` forgets it.
- `GET /api/notices/settings`, `PUT /api/notices/settings` (signed in): the account's mail on or off.
- `GET /notices/unsubscribe?account=…&token=…`: a page that stops the account's "your turn"
  mails without signing in (`POST /api/notices/unsubscribe` with the same two values); the
  link's URL also takes the one-click POST of RFC 8058 (`List-Unsubscribe-Post`).
- `GET /sw.js`: the service worker that shows a push message and opens its game.

Links in notices start with the `public_url` setting (e.g. https://eixample.example.org), else with
the address of the latest request that reached these endpoints or a game's WebSocket.
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Query, Request, Response, WebSocket
from fastapi.responses import FileResponse, HTMLResponse
from pydantic import BaseModel, Field

from eixample.server.accounts import Account, require_account
from eixample.server.db import Store
from eixample.server.errors import forbidden, not_found
from eixample.server.limits import ServerLimits
from eixample.server.live import LiveGame
from eixample.server.mail import Mailer
from eixample.server.notice_mail import (
    compose,
    language_of,
    push_payload,
    token_fits,
    unsubscribe_key,
)
from eixample.server.notices import Notices, Recipient
from eixample.server.pages import page_html
from eixample.server.push import ENDPOINT_LENGTH, Pusher, PushKeys, PushStore, check_subscription
from eixample.server.schemas import Strict

if TYPE_CHECKING:
    from eixample.server.manager import GameManager

WEB_DIR = Path(__file__).resolve().parent.parent / "web"


@dataclass
class NoticeService:
    pusher: Pusher
    mailer: Mailer
    unsubscribe_key: bytes
    public_url: str | None
    seen_url: str = "http://127.0.0.1"
    languages: dict[str, str] = field(default_factory=dict)
    """"game:seat" -> the language last remembered for the seat's account (written once)."""
    notices: Notices = field(init=False)

    @property
    def base_url(self) -> str:
        return self.public_url or self.seen_url

    def saw(self, url: str) -> None:
        """Remember the address the server was reached at (for links, without a public URL)."""
        if self.public_url is None:
            self.seen_url = url.rstrip("/").replace("ws://", "http://", 1).replace("wss://", "https://", 1)

    async def mail(self, recipient: Recipient) -> bool:
        if recipient.email is None or not self.mailer.enabled:
            return False
        letter = compose(recipient, self.base_url, self.unsubscribe_key)
        message = self.mailer.message(recipient.email, letter.subject, letter.text)
        message["List-Unsubscribe"] = f"<{letter.unsubscribe}>"
        message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        await self.mailer.send_message(message)
        return True

    async def push(self, recipient: Recipient) -> bool:
        return await self.pusher.send(recipient.account_id, push_payload(recipient, self.base_url))

    def heard(self, live: LiveGame, seat: int | None, websocket: WebSocket) -> None:
        """A seat's player opened the game: remember their page's language for their notices."""
        self.saw(str(websocket.base_url))
        if seat is None or not 0 <= seat < len(live.seats) or live.seats[seat].kind != "person":
            return
        asked = websocket.query_params.get("lang") or websocket.headers.get("accept-language", "")
        language = language_of(asked[:35])
        key = f"{live.id}:{seat}"
        if self.languages.get(key) == language:
            return
        if len(self.languages) > 10_000:
            self.languages.clear()
        self.languages[key] = language
        future = asyncio.get_running_loop().run_in_executor(
            None, self.notices.db.remember_seat_language, live.id, seat, language
        )
        future.add_done_callback(lambda done: done.exception())


class PushKeysOut(BaseModel):
    key: str = Field(description="the server's VAPID public key (base64url): a browser's "
                     "applicationServerKey")


class SubscriptionKeys(Strict):
    p256dh: Annotated[str, Field(min_length=1, max_length=128)]
    auth: Annotated[str, Field(min_length=1, max_length=64)]


class SubscriptionIn(Strict):
    endpoint: Annotated[str, Field(min_length=1, max_length=ENDPOINT_LENGTH)]
    keys: SubscriptionKeys


class Unsubscribe(Strict):
    endpoint: Annotated[str, Field(min_length=1, max_length=ENDPOINT_LENGTH)]


class NoticeSettingsIn(Strict):
    mail: bool = Field(description='"your turn" mails to the account\'s verified address')


class NoticeSettingsOut(BaseModel):
    mail: bool
    language: str | None


class UnsubscribeIn(Strict):
    account: Annotated[str, Field(min_length=1, max_length=32)]
    token: Annotated[str, Field(min_length=1, max_length=64)]


router = APIRouter()


def service_of(request: Request) -> NoticeService:
    service: NoticeService = request.app.state.notice_service
    service.saw(str(request.base_url))
    return service


Service = Annotated[NoticeService, Depends(service_of)]
SignedIn = Annotated[Account, Depends(require_account)]


@router.get("/api/push/key", response_model=PushKeysOut, tags=["notices"])
async def push_key(service: Service) -> dict[str, str]:
    """The key a browser subscribes to this server's push messages with."""
    return {"key": service.pusher.keys.public_key}


@router.post("/api/push/subscriptions", status_code=201, tags=["notices"])
async def subscribe(
    request: Request, body: SubscriptionIn, service: Service, account: SignedIn
) -> dict[str, bool]:
    """Keep this browser's push subscription: "your turn" notices of the account's turn-based
    games come to it."""
    loopback = bool(request.app.state.manager.limits.push_to_loopback)
    check_subscription(body.endpoint, body.keys.p256dh, body.keys.auth, loopback_http=loopback)
    store = service.pusher.store
    await asyncio.to_thread(store.add, account.id, body.endpoint, body.keys.p256dh, body.keys.auth)
    return {"ok": True}


@router.delete("/api/push/subscriptions", tags=["notices"])
async def unsubscribe_push(body: Unsubscribe, service: Service, account: SignedIn) -> dict[str, bool]:
    removed = await asyncio.to_thread(service.pusher.store.remove, account.id, body.endpoint)
    if not removed:
        raise not_found("no such subscription of this account")
    return {"ok": True}


@router.get("/api/notices/settings", response_model=NoticeSettingsOut, tags=["notices"])
async def notice_settings(service: Service, account: SignedIn) -> dict[str, Any]:
    row = await asyncio.to_thread(service.notices.db.settings, account.id)
    return {"mail": not (row is not None and row.mail_stopped), "language": row.language if row else None}


@router.put("/api/notices/settings", response_model=NoticeSettingsOut, tags=["notices"])
async def change_notice_settings(
    body: NoticeSettingsIn, service: Service, account: SignedIn
) -> dict[str, Any]:
    db = service.notices.db
    await asyncio.to_thread(db.resume_mail if body.mail else db.stop_mail, account.id)
    return await notice_settings(service, account)


def _check_link(service: NoticeService, account: str, token: str) -> None:
    if not token_fits(service.unsubscribe_key, account, token):
        raise forbidden("this unsubscribe link is not valid", "unsubscribe_link")


@router.post("/api/notices/unsubscribe", tags=["notices"])
async def unsubscribe(body: UnsubscribeIn, service: Service) -> dict[str, bool]:
    """Stop the "your turn" mails of the account an unsubscribe link names (no sign-in needed:
    the link's token is the proof)."""
    _check_link(service, body.account, body.token)
    await asyncio.to_thread(service.notices.db.stop_mail, body.account)
    return {"ok": True}


@router.get("/notices/unsubscribe", response_class=HTMLResponse, include_in_schema=False)
async def unsubscribe_page() -> HTMLResponse:
    return HTMLResponse(page_html("notices"))


@router.post("/notices/unsubscribe", include_in_schema=False)
async def unsubscribe_one_click(
    service: Service,
    account: Annotated[str, Query(max_length=32)],
    token: Annotated[str, Query(max_length=64)],
) -> dict[str, bool]:
    """RFC 8058's one-click unsubscribe, POSTed by the mail program to the link itself."""
    _check_link(service, account, token)
    await asyncio.to_thread(service.notices.db.stop_mail, account)
    return {"ok": True}


@router.get("/sw.js", include_in_schema=False)
async def service_worker() -> Response:
    response = FileResponse(WEB_DIR / "sw.js", media_type="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    return response


def attach(
    app: FastAPI,
    manager: GameManager,
    store: Store,
    limits: ServerLimits,
    data_dir: str | os.PathLike[str],
    mailer: Mailer,
    *,
    public_url: str | None = None,
    push_contact: str | None = None,
) -> NoticeService:
    """Build the application's notice service (started and stopped with it) and add its routes.
    `public_url` and `push_contact` are the settings of those names (server/settings.py)."""
    keys = PushKeys(data_dir)
    contact = (push_contact or "").strip() or f"mailto:{mailer.settings.sender}"
    public_url = (public_url or "").strip().rstrip("/") or None
    service = NoticeService(
        pusher=Pusher(keys, PushStore(store), contact, loopback_http=limits.push_to_loopback),
        mailer=mailer,
        unsubscribe_key=unsubscribe_key(data_dir),
        public_url=public_url,
    )
    notices = Notices(manager, store, limits, channels=[service.mail, service.push])
    service.notices = notices
    if manager.table is not None:
        manager.table.on_present = notices.present
    app.state.notice_service = service
    app.include_router(router)
    return service


