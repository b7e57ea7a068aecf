"""Around the table: the per-game chat, resigning and leaving, the turn clock and rematches.

Each game has one row of table settings (its clock, the deadline of the pending decision, the
seats a stand-in bot plays, the rematch) and its chat lines, in two tables of their own. A seat
whose player resigned, left, or let the clock run out is played by a stand-in bot through the
manager's bot machinery; a player who left or ran out of time can take the seat back, one who
resigned cannot. Deadlines are stored, so a restarted server keeps the clock.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import hmac
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import JSON, DateTime, Integer, String, delete, func, select
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker

from eixample.core.versions import RULES_OPTION
from eixample.server import bots, turns
from eixample.server.db import GameRow, Store, now, token_digest
from eixample.server.errors import bad_request, conflict, forbidden, too_many
from eixample.server.limits import TokenBuckets
from eixample.server.live import SEAT_LETTERS, LiveGame, encode
from eixample.server.schemas import CreateGame, SeatSpec

if TYPE_CHECKING:
    from eixample.server.manager import GameManager

log = logging.getLogger(__name__)

CHAT_SHOWN = 100
"""Chat lines sent to a client that arrives (older ones stay stored)."""
ENDED = "ended"
"""The status of a game a moderator ended, and the event line that says so."""
STAND_IN = "greedy"
"""The bot that plays a seat whose player resigned, left or ran out of time."""


class TableBase(DeclarativeBase):
    pass


class TableRow(TableBase):
    __tablename__ = "game_tables"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    clock_seconds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True, index=True)
    deadline_move: Mapped[int | None] = mapped_column(Integer, nullable=True)
    stand_ins: Mapped[dict[str, str]] = mapped_column(JSON, default=dict)
    """seat (as text) -> why a bot plays it: "resigned", "left" or "clock"."""
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)
    rematch_key: Mapped[str | None] = mapped_column(String(64), nullable=True)
    turn_days: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """A turn-based game's days per move (server/turns.py); None for a real-time one."""
    time_out: Mapped[str | None] = mapped_column(String(16), nullable=True)
    """What a turn-based seat's running out of time does: "bot" (a bot plays on) or "lose"."""


