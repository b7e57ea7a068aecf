""""Your turn" notices of turn-based games: a durable outbox, sent by e-mail and Web Push.

When a move passes the turn of a turn-based game to a person's seat, the transaction that stores
the move also writes one row of `turn_notices` for (game, seat, move) (`Store.move_hooks`): a
crash cannot lose it, and its unique key means never two for one turn.

Every server process runs a sender that, every `ServerLimits.notice_poll_seconds`, claims the
notices whose grace period (`notice_grace_seconds`) is over: on PostgreSQL with
`SELECT ... FOR UPDATE SKIP LOCKED`, so two processes never claim the same row, and with a lease
(`notice_lease_seconds`): a process killed while sending leaves its claims to be taken again
once the lease has run out, by another process or by itself after a restart. A notice is then
skipped when the player has moved meanwhile, is on the game's page (a WebSocket of the seat, in
this process or, marked by the process that holds it, in another), a bot plays the seat, or the
seat belongs to no account that can be reached. The others are grouped by account: one mail
lists every game of the batch (a digest when several wait) and one Web Push message goes to each
of the account's subscriptions. A notice is marked sent only by the process holding its lease.

Sending is at least once: a process killed after the SMTP server took a mail but before the row
was marked sent sends it again after the lease; no other case sends a notice twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    Boolean,
    DateTime,
    Index,
    Integer,
    String,
    UniqueConstraint,
    false,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Mapped, mapped_column, sessionmaker

from eixample.server.db import SeatRow, Store, now
from eixample.server.limits import ServerLimits
from eixample.server.table import TableBase
from eixample.server.tasks import cancel_and_wait

if TYPE_CHECKING:
    from eixample.server.live import LiveGame
    from eixample.server.manager import GameManager

log = logging.getLogger(__name__)

WAITING, SENT, SKIPPED, FAILED = "waiting", "sent", "skipped", "failed"
CLAIM_BATCH = 50
"""Notices one process claims at a time."""
MAX_TRIES = 8
"""Sending tries before a notice is given up (marked failed)."""
RETRY_SECONDS = (30.0, 120.0, 600.0, 1800.0, 3600.0)
"""The wait after a failed try (the last one repeats)."""


class NoticeRow(TableBase):
    __tablename__ = "turn_notices"
    __table_args__ = (
        UniqueConstraint("game_id", "seat", "move", name="uq_turn_notices_turn"),
        Index("ix_turn_notices_state_due", "state", "due_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(String(32))
    seat: Mapped[int] = mapped_column(Integer)
    move: Mapped[int] = mapped_column(Integer)
    """The move number at which the turn passed to the seat."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    due_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    state: Mapped[str] = mapped_column(String(16))
    """"waiting", "sent", "skipped" (see `reason`) or "failed" (every try failed)."""
    reason: Mapped[str | None] = mapped_column(String(32), nullable=True)
    holder: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The process that claimed it (its store's origin) until `lease_until`."""
    lease_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    tries: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class NoticeSettingsRow(TableBase):
    """An account's notice settings: its mail stopped (an unsubscribe link), and the language of
    its notices (the page's language when its player last played)."""

    __tablename__ = "notice_settings"

    account_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    mail_stopped: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    language: Mapped[str | None] = mapped_column(String(8), nullable=True)
    changed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True)
class Claimed:
    id: int
    game_id: str
    seat: int
    move: int
    tries: int


@dataclass(frozen=True)
class Turn:
    """One game waiting for the recipient's decision."""

    game_id: str
    game: str
    """The game's name (registry), e.g. "barcelona"."""
    seat_name: str
    opponents: tuple[str, ...]
    deadline: datetime | None


@dataclass
class Recipient:
    account_id: str
    name: str
    email: str | None
    """A verified address, if mail is to be sent to it."""
    language: str
    turns: list[Turn] = field(default_factory=list)
    notice_ids: list[int] = field(default_factory=list)


Channel = Callable[[Recipient], Awaitable[bool]]
"""Sends one recipient's notices one way (mail, push): True if something was sent. Raises when
the notices are to be tried again later."""


GAMES_REMEMBERED = 10_000
"""Games whose notified seats the move hook keeps in memory (then it forgets them all)."""


