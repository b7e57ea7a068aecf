"""SIGTERM drains (server/drain.py): the process stops listening, answers the move in flight,
closes its WebSockets with 1012 (which the page takes as "reconnect"), and exits in bounded time;
the acknowledged move is stored."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from tests.server.harness import HERE, ServerProcess, create_game, wait_for

PEOPLE = [{"kind": "person", "name": "Ana"}, {"kind": "person", "name": "Biel"}]
DRAIN_SECONDS = 4.0
IN_FLIGHT = "move-in-flight"
"""slow_writes.IN_FLIGHT (not imported: importing it would slow this process's own writes)."""


def test_sigterm_answers_the_move_in_flight_then_asks_sockets_to_reconnect(tmp_path: Path) -> None:
    settings = {"drain_seconds": DRAIN_SECONDS, "log_level": "info"}
    server = ServerProcess(tmp_path, preload=(HERE / "slow_writes.py",), run_options={"settings": settings})
    server.start()
    try:
        with server.client() as client:
            created = create_game(client, "tictactoe", PEOPLE)
        gid = created["game_id"]
        player = server.ws(gid, created["seats"][0]["token"])
        watcher = server.ws(gid)
        player.state()
        watcher.state()
        player.send({"type": "move", "action": "mark 4", "expected_move": 0, "request_id": "m1"})
        # the move waits in its write (slow_writes.py) when the server is told to stop
        wait_for(lambda: (tmp_path / IN_FLIGHT).exists(), what="the move to reach its write")
        assert server.process is not None
        stopping = time.monotonic()
        os.kill(server.process.pid, signal.SIGTERM)
        ack = player.recv_until(lambda m: m["type"] in ("ack", "error"))
        assert ack == {"type": "ack", "request_id": "m1", "move_number": 1}
        for socket in (player, watcher):
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    socket.recv(timeout=DRAIN_SECONDS + 5)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
        with pytest.raises(httpx.ConnectError):
            httpx.get(f"{server.url}/api/health", timeout=2)  # no longer listening
        server.process.wait(timeout=DRAIN_SECONDS + 10)
        took = time.monotonic() - stopping
        print(f"stopped {took:.2f} s after SIGTERM (drain_seconds {DRAIN_SECONDS})")
        # uvicorn ends by raising the signal it caught again: a clean stop by SIGTERM
        assert server.process.returncode in (0, -signal.SIGTERM), server.log()[-2000:]
        assert "draining: 2 WebSocket connection(s) to close" in server.log()
        server.process = None
        server.start()
        with server.client() as client:
            assert client.get(f"/api/games/{gid}/state").json()["move_number"] == 1
    finally:
        server.stop()
