from __future__ import annotations

from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

from eixample.core import registry
from eixample.core.protocol import Game
from tests.cli import games


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def steps_game(monkeypatch: pytest.MonkeyPatch) -> Iterator[Game]:
    """The two-decisions-per-turn test game, known to the registry for this test only."""
    registry.get_game("tictactoe")
    monkeypatch.setitem(registry._GAMES, games.GAME.name, games.GAME)
    yield games.GAME
