"""A game read at a bad moment is read again, never taken for a broken game: a rebuild that fails
is tried again on a fresh read, for a load and for a catch-up after another process's change.
(Reads are whole on PostgreSQL; this guards whatever else makes one read come out torn.)"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from eixample.server.app import create_app
from eixample.server.db import GameData, Store
from eixample.server.manager import GameManager
from tests.server.harness import create_game, seat_headers

PEOPLE = [{"kind": "person", "name": "Ana"}, {"kind": "person", "name": "Biel"}]


@pytest.fixture()
def app_parts(tmp_path: Path) -> Iterator[tuple[TestClient, GameManager, Store]]:
    app = create_app(database_url=f"sqlite:///{tmp_path / 'db.sqlite3'}", bot_delay=0,
                     allowed_hosts=frozenset({"127.0.0.1"}))
    with TestClient(app, base_url="http://127.0.0.1") as client:
        yield client, app.state.manager, app.state.store


def torn_once(monkeypatch: pytest.MonkeyPatch, store: Store) -> list[int]:
    """The store's next read of a game comes out torn (its last action without the move number
    that goes with it, as a read between two statements of another process's write would see);
    the reads after it are whole. Returns the list of reads made."""
    reads: list[int] = []
    whole = store.load_game

    def load_game(game_id: str) -> GameData | None:
        data = whole(game_id)
        reads.append(1)
        if data is None or len(reads) > 1:
            return data
        return dataclasses.replace(data, move_count=data.move_count - 1)

    monkeypatch.setattr(store, "load_game", load_game)
    return reads


def test_a_load_that_reads_a_torn_game_reads_it_again(
    app_parts: tuple[TestClient, GameManager, Store], monkeypatch: pytest.MonkeyPatch
) -> None:
    client, manager, store = app_parts
    created = create_game(client, "tictactoe", PEOPLE)
    gid, ana = created["game_id"], created["seats"][0]["token"]
    played = client.post(f"/api/games/{gid}/moves", json={"action": "mark 4", "expected_move": 0},
                         headers=seat_headers(ana))
    assert played.status_code == 200, played.text
    manager.games.pop(gid)  # the game leaves memory
    reads = torn_once(monkeypatch, store)
    answered = client.get(f"/api/games/{gid}/state")
    assert answered.status_code == 200, answered.text
    assert answered.json()["move_number"] == 1
    assert len(reads) == 2 and gid not in manager.broken


def test_a_catch_up_that_reads_a_torn_game_reads_it_again(
    app_parts: tuple[TestClient, GameManager, Store], monkeypatch: pytest.MonkeyPatch
) -> None:
    client, manager, store = app_parts
    created = create_game(client, "tictactoe", PEOPLE)
    gid, ana = created["game_id"], created["seats"][0]["token"]
    behind = manager.games.pop(gid)  # a copy of the game at move 0, as another process holds it
    played = client.post(f"/api/games/{gid}/moves", json={"action": "mark 4", "expected_move": 0},
                         headers=seat_headers(ana))
    assert played.status_code == 200, played.text
    manager.games[gid] = behind
    reads = torn_once(monkeypatch, store)
    client.portal.call(manager.remote_change, gid, 1)  # type: ignore[union-attr]
    assert behind.move_number == 1 and behind.actions == [(0, "mark 4")]
    assert len(reads) == 2
