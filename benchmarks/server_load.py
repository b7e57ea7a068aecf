"""Load on one web server process, measured from outside over loopback.

    python benchmarks/server_load.py [--games 20] [--seconds 20] [--game barcelona|rose-of-fire]
                                     [--database-url postgresql+psycopg://...] [--signed-in]

Starts `eixample.server.app.run` in a subprocess on a free 127.0.0.1 port with a fresh data folder,
then runs `--games` two-person games at once: each game has a driver that plays both seats over
REST (each decision a random one of the legal actions the server's last answer listed, from a
seeded generator) and one spectator WebSocket that follows the game as the web page does (the
whole state, then every patch parsed and applied in order; a gap asks for the whole state again).
A finished game is replaced by a new one. With `--signed-in` each seat is a signed-in player (an
account made before the games start): its game names the two accounts for the seats, and every
request goes with the account's session cookie (and CSRF token), without a seat token, as a page
signed in on another device plays. After a warm-up, for `--seconds` it counts moves and
times each move's round trip (POST until the answer is read), and prints moves/s and the
round-trip percentiles, with `/api/health` round trips measured in the same run as the reference,
the server's and the client's CPU time per move (the server's from /proc: the figures least
disturbed by other work on the machine), the bytes per message, and the load average. Client and
server share the machine (the client's CPU is part of the figures). The client is made cheap the
way a fast client would be: aiohttp (its HTTP parser in C) and orjson.

The server stores its games in SQLite in the fresh data folder, or in the database that
`--database-url` names (an empty PostgreSQL database, to measure the move path there).

The server runs with the per-address limits raised: every client here has the address 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import httpx
import jsonpatch
import orjson
from websockets.asyncio.client import connect

LAUNCH = """
import json, sys
from eixample.server.app import run
config = json.loads(sys.argv[1])
run(host="127.0.0.1", port=config["port"], data_dir=config["data_dir"], bot_delay=0,
    log_level="warning", limits=config["limits"])
"""
LIMITS = {
    "games_per_minute": 1_000_000,
    "moves_per_minute": 10_000_000,
    "token_failures_per_minute": 1_000_000,
    "ws_per_address": 10_000,
    "connections_per_address": 10_000,
    "signups_per_address_hour": 1_000_000,
}
PASSWORD = "a benchmark's password"


def cpu_seconds(pid: int) -> float | None:
    """User and system CPU time of a process so far (Linux), or None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Tally:
    server_cpu: float | None = None
    client_cpu: float = 0.0
    measuring: bool = False
    moves: int = 0
    round_trips: list[float] = field(default_factory=list)
    pushes: int = 0
    push_bytes: int = 0
    wholes: int = 0
    whole_bytes: int = 0
    resyncs: int = 0
    answer_bytes: int = 0
    games_finished: int = 0
    errors: list[str] = field(default_factory=list)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(data_dir: Path, database_url: str | None = None) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    config = {"port": port, "data_dir": str(data_dir), "limits": LIMITS}
    env = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
    if database_url:
        env["DATABASE_URL"] = database_url
    process = subprocess.Popen([sys.executable, "-c", LAUNCH, json.dumps(config)], env=env, cwd=data_dir)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the server exited with {process.returncode}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{url}/api/health", timeout=1).status_code == 200:
                return process, url
        time.sleep(0.1)
    process.kill()
    raise SystemExit("the server did not start within 30 s")


async def spectate(ws_url: str, game_id: str, tally: Tally, stop: asyncio.Event) -> None:
    """Watch a game as the web page does: the whole state, then patches applied to it in order
    (each must follow the version held, or the whole state is asked for again)."""
    async with connect(f"{ws_url}/ws/games/{game_id}", max_size=None) as socket_:
        await socket_.send(json.dumps({"type": "hello", "token": None, "patches": True}))
        held: dict[str, Any] | None = None
        while not stop.is_set():
            try:
                text = await asyncio.wait_for(socket_.recv(), timeout=0.5)
            except TimeoutError:
                continue
            message = orjson.loads(text)
            kind = message["type"]
            if kind == "state":
                held = message
            elif kind == "patch":
                if held is None or message["base"] != held["version"]:
                    held = None
                    tally.resyncs += 1
                    await socket_.send('{"type": "resync"}')
                    continue
                jsonpatch.apply_patch(held, message["ops"], in_place=True)
            elif kind == "presence" and held is not None:
                held.update(seats=message["seats"], status=message["status"])
            if tally.measuring and kind in ("state", "patch"):
                tally.pushes += 1
                tally.push_bytes += len(text)
                if kind == "state":
                    tally.wholes += 1
                    tally.whole_bytes += len(text)
            if held is not None and held["status"] == "finished":
                return


