"""`eixample ratings recompute`: every rating again from the stored games, the same as the live
updates gave; refused while a server holds the SQLite database."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from eixample.cli.main import app as cli
from eixample.server.db import Store
from eixample.server.ratings import HISTORY, RATINGS
from tests.server.test_server_ratings_store import random_games, rate, tables


def test_the_recompute_command_rebuilds_changed_ratings(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    store = Store(f"sqlite:///{tmp_path / 'data' / 'eixample.sqlite3'}")
    try:
        for game_id in random_games(store, 20, seed=9):
            rate(store, game_id)
        live = tables(store)
        with store.engine.begin() as connection:  # a rating gone wrong, and one game's history lost
            connection.execute(RATINGS.update().values(mu=1.0))
            connection.execute(HISTORY.delete().where(HISTORY.c.game_id == live[1][0][0]))
    finally:
        store.close()
    answer = CliRunner().invoke(cli, ["ratings", "recompute", "--data-dir", str(tmp_path / "data")])
    assert answer.exit_code == 0, answer.output
    assert "rated games" in answer.output
    store = Store(f"sqlite:///{tmp_path / 'data' / 'eixample.sqlite3'}")
    try:
        assert tables(store) == live
    finally:
        store.close()


def test_the_recompute_command_refuses_a_database_a_server_is_using(tmp_path: Path) -> None:
    serving = Store(f"sqlite:///{tmp_path / 'eixample.sqlite3'}", exclusive=True)
    try:
        answer = CliRunner().invoke(cli, ["ratings", "recompute", "--data-dir", str(tmp_path)])
    finally:
        serving.close()
    assert answer.exit_code == 2
    assert "already using the database" in answer.output
