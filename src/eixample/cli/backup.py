"""`eixample backup` and `eixample restore`: the SQLite data folder's database, to a file and back
(`eixample.server.backup`). PostgreSQL: pg_dump and pg_restore (docs/deploy.md)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from eixample.cli.common import fail
from eixample.cli.serve import DEFAULT_DATA_DIR

DataDir = Annotated[str, typer.Option("--data-dir", help="Folder of the SQLite database.")]


def refuse_postgres(verb: str) -> None:
    if os.environ.get("DATABASE_URL", "").strip():
        fail(f"$DATABASE_URL names another database: {verb} it with its own tools "
             "(PostgreSQL: pg_dump and pg_restore, see docs/deploy.md)")


def backup_command(
    out: Annotated[Path, typer.Argument(help="The backup file to write (a new file).")],
    data_dir: DataDir = DEFAULT_DATA_DIR,
) -> None:
    """Copy the games' database to a file, also while the server is running (SQLite's online backup)."""
    from eixample.server.backup import BackupError, backup

    refuse_postgres("back up")
    try:
        written = backup(Path(data_dir), out)
    except BackupError as error:
        fail(str(error))
    typer.echo(f"backed up the database of {data_dir} to {written} ({written.stat().st_size} bytes)")


def restore_command(
    backup_file: Annotated[Path, typer.Argument(help="A file written by `eixample backup`.")],
    data_dir: DataDir = DEFAULT_DATA_DIR,
    replace: Annotated[
        bool, typer.Option("--replace", help="Replace the folder's database (it is kept beside it).")
    ] = False,
) -> None:
    """Put a backup in place as the data folder's database (the server must be stopped)."""
    from eixample.server.backup import BackupError, restore

    refuse_postgres("restore")
    try:
        kept = restore(Path(data_dir), backup_file, replace=replace)
    except BackupError as error:
        fail(str(error))
    if kept is not None:
        typer.echo(f"the database it replaced is kept as {kept}")
    typer.echo(f"restored {backup_file} into {data_dir}: start the server to go on")