class Api:
    """REST requests of the benchmark's clients: one aiohttp session (keep-alive connections,
    its HTTP parser in C), JSON encoded and decoded with orjson, as a fast client would."""

    def __init__(self, session: aiohttp.ClientSession) -> None:
        self.session = session

    async def get(
        self, path: str, token: str | None = None, auth: dict[str, str] | None = None
    ) -> tuple[int, bytes]:
        headers = {"X-Seat-Token": token} if token else dict(auth or {})
        async with self.session.get(path, headers=headers) as response:
            return response.status, await response.read()

    async def post(
        self, path: str, body: dict[str, Any], token: str | None = None, auth: dict[str, str] | None = None
    ) -> tuple[int, bytes]:
        headers = {"Content-Type": "application/json", **(auth or {})}
        if token:
            headers["X-Seat-Token"] = token
        async with self.session.post(path, data=orjson.dumps(body), headers=headers) as response:
            return response.status, await response.read()


async def sign_up(api: Api, name: str) -> tuple[str, dict[str, str]]:
    """A new account: its name, and the headers of its requests (session cookie, CSRF token)."""
    async with api.session.post("/api/account/signup", json={"name": name, "password": PASSWORD}) as response:
        if response.status != 201:
            raise SystemExit(f"cannot sign up: {response.status} {(await response.read())[:200]!r}")
        session_id = response.cookies["eixample_session"].value
        csrf = (await response.json())["csrf"]
    return name, {"Cookie": f"eixample_session={session_id}", "X-CSRF-Token": csrf}


class Seat:
    """How one seat's requests say who they are: a seat token, or an account's session."""

    def __init__(self, token: str | None = None, auth: dict[str, str] | None = None) -> None:
        self.token = token
        self.auth = auth


async def claim(api: Api, gid: str, invitation: str) -> str:
    """The seat's own token for its invitation (with two people, an invitation only claims)."""
    status, text = await api.post(f"/api/games/{gid}/claim", {}, invitation)
    if status != 200:
        raise SystemExit(f"cannot claim a seat: {status} {text[:200]!r}")
    token: str = orjson.loads(text)["token"]
    return token


async def new_game(api: Api, game: str, accounts: Accounts | None) -> tuple[str, list[Seat]]:
    """A new two-person game: its id and its seats' credentials (claimed tokens, or accounts)."""
    people: list[dict[str, Any]] = [{"account": name} for name, _ in accounts] if accounts else [{}, {}]
    auth = accounts[0][1] if accounts else None
    status, text = await api.post("/api/games", {"game": game, "seats": people}, auth=auth)
    if status != 201:
        raise SystemExit(f"cannot create a game: {status} {text[:200]!r}")
    body = orjson.loads(text)
    gid: str = body["game_id"]
    if accounts:
        return gid, [Seat(auth=headers) for _, headers in accounts]
    return gid, [Seat(token=await claim(api, gid, seat["token"])) for seat in body["seats"]]


Accounts = list[tuple[str, dict[str, str]]]


async def play_games(
    api: Api, ws_url: str, game: str, seed: int, tally: Tally, stop: asyncio.Event, accounts: Accounts | None
) -> None:
    """One table: games played one after the other by two random seats (with `accounts`: theirs),
    each with a spectator. A seat decides from the state the server sent it last: a random one of
    its legal actions."""
    rng = random.Random(seed)
    while not stop.is_set():
        gid, seats = await new_game(api, game, accounts)
        watcher = asyncio.create_task(spectate(ws_url, gid, tally, stop))
        state = orjson.loads((await api.get(f"/api/games/{gid}/state", seats[0].token, seats[0].auth))[1])
        while not stop.is_set() and state["status"] != "finished":
            if not state["your_turn"]:
                other = seats[state["current_player"]]
                _status, text = await api.get(f"/api/games/{gid}/state", other.token, other.auth)
                state = orjson.loads(text)
                continue
            move = {"action": rng.choice(state["legal_actions"]), "expected_move": state["move_number"]}
            seat = seats[state["seat"]]
            start = time.perf_counter()
            status, text = await api.post(f"/api/games/{gid}/moves", move, seat.token, seat.auth)
            elapsed = time.perf_counter() - start
            if status != 200:
                tally.errors.append(text[:200].decode(errors="replace"))
                state = orjson.loads((await api.get(f"/api/games/{gid}/state", seat.token, seat.auth))[1])
                continue
            state = orjson.loads(text)
            if tally.measuring:
                tally.moves += 1
                tally.round_trips.append(elapsed)
                tally.answer_bytes += len(text)
        if state["status"] == "finished" and tally.measuring:
            tally.games_finished += 1
        watcher.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await watcher


async def health_reference(api: Api, out: list[float], stop: asyncio.Event) -> None:
    while not stop.is_set():
        start = time.perf_counter()
        await api.get("/api/health")
        out.append(time.perf_counter() - start)
        await asyncio.sleep(0.05)


def percentile(samples: list[float], p: float) -> float:
    if len(samples) < 2:
        return samples[0] if samples else float("nan")
    return statistics.quantiles(samples, n=100, method="inclusive")[int(p) - 1]