class ChatRow(TableBase):
    __tablename__ = "chat_lines"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(String(32), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    """"chat" (a player's words) or "event" (the server's: resigned, left, clock, back)."""
    text: Mapped[str] = mapped_column(String(2000))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


@dataclass
class Table:
    game_id: str
    clock_seconds: int | None = None
    deadline: datetime | None = None
    deadline_move: int | None = None
    stand_ins: dict[int, str] = field(default_factory=dict)
    rematch: str | None = None
    rematch_key: str | None = None
    turn_days: int | None = None
    time_out: str | None = None
    lines: list[dict[str, Any]] = field(default_factory=list)
    line_count: int = 0
    ended: bool = False
    """A moderator ended the game (server/admin.py): no move is taken any more."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Serialises resign, leave, take-back and the rematch of one game."""

    def handed_over(self, seat: int, why: str) -> Table:
        """A copy of the table with `seat` played by a stand-in (for `why`) and no clock running:
        stored first, then taken on by `take_on`, so that nobody sees the one without the other."""
        return replace(self, stand_ins={**self.stand_ins, seat: why}, deadline=None, deadline_move=None)

    def take_on(self, stored: Table) -> None:
        self.stand_ins = stored.stand_ins
        self.deadline, self.deadline_move = stored.deadline, stored.deadline_move


class TableStore:
    """The two tables, next to the game database (same engine, tables of their own, made by the
    store's migrations)."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._sessions = sessionmaker(store.engine, expire_on_commit=False)

    def save(self, table: Table) -> None:
        with self._sessions() as session, session.begin():
            row = session.get(TableRow, table.game_id) or TableRow(game_id=table.game_id)
            _fill(row, table)
            session.add(row)
            self._store.announce_table(session.connection(), table.game_id)

    def hand_over(self, table: Table, seat: int, why: str, at: datetime) -> int:
        """Store the table with `seat` handed to a stand-in and, in the same transaction, the
        event line that says why; the line's id."""
        with self._sessions() as session, session.begin():
            row = session.get(TableRow, table.game_id) or TableRow(game_id=table.game_id)
            _fill(row, table)
            session.add(row)
            return self._event_line(session, table.game_id, seat, why, at)

    def hand_over_on_time(self, table: Table, seat: int, move: int, at: datetime) -> int | None:
        """The clock's hand-over of `seat` to a stand-in (`table`, made by `Table.handed_over`),
        made once whatever the number of processes whose clocks ring: only if the stored deadline
        is still the one of `move` and no stand-in plays the seat yet (the row is locked
        meanwhile). The event line is written in the same transaction; its id, or None when
        there was nothing to hand over."""
        with self._sessions() as session, session.begin():
            row = session.get(TableRow, table.game_id, with_for_update=True)
            if row is None or row.deadline_move != move or str(seat) in (row.stand_ins or {}):
                return None
            _fill(row, table)
            return self._event_line(session, table.game_id, seat, turns.event_on_time(table), at)

    def _event_line(self, session: Session, game_id: str, seat: int, what: str, at: datetime) -> int:
        line = ChatRow(game_id=game_id, seat=seat, kind="event", text=what, at=at)
        session.add(line)
        session.flush()
        self._store.announce_table(session.connection(), game_id)
        return line.id

    def add_line(self, game_id: str, seat: int, kind: str, text: str, at: datetime) -> int:
        with self._sessions() as session, session.begin():
            row = ChatRow(game_id=game_id, seat=seat, kind=kind, text=text, at=at)
            session.add(row)
            session.flush()
            self._store.announce_table(session.connection(), game_id)
            return row.id

    def load(self, game_id: str) -> Table:
        with self._sessions() as session:
            table = Table(game_id)
            row = session.get(TableRow, game_id)
            if row is not None:
                table.clock_seconds = row.clock_seconds
                table.deadline = _aware(row.deadline)
                table.deadline_move = row.deadline_move
                table.stand_ins = {int(seat): why for seat, why in (row.stand_ins or {}).items()}
                table.rematch = row.rematch
                table.rematch_key = row.rematch_key
                table.turn_days = row.turn_days
                table.time_out = row.time_out
            table.line_count = (
                session.scalar(select(func.count()).select_from(ChatRow).where(ChatRow.game_id == game_id))
                or 0
            )
            game = session.get(GameRow, game_id)
            table.ended = game is not None and game.status == ENDED
            rows = _session_lines(session, game_id)
            table.lines = [_line(row.id, row.seat, row.kind, row.text, _aware(row.at)) for row in rows]
            return table

    def resigned_seats(self, game_ids: list[str]) -> dict[str, frozenset[int]]:
        """The seats whose player resigned, for each of `game_ids` that has any."""
        with self._sessions() as session:
            rows = session.execute(
                select(TableRow.game_id, TableRow.stand_ins).where(TableRow.game_id.in_(game_ids))
            ).all()
        out = {}
        for game_id, stand_ins in rows:
            seats = resigned_in(stand_ins or {})
            if seats:
                out[game_id] = seats
        return out

    def delete(self, game_id: str) -> None:
        with self._sessions() as session, session.begin():
            session.execute(delete(ChatRow).where(ChatRow.game_id == game_id))
            session.execute(delete(TableRow).where(TableRow.game_id == game_id))


def resigned_in(stand_ins: dict[Any, str]) -> frozenset[int]:
    return frozenset(int(seat) for seat, why in stand_ins.items() if why == "resigned")


def _fill(row: TableRow, table: Table) -> None:
    row.clock_seconds = table.clock_seconds
    row.deadline = table.deadline
    row.deadline_move = table.deadline_move
    row.stand_ins = {str(seat): why for seat, why in table.stand_ins.items()}
    row.rematch = table.rematch
    row.rematch_key = table.rematch_key
    row.turn_days = table.turn_days
    row.time_out = table.time_out


def _session_lines(session: Session, game_id: str) -> list[ChatRow]:
    query = select(ChatRow).where(ChatRow.game_id == game_id).order_by(ChatRow.id.desc()).limit(CHAT_SHOWN)
    return list(reversed(session.scalars(query).all()))


def _aware(moment: datetime | None) -> datetime | None:
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=now().tzinfo)


