"""Moderation (docs/deploy.md, Moderation): what accounts with the role `admin` may do, and the
players' reports that reach them.

An admin (the first made with `eixample admin create NAME` on the server's machine) can list the
live games and their players, end a game, hide a chat line (the chat then says a moderator hid
it), suspend an account (signed out everywhere, no sign-in until lifted) and block a range of
client addresses. Every such act is written to the `audit_log` table, with who did it and to
what. Players report a chat line or a player of their game (with their seat's token or signed
in); open reports are listed on the admins' page, `/admin`.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import time
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Any, Literal

from fastapi import APIRouter, Depends, Header, Request
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import Field
from sqlalchemy import JSON, DateTime, Integer, String, delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, sessionmaker
from starlette.types import ASGIApp, Receive, Scope, Send

from eixample.server.accounts import Account, AccountStore, current_account, require_account
from eixample.server.db import AccountRow, GameRow, Store, now
from eixample.server.errors import bad_request, conflict, forbidden, not_found, too_many, unauthorized
from eixample.server.limits import TokenBuckets
from eixample.server.live import SEAT_LETTERS
from eixample.server.pages import page_html
from eixample.server.schemas import Strict
from eixample.server.table import ENDED, ChatRow

if TYPE_CHECKING:
    from eixample.server.manager import GameManager

log = logging.getLogger(__name__)

ADMIN = "admin"
HIDDEN = "hidden"
"""The kind of a chat line a moderator hid (its text is kept only in the audit log)."""
BLOCKS_REFRESH_SECONDS = 10.0
"""How often a process reads the blocked ranges again (another process may have changed them)."""
REPORTS_PER_ADDRESS_HOUR = 10
REASON_LENGTH = 500
LISTED = 200


class AdminBase(DeclarativeBase):
    pass


class AuditRow(AdminBase):
    """One act of a moderator (or of the command line), never changed or deleted."""

    __tablename__ = "audit_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    actor_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The admin's account id; None for `eixample admin` on the server's machine."""
    actor: Mapped[str] = mapped_column(String(64))
    act: Mapped[str] = mapped_column(String(32))
    target: Mapped[str] = mapped_column(String(128))
    details: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)


