"""A data folder of the release before migrations, opened by this one, keeps every game: each
loads as that release showed it, continues and replays to the same scores, and the lobby lists the
games' own results.

The folder (tests/server/stores/release-8d30661.*) was made by that release's own server through
its HTTP API (tests/server/stores/make_release_store.py): Barcelona solo and with 2 to 4 players,
The Rose of Fire with 2 to 4, from just created to finished, with bots, claims, a resigned seat,
chat, a clock and rematches. Beside the database it keeps what that release showed of each game
and the tokens its players hold. The same rows in that release's PostgreSQL tables
(release-8d30661.postgresql.sql), on a throwaway PostgreSQL cluster, pass the same checks."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import Column, MetaData, Table, create_engine, insert, inspect, select, text

from eixample.core.records import replay
from eixample.core.registry import get_game
from eixample.server import migrations
from eixample.server.db import SQLITE_FILE, Base
from eixample.server.table import TableBase
from tests.server.harness import ServerProcess, seat_headers
from tests.server.postgres import PostgresCluster
from tests.server.test_server_migrations import revisions

STORES = Path(__file__).resolve().parent / "stores"
RELEASE = "release-8d30661"
SEEN = ("status", "move_number", "current_player", "result", "score_history")


def release_folder(folder: Path) -> Path:
    """A data folder holding the release's database."""
    folder.mkdir()
    with sqlite3.connect(folder / SQLITE_FILE) as connection:
        connection.executescript((STORES / f"{RELEASE}.sql").read_text(encoding="utf-8"))
    connection.close()
    return folder


def release_database(url: str, folder: Path) -> None:
    """The release's PostgreSQL tables at `url`, holding the rows of the SQLite database of its
    data folder (`release_folder`)."""
    source = create_engine(f"sqlite:///{folder / SQLITE_FILE}")
    target = create_engine(url)
    with target.begin() as connection:
        connection.exec_driver_sql((STORES / f"{RELEASE}.postgresql.sql").read_text(encoding="utf-8"))
    tables = MetaData()
    for metadata in (Base.metadata, TableBase.metadata):
        for table in metadata.tables.values():
            table.to_metadata(tables)
    held = inspect(source)
    with source.connect() as reading, target.begin() as writing:
        for table in tables.sorted_tables:
            if not held.has_table(table.name):
                continue  # a table later revisions add
            # the release's columns only: later revisions add columns its tables do not have
            names = {column["name"] for column in held.get_columns(table.name)}
            columns = [column for column in table.columns if column.name in names]
            rows = [dict(row) for row in reading.execute(select(*columns)).mappings()]
            held_table = Table(table.name, MetaData(), *(Column(c.name, c.type) for c in columns))
            if rows:
                writing.execute(insert(held_table), rows)
        last_line = "SELECT setval(pg_get_serial_sequence('chat_lines', 'id'), max(id)) FROM chat_lines"
        writing.execute(text(last_line))
    source.dispose()
    target.dispose()


def release_games() -> dict[str, dict[str, Any]]:
    games: dict[str, dict[str, Any]] = json.loads((STORES / f"{RELEASE}.json").read_text(encoding="utf-8"))
    return games


def state(api: httpx.Client, gid: str, token: str | None = None) -> dict[str, Any]:
    answer = api.get(f"/api/games/{gid}/state", headers=seat_headers(token) if token else {})
    assert answer.status_code == 200, f"{gid}: {answer.text}"
    seen: dict[str, Any] = answer.json()
    return seen


def lobby_result(result: dict[str, Any] | None) -> dict[str, Any] | None:
    return None if result is None else {"scores": result["scores"], "winners": result["winners"]}


def check_games_as_the_release_showed_them(api: httpx.Client, games: dict[str, dict[str, Any]]) -> None:
    for gid, kept in games.items():
        seen = state(api, gid)
        for key in SEEN:
            assert seen[key] == kept["seen"][key], f"game {gid}: {key} differs from the release's"
    listed = {summary["game_id"]: summary for summary in api.get("/api/games").json()["games"]}
    assert set(listed) == set(games)
    for gid, kept in games.items():
        summary = listed[gid]
        assert summary["result"] == kept["lobby_result"] == lobby_result(kept["seen"]["result"]), gid
        listed_as = (summary["status"], summary["move_number"])
        assert listed_as == (kept["seen"]["status"], kept["seen"]["move_number"]), gid


