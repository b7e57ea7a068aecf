"""Backing up and restoring an SQLite data folder.

A backup is SQLite's online backup (`sqlite3.Connection.backup`): a consistent copy of the
database, the WAL's committed pages included, taken while a server goes on serving (readers do not
block the server's writes in WAL mode). It is one self-contained file (no WAL beside it).

A restore puts such a file in place of the folder's database. It holds the database's lock file
while it works, so it refuses while a server runs on the folder and no server starts meanwhile. It
refuses a file that is not an Eixample database, or that a newer release made, before touching
anything; a database already in the folder is kept beside it (`eixample.sqlite3.replaced-<time>`)
and replaced only when asked.

PostgreSQL is backed up with its own tools (`pg_dump`, `pg_restore`: docs/deploy.md).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from eixample.server import migrations
from eixample.server.db import SQLITE_FILE, lock_database

GAME_TABLES = frozenset({"games", "seats", "actions"})


class BackupError(Exception):
    """A backup or restore that was refused or failed; nothing was changed."""


def _open_read_only(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)


def check_database(path: Path) -> str | None:
    """Refuse (BackupError) a file that is not an intact Eixample database this release can open;
    its schema revision (None for a database of a release before migrations)."""
    if not path.is_file():
        raise BackupError(f"{path} is not a file")
    try:
        connection = _open_read_only(path)
        try:
            listed = connection.execute("SELECT name FROM sqlite_master WHERE type='table'")
            tables = {row[0] for row in listed}
            if not tables >= GAME_TABLES:
                raise BackupError(f"{path} is not an Eixample database (it has no games, seats and actions)")
            checked = connection.execute("PRAGMA quick_check").fetchone()
            if checked is None or checked[0] != "ok":
                raise BackupError(f"{path} is damaged: {checked[0] if checked else 'no answer'}")
            revisions = (
                [row[0] for row in connection.execute(f"SELECT version_num FROM {migrations.VERSION_TABLE}")]
                if migrations.VERSION_TABLE in tables else []
            )
        finally:
            connection.close()
    except sqlite3.DatabaseError as error:
        raise BackupError(f"{path} is not an Eixample database ({error})") from None
    unknown = [revision for revision in revisions if revision not in migrations.known()]
    if unknown:
        raise BackupError(
            f"{path} was made by a newer release of Eixample (schema revision {', '.join(unknown)}; "
            f"this release knows up to {migrations.head()}): restore it with that release"
        )
    return revisions[0] if revisions else None


def _copy(source: Path, target: Path) -> None:
    """SQLite's online backup of `source` into the new file `target` (made whole, or not at all)."""
    partial = target.with_name(f".{target.name}.partial")
    partial.unlink(missing_ok=True)
    try:
        reader = _open_read_only(source)
        try:
            writer = sqlite3.connect(partial)
            try:
                reader.backup(writer)
                writer.execute("PRAGMA journal_mode=DELETE")
            finally:
                writer.close()
        finally:
            reader.close()
        with open(partial, "rb") as written:
            os.fsync(written.fileno())
        os.replace(partial, target)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise


def database_file(data_dir: Path) -> Path:
    return data_dir / SQLITE_FILE


def backup(data_dir: Path, out: Path) -> Path:
    """Copy the folder's database to `out` (a new file), whether or not a server is running."""
    source = database_file(data_dir)
    if not source.exists():
        raise BackupError(f"there is no Eixample database in {data_dir} (no {SQLITE_FILE})")
    if out.exists():
        raise BackupError(f"{out} exists already: name a new file")
    if not out.parent.is_dir():
        raise BackupError(f"the folder {out.parent} does not exist")
    check_database(source)
    _copy(source, out)
    check_database(out)
    return out


def restore(data_dir: Path, backup_file: Path, *, replace: bool = False) -> Path | None:
    """Put `backup_file` in place as the folder's database; the database it replaced, kept beside
    it (None if there was none). Refused while a server uses the folder."""
    check_database(backup_file)
    data_dir.mkdir(parents=True, exist_ok=True)
    target = database_file(data_dir)
    lock = lock_database(target)
    if lock is None:
        raise BackupError(
            f"an Eixample server is using {target} (its lock file {target}.lock is held): stop it first"
        )
    try:
        return _restore_locked(target, backup_file, replace)
    finally:
        lock.release()


def _restore_locked(target: Path, backup_file: Path, replace: bool) -> Path | None:
    kept: Path | None = None
    if target.exists():
        if not replace:
            raise BackupError(f"{target} exists: to put the backup in its place (the database there is "
                              "kept beside it), restore with --replace")
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        kept = target.with_name(f"{target.name}.replaced-{stamp}")
        _copy(target, kept)  # its WAL's committed pages included
    _copy(backup_file, target.with_name(f"{target.name}.restoring"))
    for leftover in (target.with_name(f"{target.name}-wal"), target.with_name(f"{target.name}-shm")):
        with contextlib.suppress(FileNotFoundError):
            leftover.unlink()  # belonged to the database replaced (copied whole above)
    os.replace(target.with_name(f"{target.name}.restoring"), target)
    return kept
