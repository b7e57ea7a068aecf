"""Bots cannot starve the server: spec ceilings, worker processes, a flood of the slowest bots
allowed, a quick stop while they think, and bots that resume after a restart."""

from __future__ import annotations

import os
import signal
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from eixample.core.protocol import State
from eixample.core.registry import get_game
from eixample.server import bots
from eixample.server.app import create_app
from tests.server.harness import ServerProcess, create_game, seat_headers, wait_for

PEOPLE = [{"kind": "person", "name": "Ana"}, {"kind": "person", "name": "Biel"}]
SLOWEST = "mcts:seconds=10"


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("mcts:seconds=10.5", "seconds may be at most 10"),
        ("mcts:iterations=100001", "iterations may be at most 100000"),
        ("greedy:samples=65", "samples may be at most 64"),
        ("mcts:iterations=50:depth=1000", "depth may be at most 200"),
        ("expert:iterations=50:workers=2", "workers may be at most 1"),
    ],
)
def test_bot_specs_above_the_ceilings_are_refused(
    api: httpx.Client, server: ServerProcess, spec: str, words: str
) -> None:
    before = server.db_dump()
    body = {"game": "tictactoe", "seats": [PEOPLE[0], {"kind": "bot", "bot": spec}]}
    response = api.post("/api/games", json=body)
    assert response.status_code == 422 and words in response.json()["error"], response.text
    assert server.db_dump() == before
    assert api.get("/api/catalog").json()["bot_ceilings"]["seconds"] == 10


def test_the_ceilings_themselves_are_allowed(api: httpx.Client) -> None:
    for spec in (SLOWEST, "mcts:iterations=100000", "greedy:samples=64"):
        create_game(api, "tictactoe", [PEOPLE[0], {"kind": "bot", "bot": spec}])


def test_every_search_stops_at_the_time_ceiling(monkeypatch: pytest.MonkeyPatch) -> None:
    """An iteration budget within the ceilings can still be costly (greedy rollouts of 200 moves:
    about an hour a decision); the server stops every search at its time ceiling."""
    assert bots.time_capped("mcts:iterations=100000") == "mcts:iterations=100000:seconds=10"
    assert bots.time_capped("expert:seconds=2") == "expert:seconds=2"
    assert bots.time_capped("greedy:plan=3") == "greedy:plan=3"
    monkeypatch.setitem(bots.CEILINGS, "seconds", 0.2)
    state = get_game("rose-of-fire").new_game(2, 5)
    started = time.perf_counter()
    action = bots.think("mcts:iterations=100000:depth=200:policy=greedy", 1, state, state.current_player(), 2)
    assert action in state.legal_actions()
    assert time.perf_counter() - started < 60


