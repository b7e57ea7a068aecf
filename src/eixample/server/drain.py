"""Stopping without anyone noticing (SIGTERM; docs/deploy.md, Rolling restarts).

1. The process stops listening: the proxy sends new connections to the other processes.
2. Each WebSocket client gets its answer to a message in flight (a move is stored, then
   acknowledged), then the connection closes with 1012 "service restart", which the page takes as
   "reconnect" (through the proxy, to a live process).
3. HTTP requests in flight are answered (uvicorn's graceful shutdown), then the app stops.

All within `drain_seconds`; whatever still runs then is cancelled, and a watchdog ends the process
`EXIT_GRACE` seconds later if stopping itself hangs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import socket
import threading
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

import uvicorn
from fastapi import APIRouter
from fastapi.responses import JSONResponse
from sqlalchemy import text

from eixample.server.live import Connection

if TYPE_CHECKING:
    from eixample.server.db import Store
    from eixample.server.manager import GameManager

log = logging.getLogger(__name__)

READY_TIMEOUT = 3.0
"""How long the readiness check waits for the database."""
RESTART = 1012
"""WebSocket close code "service restart": the client should connect again (RFC 6455 registry)."""
EXIT_GRACE = 5.0


class Drain:
    """The app's side of draining: which WebSocket connections are handling a message."""

    def __init__(self, manager: GameManager) -> None:
        self.manager = manager
        self.draining = False
        self._busy: set[Connection] = set()

    @contextlib.contextmanager
    def handling(self, conn: Connection) -> Iterator[None]:
        """Around the handling of one client message: once draining, the connection is closed
        right after its answer is queued."""
        self._busy.add(conn)
        try:
            yield
        finally:
            self._busy.discard(conn)
            if self.draining:
                conn.end(RESTART, "server restarting")

    def _connections(self) -> list[Connection]:
        return [conn for live in list(self.manager.games.values()) for conn in live.connections]

    async def start(self, seconds: float) -> None:
        """Close every idle WebSocket connection with 1012, and each busy one when its message is
        answered; wait until all have gone (at most `seconds`)."""
        self.draining = True
        connections = self._connections()
        log.info("draining: %d WebSocket connection(s) to close", len(connections))
        for conn in connections:
            if conn not in self._busy:
                conn.end(RESTART, "server restarting")
        deadline = time.monotonic() + seconds
        while self._connections() and time.monotonic() < deadline:
            await asyncio.sleep(0.05)


class DrainingServer(uvicorn.Server):
    """uvicorn's server, draining the app's WebSockets before its own graceful shutdown."""

    def __init__(self, config: uvicorn.Config, drain: Drain, seconds: float) -> None:
        super().__init__(config)
        self.drain = drain
        self.seconds = seconds

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        deadline = time.monotonic() + self.seconds
        watchdog = threading.Timer(self.seconds + EXIT_GRACE, _give_up)
        watchdog.daemon = True
        watchdog.start()
        for server in self.servers:
            server.close()  # no new connections
        for sock in sockets or []:
            sock.close()
        await self.drain.start(self.seconds)
        self.config.timeout_graceful_shutdown = max(1, math.ceil(deadline - time.monotonic()))
        await super().shutdown(sockets=None)


def _give_up() -> None:
    log.error("stopping took longer than drain_seconds + %g s: exiting now", EXIT_GRACE)
    logging.shutdown()
    os._exit(1)


def router(store: Store, draining: Drain) -> APIRouter:
    routes = APIRouter()

    @routes.get("/api/ready", tags=["meta"])
    async def ready() -> JSONResponse:
        """200 while this process can serve games: its database answers and it is not stopping;
        503 otherwise (a proxy or orchestrator should send it nothing then)."""
        if draining.draining:
            return _not_ready("the server is stopping")
        try:
            await asyncio.wait_for(asyncio.to_thread(_ping, store), timeout=READY_TIMEOUT)
        except Exception as error:
            log.warning("not ready: the database does not answer (%s)", type(error).__name__)
            return _not_ready("the database does not answer")
        return JSONResponse({"ok": True})

    return routes


def _ping(store: Store) -> None:
    with store.engine.connect() as connection:
        connection.execute(text("SELECT 1"))


def _not_ready(message: str) -> JSONResponse:
    return JSONResponse({"error": message, "code": "unavailable", "args": {}}, status_code=503,
                        headers={"Retry-After": "5"})