class ReportRow(AdminBase):
    __tablename__ = "reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    game_id: Mapped[str] = mapped_column(String(32), index=True)
    line_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The chat line reported; None when a player is reported."""
    seat: Mapped[int] = mapped_column(Integer)
    """The seat reported (the line's speaker for a chat line)."""
    reporter: Mapped[str] = mapped_column(String(64))
    """Who reported: "account NAME" or "seat LETTER"."""
    reason: Mapped[str] = mapped_column(String(REASON_LENGTH))
    status: Mapped[str] = mapped_column(String(16), default="open", index=True)
    closed_by: Mapped[str | None] = mapped_column(String(64), nullable=True)


class BlockRow(AdminBase):
    __tablename__ = "blocked_networks"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    network: Mapped[str] = mapped_column(String(64), unique=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    actor: Mapped[str] = mapped_column(String(64))
    reason: Mapped[str] = mapped_column(String(REASON_LENGTH))


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass(frozen=True)
class Actor:
    id: str | None
    name: str

    @classmethod
    def of(cls, account: Account) -> Actor:
        return cls(account.id, account.name)


COMMAND_LINE = Actor(None, "eixample admin (server machine)")


class Moderation:
    """The moderation tables, in the game database."""

    def __init__(self, store: Store, accounts: AccountStore | None = None) -> None:
        self.store = store
        self._sessions = sessionmaker(store.engine, expire_on_commit=False)
        self.accounts = accounts if accounts is not None else AccountStore(store)
        """The server's own store, so that a suspension reaches its session cache at once."""
        self.networks: list[Network] = []
        self._read_at = 0.0
        self._reading = False

    def audit(self, session: Any, actor: Actor, act: str, target: str, **details: Any) -> None:
        session.add(AuditRow(at=now(), actor_id=actor.id, actor=actor.name, act=act, target=target,
                             details=details))

    def audit_log(self, limit: int) -> list[dict[str, Any]]:
        with self._sessions() as session:
            rows = session.scalars(select(AuditRow).order_by(AuditRow.id.desc()).limit(limit))
            return [{"id": row.id, "at": _stamp(row.at), "actor": row.actor, "act": row.act,
                     "target": row.target, "details": row.details or {}} for row in rows]

    # -- accounts ------------------------------------------------------------------------------

    def make_admin(self, name: str, password_hash: str) -> Account:
        """A new account with the admin role (the command line's); ValueError if the name is taken."""
        account = self.accounts.create(name, password_hash, None)
        if account is None:
            raise ValueError(f"the user name {name!r} is taken")
        with self._sessions() as session, session.begin():
            session.execute(update(AccountRow).where(AccountRow.id == account.id).values(role=ADMIN))
            self.audit(session, COMMAND_LINE, "make_admin", f"account {account.id}", name=name)
        return account

    def suspend(self, actor: Actor, account_id: str, reason: str, lift: bool = False) -> dict[str, Any]:
        with self._sessions() as session, session.begin():
            row = session.get(AccountRow, account_id)
            if row is None or row.deleted_at is not None:
                raise not_found("no such account")
            if row.role == ADMIN and not lift:
                raise forbidden("an admin's account cannot be suspended here")
            row.suspended_at = None if lift else now()
            self.audit(session, actor, "lift_suspension" if lift else "suspend", f"account {account_id}",
                       name=row.name, reason=reason)
            name = row.name
        ended = 0 if lift else self.accounts.close_sessions(account_id)
        return {"account_id": account_id, "name": name, "suspended": not lift, "sessions_ended": ended}

    # -- chat and games --------------------------------------------------------------------------

    def hide_line(self, actor: Actor, game_id: str, line_id: int, reason: str) -> None:
        with self._sessions() as session, session.begin():
            line = session.get(ChatRow, line_id)
            if line is None or line.game_id != game_id or line.kind != "chat":
                raise not_found("no such chat line in this game")
            self.audit(session, actor, "hide_line", f"game {game_id} line {line_id}", seat=line.seat,
                       text=line.text, reason=reason)
            line.kind, line.text = HIDDEN, ""
            self.store.announce_table(session.connection(), game_id)

    def end_game(self, actor: Actor, game_id: str, reason: str) -> None:
        with self._sessions() as session, session.begin():
            row = session.get(GameRow, game_id, with_for_update=True)
            if row is None:
                raise not_found("no such game")
            if row.status in ("finished", ENDED):
                raise conflict(f"this game is {row.status} already")
            row.status = ENDED
            self.audit(session, actor, "end_game", f"game {game_id}", reason=reason)

    # -- reports -------------------------------------------------------------------------------

    def report(self, game_id: str, seat: int, line_id: int | None, reporter: str, reason: str) -> int:
        with self._sessions() as session, session.begin():
            if line_id is not None:
                line = session.get(ChatRow, line_id)
                if line is None or line.game_id != game_id or line.kind != "chat":
                    raise not_found("no such chat line in this game")
                seat = line.seat
            row = ReportRow(at=now(), game_id=game_id, line_id=line_id, seat=seat, reporter=reporter,
                            reason=reason, status="open")
            session.add(row)
            session.flush()
            return row.id

    def reports(self, status: str) -> list[dict[str, Any]]:
        with self._sessions() as session:
            rows = list(session.scalars(select(ReportRow).where(ReportRow.status == status)
                                        .order_by(ReportRow.id.desc()).limit(LISTED)))
            lines = {line.id: line for line in session.scalars(
                select(ChatRow).where(ChatRow.id.in_([row.line_id for row in rows if row.line_id])))}
            out = []
            for row in rows:
                line = lines.get(row.line_id) if row.line_id is not None else None
                out.append({
                    "id": row.id, "at": _stamp(row.at), "game_id": row.game_id, "seat": row.seat,
                    "letter": SEAT_LETTERS[row.seat] if 0 <= row.seat < len(SEAT_LETTERS) else "?",
                    "line_id": row.line_id, "line_text": line.text if line is not None else None,
                    "line_hidden": line is not None and line.kind == HIDDEN,
                    "reporter": row.reporter, "reason": row.reason, "status": row.status,
                })
            return out

    def close_report(self, actor: Actor, report_id: int, note: str) -> None:
        with self._sessions() as session, session.begin():
            row = session.get(ReportRow, report_id)
            if row is None:
                raise not_found("no such report")
            row.status, row.closed_by = "closed", actor.name
            self.audit(session, actor, "close_report", f"report {report_id}", note=note)

    # -- blocked address ranges ----------------------------------------------------------------

    def block(self, actor: Actor, network: str, reason: str) -> dict[str, Any]:
        try:
            parsed = ipaddress.ip_network(network.strip(), strict=False)
        except ValueError:
            shown = network[:60]
            raise bad_request(f"'{shown}' is not an IP address or network (like 203.0.113.0/24)") from None
        try:
            with self._sessions() as session, session.begin():
                row = BlockRow(network=str(parsed), at=now(), actor=actor.name, reason=reason)
                session.add(row)
                session.flush()
                self.audit(session, actor, "block", f"network {parsed}", reason=reason)
                block_id = row.id
        except IntegrityError:
            raise conflict(f"{parsed} is blocked already") from None
        self.read_blocks()
        return {"id": block_id, "network": str(parsed)}

    def unblock(self, actor: Actor, block_id: int) -> None:
        with self._sessions() as session, session.begin():
            row = session.get(BlockRow, block_id)
            if row is None:
                raise not_found("no such block")
            self.audit(session, actor, "unblock", f"network {row.network}")
            session.execute(delete(BlockRow).where(BlockRow.id == block_id))
        self.read_blocks()

    def blocks(self) -> list[dict[str, Any]]:
        with self._sessions() as session:
            rows = session.scalars(select(BlockRow).order_by(BlockRow.id))
            return [{"id": row.id, "network": row.network, "at": _stamp(row.at), "actor": row.actor,
                     "reason": row.reason} for row in rows]

    def read_blocks(self) -> None:
        with self._sessions() as session:
            names = list(session.scalars(select(BlockRow.network)))
        self.networks = [ipaddress.ip_network(name, strict=False) for name in names]
        self._read_at = time.monotonic()

    def blocked(self, address: str) -> bool:
        """`address` is in a blocked range (the ranges are read again now and then, in a thread)."""
        if time.monotonic() - self._read_at > BLOCKS_REFRESH_SECONDS and not self._reading:
            self._reading = True
            task = asyncio.get_running_loop().run_in_executor(None, self.read_blocks)
            task.add_done_callback(self._read)
        if not self.networks:
            return False
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in self.networks)

    def _read(self, future: Any) -> None:
        self._reading = False
        if future.exception() is not None:
            log.warning("cannot read the blocked address ranges: %s", type(future.exception()).__name__)


def _stamp(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


class Blocks:
    """Refuses every request and WebSocket from a blocked address range (403, code `blocked`)."""

    def __init__(self, app: ASGIApp, *, moderation: Moderation) -> None:
        self.app = app
        self.moderation = moderation

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = scope.get("client")
        if scope["type"] in ("http", "websocket") and client and self.moderation.blocked(client[0]):
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008, "reason": "your address is blocked"})
                return
            body = {"error": "requests from your address are refused", "code": "blocked", "args": {}}
            await JSONResponse(body, status_code=403)(scope, receive, send)
            return
        await self.app(scope, receive, send)


