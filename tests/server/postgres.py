"""A throwaway PostgreSQL cluster for tests: Debian's `postgresql` package, `initdb` in a temporary
folder, started with `pg_ctl` on a free 127.0.0.1 port (and a socket folder of its own), run as
the `postgres` user when the tests run as root (PostgreSQL refuses to run as root), stopped and
removed at the end.

The `postgres` fixture (tests/server/conftest.py) gives each test module one cluster;
`ServersOnOneDatabase` starts server processes on one of its databases.

A machine without PostgreSQL fails these tests with a message saying how to install it
(`make postgres`): they are never skipped.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.harness import ServerProcess, free_port

PG_ROOT = Path("/usr/lib/postgresql")
OS_USER = "postgres"
DATABASE = "eixample"


def pg_bin() -> Path:
    """The newest installed PostgreSQL's programs; the test fails clearly when there is none."""
    versions = sorted(
        (path for path in PG_ROOT.glob("*/bin") if (path / "initdb").is_file()),
        key=lambda path: int(path.parent.name) if path.parent.name.isdigit() else 0,
    )
    if not versions:
        pytest.fail(
            f"PostgreSQL is not installed (no {PG_ROOT}/<version>/bin/initdb): these tests need "
            "Debian's postgresql package; run `make postgres` (apt-get install postgresql)",
            pytrace=False,
        )
    return versions[-1]


class PostgresCluster:
    def __init__(self) -> None:
        self.bin = pg_bin()
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="eixample-pg-"))
        self.data = self.root / "data"
        self.sockets = self.root / "sockets"
        self.log = self.root / "postgres.log"
        self.sockets.mkdir()
        self._as_other_user = os.geteuid() == 0
        if self._as_other_user:
            try:
                user = pwd.getpwnam(OS_USER)
            except KeyError:
                pytest.fail(f"running as root, PostgreSQL needs the OS user {OS_USER!r} (Debian's "
                            "postgresql package makes it)", pytrace=False)
            for path in (self.root, self.sockets):
                os.chown(path, user.pw_uid, user.pw_gid)

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.bin / program), *args]
        if self._as_other_user:
            command = ["runuser", "-u", OS_USER, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
        if done.returncode != 0:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise RuntimeError(f"{program} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}\n{log}")

    def start(self) -> PostgresCluster:
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "--no-sync",
                  "-E", "UTF8", "--locale", "C")
        # fsync off: the tests kill server processes, never PostgreSQL; committed is committed
        options = (f"-p {self.port} -k {self.sockets} -c listen_addresses=127.0.0.1 -c fsync=off "
                   "-c max_connections=60 -c shared_buffers=16MB")
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "-t", "60",
                  "start")
        self._run("createdb", "-h", str(self.sockets), "-p", str(self.port), "-U", "postgres", DATABASE)
        return self

    def new_database(self) -> str:
        """A fresh, empty database of the cluster: its DATABASE_URL."""
        import psycopg

        name = f"t{time.monotonic_ns()}"
        with psycopg.connect(self.conninfo, autocommit=True) as connection:
            connection.execute(f"CREATE DATABASE {name}")
        return self.url.rsplit("/", 1)[0] + f"/{name}"

    @property
    def url(self) -> str:
        """The server's DATABASE_URL (TCP on the loopback)."""
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{DATABASE}"

    @property
    def conninfo(self) -> str:
        return f"host=127.0.0.1 port={self.port} user=postgres dbname={DATABASE}"

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


@pytest.fixture(scope="module")
def postgres() -> Iterator[PostgresCluster]:
    """A throwaway cluster for one test module, stopped after its last test."""
    cluster = PostgresCluster().start()
    yield cluster
    cluster.stop()


class ServersOnOneDatabase:
    """Server processes on one database, each with a data folder of its own; stopped at the end.
    The `options` (of ServerProcess) go to every process, each start's own to its process."""

    def __init__(self, folder: Path, database: str, **options: Any) -> None:
        self.folder = folder
        self.database = database
        self.options = options
        self.made: list[ServerProcess] = []

    def start(self, *preload: Path, **options: Any) -> ServerProcess:
        folder = self.folder / f"server{len(self.made)}"
        folder.mkdir()
        process = ServerProcess(
            folder, database_url=self.database, preload=preload, **{**self.options, **options}
        )
        self.made.append(process)
        return process.start()

    def stop(self) -> None:
        for process in self.made:
            process.stop()
