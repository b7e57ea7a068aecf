"""The schema changes only through migrations (server/migrations): a new database is made by them
and matches the models, a database of an earlier release is brought up to date keeping its rows,
and one a newer release has upgraded is refused, changed in nothing. The checks of a new database
and of a newer release's run on SQLite and on a throwaway PostgreSQL cluster
(tests/server/postgres.py)."""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from filelock import FileLock
from sqlalchemy import MetaData, create_engine, inspect, text

from eixample.server import migrations
from eixample.server.admin import AdminBase
from eixample.server.db import SQLITE_FILE, Base, Store
from eixample.server.migrations import SchemaTooNewError
from eixample.server.notices import NoticeRow  # noqa: F401  (maps the notices' tables on TableBase)
from eixample.server.push import PushSubscriptionRow  # noqa: F401  (and the push subscriptions')
from eixample.server.ratings import RatingsBase
from eixample.server.table import TableBase
from tests.server.harness import free_port
from tests.server.postgres import PostgresCluster

FIRST_RELEASE_SCHEMA = """
CREATE TABLE games (id VARCHAR(32) NOT NULL, game VARCHAR(64) NOT NULL, players INTEGER NOT NULL,
    seed BIGINT NOT NULL, options JSON NOT NULL, status VARCHAR(16) NOT NULL,
    move_count INTEGER NOT NULL, to_move INTEGER NOT NULL, result JSON,
    created_at DATETIME NOT NULL, updated_at DATETIME NOT NULL, PRIMARY KEY (id));
CREATE INDEX ix_games_status ON games (status);
CREATE TABLE seats (game_id VARCHAR(32) NOT NULL, seat INTEGER NOT NULL, kind VARCHAR(16) NOT NULL,
    name VARCHAR(64) NOT NULL, bot VARCHAR(128), token_hash VARCHAR(64), joined BOOLEAN NOT NULL,
    PRIMARY KEY (game_id, seat), FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE);
CREATE INDEX ix_seats_token_hash ON seats (token_hash);
CREATE TABLE actions (game_id VARCHAR(32) NOT NULL, idx INTEGER NOT NULL, seat INTEGER NOT NULL,
    action VARCHAR(512) NOT NULL, created_at DATETIME NOT NULL, PRIMARY KEY (game_id, idx),
    FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE);
INSERT INTO games VALUES ('g1', 'tictactoe', 2, 7, '{}', 'running', 2, 0, NULL,
    '2026-01-01 10:00:00.000000', '2026-01-01 10:01:00.000000');
INSERT INTO seats VALUES ('g1', 0, 'person', 'Ana', NULL, 'aaaa', 1);
INSERT INTO seats VALUES ('g1', 1, 'person', 'Biel', NULL, 'bbbb', 1);
INSERT INTO actions VALUES ('g1', 0, 0, 'mark 4', '2026-01-01 10:00:30.000000');
INSERT INTO actions VALUES ('g1', 1, 1, 'mark 0', '2026-01-01 10:01:00.000000');
"""
"""The tables as the first release of the server made them (before seeds could be shown, hints,
claims, bot leases and the table around a game), with one game in play."""


def first_release_database(path: Path) -> str:
    """An SQLite file at `path` holding FIRST_RELEASE_SCHEMA: its URL."""
    with sqlite3.connect(path) as connection:
        connection.executescript(FIRST_RELEASE_SCHEMA)
    connection.close()
    return f"sqlite:///{path}"


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def empty_database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of an empty database of each kind the server runs on: an SQLite file, and a
    database of the module's throwaway PostgreSQL cluster."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.sqlite3'}"
    cluster: PostgresCluster = request.getfixturevalue("postgres")
    return cluster.new_database()


def models() -> MetaData:
    """Every table the code maps, in one MetaData."""
    combined = MetaData()
    for metadata in (Base.metadata, TableBase.metadata, RatingsBase.metadata, AdminBase.metadata):
        for table in metadata.tables.values():
            table.to_metadata(combined)
    return combined


def schema_differences(url: str) -> list[object]:
    engine = create_engine(url)
    with engine.connect() as connection:
        differences: list[object] = compare_metadata(MigrationContext.configure(connection), models())
    engine.dispose()
    return differences


def revisions(database: Path | str) -> list[str]:
    """The revisions the database's alembic_version holds: an SQLite file's, or a URL's."""
    engine = create_engine(f"sqlite:///{database}" if isinstance(database, Path) else database)
    with engine.connect() as connection:
        found = [row[0] for row in connection.execute(text("SELECT version_num FROM alembic_version"))]
    engine.dispose()
    return found


def test_a_new_database_is_made_by_the_migrations_and_matches_the_models(empty_database: str) -> None:
    Store(empty_database).close()
    assert revisions(empty_database) == [migrations.head()]
    assert schema_differences(empty_database) == []
    Store(empty_database).close()  # opening it again changes nothing
    assert revisions(empty_database) == [migrations.head()]


def test_the_migrations_know_one_line_of_revisions() -> None:
    scripts = migrations.scripts()
    assert len(scripts.get_heads()) == 1  # two revisions on the same parent must be merged
    assert [script.revision for script in scripts.walk_revisions()][-1] == "0001"


