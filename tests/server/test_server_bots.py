"""Bots cannot starve the server: spec ceilings, worker processes, a flood of the slowest bots
allowed, a quick stop while they think, and bots that resume after a restart."""

from __future__ import annotations

import asyncio
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
from tests.server.harness import GENEROUS_LIMITS, ServerProcess, create_game, seat_headers, wait_for

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
    limits = app.state.manager.limits
    assert len(pids) <= limits.bot_workers + limits.quick_bot_workers


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
    assert 1 <= len(workers) <= 3  # two for searches, one for quick decisions

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


# -- fair turns ---------------------------------------------------------------------------------------


def test_searches_take_turns_by_address_then_by_game() -> None:
    async def scenario() -> list[str]:
        queue = bots.FairQueue(1)
        served: list[str] = []
        release = asyncio.Event()

        async def ask(address: str, game: str, name: str) -> None:
            async with queue.turn(address, game):
                served.append(name)
                if name == "first":
                    await release.wait()

        first = asyncio.create_task(ask("flood", "g0", "first"))
        await asyncio.sleep(0)
        waiting = [("flood", f"g{n}", f"flood-{n}") for n in range(1, 6)]
        waiting += [("flood", "g1", "flood-1-again"), ("other", "h", "other"), ("third", "k", "third")]
        tasks = [asyncio.create_task(ask(*item)) for item in waiting]
        await asyncio.sleep(0)
        assert queue.waiting == len(waiting)
        tasks[1].cancel()  # flood-2 gives up: skipped
        release.set()
        await asyncio.gather(first, *tasks, return_exceptions=True)
        assert queue.free == 1 and queue.waiting == 0
        return served

    served = asyncio.run(scenario())
    assert served[:4] == ["first", "flood-1", "other", "third"]
    assert "flood-2" not in served
    assert served.index("flood-1-again") > served.index("flood-5")  # a game's second request waits its turn


def test_forced_and_quick_decisions_never_wait_for_searches() -> None:
    state = get_game("tictactoe").new_game(2, 1)
    assert bots.is_quick("random") and bots.is_quick("greedy")
    assert not bots.is_quick("greedy:samples=8") and not bots.is_quick("greedy:plan=2")
    assert not bots.is_quick("mcts:iterations=50") and not bots.is_quick("expert:seconds=1")
    pool = bots.BotPool(1, 1)  # not started: only a forced decision can be answered

    async def forced() -> str:
        for action in ("mark 0", "mark 1", "mark 2", "mark 3", "mark 4", "mark 5", "mark 7", "mark 6"):
            state.apply(action)
        assert state.legal_actions() == ["mark 8"]
        return await pool.choose("mcts:seconds=10", 1, state, state.current_player(), 2)

    assert asyncio.run(forced()) == "mark 8"


def from_another_address(server: ServerProcess) -> httpx.Client:
    """A client whose connections come from 127.0.0.2 (still the loopback)."""
    transport = httpx.HTTPTransport(local_address="127.0.0.2")
    return httpx.Client(base_url=server.url, timeout=30, transport=transport)


def bot_moved(api: httpx.Client, gid: str) -> bool:
    return int(api.get(f"/api/games/{gid}").json()["move_number"]) >= 1


def test_a_flood_of_searches_leaves_other_games_their_turn(
    new_server: Callable[..., ServerProcess],
) -> None:
    """Eight searches at the ceiling from one address fill both search workers for 10 s and more;
    a greedy bot elsewhere moves at once, and another address's search has the next free worker."""
    server = new_server(limits={**GENEROUS_LIMITS, "search_bots_per_address": 100}).start()
    other = from_another_address(server)
    with server.client() as api, other:
        for _ in range(4):
            create_game(api, "barcelona", [{"kind": "bot", "bot": SLOWEST}] * 2)
        time.sleep(1.0)  # both search workers are busy, six searches wait
        started = time.monotonic()
        greedy = create_game(api, "tictactoe", [{"kind": "bot", "bot": "greedy"}, PEOPLE[0]])["game_id"]
        wait_for(lambda: bot_moved(api, greedy), timeout=2.0, what="the greedy bot's move")
        print(f"greedy bot moved {time.monotonic() - started:.2f} s after its game was created")
        seats = [{"kind": "bot", "bot": "mcts:seconds=1"}, PEOPLE[0]]
        search = create_game(other, "tictactoe", seats)["game_id"]
        # its turn comes when a worker ends one of the flood's 10 s searches, before the six waiting
        wait_for(lambda: bot_moved(other, search), timeout=16.0, what="another address's search")
        print(f"another address's search moved {time.monotonic() - started:.2f} s after the greedy game")


def test_searching_bots_are_capped_per_address(new_server: Callable[..., ServerProcess]) -> None:
    server = new_server(limits={**GENEROUS_LIMITS, "search_bots_per_address": 3}).start()
    two = [{"kind": "bot", "bot": "mcts:iterations=50"}] * 2
    other = from_another_address(server)
    with server.client() as api, other:
        create_game(api, "hiddencards", [PEOPLE[0], *two])
        before = server.db_dump()
        refused = api.post("/api/games", json={"game": "hiddencards", "seats": [PEOPLE[0], *two]})
        assert refused.status_code == 429, refused.text
        assert "too many searching bots" in refused.json()["error"]
        assert refused.headers["retry-after"] == "60"
        strong = {"kind": "bot", "bot": "strong"}
        level = api.post("/api/games", json={"game": "hiddencards", "seats": [PEOPLE[0], two[0], strong]})
        assert level.status_code == 429  # a level name counts as its spec
        assert server.db_dump() == before
        create_game(api, "hiddencards", [PEOPLE[0], *two[:1]])  # the third
        quick = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}]
        create_game(api, "hiddencards", [PEOPLE[0], *quick])  # random and greedy bots do not count
        create_game(other, "hiddencards", [PEOPLE[0], *two])  # another address has its own share