def turn_passed(grace_seconds: float) -> Callable[..., None]:
    """The move hook (Store.move_hooks) that writes a turn's notice in the move's transaction.
    Whether a game is turn-based and which of its seats are people's never changes: read once
    per game (the hook runs in the one writer thread)."""
    notified: dict[str, frozenset[int]] = {}

    def write(connection: Connection, game_id: str, move: int, mover: int, to_move: int, status: str) -> None:
        if mover == to_move or status == "finished" or to_move < 0:
            return
        if game_id not in notified:
            if len(notified) >= GAMES_REMEMBERED:
                notified.clear()
            rows = connection.execute(
                text("SELECT s.seat FROM game_tables t JOIN seats s ON s.game_id = t.game_id "
                     "WHERE t.game_id = :game_id AND t.turn_days IS NOT NULL AND s.kind = 'person'"),
                {"game_id": game_id},
            )
            notified[game_id] = frozenset(row[0] for row in rows)
        if to_move not in notified[game_id]:
            return
        stamp = now()
        dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
        statement = (
            dialect.insert(NoticeRow.__table__)
            .values(
                game_id=game_id, seat=to_move, move=move, created_at=stamp,
                due_at=stamp + timedelta(seconds=grace_seconds), state=WAITING, tries=0,
            )
            .on_conflict_do_nothing(index_elements=["game_id", "seat", "move"])
        )
        connection.execute(statement)

    return write


