"""Several server processes on one PostgreSQL database: change notices and bot leases.

Every committed change of a game is announced on the channel `db.NOTIFY_CHANNEL` (`pg_notify`
in the writing transaction, delivered on commit). Each process listens on it with a connection
of its own (`LISTEN`): a notice from another process makes this one reload the game from the
database and push it to its own clients. No broker besides PostgreSQL is needed.

A game's bots are played by the one process holding the game's lease (a row of `bot_leases` with
an expiry on the database's clock). The holder renews its leases every third of the lease time;
a process that dies stops renewing, and once the lease has expired another process takes the game
over (each process looks for such games as often as it renews). Two processes that both believed
they held a lease could at worst both submit a bot move for the same decision: the database's
compare-and-set on the move number still applies exactly one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from sqlalchemy.engine import make_url

from eixample.server.db import NOTIFY_CHANNEL, Store
from eixample.server.tasks import cancel_and_wait

log = logging.getLogger(__name__)

RECONNECT_SECONDS = 1.0
DEFAULT_LEASE_SECONDS = 10.0

Changed = Callable[[str, int], Awaitable[None]]
"""Called with (game id, move number) when another process changed a game."""
Resync = Callable[[], Awaitable[None]]
"""Called when notices may have been missed (the listening connection was lost)."""
Orphans = Callable[[list[str]], Awaitable[None]]
"""Called with games whose bots nobody plays (no lease, or an expired one)."""


def listen_conninfo(url: str) -> str:
    """A libpq connection string for psycopg from the server's SQLAlchemy URL."""
    parsed = make_url(url).set(drivername="postgresql")
    return parsed.render_as_string(hide_password=False)


def parse_notice(payload: str) -> tuple[str, str, int] | None:
    """(origin, game id, move number) of a notice; None for a payload that is not one."""
    parts = payload.split(" ")
    if len(parts) != 3:
        return None
    origin, game_id, number = parts
    try:
        return origin, game_id, int(number)
    except ValueError:
        return None


class Cluster:
    """This process's part in a cluster of servers sharing one PostgreSQL database."""

    def __init__(self, store: Store, *, lease_seconds: float = DEFAULT_LEASE_SECONDS) -> None:
        if not store.is_postgres:
            raise ValueError("a cluster of server processes needs a PostgreSQL database")
        self.store = store
        self.lease_seconds = lease_seconds
        self.listening = asyncio.Event()
        self.notices = 0
        self.held: set[str] = set()
        """Games whose bots this process is playing: only their leases are renewed."""
        self._tasks: list[asyncio.Task[None]] = []

    @property
    def origin(self) -> str:
        return self.store.origin

    def start(self, changed: Changed, resync: Resync, orphans: Orphans) -> None:
        self._tasks = [
            asyncio.create_task(self._listen(changed, resync), name="cluster-listen"),
            asyncio.create_task(self._keep_leases(orphans), name="cluster-leases"),
        ]

    async def stop(self) -> None:
        await cancel_and_wait(self._tasks)
        self._tasks = []
        with contextlib.suppress(Exception):
            await asyncio.to_thread(self.store.release_bot_leases)

    # -- change notices -----------------------------------------------------------------------

    async def _listen(self, changed: Changed, resync: Resync) -> None:
        import psycopg

        conninfo = listen_conninfo(self.store.url)
        first = True
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True) as connection:
                    await connection.execute(f"LISTEN {NOTIFY_CHANNEL}")
                    self.listening.set()
                    if not first:  # notices sent while not listening are lost: reload what is held
                        await resync()
                    first = False
                    async for notice in connection.notifies():
                        await self._on_notice(notice.payload, changed)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                self.listening.clear()
                log.warning("lost the PostgreSQL notice connection (%s); reconnecting", error)
                await asyncio.sleep(RECONNECT_SECONDS)

    async def _on_notice(self, payload: str, changed: Changed) -> None:
        notice = parse_notice(payload)
        if notice is None:
            log.warning("ignoring a malformed notice %r", payload[:100])
            return
        origin, game_id, move_number = notice
        if origin == self.origin:
            return
        self.notices += 1
        try:
            await changed(game_id, move_number)
        except Exception:
            log.exception("game %s: could not take in a change made by another server", game_id)

    # -- bot leases ---------------------------------------------------------------------------

    async def hold_bots(self, game_id: str) -> bool:
        """Take or renew the lease on a game's bots; True if this process is to play them."""
        held = await asyncio.to_thread(self.store.take_bot_lease, game_id, self.lease_seconds)
        if held:
            self.held.add(game_id)
        else:
            self.held.discard(game_id)
        return held

    async def let_go_of_bots(self, game_id: str) -> None:
        """Give up the lease (no bot is to move now): any process may take it when one is."""
        self.held.discard(game_id)
        try:
            await asyncio.to_thread(self.store.release_bot_lease, game_id)
        except Exception as error:  # the lease then expires on its own
            log.warning("game %s: cannot give up the bot lease (%s)", game_id, error)

    async def _keep_leases(self, orphans: Orphans) -> None:
        while True:
            await asyncio.sleep(self.lease_seconds / 3)
            try:
                kept = await asyncio.to_thread(
                    self.store.renew_bot_leases, sorted(self.held), self.lease_seconds
                )
                self.held.intersection_update(kept)
                waiting = await asyncio.to_thread(self.store.games_awaiting_bots)
            except Exception as error:
                log.warning("cannot renew bot leases (%s); trying again", error)
                continue
            if waiting:
                await orphans(waiting)

