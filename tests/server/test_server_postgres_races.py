"""Two server processes on one PostgreSQL database race on the same games, and no game is
corrupted or lost: a game read while another process stores its moves is read whole (never a
move without its move number), and a process holding an old copy of a game cannot store a move
or an undo on it, even when an undo and a new move have brought the game back to the same move
number. After each race every game is loadable on both processes, and both serve the state that
a fresh process replays from the stored actions.

The races are made likely with slowdowns loaded into one of the processes (tests/server/
slow_reads.py: a pause before each read of a game's actions; tests/server/late_notices.py: change
notices taken in late), and driven many times, bounded in count and time."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from tests.server.harness import GENEROUS_LIMITS, HERE, ServerProcess, create_game, seat_headers, wait_for
from tests.server.postgres import PostgresCluster, ServersOnOneDatabase
from tests.server.test_server_postgres import conninfo, new_database, stored_actions

pytestmark = pytest.mark.postgres

PEOPLE = [{"kind": "person", "name": "Ana"}, {"kind": "person", "name": "Biel"}]
BOTS = [{"kind": "bot", "bot": "random"}] * 4
SLOW_READS = HERE / "slow_reads.py"
LATE_NOTICES = HERE / "late_notices.py"
BROKEN = ("cannot be loaded", "could not take in a change")
"""What a process logs when it took a game, or a change of it, for broken."""


@pytest.fixture()
def processes(tmp_path: Path, postgres: PostgresCluster) -> Iterator[ServersOnOneDatabase]:
    made = ServersOnOneDatabase(tmp_path, new_database(postgres))
    yield made
    made.stop()


def seen(api: httpx.Client, gid: str, token: str | None = None) -> httpx.Response:
    return api.get(f"/api/games/{gid}/state", headers=seat_headers(token) if token else {})


def served(api: httpx.Client, gid: str) -> dict[str, Any]:
    """What a process serves a spectator of the game (failing the test on any other answer)."""
    response = seen(api, gid)
    assert response.status_code == 200, f"{gid}: {response.status_code} {response.text}"
    body: dict[str, Any] = response.json()
    return {"move_number": body["move_number"], "view": body["view"]}


def check_every_game_whole(processes: ServersOnOneDatabase, games: list[str]) -> None:
    """Every game is loadable on every process and served as the stored actions replay: as a
    fresh process, which rebuilds each game from the database, serves it."""
    fresh = processes.start()
    servers = processes.made
    for gid in games:
        stored = len(stored_actions(processes.database, gid))
        with fresh.client() as api:
            replayed = served(api, gid)
        assert replayed["move_number"] == stored, gid
        for server in servers:
            with server.client() as api:

                def as_stored(api: httpx.Client = api, gid: str = gid, want: object = replayed) -> bool:
                    return served(api, gid) == want

                wait_for(as_stored, 20, f"{server.url} serving {gid} as stored")
    for server in servers:
        assert not any(words in server.log() for words in BROKEN), server.log()[-3000:]


def all_finished(database: str, games: list[str]) -> bool:
    with psycopg.connect(conninfo(database)) as connection:
        rows = connection.execute("SELECT status FROM games WHERE id = ANY(%s)", (games,)).fetchall()
    return len(rows) == len(games) and all(row[0] == "finished" for row in rows)


def test_a_game_read_while_another_process_stores_its_moves_is_read_whole(
    processes: ServersOnOneDatabase,
) -> None:
    """One process plays bot games as fast as it can; the other, whose reads of a game's actions
    are slowed down, loads the same games again and again (it holds two in memory at most) and
    follows two of them on WebSockets (a catch-up read after each notice). Not one load answers
    503, not one catch-up fails, and the followers end at the final move."""
    games_count, seconds = 10, 90
    writer = processes.start()
    reader = processes.start(SLOW_READS, limits={**GENEROUS_LIMITS, "live_games": 2})
    with writer.client() as api:
        games = [create_game(api, "hiddencards", BOTS, seed=100 + n, options={"turns_each": 5})["game_id"]
                 for n in range(games_count)]
    followers = [reader.ws(gid) for gid in games[:2]]
    answers: dict[int, int] = {}
    deadline = time.monotonic() + seconds
    with reader.client() as api:
        while not all_finished(processes.database, games) and time.monotonic() < deadline:
            for gid in games[2:]:
                status = seen(api, gid).status_code
                answers[status] = answers.get(status, 0) + 1
    assert all_finished(processes.database, games), "the bot games did not finish in time"
    print(f"loads on the slowed process while the games were played: {answers}")
    assert set(answers) == {200}, answers
    for follower, gid in zip(followers, games, strict=False):
        final = len(stored_actions(processes.database, gid))
        last = follower.recv_until(lambda m, n=final: m["type"] == "state" and m["move_number"] == n, 20)
        assert last["status"] == "finished"
        follower.close()
    check_every_game_whole(processes, games)


def stale_rounds(stale: ServerProcess, current: ServerProcess, rounds: int) -> list[str]:
    """Each round: Ana plays a card through `stale`; through `current` she takes it back and
    decides anew; at once, through `stale` (which has not yet heard of that), she sends a decision
    made on her first card. In the first round and every other one after it, she took back her
    first card to play her second, and the stale process is asked to play the second again
    (illegal now: it is in play); in the others, she took it back to draw, and the stale process
    is asked to undo (a random draw, which undo never takes back). Every stale request is refused
    as stale, and the stored game is left as it was."""
    games = []
    with stale.client() as old, current.client() as new:
        for number in range(rounds):
            created = create_game(new, "hiddencards", PEOPLE, seed=200 + number,
                                  seed_shown=True, options={"turns_each": 2})
            gid, ana = created["game_id"], created["seats"][0]["token"]
            games.append(gid)
            hand = [a for a in seen(old, gid, ana).json()["legal_actions"] if a.startswith("play ")]
            first = old.post(f"/api/games/{gid}/moves", json={"action": hand[0], "expected_move": 0},
                             headers=seat_headers(ana))
            assert first.status_code == 200, first.text
            undone = new.post(f"/api/games/{gid}/undo", json={"expected_move": 1}, headers=seat_headers(ana))
            assert undone.status_code == 200, undone.text
            anew = hand[1] if number % 2 == 0 else "draw"
            again = new.post(f"/api/games/{gid}/moves", json={"action": anew, "expected_move": 0},
                             headers=seat_headers(ana))
            assert again.status_code == 200, again.text
            if number % 2 == 0:
                late = old.post(f"/api/games/{gid}/moves", json={"action": hand[1], "expected_move": 1},
                                headers=seat_headers(ana))
            else:
                late = old.post(f"/api/games/{gid}/undo", json={"expected_move": 1},
                                headers=seat_headers(ana))
            assert late.status_code == 409, f"round {number}: {late.status_code} {late.text}"
            assert "stale" in late.json()["error"]
            assert stored_actions(stale.database_url or "", gid) == [(0, anew)]
    return games


def test_a_copy_from_before_an_undo_cannot_store_a_move_or_an_undo(processes: ServersOnOneDatabase) -> None:
    """The move number goes 1 -> 0 -> 1 across an undo and a new move: a process that still holds
    the game as it was at the first move 1 must not take it for the current one."""
    stale = processes.start(LATE_NOTICES)
    current = processes.start()
    games = stale_rounds(stale, current, rounds=6)
    check_every_game_whole(processes, games)
