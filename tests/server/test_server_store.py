"""One writer per database, compare-and-set writes, games that cannot be rebuilt, and memory that
stays bounded (games leave memory and come back from the database)."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from eixample.server.app import create_app
from eixample.server.db import DatabaseInUseError, StaleWriteError, Store
from eixample.server.limits import ServerLimits
from eixample.server.manager import GameManager
from tests.server.harness import ServerProcess, create_game, seat_headers

TEST_HOSTS = frozenset({"127.0.0.1", "testserver"})

PEOPLE = [{"kind": "person", "name": "Ana"}, {"kind": "person", "name": "Biel"}]


def make_app(folder: Path, limits: ServerLimits | None = None) -> FastAPI:
    """An app on its own database, answering the test client's host name too."""
    url = f"sqlite:///{folder / 'db.sqlite3'}"
    return create_app(database_url=url, bot_delay=0, limits=limits, allowed_hosts=TEST_HOSTS)


# -- one writer -------------------------------------------------------------------------------------


def test_a_second_server_on_the_same_database_refuses_to_start(
    new_server: Callable[..., ServerProcess],
) -> None:
    first = new_server().start()
    second = ServerProcess(first.data_dir)
    with pytest.raises(RuntimeError) as refused:
        second.start()
    message = str(refused.value)
    assert "exited with 2" in message and "another Eixample server is already using the database" in message
    with first.client() as api:
        assert create_game(api, "tictactoe", PEOPLE)["game_id"]
    first.stop()
    second.start()  # once the first has gone, the lock is free
    second.stop()