# -- the API ------------------------------------------------------------------------------------


class Reason(Strict):
    reason: str = Field(default="", max_length=REASON_LENGTH)


class BlockRequest(Strict):
    network: str = Field(max_length=64, description="an IP address or network, like 203.0.113.0/24")
    reason: str = Field(default="", max_length=REASON_LENGTH)


class ReportRequest(Strict):
    line_id: int | None = Field(default=None, ge=1, description="the chat line reported")
    seat: int | None = Field(default=None, ge=0, lt=len(SEAT_LETTERS), description="the player reported")
    reason: str = Field(min_length=1, max_length=REASON_LENGTH)


async def require_admin(account: Annotated[Account, Depends(require_account)]) -> Account:
    if account.role != ADMIN:
        raise forbidden("this needs an admin's account", code="not_admin")
    return account


Admin = Annotated[Account, Depends(require_admin)]


def router(manager: GameManager, moderation: Moderation) -> APIRouter:
    routes = APIRouter()
    reports_by_address = TokenBuckets(REPORTS_PER_ADDRESS_HOUR, period=3600.0)

    async def db(fn: Any, *args: Any) -> Any:
        return await asyncio.to_thread(fn, *args)

    @routes.get("/admin", include_in_schema=False)
    async def admin_page() -> HTMLResponse:
        return HTMLResponse(page_html("admin"))

    @routes.get("/api/admin/games", tags=["admin"])
    async def live_games(_admin: Admin) -> dict[str, Any]:
        """Unfinished games (those in this process's memory first), with their players."""
        games = [game for game in await manager.list_games(None) if game["status"] in ("open", "running")]
        for game in games:
            live = manager.games.get(game["game_id"])
            game["watchers"] = len(live.connections) if live is not None else 0
            seats = live.seats if live is not None else []
            for seat, info in zip(game["seats"], seats, strict=False):
                seat["account_id"] = info.account_id
        return {"games": games}

    @routes.post("/api/admin/games/{game_id}/end", tags=["admin"])
    async def end_game(game_id: str, body: Reason, admin: Admin) -> dict[str, Any]:
        """End a game: no move is taken any more, its bots stop, its chat says a moderator ended it."""
        live = await manager.get(game_id)
        await db(moderation.end_game, Actor.of(admin), game_id, body.reason)
        if manager.table is not None:
            await manager.table.end(live)
        return {"game_id": game_id, "status": ENDED}

    @routes.post("/api/admin/games/{game_id}/chat/{line_id}/hide", tags=["admin"])
    async def hide_line(game_id: str, line_id: int, body: Reason, admin: Admin) -> dict[str, Any]:
        """Hide a chat line: everyone sees "a moderator hid this line" instead (its words stay in
        the audit log)."""
        live = await manager.get(game_id)
        await db(moderation.hide_line, Actor.of(admin), game_id, line_id, body.reason)
        if manager.table is not None:
            await manager.table.reload(live)
        return {"game_id": game_id, "line_id": line_id, "hidden": True}

    @routes.post("/api/admin/accounts/{account_id}/suspend", tags=["admin"])
    async def suspend(account_id: str, body: Reason, admin: Admin) -> dict[str, Any]:
        """Suspend an account: signed out everywhere, and refused at sign-in until lifted."""
        return dict(await db(moderation.suspend, Actor.of(admin), account_id, body.reason))

    @routes.post("/api/admin/accounts/{account_id}/lift", tags=["admin"])
    async def lift(account_id: str, body: Reason, admin: Admin) -> dict[str, Any]:
        return dict(await db(moderation.suspend, Actor.of(admin), account_id, body.reason, True))

    @routes.get("/api/admin/blocks", tags=["admin"])
    async def blocks(_admin: Admin) -> dict[str, Any]:
        return {"blocks": await db(moderation.blocks)}

    @routes.post("/api/admin/blocks", status_code=201, tags=["admin"])
    async def block(body: BlockRequest, request: Request, admin: Admin) -> dict[str, Any]:
        """Block an address range: every request from it is refused (403) by every process
        within 10 s. The admin's own address cannot be blocked."""
        network = body.network.strip()
        client = request.client.host if request.client else ""
        try:
            if ipaddress.ip_address(client) in ipaddress.ip_network(network, strict=False):
                raise conflict("this range holds your own address")
        except ValueError:
            pass
        return dict(await db(moderation.block, Actor.of(admin), network, body.reason))

    @routes.delete("/api/admin/blocks/{block_id}", status_code=204, tags=["admin"])
    async def unblock(block_id: int, admin: Admin) -> None:
        await db(moderation.unblock, Actor.of(admin), block_id)

    @routes.get("/api/admin/reports", tags=["admin"])
    async def reports(_admin: Admin, status: Literal["open", "closed"] = "open") -> dict[str, Any]:
        return {"reports": await db(moderation.reports, status)}

    @routes.post("/api/admin/reports/{report_id}/close", tags=["admin"])
    async def close_report(report_id: int, body: Reason, admin: Admin) -> dict[str, Any]:
        await db(moderation.close_report, Actor.of(admin), report_id, body.reason)
        return {"report_id": report_id, "status": "closed"}

    @routes.get("/api/admin/audit", tags=["admin"])
    async def audit(_admin: Admin) -> dict[str, Any]:
        """The last 200 acts of moderators, newest first."""
        return {"audit": await db(moderation.audit_log, LISTED)}

    @routes.post("/api/games/{game_id}/reports", status_code=201, tags=["table"])
    async def report(
        request: Request, game_id: str, body: ReportRequest,
        account: Annotated[Account | None, Depends(current_account)],
        token: Annotated[str | None, Header(alias="X-Seat-Token", max_length=200)] = None,
    ) -> dict[str, Any]:
        """Report a chat line (`line_id`) or a player (`seat`) of this game to the admins: as one
        of its seats (X-Seat-Token) or signed in. At most 10 reports an hour per address."""
        live = await manager.get(game_id)
        if (body.line_id is None) == (body.seat is None):
            raise bad_request("report either a chat line (line_id) or a player (seat)")
        if body.seat is not None and body.seat >= len(live.seats):
            raise bad_request(f"this game has no seat {body.seat}")
        if token is None and account is None:
            raise unauthorized("reporting needs a seat's token (X-Seat-Token) or a signed-in account")
        address = request.client.host if request.client else ""
        if not reports_by_address.take(address):  # wrong tokens count too
            raise too_many("too many reports from your address", reports_by_address.wait(address))
        if token is not None:
            reporter = f"seat {SEAT_LETTERS[_seat_of(manager, live, token)]}"
        else:
            assert account is not None
            reporter = f"account {account.name}"
        report_id = await db(moderation.report, live.id, body.seat if body.seat is not None else 0,
                             body.line_id, reporter, body.reason.strip())
        log.info("report %d on game %s", report_id, live.id)
        return {"report_id": report_id}

    return routes


def _seat_of(manager: GameManager, live: Any, token: str) -> int:
    seat = manager.authenticate(live, token)
    if seat is None:
        raise forbidden("this token is not a seat of this game")
    return seat
