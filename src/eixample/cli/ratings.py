"""`eixample ratings recompute`: every player's rating again from the stored games, in the order
they ended (after a change of the rating formula, or to check the live updates)."""

from __future__ import annotations

from typing import Annotated

import typer

from eixample.cli.common import fail
from eixample.cli.serve import DEFAULT_DATA_DIR

app = typer.Typer(help="Players' ratings in the web app's database.", no_args_is_help=True)


@app.command("recompute")
def recompute_command(
    data_dir: Annotated[
        str, typer.Option("--data-dir", help="Folder of the SQLite database.")
    ] = DEFAULT_DATA_DIR,
    database_url: Annotated[
        str | None,
        typer.Option("--database-url", help="Another database (default: $DATABASE_URL, else SQLite)."),
    ] = None,
) -> None:
    """Recompute every rating from the stored finished games, in the order they ended.

    SQLite: with the server stopped. PostgreSQL: also while servers run (their rating updates wait
    meanwhile)."""
    from eixample.server.db import DatabaseInUseError, Store
    from eixample.server.db import database_url as resolve
    from eixample.server.migrations import SchemaTooNewError
    from eixample.server.ratings import recompute

    try:
        store = Store(resolve(data_dir, database_url), exclusive=True)
    except (DatabaseInUseError, SchemaTooNewError) as error:
        fail(str(error))
    try:
        done = recompute(store)
    finally:
        store.close()
    typer.echo(f"recomputed the ratings of {done.players} players from {done.games} rated games")