def check_finished_games_replay(api: httpx.Client, games: dict[str, dict[str, Any]]) -> int:
    finished = [gid for gid, kept in games.items() if kept["seen"]["status"] == "finished"]
    for gid in finished:
        kept = games[gid]["seen"]
        record = api.get(f"/api/games/{gid}/record").json()
        assert len(record["actions"]) == kept["move_number"]
        final = replay(get_game(record["game"]), record)
        assert final.is_terminal(), gid
        assert final.view(None)["scores"] == kept["result"]["scores"], gid
        for step in (0, kept["move_number"] // 2, kept["move_number"]):
            shown = api.get(f"/api/games/{gid}/replay", params={"step": step}).json()
            assert shown["view"]["scores"] == kept["score_history"][step], f"game {gid}, step {step}"
    return len(finished)


def acting_token(api: httpx.Client, gid: str, token: str) -> str:
    """The token that acts for a seat: an invitation of a game of several people that nobody
    claimed under the old release now only claims its seat, as the web page does on opening it."""
    if api.get(f"/api/games/{gid}/state", headers=seat_headers(token)).status_code != 403:
        return token
    claimed = api.post(f"/api/games/{gid}/claim", headers=seat_headers(token))
    assert claimed.status_code == 200, f"game {gid}: {claimed.text}"
    private: str = claimed.json()["token"]
    return private


def continue_unfinished_games(api: httpx.Client, games: dict[str, dict[str, Any]]) -> dict[str, int]:
    """One legal move by the person to move in each unfinished game: its move number after it."""
    moved: dict[str, int] = {}
    for gid, kept in games.items():
        if kept["seen"]["status"] == "finished":
            continue
        token = acting_token(api, gid, kept["tokens"][str(kept["seen"]["current_player"])])
        mine = state(api, gid, token)
        assert mine["your_turn"] and mine["legal_actions"], gid
        answer = api.post(f"/api/games/{gid}/moves", headers=seat_headers(token),
                          json={"action": mine["legal_actions"][0], "expected_move": mine["move_number"]})
        assert answer.status_code == 200, f"game {gid}: {answer.text}"
        moved[gid] = answer.json()["move_number"]
        assert moved[gid] > kept["seen"]["move_number"]
    return moved


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def release_store(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, Path, str | None]:
    """The release's data folder; the data folder of this release's server, and the URL of the
    database it opens: the same folder and its SQLite file, or a database of the module's
    throwaway PostgreSQL cluster holding the release's PostgreSQL tables and the same rows."""
    folder = release_folder(tmp_path / "data")
    if request.param == "sqlite":
        return folder, folder, None
    cluster: PostgresCluster = request.getfixturevalue("postgres")
    url = cluster.new_database()
    release_database(url, folder)
    (tmp_path / "server").mkdir()
    return folder, tmp_path / "server", url


def test_a_data_folder_of_the_release_before_migrations_keeps_every_game(
    release_store: tuple[Path, Path, str | None],
) -> None:
    folder, data_dir, url = release_store
    games = release_games()
    with sqlite3.connect(folder / SQLITE_FILE) as connection:
        kinds = set(connection.execute("SELECT game, players, status FROM games").fetchall())
    connection.close()
    assert {(game, players) for game, players, _ in kinds} == {
        ("barcelona", 1), ("barcelona", 2), ("barcelona", 3), ("barcelona", 4),
        ("rose-of-fire", 2), ("rose-of-fire", 3), ("rose-of-fire", 4)}
    assert {status for _, _, status in kinds} == {"open", "running", "finished"}
    server = ServerProcess(data_dir, database_url=url).start()
    try:
        with server.client() as api:
            check_games_as_the_release_showed_them(api, games)
            assert check_finished_games_replay(api, games) >= 6
            moved = continue_unfinished_games(api, games)
            assert len(moved) >= 10
    finally:
        server.stop()
    server.start()  # the continued games were stored
    try:
        with server.client() as api:
            for gid, number in moved.items():
                assert state(api, gid)["move_number"] >= number, gid
    finally:
        server.stop()
    assert revisions(url or data_dir / SQLITE_FILE) == [migrations.head()]