class NoticeStore:
    def __init__(self, store: Store, lease_seconds: float) -> None:
        self.store = store
        self.origin = store.origin
        self.lease_seconds = lease_seconds
        self._sessions = sessionmaker(store.engine, expire_on_commit=False)

    def claim(self, limit: int = CLAIM_BATCH) -> list[Claimed]:
        """Take the lease on due notices nobody holds (or whose holder's lease ran out), and on
        the other waiting notices of the same accounts, so that one mail tells of them all."""
        stamp = now()
        free = (NoticeRow.state == WAITING,
                or_(NoticeRow.lease_until.is_(None), NoticeRow.lease_until < stamp))
        due = select(NoticeRow).where(*free, NoticeRow.due_at <= stamp).order_by(NoticeRow.id).limit(limit)
        if self.store.is_postgres:
            due = due.with_for_update(skip_locked=True)
        with self._sessions() as session, session.begin():
            rows = list(session.scalars(due))
            if rows:
                owner = (SeatRow.game_id == NoticeRow.game_id) & (SeatRow.seat == NoticeRow.seat)
                accounts = (
                    select(SeatRow.account_id)
                    .join(NoticeRow, owner)
                    .where(NoticeRow.id.in_([row.id for row in rows]), SeatRow.account_id.is_not(None))
                )
                taken = [row.id for row in rows]
                more = (
                    select(NoticeRow).join(SeatRow, owner)
                    .where(*free, SeatRow.account_id.in_(accounts), NoticeRow.id.not_in(taken))
                    .order_by(NoticeRow.id).limit(limit)
                )
                if self.store.is_postgres:
                    more = more.with_for_update(skip_locked=True, of=NoticeRow)
                rows += list(session.scalars(more))
            for row in rows:
                row.holder = self.origin
                row.lease_until = stamp + timedelta(seconds=self.lease_seconds)
                row.tries = (row.tries or 0) + 1
            return [Claimed(row.id, row.game_id, row.seat, row.move, row.tries) for row in rows]

    def finish(self, ids: Iterable[int], state: str, reason: str | None = None) -> int:
        """Mark claimed notices as sent, skipped or failed (only those this process still holds)."""
        ids = list(ids)
        if not ids:
            return 0
        with self._sessions() as session, session.begin():
            result = session.execute(
                update(NoticeRow)
                .where(NoticeRow.id.in_(ids), NoticeRow.holder == self.origin, NoticeRow.state == WAITING)
                .values(state=state, reason=reason, holder=None, lease_until=None,
                        sent_at=now() if state == SENT else None)
            )
            return int(result.rowcount)  # type: ignore[attr-defined]

    def renew(self, ids: Iterable[int]) -> list[int]:
        """Extend this process's lease on claimed notices: those it still holds."""
        ids = list(ids)
        with self._sessions() as session, session.begin():
            held = session.scalars(
                update(NoticeRow)
                .where(NoticeRow.id.in_(ids), NoticeRow.holder == self.origin, NoticeRow.state == WAITING)
                .values(lease_until=now() + timedelta(seconds=self.lease_seconds))
                .returning(NoticeRow.id)
            )
            return sorted(held)

    def later(self, ids: Iterable[int], seconds: float) -> None:
        """Keep claimed notices for another try in `seconds` (the lease then runs out)."""
        with self._sessions() as session, session.begin():
            session.execute(
                update(NoticeRow)
                .where(NoticeRow.id.in_(list(ids)), NoticeRow.holder == self.origin,
                       NoticeRow.state == WAITING)
                .values(lease_until=now() + timedelta(seconds=seconds))
            )

    def seen(self, game_id: str, seat: int) -> int:
        """The seat's player is on the game's page: its waiting notices are not to be sent."""
        stamp = now()
        with self._sessions() as session, session.begin():
            result = session.execute(
                update(NoticeRow)
                .where(
                    NoticeRow.game_id == game_id, NoticeRow.seat == seat, NoticeRow.state == WAITING,
                    or_(NoticeRow.lease_until.is_(None), NoticeRow.lease_until < stamp),
                )
                .values(state=SKIPPED, reason="on the page", holder=None, lease_until=None)
            )
            return int(result.rowcount)  # type: ignore[attr-defined]

    def situation(self, notice: Claimed) -> tuple[str | None, dict[str, Any]]:
        """Why the notice is not to be sent (None: it is), and what the message needs."""
        with self._sessions() as session:
            game = session.execute(
                text("SELECT game, status, move_count, to_move FROM games WHERE id = :id"),
                {"id": notice.game_id},
            ).first()
            if game is None:
                return "gone", {}
            if game.status == "finished":
                return "finished", {}
            if game.move_count != notice.move or game.to_move != notice.seat:
                return "moved", {}
            table = session.execute(
                text("SELECT stand_ins, deadline FROM game_tables WHERE game_id = :id"),
                {"id": notice.game_id},
            ).first()
            stand_ins = _json(table.stand_ins) if table is not None else {}
            if str(notice.seat) in (stand_ins or {}):
                return "stand-in", {}
            seats = session.execute(
                text("SELECT seat, kind, name, account_id FROM seats WHERE game_id = :id ORDER BY seat"),
                {"id": notice.game_id},
            ).all()
        mine = next((seat for seat in seats if seat.seat == notice.seat), None)
        if mine is None or mine.account_id is None:
            return "no account", {}
        deadline = table.deadline if table is not None else None
        return None, {
            "account_id": mine.account_id,
            "turn": Turn(
                game_id=notice.game_id,
                game=game.game,
                seat_name=mine.name,
                opponents=tuple(seat.name for seat in seats
                                if seat.seat != notice.seat and seat.kind != "automa"),
                deadline=_aware(deadline) if isinstance(deadline, datetime) else None,
            ),
        }

    # -- accounts' settings ---------------------------------------------------------------------

    def _settle(self, account_id: str, **values: Any) -> None:
        stamp = now()
        with self._sessions() as session, session.begin():
            dialect = postgresql if self.store.is_postgres else sqlite
            statement = dialect.insert(NoticeSettingsRow.__table__).values(
                account_id=account_id, changed_at=stamp, **values
            )
            session.execute(statement.on_conflict_do_update(
                index_elements=["account_id"], set_={**values, "changed_at": stamp}
            ))

    def stop_mail(self, account_id: str) -> None:
        self._settle(account_id, mail_stopped=True)

    def resume_mail(self, account_id: str) -> None:
        self._settle(account_id, mail_stopped=False)

    def remember_language(self, account_id: str, language: str) -> None:
        self._settle(account_id, language=language)

    def remember_seat_language(self, game_id: str, seat: int, language: str) -> None:
        """The language of the account a seat belongs to (if it belongs to one)."""
        with self._sessions() as session:
            account_id = session.scalar(
                select(SeatRow.account_id).where(SeatRow.game_id == game_id, SeatRow.seat == seat)
            )
        if account_id is not None:
            self.remember_language(account_id, language)

    def settings(self, account_id: str) -> NoticeSettingsRow | None:
        with self._sessions() as session:
            return session.get(NoticeSettingsRow, account_id)

    def recipient(self, account_id: str) -> Recipient | None:
        """Who an account's notices go to: its name, its verified address unless its mail was
        stopped, and its language; None for an account that is gone."""
        with self._sessions() as session:
            row = session.execute(
                text("SELECT a.name, a.email, a.email_verified, a.deleted_at, n.mail_stopped, n.language "
                     "FROM accounts a LEFT JOIN notice_settings n ON n.account_id = a.id WHERE a.id = :id"),
                {"id": account_id},
            ).first()
        if row is None or row.deleted_at is not None:
            return None
        email = row.email if row.email and row.email_verified and not row.mail_stopped else None
        return Recipient(account_id=account_id, name=row.name, email=email, language=row.language or "en")

    def rows(self, game_id: str | None = None) -> list[NoticeRow]:
        with self._sessions() as session:
            query = select(NoticeRow).order_by(NoticeRow.id)
            if game_id is not None:
                query = query.where(NoticeRow.game_id == game_id)
            return list(session.scalars(query))


def _json(value: Any) -> dict[str, Any]:
    if isinstance(value, str):
        import json

        loaded = json.loads(value)
        return loaded if isinstance(loaded, dict) else {}
    return value if isinstance(value, dict) else {}


def _aware(stamp: datetime) -> datetime:
    return stamp if stamp.tzinfo is not None else stamp.replace(tzinfo=now().tzinfo)


Resolve = Callable[[str], Recipient | None]
"""The recipient of an account's notices (None: nobody to reach), read in a worker thread."""


