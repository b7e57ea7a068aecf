"""A real server for tests: uvicorn in a subprocess on a free loopback port, with its own data
folder. The "hiddencards" test game is loaded into it besides the built-in games."""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

HERE = Path(__file__).resolve().parent
HIDDEN_CARDS = HERE / "hiddencards.py"
START_SECONDS = 120
"""How long a server process may take to answer its first request: about 10 s on a machine with a
load average of 8 (imports, migrations, forking the bot workers), near 30 s at a load of 20."""

LAUNCH = """
import importlib.util, json, sys
config = json.loads(sys.argv[1])
for index, path in enumerate(config["preload"]):
    spec = importlib.util.spec_from_file_location(f"_server_test_game_{index}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
from eixample.server.app import run
run(host="127.0.0.1", port=config["port"], data_dir=config["data_dir"], bot_delay=config["bot_delay"],
    log_level="warning", limits=config["limits"], allowed_hosts=config["allowed_hosts"],
    **config.get("run", {}))
"""

GENEROUS_LIMITS: dict[str, Any] = {
    "games_per_minute": 100_000,
    "moves_per_minute": 1_000_000,
    "token_failures_per_minute": 100_000,
    "ws_per_address": 10_000,
    "chat_per_address_minute": 100_000,
    "connections_per_address": 10_000,
    "search_bots_per_address": 10_000,
    "signups_per_address_hour": 100_000,
    "signin_failures_per_address_minute": 100_000,
    "account_mails_per_address_hour": 100_000,
}
"""The shared test server's limits: every test talks from 127.0.0.1, so the per-address limits of a
real server are raised; the tests of the limits use servers with the real ones."""


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class ServerProcess:
    """One uvicorn process; `kill9()` and `start()` again simulate a crash and a restart."""

    def __init__(
        self,
        data_dir: Path,
        *,
        bot_delay: float = 0.0,
        limits: dict[str, Any] | None = None,
        allowed_hosts: tuple[str, ...] = (),
        database_url: str | None = None,
        run_options: dict[str, Any] | None = None,
        preload: tuple[Path, ...] = (),
        env: dict[str, str] | None = None,
    ) -> None:
        self.data_dir = data_dir
        self.env = env or {}
        """Further environment variables of the server process (its mail settings...)."""
        self.preload = preload
        """Further modules run in the server process before it starts (a test's slowdowns)."""
        self.database_url = database_url
        self.run_options = run_options or {}
        self.bot_delay = bot_delay
        self.limits = GENEROUS_LIMITS if limits is None else limits
        self.allowed_hosts = allowed_hosts
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.log_path = data_dir / "server.log"
        self.starts = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def db_path(self) -> Path:
        return self.data_dir / "eixample.sqlite3"

    def start(self, wait: float = START_SECONDS) -> ServerProcess:
        """Start the process; it must answer /api/health within `wait` seconds."""
        config = {
            "port": self.port,
            "data_dir": str(self.data_dir),
            "bot_delay": self.bot_delay,
            "preload": [str(HIDDEN_CARDS), *map(str, self.preload)],
            "limits": self.limits,
            "allowed_hosts": list(self.allowed_hosts),
            "run": self.run_options,
        }
        env = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
        if self.database_url is not None:
            env["DATABASE_URL"] = self.database_url
        env.update(self.env)
        self.starts += 1
        log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-c", LAUNCH, json.dumps(config)],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=self.data_dir,
        )
        log.close()
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited with {self.process.returncode}:\n{self.log()}")
            try:
                if httpx.get(f"{self.url}/api/health", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"server did not answer within {wait:g} s:\n{self.log()}")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def kill9(self) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)
        self.process = None

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
        self.process = None

    # -- helpers ------------------------------------------------------------------------------

    def client(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=10)

    def ws(self, game_id: str, token: str | None = None, *, patches: bool = False) -> WsClient:
        return WsClient(f"{self.ws_url}/ws/games/{game_id}", token, patches=patches)

    def db_dump(self) -> dict[str, list[tuple[Any, ...]]]:
        """Every row of the database, read from the file (WAL included)."""
        connection = sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True)
        try:
            tables = [
                row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")
            ]
            return {
                table: sorted(connection.execute(f"SELECT * FROM {table}").fetchall(), key=repr)
                for table in sorted(tables)
            }
        finally:
            connection.close()


    def settled_dump(self, quiet: float = 0.3, timeout: float = 30) -> dict[str, list[tuple[Any, ...]]]:
        """`db_dump` once the database has not changed for `quiet` seconds: on a shared server,
        what earlier tests left running (bots finishing their games) settles before a test takes
        the dump it compares a refused request's with."""
        deadline = time.monotonic() + timeout
        dump = self.db_dump()
        while True:
            time.sleep(quiet)
            again = self.db_dump()
            if again == dump:
                return dump
            if time.monotonic() > deadline:
                raise AssertionError(f"the database kept changing for {timeout} s")
            dump = again