async def measure(
    url: str, pid: int, games: int, seconds: float, warmup: float, game: str, signed_in: bool = False
) -> Tally:
    tally = Tally()
    stop = asyncio.Event()
    ws_url = url.replace("http://", "ws://")
    connector = aiohttp.TCPConnector(limit=games + 4)
    timeout = aiohttp.ClientTimeout(total=30)
    jar = aiohttp.DummyCookieJar()  # each seat sends its own account's cookie
    session = aiohttp.ClientSession(base_url=url, connector=connector, timeout=timeout, cookie_jar=jar)
    async with session:
        api = Api(session)
        idle: list[float] = []
        reference = asyncio.create_task(health_reference(api, idle, stop))
        await asyncio.sleep(1.0)
        stop.set()
        await reference
        stop.clear()
        # the accounts are made before the games start (a password hash is slow on purpose)
        accounts = [[await sign_up(api, f"load{seed}x{seat}") for seat in range(2)] if signed_in else None
                    for seed in range(games)]
        tables = [
            asyncio.create_task(play_games(api, ws_url, game, seed, tally, stop, accounts[seed]))
            for seed in range(games)
        ]
        busy: list[float] = []
        await asyncio.sleep(warmup)
        tally.measuring = True
        cpu_start = cpu_seconds(pid)
        client_start = time.process_time()
        reference = asyncio.create_task(health_reference(api, busy, stop))
        await asyncio.sleep(seconds)
        tally.measuring = False
        cpu_end = cpu_seconds(pid)
        tally.client_cpu = time.process_time() - client_start
        if cpu_start is not None and cpu_end is not None:
            tally.server_cpu = cpu_end - cpu_start
        stop.set()
        await asyncio.gather(*tables, reference, return_exceptions=True)
    print(f"reference /api/health round trip: idle p50 {percentile(idle, 50) * 1000:.1f} ms, "
          f"under load p50 {percentile(busy, 50) * 1000:.1f} ms, p99 {percentile(busy, 99) * 1000:.1f} ms")
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--game", default="barcelona")
    parser.add_argument("--database-url", default=None, help="the server's DATABASE_URL (default: SQLite)")
    parser.add_argument("--signed-in", action="store_true",
                        help="seats of signed-in players: session cookies instead of seat tokens")
    args = parser.parse_args()
    if not 1 <= args.games <= 200 or not 1 <= args.seconds <= 300:
        raise SystemExit("--games must be 1..200 and --seconds 1..300")
    with tempfile.TemporaryDirectory(prefix="eixample-load-") as folder:
        process, url = start_server(Path(folder), args.database_url)
        try:
            tally = asyncio.run(measure(url, process.pid, args.games, args.seconds, args.warmup, args.game,
                                        args.signed_in))
        finally:
            process.terminate()
            process.wait(timeout=10)
    report(args, tally)


def report(args: argparse.Namespace, tally: Tally) -> None:
    seconds = args.seconds
    database = "PostgreSQL" if args.database_url else "SQLite"
    people = "signed-in people (session cookies)" if args.signed_in else "people (seat tokens)"
    print(f"{args.games} {args.game} games, 2 {people} (REST) + 1 spectator (WebSocket) each, {seconds:g} s, "
          f"{database}")
    rate = tally.moves / seconds
    print(f"moves: {tally.moves} = {rate:.1f} moves/s; games finished: {tally.games_finished}")
    trips = [trip * 1000 for trip in tally.round_trips]
    print(f"move round trip: p50 {percentile(trips, 50):.1f} ms, p95 {percentile(trips, 95):.1f} ms, "
          f"p99 {percentile(trips, 99):.1f} ms, max {max(trips, default=0):.1f} ms")
    moves = max(1, tally.moves)
    if tally.server_cpu is not None:
        server, client = tally.server_cpu, tally.client_cpu
        print(f"CPU per move: server {server / moves * 1000:.2f} ms ({server:.1f} s in {seconds:g} s), "
              f"client {client / moves * 1000:.2f} ms ({client:.1f} s)")
    patches = tally.pushes - tally.wholes
    patch_kib = (tally.push_bytes - tally.whole_bytes) / max(1, patches) / 1024
    whole_kib = tally.whole_bytes / max(1, tally.wholes) / 1024
    print(f"bytes per message: move answer (whole state) {tally.answer_bytes / moves / 1024:.1f} KiB; "
          f"spectator patch {patch_kib:.2f} KiB ({patches / seconds:.1f}/s), whole state {whole_kib:.1f} KiB "
          f"({tally.wholes} on connect or resync); resyncs after a gap: {tally.resyncs}")
    load = os.getloadavg()
    print(f"load average at the end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} ({os.cpu_count()} CPUs)")
    if tally.errors:
        print(f"refused moves: {len(tally.errors)} (first: {tally.errors[0]})")

if __name__ == "__main__":
    main()
