"""PostgreSQL: a database the release before migrations made keeps every game when this release
opens it (the same checks as tests/server/test_server_upgrade.py, on that release's PostgreSQL
tables), and processes opening an empty database together migrate it once. (A database a newer
release has upgraded is refused: tests/server/test_server_migrations.py.)"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import Column, MetaData, Table, create_engine, insert, inspect, select, text

from eixample.server import migrations
from eixample.server.db import SQLITE_FILE, Base
from eixample.server.table import TableBase
from tests.server.harness import ServerProcess
from tests.server.postgres import PostgresCluster
from tests.server.test_server_migrations import revisions
from tests.server.test_server_upgrade import (
    RELEASE,
    STORES,
    check_finished_games_replay,
    check_games_as_the_release_showed_them,
    continue_unfinished_games,
    release_folder,
    release_games,
    state,
)

pytestmark = pytest.mark.postgres


new_database = PostgresCluster.new_database
"""A fresh database of the cluster: its DATABASE_URL."""


def release_database(url: str, folder: Path) -> None:
    """The release's PostgreSQL tables, holding the rows of its SQLite database."""
    source = create_engine(f"sqlite:///{release_folder(folder) / SQLITE_FILE}")
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


def test_a_postgresql_database_of_the_release_before_migrations_keeps_every_game(
    postgres: PostgresCluster, tmp_path: Path
) -> None:
    url = new_database(postgres)
    release_database(url, tmp_path / "release")
    games = release_games()
    server = ServerProcess(tmp_path, database_url=url).start()
    try:
        with server.client() as api:
            check_games_as_the_release_showed_them(api, games)
            assert check_finished_games_replay(api, games) >= 6
            moved = continue_unfinished_games(api, games)
            assert len(moved) >= 10
    finally:
        server.stop()
    server.start()
    try:
        with server.client() as api:
            for gid, number in moved.items():
                assert state(api, gid)["move_number"] >= number, gid
    finally:
        server.stop()
    assert revisions(url) == [migrations.head()]


OPEN_WHEN_TOLD = """
import pathlib, sys, time
from eixample.server.db import Store
go = pathlib.Path(sys.argv[2])
pathlib.Path(sys.argv[3]).touch()
while not go.exists():
    time.sleep(0.01)
Store(sys.argv[1]).close()
"""
"""A process that imports the store, says it is ready, and opens the database once told."""


def test_processes_opening_an_empty_database_together_migrate_it_once(
    postgres: PostgresCluster, tmp_path: Path
) -> None:
    url = new_database(postgres)
    go = tmp_path / "go"
    ready = [tmp_path / f"ready{number}" for number in range(3)]
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    processes = [
        subprocess.Popen([sys.executable, "-c", OPEN_WHEN_TOLD, url, str(go), str(flag)], env=environment,
                         stderr=subprocess.PIPE, text=True)
        for flag in ready
    ]
    try:
        deadline = time.monotonic() + 120
        while not all(flag.exists() for flag in ready) and time.monotonic() < deadline:
            time.sleep(0.05)
        go.touch()
        for process in processes:
            _, errors = process.communicate(timeout=120)
            assert process.returncode == 0, errors
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait()
    assert revisions(url) == [migrations.head()]