class WsClient:
    """A WebSocket client of one game. It keeps every text it received; messages not yet asked
    for wait in `pending`, so a test can look for them in any order."""

    def __init__(
        self, url: str, token: str | None, *, patches: bool = False, headers: dict[str, str] | None = None
    ) -> None:
        self._context = connect(url, open_timeout=10, additional_headers=headers)
        self.connection: ClientConnection = self._context.__enter__()
        self.received: list[str] = []
        self.received_at: list[float] = []
        self.pending: list[dict[str, Any]] = []
        self.send({"type": "hello", "token": token, **({"patches": True} if patches else {})})

    def send(self, message: dict[str, Any]) -> None:
        self.connection.send(json.dumps(message))

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        text = self.connection.recv(timeout=timeout)
        assert isinstance(text, str)
        self.received.append(text)
        self.received_at.append(time.monotonic())
        message: dict[str, Any] = json.loads(text)
        return message

    def recv_until(self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 15) -> dict[str, Any]:
        """The first message (waiting or new) for which `predicate` holds."""
        for index, message in enumerate(self.pending):
            if predicate(message):
                return self.pending.pop(index)
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError("no matching message in time")
            message = self.recv(timeout=left)
            if predicate(message):
                return message
            self.pending.append(message)

    def state(self, timeout: float = 15) -> dict[str, Any]:
        return self.recv_until(lambda m: m["type"] == "state", timeout)

    def close(self) -> None:
        self._context.__exit__(None, None, None)

    def __enter__(self) -> WsClient:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


def create_game(
    client: httpx.Client, game: str, seats: list[dict[str, Any]], *, invitations: bool = False, **extra: Any
) -> dict[str, Any]:
    """A new game. With two or more people, whose invitations only claim their seats, every
    person's seat is claimed (its token the private one), unless `invitations` keeps them."""
    response = client.post("/api/games", json={"game": game, "seats": seats, **extra})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    people = sum(1 for seat in created["seats"] if seat.get("token"))
    if people >= 2 and not invitations:
        _claim_all(client, created)
    return created


def create_claimed_game(
    client: httpx.Client, game: str, seats: list[dict[str, Any]], **extra: Any
) -> dict[str, Any]:
    """`create_game`, then every person's seat claimed through the API, so that its token is the
    private one: pages opened with it act for the seat however often a test opens them."""
    created = create_game(client, game, seats, invitations=True, **extra)
    _claim_all(client, created)
    return created


def _claim_all(client: httpx.Client, created: dict[str, Any]) -> None:
    for seat in created["seats"]:
        if seat.get("token"):
            response = client.post(
                f"/api/games/{created['game_id']}/claim", headers=seat_headers(seat["token"])
            )
            assert response.status_code == 200, response.text
            private = response.json()["token"]
            if seat.get("link"):
                seat["link"] = seat["link"].replace(seat["token"], private)
            seat["token"] = private


def seat_headers(token: str) -> dict[str, str]:
    return {"X-Seat-Token": token}


def wait_for(check: Callable[[], bool], timeout: float = 15, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def wait_until_finished(client: httpx.Client, *games: dict[str, Any], timeout: float = 60) -> None:
    """Waits until each game (as `create_game` answered it) is over: its bots have played it out."""

    def over() -> bool:
        states = (client.get(f"/api/games/{game['game_id']}").json()["status"] for game in games)
        return all(state == "finished" for state in states)

    wait_for(over, timeout, f"{len(games)} bot game(s) to end")


class InProcessServer:
    """The app served by uvicorn in a thread of this process, so a test can patch its code."""

    def __init__(self, app: Any) -> None:
        import uvicorn

        from eixample.server.connections import guarded_http

        self.port = free_port()
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning",
                                http=guarded_http(app.state.manager.limits))
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws(self, game_id: str, token: str | None = None, *, patches: bool = False) -> WsClient:
        return WsClient(f"ws://127.0.0.1:{self.port}/ws/games/{game_id}", token, patches=patches)

    def __enter__(self) -> InProcessServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the in-process server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *_exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)
