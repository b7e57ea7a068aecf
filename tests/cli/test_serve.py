from __future__ import annotations

import pytest
from typer.testing import CliRunner

from eixample.cli import serve
from tests.cli.helpers import assert_clear_failure, invoke


def test_serve_without_the_server_says_so(runner: CliRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(serve, "SERVER_MODULE", "eixample_elsewhere.server_app")
    assert_clear_failure(invoke(runner, "serve"), "the web server is not available")


def test_the_command_list(runner: CliRunner) -> None:
    result = invoke(runner, "--help")
    assert result.exit_code == 0
    for command in ("play", "simulate", "tournament", "replay", "bench", "demo", "serve"):
        assert command in result.stdout
