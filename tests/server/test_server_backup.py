"""`eixample backup` and `eixample restore` (server/backup.py): a backup taken while the server
serves brings a destroyed data folder back, and its games go on; a restore refuses while a server
runs, refuses what is not an Eixample database (or one a newer release made), and never throws a
database away."""

from __future__ import annotations

import shutil
import sqlite3
from functools import partial
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from eixample.cli.main import app
from eixample.server.db import SQLITE_FILE, Store
from tests.server.harness import ServerProcess, create_game, seat_headers, wait_for
from tests.server.test_server_upgrade import release_folder, release_games

PEOPLE = [{"kind": "person", "name": "Ana"}, {"kind": "person", "name": "Biel"}]


def cli(*args: str, environment: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(app, list(args), env=environment or {"DATABASE_URL": ""})


def refused(result: Result, *phrases: str) -> None:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    text = " ".join(result.output.split())
    for phrase in phrases:
        assert phrase in text, text


def move(server: ServerProcess, gid: str, token: str, action: str, expected: int) -> int:
    with server.client() as api:
        answer = api.post(f"/api/games/{gid}/moves", json={"action": action, "expected_move": expected},
                          headers=seat_headers(token))
    assert answer.status_code == 200, answer.text
    number: int = answer.json()["move_number"]
    return number


def test_a_backup_taken_while_serving_brings_back_a_destroyed_folder_and_the_game_goes_on(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    server = ServerProcess(data).start()
    try:
        with server.client() as api:
            game = create_game(api, "tictactoe", PEOPLE)
        gid = game["game_id"]
        ana, biel = (seat["token"] for seat in game["seats"])
        move(server, gid, ana, "mark 4", 0)
        move(server, gid, biel, "mark 0", 1)
        backup_file = tmp_path / "games.backup"
        made = cli("backup", "--data-dir", str(data), str(backup_file))  # the server is running
        assert made.exit_code == 0, made.output
        assert "backed up" in made.output
        move(server, gid, ana, "mark 8", 2)  # after the backup: not in it
    finally:
        server.stop()
    shutil.rmtree(data)  # the data is lost

    back = cli("restore", "--data-dir", str(data), str(backup_file))
    assert back.exit_code == 0, back.output
    server = ServerProcess(data).start()
    try:
        with server.client() as api:
            seen = api.get(f"/api/games/{gid}/state", headers=seat_headers(ana)).json()
        assert seen["move_number"] == 2 and seen["your_turn"] and "mark 8" in seen["legal_actions"]
        assert move(server, gid, ana, "mark 8", 2) == 3  # the game goes on
        assert move(server, gid, biel, "mark 1", 3) == 4
    finally:
        server.stop()


def test_restore_refuses_while_a_server_runs_on_the_folder(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    server = ServerProcess(data).start()
    try:
        with server.client() as api:
            create_game(api, "tictactoe", PEOPLE)
        backup_file = tmp_path / "games.backup"
        assert cli("backup", "--data-dir", str(data), str(backup_file)).exit_code == 0
        before = server.db_dump()
        refused(cli("restore", "--data-dir", str(data), "--replace", str(backup_file)),
                "an Eixample server is using", "stop it first")
        assert server.db_dump() == before
        assert sorted(path.name for path in data.iterdir() if "replaced" in path.name) == []
    finally:
        server.stop()


def test_restore_refuses_what_is_not_an_eixample_database(tmp_path: Path) -> None:
    data = tmp_path / "data"
    garbage = tmp_path / "notes.txt"
    garbage.write_text("these are not the games you are looking for\n" * 100)
    refused(cli("restore", "--data-dir", str(data), str(garbage)), "is not an Eixample database")
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE recipes (name TEXT)")
    connection.close()
    refused(cli("restore", "--data-dir", str(data), str(other)), "is not an Eixample database")
    refused(cli("restore", "--data-dir", str(data), str(tmp_path / "missing")), "is not a file")
    assert not (data / SQLITE_FILE).exists()


def test_restore_refuses_a_backup_a_newer_release_made(tmp_path: Path) -> None:
    newer = tmp_path / "newer.sqlite3"
    Store(f"sqlite:///{newer}").close()
    with sqlite3.connect(newer) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '0999'")
    connection.close()
    data = tmp_path / "data"
    refused(cli("restore", "--data-dir", str(data), str(newer)), "was made by a newer release of Eixample")
    assert not (data / SQLITE_FILE).exists()


def games(path: Path) -> list[str]:
    with sqlite3.connect(path) as connection:
        ids = [row[0] for row in connection.execute("SELECT id FROM games ORDER BY id")]
    connection.close()
    return ids


def database_with_game(path: Path, game_id: str) -> None:
    store = Store(f"sqlite:///{path}")
    with store.engine.begin() as connection:
        connection.exec_driver_sql(
            "INSERT INTO games (id, game, players, seed, options, status, move_count, to_move, "
            "created_at, updated_at, seed_shown, hints_allowed) VALUES "
            f"('{game_id}', 'tictactoe', 2, 1, '{{}}', 'open', 0, 0, '2026-01-01', '2026-01-01', 0, 0)")
    store.close()


def test_restore_keeps_the_database_it_replaces_and_only_when_asked(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    database_with_game(data / SQLITE_FILE, "current")
    backup_file = tmp_path / "older.sqlite3"
    database_with_game(backup_file, "older")
    refused(cli("restore", "--data-dir", str(data), str(backup_file)), "exists", "--replace")
    assert games(data / SQLITE_FILE) == ["current"]
    done = cli("restore", "--data-dir", str(data), "--replace", str(backup_file))
    assert done.exit_code == 0, done.output
    assert games(data / SQLITE_FILE) == ["older"]
    [kept] = [path for path in data.iterdir() if ".replaced-" in path.name]
    assert games(kept) == ["current"]


def test_backup_refuses_to_overwrite_and_an_empty_folder(tmp_path: Path) -> None:
    refused(cli("backup", "--data-dir", str(tmp_path / "nothing"), str(tmp_path / "out")),
            "there is no Eixample database")
    data = tmp_path / "data"
    data.mkdir()
    database_with_game(data / SQLITE_FILE, "current")
    existing = tmp_path / "out"
    existing.write_text("keep me")
    refused(cli("backup", "--data-dir", str(data), str(existing)), "exists already")
    assert existing.read_text() == "keep me"


def test_backup_and_restore_point_postgresql_to_its_own_tools(tmp_path: Path) -> None:
    environment = {"DATABASE_URL": "postgresql+psycopg://eixample@127.0.0.1/eixample"}
    refused(cli("backup", str(tmp_path / "out"), environment=environment), "pg_dump")
    refused(cli("restore", str(tmp_path / "out"), environment=environment), "pg_restore")


@pytest.mark.parametrize("verb", ["backup", "restore"])
def test_the_commands_say_what_they_do(verb: str) -> None:
    shown = cli(verb, "--help")
    assert shown.exit_code == 0 and "--data-dir" in shown.output


def test_a_backup_of_the_release_before_migrations_is_restored_and_upgraded_at_start(tmp_path: Path) -> None:
    old = release_folder(tmp_path / "old") / SQLITE_FILE
    data = tmp_path / "data"
    done = cli("restore", "--data-dir", str(data), str(old))
    assert done.exit_code == 0, done.output
    store = Store(f"sqlite:///{data / SQLITE_FILE}")
    try:
        assert sorted(game.id for game in store.list_games()) == sorted(release_games())
    finally:
        store.close()


def test_backups_taken_while_bots_play_are_each_consistent(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    server = ServerProcess(data).start()
    bots = [{"kind": "bot", "bot": "random"}] * 4
    copies = []
    try:
        with server.client() as api:
            gid = create_game(api, "barcelona", bots)["game_id"]

            def moved_past(number: int) -> bool:
                return int(api.get(f"/api/games/{gid}/state").json()["move_number"]) > number

            for number in range(3):  # the bots write move after move meanwhile
                wait_for(partial(moved_past, 10 * number), 60, "bot moves")
                copy = tmp_path / f"during{number}.sqlite3"
                made = cli("backup", "--data-dir", str(data), str(copy))
                assert made.exit_code == 0, made.output
                copies.append(copy)
    finally:
        server.stop()
    moves = []
    for copy in copies:
        with sqlite3.connect(copy) as connection:
            [(move_count,)] = connection.execute("SELECT move_count FROM games WHERE id = ?", (gid,))
            numbers = [row[0] for row in connection.execute(
                "SELECT idx FROM actions WHERE game_id = ? ORDER BY idx", (gid,))]
        connection.close()
        assert numbers == list(range(move_count))  # the game and its actions from one moment
        moves.append(move_count)
    assert all(count > 10 * number for number, count in enumerate(moves))