def test_a_seat_of_the_first_release_is_invitation_only(tmp_path: Path) -> None:
    store = Store(first_release_database(tmp_path / "games.sqlite3"))
    game = store.load_game("g1")
    store.close()
    assert game is not None and [seat.open for seat in game.seats] == [False, False]


def test_a_database_of_the_first_release_keeps_its_game_and_gains_the_later_columns(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    store = Store(first_release_database(path))
    game = store.load_game("g1")
    store.close()
    assert game is not None
    assert (game.game, game.seed, game.status, game.move_count) == ("tictactoe", 7, "running", 2)
    assert game.actions == [(0, "mark 4"), (1, "mark 0")]
    assert [(seat.name, seat.token_hash, seat.joined, seat.claim_hash) for seat in game.seats] == [
        ("Ana", "aaaa", True, None), ("Biel", "bbbb", True, None)]
    assert (game.seed_shown, game.hints_allowed, game.creator_hash) == (False, False, None)
    assert revisions(path) == [migrations.head()]
    with sqlite3.connect(path) as connection:
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        games_columns = {row[1] for row in connection.execute("PRAGMA table_info(games)")}
    connection.close()
    assert {"bot_leases", "game_tables", "chat_lines"} <= tables
    assert {"seed_shown", "creator_hash", "hints_allowed"} <= games_columns


REBUILD_GAMES = '''
import sqlalchemy as sa
from alembic import op

revision = "0900"
down_revision = "{head}"


def upgrade() -> None:
    with op.batch_alter_table("games", recreate="always") as games:
        games.alter_column("status", existing_type=sa.String(16), type_=sa.String(20))
'''
"""A revision that changes `games` the way SQLite must: a new table, the rows copied, the old dropped."""


def test_a_revision_that_rebuilds_the_games_table_keeps_every_seat_and_action(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "games.sqlite3"
    Store(first_release_database(path)).close()
    scripts = tmp_path / "migrations"
    shutil.copytree(migrations.HERE, scripts, ignore=shutil.ignore_patterns("__pycache__"))
    revision = REBUILD_GAMES.replace("{head}", migrations.head())
    (scripts / "versions" / "0900_rebuild_games.py").write_text(revision)
    monkeypatch.setattr(migrations, "HERE", scripts)
    store = Store(f"sqlite:///{path}")
    game = store.load_game("g1")
    store.close()
    assert revisions(path) == ["0900"]
    assert game is not None and game.actions == [(0, "mark 4"), (1, "mark 0")]
    assert [seat.name for seat in game.seats] == ["Ana", "Biel"]


def stamp(url: str, revision: str) -> None:
    """The database as a newer release leaves it: at `revision`, with a column this one lacks."""
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = :revision"), {"revision": revision})
        connection.execute(text("ALTER TABLE games ADD COLUMN made_by_a_newer_release INTEGER"))
    engine.dispose()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def columns(url: str) -> dict[str, list[str]]:
    """Each table's columns, by name."""
    engine = create_engine(url)
    found = inspect(engine)
    tables = {name: sorted(column["name"] for column in found.get_columns(name))
              for name in found.get_table_names()}
    engine.dispose()
    return tables


def test_a_store_refuses_a_database_a_newer_release_has_upgraded(empty_database: str) -> None:
    Store(empty_database).close()
    stamp(empty_database, "0999")
    path = Path(empty_database.removeprefix("sqlite:///"))
    sqlite = empty_database.startswith("sqlite:")
    before = (columns(empty_database), digest(path) if sqlite else None)
    with pytest.raises(SchemaTooNewError, match=r"schema revision 0999, which this release .* does not know"):
        Store(empty_database, exclusive=True)
    assert (columns(empty_database), digest(path) if sqlite else None) == before
    assert revisions(empty_database) == ["0999"]
    if sqlite:
        lock = FileLock(f"{path}.lock")  # the refused store let its lock go
        lock.acquire(timeout=0)
        lock.release()


def test_serve_refuses_a_database_a_newer_release_has_upgraded(tmp_path: Path) -> None:
    path = tmp_path / SQLITE_FILE
    Store(f"sqlite:///{path}").close()
    stamp(f"sqlite:///{path}", "0999")
    before = digest(path)
    environment = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
    environment["PYTHONPATH"] = os.pathsep.join(sys.path)
    done = subprocess.run(
        [sys.executable, "-c", "from eixample.cli.main import app; app()", "serve",
         "--data-dir", str(tmp_path), "--port", str(free_port())],
        capture_output=True, text=True, timeout=120, env=environment, check=False,
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("Eixample cannot start: the database ")
    assert "is at schema revision 0999, which this release of Eixample does not know" in lines[0]
    assert "Eixample serving" not in done.stdout
    assert digest(path) == before
    assert revisions(path) == ["0999"]


def test_a_draft_revision_follows_the_newest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    scripts = tmp_path / "migrations"
    shutil.copytree(migrations.HERE, scripts, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(migrations, "HERE", scripts)
    newest = migrations.head()
    following = f"{int(newest) + 1:04d}"
    written = migrations.draft("add a column")
    assert written == scripts / "versions" / f"{following}_add_a_column.py"
    text = written.read_text()
    assert f"revision = '{following}'" in text and f"down_revision = '{newest}'" in text
    assert migrations.head() == following
