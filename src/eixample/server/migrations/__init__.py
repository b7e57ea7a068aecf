"""The database schema's history: Alembic revisions in `versions/`, applied at server start.

`upgrade` brings a database to this code's newest revision, in the caller's transaction (on
PostgreSQL under the advisory lock that makes processes starting together migrate once). It first
reads the revision the database is at: one this code does not know (written by a newer release)
is refused with SchemaTooNewError before anything is changed.

To change the schema, change the models and add a revision (`draft` writes one from the difference,
to review and complete): docs/deploy.md, "Changing the schema".

A database made before migrations existed has no `alembic_version` table: revision 0001 brings it
to that revision's schema (adding what the earlier releases lacked) and it is stamped like any other.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine
from sqlalchemy.engine import Connection

HERE = Path(__file__).resolve().parent
VERSION_TABLE = "alembic_version"


class SchemaTooNewError(Exception):
    """The database is at a revision this release does not know: a newer release upgraded it."""


def config(connection: Connection | None = None) -> Config:
    """Alembic's configuration, without an alembic.ini: the scripts ship inside the package."""
    settings = Config()
    settings.set_main_option("script_location", str(HERE))
    if connection is not None:
        settings.attributes["connection"] = connection
    return settings


def scripts() -> ScriptDirectory:
    return ScriptDirectory.from_config(config())


def head() -> str:
    """The newest revision this code knows."""
    revision = scripts().get_current_head()
    assert revision is not None
    return revision


def known() -> set[str]:
    """Every revision this code knows."""
    return {script.revision for script in scripts().walk_revisions()}


def current(connection: Connection) -> tuple[str, ...]:
    """The revisions the database is at (none before its first migration)."""
    return tuple(MigrationContext.configure(connection).get_current_heads())


def check_known(connection: Connection, where: str) -> None:
    """Refuse a database at a revision this code does not know (SchemaTooNewError)."""
    unknown = [revision for revision in current(connection) if revision not in known()]
    if unknown:
        raise SchemaTooNewError(
            f"the database {where} is at schema revision {', '.join(unknown)}, which this release of "
            f"Eixample does not know (its newest is {head()}): a newer release has upgraded it. "
            "Run that release (or newer), or restore a backup made before the upgrade"
        )


def upgrade(connection: Connection, where: str) -> None:
    """Bring the database to the newest revision, inside the connection's transaction."""
    check_known(connection, where)
    command.upgrade(config(connection), "head")


def draft(message: str) -> Path:
    """Write versions/<next number>_<message>.py: the operations that take a database at the newest
    revision to the models as they are now (Alembic's autogenerate), to review and complete."""
    with tempfile.TemporaryDirectory() as folder:
        engine = create_engine(f"sqlite:///{Path(folder) / 'draft.sqlite3'}")
        try:
            with engine.begin() as connection:
                upgrade(connection, "draft")
                number = f"{int(head()) + 1:04d}"
                command.revision(config(connection), message, autogenerate=True, rev_id=number)
        finally:
            engine.dispose()
    [written] = HERE.joinpath("versions").glob(f"{number}_*.py")
    return written
