"""Turn-based games: a time per move counted in days, and what a seat whose time runs out gets.

A game is created real time (`clock_seconds`, a stand-in bot plays a seat out of time until its
player takes it back) or turn-based (`turn_days`: 1, 3 or 7 days per move, and `time_out`: "bot",
as the real-time clock, or "lose": the seat loses as if its player had resigned). Both keep the
pending decision's deadline in the game's table row (server/table.py), so a restarted server
keeps the time.

A game whose turn lasts days does not stay in any server's memory that long: each server looks
in the database every `ServerLimits.turn_scan_seconds` for unfinished games whose deadline has
passed and loads them, which arms their clock (already run out) as loading any game does. With
several servers on PostgreSQL all of them may ring for the same turn: the hand-over is made once
(`TableStore.hand_over_on_time` locks the row and checks the deadline's move).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any, Protocol

from sqlalchemy import select
from sqlalchemy.orm import sessionmaker

from eixample.server.db import GameRow, Store, now
from eixample.server.errors import ApiError
from eixample.server.limits import ServerLimits
from eixample.server.tasks import cancel_and_wait

if TYPE_CHECKING:
    from eixample.server.manager import GameManager

log = logging.getLogger(__name__)

TURN_DAYS = (1, 3, 7)
TIME_OUTS = ("bot", "lose")
SCAN_BATCH = 100
"""Games taken in by one look for run-out deadlines (the next look takes the rest)."""


class Timed(Protocol):
    clock_seconds: int | None
    turn_days: int | None
    time_out: str | None


def seconds_per_move(table: Timed, limits: ServerLimits) -> float | None:
    """The time a person has for one decision: the real-time clock's, or the turn-based game's
    days; None when the game has no clock."""
    if table.turn_days is not None:
        return table.turn_days * limits.turn_day_seconds
    return None if table.clock_seconds is None else float(table.clock_seconds)


def stand_in_on_time(table: Timed) -> str:
    """Why the stand-in bot plays a seat whose time ran out: "resigned" for a turn-based game that
    counts it a loss (the seat never wins, as after resigning), else "clock"."""
    return "resigned" if table.turn_days is not None and table.time_out == "lose" else "clock"


def pace_of(table: Timed) -> dict[str, Any]:
    """The turn-based settings of a game, as a new game (its rematch) is created with them."""
    if table.turn_days is None:
        return {}
    return {"turn_days": table.turn_days, "time_out": table.time_out or "bot"}


def event_on_time(table: Timed) -> str:
    """The table event that says so: "timeout" (lost on time) or "clock" (a bot plays on)."""
    return "timeout" if stand_in_on_time(table) == "resigned" else "clock"


class TurnWatch:
    """Looks now and then for games whose pending decision is out of time and that this server
    does not hold, and loads them (their clock then rings here)."""

    def __init__(self, manager: GameManager, store: Store, limits: ServerLimits) -> None:
        from eixample.server.table import TableRow

        self.manager = manager
        self.limits = limits
        self._sessions = sessionmaker(store.engine)
        self._rows = TableRow
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._watch(), name="turn-watch")

    async def stop(self) -> None:
        await cancel_and_wait([self._task])
        self._task = None

    def out_of_time(self) -> list[str]:
        """Unfinished games whose stored deadline has passed."""
        rows = self._rows
        query = (
            select(rows.game_id)
            .join(GameRow, GameRow.id == rows.game_id)
            .where(rows.deadline.is_not(None), rows.deadline <= now(), GameRow.status != "finished")
            .order_by(rows.deadline)
            .limit(SCAN_BATCH)
        )
        with self._sessions() as session:
            return list(session.scalars(query))

    async def look(self) -> None:
        for game_id in await asyncio.to_thread(self.out_of_time):
            try:
                live = await self.manager.get(game_id)
            except ApiError:
                continue
            if self.manager.table is not None and game_id not in self.manager.table.timers:
                self.manager.table.changed(live)

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(self.limits.turn_scan_seconds)
            try:
                await self.look()
            except Exception as error:
                log.warning("cannot look for turns out of time (%s); trying again", error)