class Notices:
    """This process's sender of "your turn" notices, and its marks of players on the page."""

    def __init__(
        self,
        manager: GameManager,
        store: Store,
        limits: ServerLimits,
        *,
        channels: list[Channel],
        resolve: Resolve | None = None,
    ) -> None:
        self.manager = manager
        self.limits = limits
        self.db = NoticeStore(store, limits.notice_lease_seconds)
        self.resolve = resolve or self.db.recipient
        self.channels = channels
        self._task: asyncio.Task[None] | None = None
        self._marked: dict[tuple[str, int], int] = {}
        """(game, seat) -> the move number at which this process last marked the seat present."""
        self.wake = asyncio.Event()
        store.move_hooks.append(turn_passed(limits.notice_grace_seconds))

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="notices")

    async def stop(self) -> None:
        await cancel_and_wait([self._task])
        self._task = None

    # -- players on the page ------------------------------------------------------------------

    def present(self, live: LiveGame, seat: int) -> None:
        """The seat's player has the game open here while it is their turn: their notice of this
        turn is not to be sent (by whichever process claims it)."""
        key = (live.id, seat)
        if self._marked.get(key) == live.move_number:
            return
        if len(self._marked) > 10_000:
            self._marked.clear()
        self._marked[key] = live.move_number
        future = asyncio.get_running_loop().run_in_executor(None, self.db.seen, live.id, seat)
        future.add_done_callback(_log_failure)

    def _on_page_here(self, game_id: str, seat: int) -> bool:
        live = self.manager.games.get(game_id)
        return live is not None and live.seat_links.get(seat, 0) > 0

    # -- sending ------------------------------------------------------------------------------

    async def _run(self) -> None:
        while True:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.wake.wait(), self.limits.notice_poll_seconds)
            self.wake.clear()
            try:
                while await self.send_due():
                    pass
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("cannot send turn notices now (%s); trying again", error)

    async def send_due(self) -> int:
        """Claim the due notices and send them: how many were claimed."""
        claimed = await asyncio.to_thread(self.db.claim)
        if not claimed:
            return 0
        recipients: dict[str, Recipient] = {}
        skipped: dict[str, list[int]] = {}
        for notice in claimed:
            reason, found = await asyncio.to_thread(self.db.situation, notice)
            if reason is None and self._on_page_here(notice.game_id, notice.seat):
                reason = "on the page"
            if reason is None:
                account_id = found["account_id"]
                if account_id not in recipients:
                    recipient = await asyncio.to_thread(self.resolve, account_id)
                    if recipient is None:
                        reason = "unreachable"
                    else:
                        recipients[account_id] = recipient
                if reason is None:
                    recipients[account_id].turns.append(found["turn"])
                    recipients[account_id].notice_ids.append(notice.id)
            if reason is not None:
                skipped.setdefault(reason, []).append(notice.id)
        for reason, ids in skipped.items():
            await asyncio.to_thread(self.db.finish, ids, SKIPPED, reason)
        tries = {notice.id: notice.tries for notice in claimed}
        for recipient in recipients.values():
            await self._deliver(recipient, max(tries[i] for i in recipient.notice_ids))
        return len(claimed)

    async def _deliver(self, recipient: Recipient, tries: int) -> None:
        # the lease is renewed before each recipient, so that a long batch keeps its claims (a
        # notice whose lease ran out meanwhile may be another process's now: it is left to it)
        held = set(await asyncio.to_thread(self.db.renew, recipient.notice_ids))
        if len(held) != len(recipient.notice_ids):
            kept = [index for index, notice in enumerate(recipient.notice_ids) if notice in held]
            recipient.notice_ids = [recipient.notice_ids[index] for index in kept]
            recipient.turns = [recipient.turns[index] for index in kept]
            if not kept:
                return
        sent = False
        failure: Exception | None = None
        for channel in self.channels:
            try:
                sent = await channel(recipient) or sent
            except Exception as error:
                failure = error
        ids = recipient.notice_ids
        if failure is not None and not sent:
            if tries >= MAX_TRIES:
                log.warning("gave up %d turn notice(s) after %d tries (%s)", len(ids), tries, failure)
                await asyncio.to_thread(self.db.finish, ids, FAILED, type(failure).__name__[:32])
            else:
                wait = RETRY_SECONDS[min(tries, len(RETRY_SECONDS)) - 1]
                await asyncio.to_thread(self.db.later, ids, wait)
            return
        if sent:
            await asyncio.to_thread(self.db.finish, ids, SENT)
        else:
            await asyncio.to_thread(self.db.finish, ids, SKIPPED, "no channel")


def _log_failure(future: Any) -> None:
    with contextlib.suppress(asyncio.CancelledError):
        error = future.exception()
        if error is not None:
            log.warning("could not mark a player on the page (%s)", error)
