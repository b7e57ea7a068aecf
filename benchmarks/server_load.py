"""Load on one web server process, measured from outside over loopback.

    python benchmarks/server_load.py [--games 20] [--seconds 20] [--game barcelona]

Starts `eixample.server.app.run` in a subprocess on a free 127.0.0.1 port with a fresh data folder,
then runs `--games` two-person games at once: each game has a driver that plays both seats over
REST (random legal moves, from a seeded generator) and one spectator WebSocket that reads every
push. A finished game is replaced by a new one. After a warm-up, for `--seconds` it counts moves
and times each move's round trip (POST until the answer is read), and prints moves/s and the
round-trip percentiles, with `/api/health` round trips measured in the same run as the
reference, and the server's and the client's CPU time per move (the server's from /proc: the
figure least disturbed by other work on the machine). Client and server share the machine (the
client's CPU is part of the figures). The client decodes JSON with orjson, as a fast client would.

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
}


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


def start_server(data_dir: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    config = {"port": port, "data_dir": str(data_dir), "limits": LIMITS}
    env = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
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


async def play_games(
    client: httpx.AsyncClient, ws_url: str, game: str, seed: int, tally: Tally, stop: asyncio.Event
) -> None:
    """One table: games played one after the other by two random seats, each with a spectator."""
    rng = random.Random(seed)
    while not stop.is_set():
        created = await client.post("/api/games", json={"game": game, "seats": [{}, {}]})
        created.raise_for_status()
        body = created.json()
        gid = body["game_id"]
        tokens = [seat["token"] for seat in body["seats"]]
        watcher = asyncio.create_task(spectate(ws_url, gid, tally, stop))
        first = await client.get(f"/api/games/{gid}/state", headers={"X-Seat-Token": tokens[0]})
        state = orjson.loads(first.content)
        while not stop.is_set() and state["status"] != "finished":
            if not state["your_turn"]:
                seat = state["current_player"]
                headers = {"X-Seat-Token": tokens[seat]}
                fetched = await client.get(f"/api/games/{gid}/state", headers=headers)
                state = orjson.loads(fetched.content)
                continue
            move = {"action": rng.choice(state["legal_actions"]), "expected_move": state["move_number"]}
            headers = {"X-Seat-Token": tokens[state["seat"]]}
            start = time.perf_counter()
            answer = await client.post(f"/api/games/{gid}/moves", json=move, headers=headers)
            elapsed = time.perf_counter() - start
            if answer.status_code != 200:
                tally.errors.append(answer.text[:200])
                fetched = await client.get(f"/api/games/{gid}/state", headers=headers)
                state = orjson.loads(fetched.content)
                continue
            state = orjson.loads(answer.content)
            if tally.measuring:
                tally.moves += 1
                tally.round_trips.append(elapsed)
        if state["status"] == "finished" and tally.measuring:
            tally.games_finished += 1
        watcher.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await watcher


async def health_reference(client: httpx.AsyncClient, out: list[float], stop: asyncio.Event) -> None:
    while not stop.is_set():
        start = time.perf_counter()
        await client.get("/api/health")
        out.append(time.perf_counter() - start)
        await asyncio.sleep(0.05)


def percentile(samples: list[float], p: float) -> float:
    if len(samples) < 2:
        return samples[0] if samples else float("nan")
    return statistics.quantiles(samples, n=100, method="inclusive")[int(p) - 1]


async def measure(url: str, pid: int, games: int, seconds: float, warmup: float, game: str) -> Tally:
    tally = Tally()
    stop = asyncio.Event()
    ws_url = url.replace("http://", "ws://")
    limits = httpx.Limits(max_connections=games + 4, max_keepalive_connections=games + 4)
    async with httpx.AsyncClient(base_url=url, timeout=30, limits=limits) as client:
        idle: list[float] = []
        reference = asyncio.create_task(health_reference(client, idle, stop))
        await asyncio.sleep(1.0)
        stop.set()
        await reference
        stop.clear()
        tables = [
            asyncio.create_task(play_games(client, ws_url, game, seed, tally, stop)) for seed in range(games)
        ]
        busy: list[float] = []
        await asyncio.sleep(warmup)
        tally.measuring = True
        cpu_start = cpu_seconds(pid)
        client_start = time.process_time()
        reference = asyncio.create_task(health_reference(client, busy, stop))
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
    args = parser.parse_args()
    if not 1 <= args.games <= 200 or not 1 <= args.seconds <= 300:
        raise SystemExit("--games must be 1..200 and --seconds 1..300")
    with tempfile.TemporaryDirectory(prefix="eixample-load-") as folder:
        process, url = start_server(Path(folder))
        try:
            tally = asyncio.run(measure(url, process.pid, args.games, args.seconds, args.warmup, args.game))
        finally:
            process.terminate()
            process.wait(timeout=10)
    rate = tally.moves / args.seconds
    print(f"{args.games} {args.game} games, 2 people (REST) + 1 spectator (WebSocket) each, "
          f"{args.seconds:g} s")
    print(f"moves: {tally.moves} = {rate:.1f} moves/s; games finished: {tally.games_finished}")
    trips = tally.round_trips
    print(f"move round trip: p50 {percentile(trips, 50) * 1000:.1f} ms, "
          f"p90 {percentile(trips, 90) * 1000:.1f} ms, "
          f"p99 {percentile(trips, 99) * 1000:.1f} ms, max {max(trips, default=0) * 1000:.1f} ms")
    if tally.server_cpu is not None and tally.moves:
        print(f"server CPU: {tally.server_cpu:.1f} s in {args.seconds:g} s = "
              f"{tally.server_cpu / tally.moves * 1000:.2f} ms per move; client CPU: "
              f"{tally.client_cpu / tally.moves * 1000:.2f} ms per move")
    pushes = tally.pushes / args.seconds
    size = tally.push_bytes / max(1, tally.pushes)
    print(f"spectator pushes: {pushes:.1f}/s, {size / 1024:.1f} KiB each on average")
    if tally.errors:
        print(f"refused moves: {len(tally.errors)} (first: {tally.errors[0]})")


if __name__ == "__main__":
    main()
