"""Fixtures: a real server process shared by the tests, and fresh ones for crash and browser tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.browser import browser, module_server, page  # noqa: F401  (the browser tests' fixtures)
from tests.server.harness import ServerProcess
from tests.server.postgres import postgres  # noqa: F401  (the PostgreSQL tests' cluster)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for the tests of a test process; each test makes its own games."""
    process = ServerProcess(tmp_path_factory.mktemp("server-data")).start()
    yield process
    process.stop()


@pytest.fixture()
def new_server(tmp_path: Path) -> Iterator[Callable[..., ServerProcess]]:
    made: list[ServerProcess] = []

    def make(
        bot_delay: float = 0.0, limits: dict[str, Any] | None = None, allowed_hosts: tuple[str, ...] = ()
    ) -> ServerProcess:
        process = ServerProcess(
            tmp_path / f"data{len(made)}", bot_delay=bot_delay, limits=limits, allowed_hosts=allowed_hosts
        )
        process.data_dir.mkdir()
        made.append(process)
        return process

    yield make
    for process in made:
        process.stop()


@pytest.fixture()
def api(server: ServerProcess) -> Iterator[httpx.Client]:
    with server.client() as client:
        yield client
