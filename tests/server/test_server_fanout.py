"""WebSocket fan-out stays linear: a client coming or going costs the others nothing but, when a
seat's presence changes, one small message; connections are capped per game and per address."""

from __future__ import annotations

import contextlib
import json
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.server.harness import ServerProcess, WsClient, create_game, seat_headers

PEOPLE = [{"kind": "person", "name": "Ana"}, {"kind": "person", "name": "Biel"}]
SPECTATORS = 150


def p99(samples: list[float]) -> float:
    return statistics.quantiles(samples, n=100)[98]


PROBE = """
import json, sys, time
import httpx
with httpx.Client(base_url=sys.argv[1], timeout=10) as client:
    latencies = []
    while not sys.stdin.readline().startswith("stop"):
        start = time.perf_counter()
        assert client.get("/api/health").status_code == 200
        latencies.append(time.perf_counter() - start)
        time.sleep(0.01)
print(json.dumps(latencies))
"""


class HealthProbe:
    """/api/health asked every 10 ms from a process of its own (so that this process's client
    threads do not slow the measurement), until `stop()`; the latencies in seconds."""

    def __init__(self, server: ServerProcess) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", PROBE, server.url],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self._feeder = threading.Thread(target=self._feed, daemon=True)
        self._stopped = threading.Event()
        self._feeder.start()

    def _feed(self) -> None:
        assert self.process.stdin is not None
        while not self._stopped.is_set():
            self.process.stdin.write("go\n" * 10)
            self.process.stdin.flush()
            time.sleep(0.05)

    def stop(self) -> list[float]:
        self._stopped.set()
        self._feeder.join(timeout=10)
        out, _ = self.process.communicate("stop\n", timeout=60)
        latencies: list[float] = json.loads(out)
        return latencies


def assert_silent(client: WsClient, wait: float = 0.3) -> None:
    with pytest.raises(TimeoutError):
        client.recv(timeout=wait)


def test_a_flood_of_spectators_costs_the_others_nothing(new_server: Callable[..., ServerProcess]) -> None:
    server = new_server(limits={"ws_per_address": 400}).start()
    with server.client() as api:
        created = create_game(api, "tictactoe", PEOPLE)
        gid, ana = created["game_id"], created["seats"][0]["token"]
        player = server.ws(gid, ana)
        player.state()
        first = server.ws(gid)
        first.state()
        probe = HealthProbe(server)
        time.sleep(1.0)
        baseline = probe.stop()

        spectators: list[WsClient] = []
        probe = HealthProbe(server)
        try:
            for _ in range(SPECTATORS - 1):
                spectators.append(server.ws(gid))
                assert spectators[-1].state()["seat"] is None
        finally:
            during = probe.stop()
        try:
            # nobody already there heard of the newcomers
            assert_silent(first)
            assert_silent(player)
            assert len(first.received) == 1 and len(player.received) == 1

            move = {"action": "mark 4", "expected_move": 0}
            played = api.post(f"/api/games/{gid}/moves", json=move, headers=seat_headers(ana))
            assert played.status_code == 200
            for client in [first, *spectators]:
                assert client.state()["move_number"] == 1
            for client in spectators[: SPECTATORS // 2]:
                client.close()
            assert_silent(first)  # nor of those leaving
        finally:
            for client in [player, first, *spectators]:
                client.close()

    flood, idle = p99(during), p99(baseline)
    print(f"/api/health p99: idle {idle * 1000:.1f} ms, {SPECTATORS} connecting {flood * 1000:.1f} ms")
    assert len(during) >= 20
    assert flood < max(0.2, 5 * idle), (flood, idle)


def refused(url: str) -> dict[str, Any]:
    """The error a refused connection is sent before it is closed (with code 4429)."""
    with connect(url, open_timeout=10) as connection:
        with contextlib.suppress(ConnectionClosed):
            connection.send(json.dumps({"type": "hello", "token": None}))
        error: dict[str, Any] = json.loads(connection.recv(timeout=10))
        with pytest.raises(ConnectionClosed) as closed:
            connection.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
    return error


def test_connections_are_capped_per_game_and_per_address(new_server: Callable[..., ServerProcess]) -> None:
    server = new_server(limits={"ws_per_game": 3, "ws_per_address": 4}).start()
    with server.client() as api:
        one = create_game(api, "tictactoe", PEOPLE)["game_id"]
        two = create_game(api, "tictactoe", PEOPLE)["game_id"]
        open_ones = [server.ws(one) for _ in range(3)]
        try:
            for client in open_ones:
                client.state()
            error = refused(f"{server.ws_url}/ws/games/{one}")
            assert error["status"] == 429 and "as many connections as it takes" in error["error"]
            open_ones.append(server.ws(two))
            open_ones[-1].state()
            error = refused(f"{server.ws_url}/ws/games/{two}")
            assert error["status"] == 429 and "from your address" in error["error"]
            open_ones.pop().close()
            time.sleep(0.3)
            with server.ws(two) as welcome:
                assert welcome.state()["game_id"] == two
        finally:
            for client in open_ones:
                client.close()