class PidBot:
    """Writes the id of the process it thinks in, then plays the first legal action."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def choose(self, state: State, player: int) -> str:
        (self.folder / f"{os.getpid()}-{time.monotonic_ns()}").touch()
        return str(state.legal_actions()[0])


def test_bots_think_in_worker_processes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    thoughts = tmp_path / "thoughts"
    thoughts.mkdir()
    monkeypatch.setattr(bots, "make_bot", lambda spec, seed: PidBot(thoughts))
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    app = create_app(database_url=url, bot_delay=0, allowed_hosts=frozenset({"127.0.0.1"}))
    with TestClient(app, base_url="http://127.0.0.1") as client:
        body = {"game": "tictactoe", "seats": [{"kind": "bot"}, {"kind": "bot"}], "seed": 3}
        gid = client.post("/api/games", json=body).json()["game_id"]
        wait_for(lambda: client.get(f"/api/games/{gid}").json()["status"] == "finished", what="the bots")
    pids = {int(path.name.split("-")[0]) for path in thoughts.iterdir()}
    assert len(list(thoughts.iterdir())) >= 5
    assert os.getpid() not in pids  # never in the server's own process (event loop or threads)
    assert len(pids) <= app.state.manager.limits.bot_workers


def timed(client: httpx.Client, gid: str, token: str) -> float:
    """Seconds for one round of lobby, game state and game summary requests."""
    start = time.perf_counter()
    assert client.get("/api/games").status_code == 200
    assert client.get(f"/api/games/{gid}/state", headers=seat_headers(token)).status_code == 200
    assert client.get(f"/api/games/{gid}").status_code == 200
    return time.perf_counter() - start


def children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        found |= {int(child) for child in text}
    return found


def test_a_flood_of_the_slowest_bots_leaves_the_server_answering(
    new_server: Callable[..., ServerProcess],
) -> None:
    server = new_server().start()
    assert server.process is not None
    with server.client() as api:
        person = create_game(api, "tictactoe", PEOPLE)
        gid, token = person["game_id"], person["seats"][0]["token"]
        baseline = [timed(api, gid, token) for _ in range(15)]
        flood = [
            create_game(api, "barcelona", [{"kind": "bot", "bot": SLOWEST}] * 2)["game_id"] for _ in range(6)
        ]
        time.sleep(1.0)  # the searches are under way
        during = [timed(api, gid, token) for _ in range(15)]
        move = {"action": "mark 4", "expected_move": 0}
        assert api.post(f"/api/games/{gid}/moves", json=move, headers=seat_headers(token)).status_code == 200
        assert all(api.get(f"/api/games/{other}").json()["move_number"] == 0 for other in flood)
    workers = children(server.process.pid)
    assert 1 <= len(workers) <= 2

    idle, busy = statistics.median(baseline), statistics.median(during)
    print(f"lobby+state+summary: idle {idle * 1000:.1f} ms, 6 games of {SLOWEST} {busy * 1000:.1f} ms")
    assert busy < 5 * idle + 0.1, (busy, idle)

    # SIGTERM while every worker is deep in a 10 s search
    start = time.monotonic()
    server.process.send_signal(signal.SIGTERM)
    server.process.wait(timeout=10)
    stopped_in = time.monotonic() - start
    server.process = None
    print(f"stopped in {stopped_in:.2f} s")
    assert stopped_in < 5.0  # well before any of the searches could have finished
    assert all(not Path(f"/proc/{pid}").exists() for pid in workers)


def bot_game(api: httpx.Client, seed: int) -> str:
    seats: list[dict[str, Any]] = [{"kind": "bot", "bot": "random"}] * 3
    return str(create_game(api, "hiddencards", seats, seed=seed, options={"turns_each": 3})["game_id"])


def test_ctrl_c_stops_the_server_and_bots_resume_identically(
    new_server: Callable[..., ServerProcess],
) -> None:
    server = new_server(bot_delay=0.3).start()
    assert server.process is not None
    with server.client() as api:
        gid = bot_game(api, seed=21)
        wait_for(lambda: api.get(f"/api/games/{gid}").json()["move_number"] >= 2, what="some bot moves")
    start = time.monotonic()
    server.process.send_signal(signal.SIGINT)
    server.process.wait(timeout=10)
    stopped_in = time.monotonic() - start
    server.process = None
    assert stopped_in < 5.0
    server.start()
    with server.client() as api:
        wait_for(lambda: api.get(f"/api/games/{gid}").json()["status"] == "finished", timeout=60,
                 what="the bots to resume and finish")
        resumed = api.get(f"/api/games/{gid}/record").json()
        # the same game played without a stop: every bot decision depends only on game and move
        again = bot_game(api, seed=21)
        wait_for(lambda: api.get(f"/api/games/{again}").json()["status"] == "finished", timeout=60,
                 what="the second game")
        assert api.get(f"/api/games/{again}/record").json()["actions"] == resumed["actions"]


def test_workers_end_with_a_killed_server(new_server: Callable[..., ServerProcess]) -> None:
    server = new_server().start()
    assert server.process is not None
    with server.client() as api:
        create_game(api, "barcelona", [{"kind": "bot", "bot": "mcts:seconds=5"}] * 2)
        wait_for(lambda: len(children(server.process.pid)) >= 1, what="the bot workers")  # type: ignore[union-attr]
        workers = children(server.process.pid)
    server.kill9()
    wait_for(lambda: all(not Path(f"/proc/{pid}").exists() for pid in workers), timeout=10,
             what="the workers of the killed server to end")
