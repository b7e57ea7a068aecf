"""PostgreSQL: processes opening an empty database together migrate it once. (A database the
release before migrations made keeps every game: tests/server/test_server_upgrade.py; a database
a newer release has upgraded is refused: tests/server/test_server_migrations.py.)"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from eixample.server import migrations
from tests.server.postgres import PostgresCluster
from tests.server.test_server_migrations import revisions

pytestmark = pytest.mark.postgres


new_database = PostgresCluster.new_database
"""A fresh database of the cluster: its DATABASE_URL."""


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