def _line(line_id: int, seat: int, kind: str, text: str, at: datetime | None) -> dict[str, Any]:
    return {"id": line_id, "seat": seat, "kind": kind, "text": text, "at": at.isoformat() if at else None}


class TableService:
    """The manager's companion for everything around the table (hooks: `stand_in`, `changed`,
    `created`, `loaded`)."""

    def __init__(self, manager: GameManager, store: Store) -> None:
        self.manager = manager
        self.db = TableStore(store)
        self.limits = manager.limits
        self.tables: dict[str, Table] = {}
        self.timers: dict[str, asyncio.Task[None]] = {}
        self.chat_by_seat = TokenBuckets(self.limits.chat_per_minute)
        self.chat_by_address = TokenBuckets(self.limits.chat_per_address_minute)
        self.on_present: Callable[[LiveGame, int], None] | None = None
        """Called when a seat's player is on the page at their turn of a turn-based game."""

    async def _db(self, fn: Any, *args: Any) -> Any:
        return await asyncio.to_thread(fn, *args)

    # -- hooks called by the manager ----------------------------------------------------------

    async def created(
        self, live: LiveGame, clock_seconds: int | None, turn_days: int | None = None,
        time_out: str | None = None,
    ) -> None:
        table = Table(live.id, clock_seconds=clock_seconds, turn_days=turn_days,
                      time_out=time_out if turn_days is not None else None)
        self.tables[live.id] = table
        live.table = table
        if clock_seconds is not None or turn_days is not None:
            await self._db(self.db.save, table)
        self.changed(live)

    async def loaded(self, live: LiveGame) -> None:
        if live.id not in self.tables:
            self.tables[live.id] = await self._db(self.db.load, live.id)
        live.table = self.tables[live.id]
        live.resigned = resigned_in(self.tables[live.id].stand_ins)
        self.changed(live)

    def table(self, live: LiveGame) -> Table:
        return self.tables.setdefault(live.id, Table(live.id))

    def stand_in(self, live: LiveGame, seat: int) -> str | None:
        """The bot spec that plays a person's seat now, or None while its player plays it."""
        table = self.tables.get(live.id)
        if table is None or seat not in table.stand_ins:
            return None
        return STAND_IN if bots.ai_available() else "random"

    def changed(self, live: LiveGame) -> None:
        """After every change of the game: restart the clock when a new decision is pending."""
        table = self.tables.get(live.id)
        seconds = None if table is None else turns.seconds_per_move(table, self.limits)
        if table is None or seconds is None:
            return
        seat = live.state.current_player()
        waiting = (
            not live.finished
            and 0 <= seat < len(live.seats)
            and live.seats[seat].kind == "person"
            and seat not in table.stand_ins
        )
        if waiting and table.turn_days is not None and live.seat_links.get(seat, 0) > 0:
            self.seat_here(live, seat)
        if not waiting:
            if table.deadline is not None:
                table.deadline = None
                table.deadline_move = None
                self._save_soon(table)
            self._cancel_timer(live.id)
            return
        if table.deadline is None or table.deadline_move != live.move_number:
            table.deadline = now() + timedelta(seconds=seconds)
            table.deadline_move = live.move_number
            self._save_soon(table)
        self._arm(live.id, table.deadline, live.move_number)

    def seat_here(self, live: LiveGame, seat: int) -> None:
        """A seat's player has the game open here: tell `on_present` (the turn notices) when it
        is that seat's turn in a turn-based game."""
        table = self.tables.get(live.id)
        if self.on_present is None or table is None or table.turn_days is None or live.finished:
            return
        if live.state.current_player() == seat:
            self.on_present(live, seat)

    def forget(self, game_id: str) -> None:
        self._cancel_timer(game_id)

    async def remote_change(self, live: LiveGame) -> None:
        """Another process changed the table (a notice): take in the stored table and tell the
        clients here what changed."""
        fresh = await self._db(self.db.load, live.id)
        table = self.table(live)
        async with table.lock:
            last_seen = table.lines[-1]["id"] if table.lines else 0
            new_lines = [line for line in fresh.lines if line["id"] > last_seen]
            known = {line["id"]: line for line in table.lines}
            rewritten = any(known.get(line["id"], line) != line for line in fresh.lines)  # hidden
            stand_ins_changed = fresh.stand_ins != table.stand_ins
            for name in ("clock_seconds", "deadline", "deadline_move", "stand_ins", "rematch",
                         "rematch_key", "turn_days", "time_out", "lines", "line_count", "ended"):
                setattr(table, name, getattr(fresh, name))
            live.resigned = resigned_in(table.stand_ins)
        if rewritten:
            self._send_whole(live)
        elif new_lines:
            lines = [self._named(live, line) for line in new_lines]
            message = encode({"type": "chat", "game_id": live.id, "lines": lines})
            for conn in list(live.connections):
                conn.send_text(message)
        self.broadcast(live)
        self.changed(live)
        if stand_ins_changed:
            self.manager.schedule_bots(live)

    # -- the clock ----------------------------------------------------------------------------

    def _save_soon(self, table: Table) -> None:
        task = asyncio.get_running_loop().run_in_executor(None, self.db.save, table)
        task.add_done_callback(_log_failure)

    def _cancel_timer(self, game_id: str) -> None:
        timer = self.timers.pop(game_id, None)
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()

    def _arm(self, game_id: str, deadline: datetime, move: int) -> None:
        self._cancel_timer(game_id)
        self.timers[game_id] = asyncio.create_task(
            self._ring(game_id, deadline, move), name=f"clock-{game_id}"
        )

    async def _ring(self, game_id: str, deadline: datetime, move: int) -> None:
        try:
            await asyncio.sleep(max(0.0, (deadline - now()).total_seconds()))
            await self._time_is_up(game_id, move)
        finally:
            if self.timers.get(game_id) is asyncio.current_task():
                del self.timers[game_id]

    async def _time_is_up(self, game_id: str, move: int) -> None:
        try:
            live = await self.manager.get(game_id)
        except Exception:
            return
        table = self.table(live)
        async with table.lock:
            if live.finished or live.move_number != move or table.deadline_move != move:
                return
            seat = live.state.current_player()
            if not (0 <= seat < len(live.seats) and seat not in table.stand_ins):
                return
            at = now()
            after = table.handed_over(seat, turns.stand_in_on_time(table))
            line_id = await self._db(self.db.hand_over_on_time, after, seat, move, at)
            if line_id is not None:
                table.take_on(after)
                live.resigned = resigned_in(table.stand_ins)
                self._announce_hand_over(live, _line(line_id, seat, "event", turns.event_on_time(table), at))

    # -- resigning, leaving and coming back ---------------------------------------------------

    async def _hand_over(self, live: LiveGame, seat: int, why: str) -> None:
        table = self.table(live)
        after = table.handed_over(seat, why)
        at = now()
        line_id = await self._db(self.db.hand_over, after, seat, why, at)
        table.take_on(after)
        live.resigned = resigned_in(table.stand_ins)
        self._announce_hand_over(live, _line(line_id, seat, "event", why, at))

    def _announce_hand_over(self, live: LiveGame, event: dict[str, Any]) -> None:
        """The hand-over, stored with its event line, reaches the table: the line, the new
        table, and the stand-in's first decision."""
        self._show(live, event)
        self.broadcast(live)
        self.manager.schedule_bots(live)

    async def resign(self, live: LiveGame, seat: int) -> None:
        async with self.table(live).lock:
            self._person_seat_in_play(live, seat)
            if self.table(live).stand_ins.get(seat) == "resigned":
                raise conflict(f"seat {SEAT_LETTERS[seat]} has already resigned",
                               "seat_resigned", seat=SEAT_LETTERS[seat])
            await self._hand_over(live, seat, "resigned")

    async def leave(self, live: LiveGame, seat: int) -> None:
        async with self.table(live).lock:
            self._person_seat_in_play(live, seat)
            if seat in self.table(live).stand_ins:
                raise conflict(f"a bot already plays seat {SEAT_LETTERS[seat]}",
                               "stand_in_plays", seat=SEAT_LETTERS[seat])
            await self._hand_over(live, seat, "left")

    async def take_back(self, live: LiveGame, seat: int) -> None:
        async with self.table(live).lock:
            self._person_seat_in_play(live, seat)
            table = self.table(live)
            why = table.stand_ins.get(seat)
            if why is None:
                raise conflict(f"seat {SEAT_LETTERS[seat]} is already played by its player", "seat_played",
                               seat=SEAT_LETTERS[seat])
            if why == "resigned":
                raise conflict(f"seat {SEAT_LETTERS[seat]} has resigned: a bot plays it to the end",
                               "seat_resigned",
                               seat=SEAT_LETTERS[seat])
            async with live.lock:
                del table.stand_ins[seat]
                await self._db(self.db.save, table)
            await self._event(live, seat, "back")
            self.changed(live)
            self.broadcast(live)

    def _person_seat_in_play(self, live: LiveGame, seat: int) -> None:
        if live.finished:
            raise conflict("the game is over", "game_over")
        if live.seats[seat].kind != "person":
            raise forbidden("a bot's seat is played by the server", "bot_seat")

    def check_move(self, live: LiveGame, seat: int) -> None:
        """A seat a bot stands in for is not moved by its player until taken back; an ended game
        is not moved at all."""
        if self.is_ended(live):
            raise conflict("a moderator ended this game")
        if self.stand_in(live, seat) is not None:
            raise conflict("a bot plays your seat now: take it back first", "take_seat_back")

    # -- moderation (server/admin.py) ---------------------------------------------------------

    def is_ended(self, live: LiveGame) -> bool:
        table = self.tables.get(live.id)
        return table is not None and table.ended

    async def end(self, live: LiveGame) -> None:
        """The game was ended by a moderator (stored already): stop its clock and say so."""
        table = self.table(live)
        table.ended = True
        table.deadline = table.deadline_move = None
        self._cancel_timer(live.id)
        await self._add(live, 0, "event", ENDED)
        self.broadcast(live)

    async def reload(self, live: LiveGame) -> None:
        """A stored line was changed (hidden): take the stored table in and send it whole."""
        fresh = await self._db(self.db.load, live.id)
        table = self.table(live)
        async with table.lock:
            table.lines, table.line_count, table.ended = fresh.lines, fresh.line_count, fresh.ended
        self._send_whole(live)

    def _send_whole(self, live: LiveGame) -> None:
        text = encode(self.message(live))
        for conn in list(live.connections):
            conn.send_text(text)

    # -- chat ---------------------------------------------------------------------------------

    async def say(self, live: LiveGame, seat: int, text: str, address: str) -> dict[str, Any]:
        words = text.strip()
        if not words:
            raise bad_request("text: a chat message needs some words", "chat_empty")
        key = f"{live.id}:{seat}"
        if not self.chat_by_seat.has(key) or not self.chat_by_address.has(address):
            wait = max(self.chat_by_seat.wait(key), self.chat_by_address.wait(address))
            raise too_many("too many chat messages: wait a little", wait, "too_many_chat")
        table = self.table(live)
        if table.line_count >= self.limits.chat_lines_per_game:
            raise conflict(f"this game's chat is full ({self.limits.chat_lines_per_game} lines)", "chat_full",
                           lines=self.limits.chat_lines_per_game)
        self.chat_by_seat.take(key)
        self.chat_by_address.take(address)
        return await self._add(live, seat, "chat", words)

    async def _event(self, live: LiveGame, seat: int, what: str) -> None:
        await self._add(live, seat, "event", what)

    async def _add(self, live: LiveGame, seat: int, kind: str, text: str) -> dict[str, Any]:
        at = now()
        line_id = await self._db(self.db.add_line, live.id, seat, kind, text, at)
        return self._show(live, _line(line_id, seat, kind, text, at))

    def _show(self, live: LiveGame, line: dict[str, Any]) -> dict[str, Any]:
        """A stored line joins the table's last lines and goes to everyone at the table."""
        table = self.table(live)
        table.lines = [*table.lines[-(CHAT_SHOWN - 1) :], line]
        table.line_count += 1
        message = encode({"type": "chat", "game_id": live.id, "lines": [self._named(live, line)]})
        for conn in list(live.connections):
            conn.send_text(message)
        return self._named(live, line)

    @staticmethod
    def _named(live: LiveGame, line: dict[str, Any]) -> dict[str, Any]:
        seat = line["seat"]
        name = live.seats[seat].name if 0 <= seat < len(live.seats) else "?"
        return {**line, "name": name, "letter": SEAT_LETTERS[seat]}

    # -- messages -----------------------------------------------------------------------------

    def message(self, live: LiveGame) -> dict[str, Any]:
        """The table as everyone sees it: clock, stand-ins, rematch and the last chat lines."""
        table = self.table(live)
        left = None
        if table.deadline is not None:
            left = max(0.0, round((table.deadline - now()).total_seconds(), 1))
        return {
            "type": "table",
            "game_id": live.id,
            "clock_seconds": table.clock_seconds,
            "turn_days": table.turn_days,
            "time_out": table.time_out,
            "deadline": table.deadline.isoformat() if table.deadline else None,
            "seconds_left": left,
            "stand_ins": [{"seat": seat, "why": why} for seat, why in sorted(table.stand_ins.items())],
            "rematch": table.rematch,
            "lines": [self._named(live, line) for line in table.lines],
            "change": False,
        }

    def greeting(self, live: LiveGame) -> dict[str, Any] | None:
        """The table for a client that arrives, unless there is nothing at the table yet (no
        clock, no line, no stand-in, no rematch): then the client starts from an empty table and
        the others' traffic stays as it was."""
        table = self.table(live)
        untimed = table.clock_seconds is None and table.turn_days is None
        if untimed and not table.lines and not table.stand_ins and table.rematch is None:
            return None
        return self.message(live)

    def broadcast(self, live: LiveGame) -> None:
        message = self.message(live)
        message["lines"] = []  # lines travel in chat messages; this one is about the table
        message["change"] = True
        text = encode(message)
        for conn in list(live.connections):
            conn.send_text(text)

    # -- rematch ------------------------------------------------------------------------------

    async def rematch(self, live: LiveGame, seat: int) -> tuple[str, str | None]:
        """The rematch of a finished game (created on the first request): the new game's id and
        this seat's private token there (each person's seat is claimed in advance; its token is
        derived from a key kept with the old game, so nothing plain is stored)."""
        if not live.finished:
            raise conflict("a rematch is offered once the game is over", "rematch_not_over")
        async with self.table(live).lock:
            table = self.table(live)
            if table.rematch is None:
                key = secrets.token_hex(32)
                people = [s for s in live.seats if s.kind in ("person", "bot")]
                request = CreateGame(
                    game=live.game_name,
                    seats=[SeatSpec(kind=s.kind, name=s.name, bot=s.bot) for s in people],  # type: ignore[arg-type]
                    options={k: v for k, v in live.options.items() if k != RULES_OPTION},  # the newest rules
                    clock_seconds=table.clock_seconds,
                    hints_allowed=live.hints_allowed,
                    **turns.pace_of(table),
                    rated=live.rated,
                )
                owners = {s.seat: (s.account_id, s.name) for s in people if s.account_id is not None}
                new, _tokens, _creator = await self.manager.create(request, owners)  # accounts keep seats
                for s in people:
                    if s.kind == "person":
                        private = _rematch_token(key, new.id, s.seat)
                        await self.manager.claim_with(new, s.seat, token_digest(private))
                table.rematch, table.rematch_key = new.id, key
                await self._db(self.db.save, table)
                self.broadcast(live)
            assert table.rematch is not None and table.rematch_key is not None
            token = (
                _rematch_token(table.rematch_key, table.rematch, seat)
                if live.seats[seat].kind == "person"
                else None
            )
            return table.rematch, token


def _rematch_token(key: str, game_id: str, seat: int) -> str:
    digest = hmac.new(bytes.fromhex(key), f"{game_id}:{seat}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode().rstrip("=")


def _log_failure(future: Any) -> None:
    with contextlib.suppress(asyncio.CancelledError):
        error = future.exception()
        if error is not None:
            log.error("table settings could not be saved: %s", error)