def test_the_lock_is_held_for_the_stores_life(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    store = Store(url, exclusive=True)
    with pytest.raises(DatabaseInUseError, match="already using"):
        Store(url, exclusive=True)
    store.close()
    Store(url, exclusive=True).close()


def test_every_write_checks_the_move_number(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    with TestClient(create_app(database_url=url, bot_delay=0), base_url="http://127.0.0.1") as client:
        gid = client.post("/api/games", json={"game": "tictactoe", "seats": PEOPLE}).json()["game_id"]
    store = Store(url)
    fields: dict[str, Any] = {"status": "running", "to_move": 1, "result": None}
    store.append_action_later(gid, 0, 0, "mark 4", **fields).result()
    for idx in (0, 2):  # a second action 0, or one that skips ahead
        with pytest.raises(StaleWriteError):
            store.append_action_later(gid, idx, 1, "mark 0", **fields).result()
    with pytest.raises(StaleWriteError):
        store.remove_last_action_later(gid, 1, status="running", to_move=0).result()  # there is no action 1
    data = store.load_game(gid)
    assert data is not None and data.actions == [(0, "mark 4")] and data.move_count == 1
    store.close()


def test_a_stale_copy_of_a_game_cannot_store_a_move(tmp_path: Path) -> None:
    """An old copy of a game (left memory, still held by a request) and the reloaded copy race:
    the database takes only the move made on the current move number."""
    app = make_app(tmp_path)
    manager: GameManager = app.state.manager
    with TestClient(app, base_url="http://127.0.0.1") as client:
        created = create_game(client, "tictactoe", PEOPLE)
        gid = created["game_id"]
        ana, biel = (seat["token"] for seat in created["seats"])
        stale = manager.games.pop(gid)  # the old copy leaves memory
        played = client.post(f"/api/games/{gid}/moves", json={"action": "mark 4", "expected_move": 0},
                             headers=seat_headers(ana))
        assert played.status_code == 200
        reply = {"action": "mark 0", "expected_move": 1}
        answered = client.post(f"/api/games/{gid}/moves", json=reply, headers=seat_headers(biel))
        assert answered.status_code == 200
        with pytest.raises(Exception, match="stale move"):
            client.portal.call(manager.move, stale, 0, "mark 8", 0)  # type: ignore[union-attr]
        assert stale.move_number == 0
        with pytest.raises(Exception, match="stale"):
            client.portal.call(manager.undo, manager.games[gid], 1, 1)  # type: ignore[union-attr]
        data = app.state.store.load_game(gid)
        assert data.actions == [(0, "mark 4"), (1, "mark 0")]


# -- 503 ----------------------------------------------------------------------------------------------


def test_a_game_that_cannot_be_rebuilt_answers_503_and_is_logged_once(
    new_server: Callable[..., ServerProcess],
) -> None:
    server = new_server().start()
    with server.client() as api:
        broken = create_game(api, "tictactoe", PEOPLE)
        fine = create_game(api, "tictactoe", PEOPLE)
        for game in (broken, fine):
            move = {"action": "mark 4", "expected_move": 0}
            headers = seat_headers(game["seats"][0]["token"])
            answered = api.post(f"/api/games/{game['game_id']}/moves", json=move, headers=headers)
            assert answered.status_code == 200
    server.stop()
    with sqlite3.connect(server.db_path) as connection:
        connection.execute("UPDATE actions SET action = 'mark 99' WHERE game_id = ?", (broken["game_id"],))
    server.start()
    with server.client() as api:
        for path in ("/state", "", "/record"):
            for _ in range(3):
                response = api.get(f"/api/games/{broken['game_id']}{path}")
                assert response.status_code == 503, response.text
                body = response.json()
                assert body == {"error": "this game cannot be loaded", "code": "cannot_load", "args": {}}
        assert api.get(f"/api/games/{fine['game_id']}/state").json()["move_number"] == 1
        assert api.get("/api/health").status_code == 200
    assert server.log().count(f"game {broken['game_id']} cannot be loaded") == 1


# -- memory ---------------------------------------------------------------------------------------


@pytest.fixture()
def small_app(tmp_path: Path) -> Iterator[tuple[TestClient, GameManager]]:
    limits = ServerLimits(live_games=3, lobby_size=4, games_per_minute=1000, sweep_seconds=3600)
    app = make_app(tmp_path, limits)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        yield client, app.state.manager


def play(client: TestClient, gid: str, token: str, action: str, number: int) -> dict[str, Any]:
    body = {"action": action, "expected_move": number}
    response = client.post(f"/api/games/{gid}/moves", json=body, headers=seat_headers(token))
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def test_games_leave_memory_and_come_back(small_app: tuple[TestClient, GameManager]) -> None:
    client, manager = small_app
    games = [create_game(client, "tictactoe", PEOPLE) for _ in range(8)]
    assert len(manager.games) <= 3
    first = games[0]
    gid, tokens = first["game_id"], [seat["token"] for seat in first["seats"]]
    assert gid not in manager.games
    for number, cell in enumerate((0, 3, 1, 4)):
        play(client, gid, tokens[number % 2], f"mark {cell}", number)  # reloaded on demand
    assert len(manager.games) <= 3
    finished = play(client, gid, tokens[0], "mark 2", 4)
    assert finished["status"] == "finished"
    manager.sweep()
    assert gid not in manager.games  # a finished game nobody watches leaves memory at once
    record = client.get(f"/api/games/{gid}/record").json()
    assert record["actions"] == ["mark 0", "mark 3", "mark 1", "mark 4", "mark 2"]


def test_idle_games_leave_memory_unless_someone_is_there(tmp_path: Path) -> None:
    limits = ServerLimits(idle_seconds=0, sweep_seconds=3600)
    app = make_app(tmp_path, limits)
    manager: GameManager = app.state.manager
    with TestClient(app, base_url="http://127.0.0.1") as client:
        watched, idle = (client.post("/api/games", json={"game": "tictactoe", "seats": PEOPLE}).json()
                         for _ in range(2))
        with client.websocket_connect(f"/ws/games/{watched['game_id']}") as socket:
            socket.send_json({"type": "hello", "token": None})
            assert socket.receive_json()["type"] == "state"
            manager.sweep()
            assert set(manager.games) == {watched["game_id"]}
        manager.sweep()
        assert manager.games == {}
        assert client.get(f"/api/games/{idle['game_id']}").status_code == 200


def test_the_lobby_shows_games_with_people_first(small_app: tuple[TestClient, GameManager]) -> None:
    client, _manager = small_app
    busy = create_game(client, "tictactoe", PEOPLE)
    with client.websocket_connect(f"/ws/games/{busy['game_id']}") as socket:
        socket.send_json({"type": "hello", "token": busy["seats"][0]["token"]})
        assert socket.receive_json()["type"] == "state"
        flood = [client.post("/api/games", json={"game": "tictactoe", "seats": PEOPLE}).json()["game_id"]
                 for _ in range(6)]
        listed = [game["game_id"] for game in client.get("/api/games").json()["games"]]
        assert len(listed) == 4
        assert listed[0] == busy["game_id"]
        assert listed[1:] == flood[::-1][:3]
    listed = [game["game_id"] for game in client.get("/api/games").json()["games"]]
    assert busy["game_id"] not in listed  # with nobody there, it is an old game like any other


def test_lobby_flooding_is_limited(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        codes = [client.post("/api/games", json={"game": "tictactoe", "seats": PEOPLE}).status_code
                 for _ in range(ServerLimits().games_per_minute + 5)]
    assert codes.count(201) in (10, 11) and codes[-1] == 429  # 10 a minute, refilled as time passes
    assert httpx.codes.TOO_MANY_REQUESTS == 429


def test_moves_arriving_together_share_one_commit(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"  # make_app's database
    with TestClient(make_app(tmp_path), base_url="http://127.0.0.1") as client:
        games = [client.post("/api/games", json={"game": "tictactoe", "seats": PEOPLE}).json()["game_id"]
                 for _ in range(6)]
    store = Store(url)
    fields: dict[str, Any] = {"status": "running", "to_move": 1, "result": None}
    store.writer.submit(lambda _session: time.sleep(0.3)).result(timeout=10)  # the writer is running
    store.writer.submit(lambda _session: time.sleep(0.3))  # and busy while the moves queue up
    moves = [store.append_action_later(gid, 0, 0, "mark 4", **fields) for gid in games]
    stale = store.append_action_later(games[0], 5, 0, "mark 1", **fields)
    for future in moves:
        assert future.result(timeout=10) is None
    with pytest.raises(StaleWriteError):
        stale.result(timeout=10)
    assert store.writer.commits <= 3  # the two pauses, and the six moves shared one commit

    def broken(_session: Any) -> None:
        raise RuntimeError("a faulty write")

    store.writer.submit(lambda _session: time.sleep(0.3))
    faulty = store.writer.submit(broken)
    more = store.append_action_later(games[1], 1, 1, "mark 0", **fields)
    assert more.result(timeout=10) is None  # the batch is rolled back and run again one by one
    with pytest.raises(RuntimeError, match="faulty"):
        faulty.result(timeout=10)
    for gid in games:
        data = store.load_game(gid)
        assert data is not None
        assert data.actions == ([(0, "mark 4"), (1, "mark 0")] if gid == games[1] else [(0, "mark 4")])
    store.close()
