"""`eixample serve`: the web app, from `eixample.server.app:run` (imported only when asked)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Annotated, Any

import typer

from eixample.cli.common import fail

SERVER_MODULE = "eixample.server.app"


def load_server() -> Callable[..., Any]:
    """`run` of the web server; a clear failure when the server is not there."""
    try:
        module = importlib.import_module(SERVER_MODULE)
    except ModuleNotFoundError as error:
        if error.name is not None and SERVER_MODULE.startswith(error.name):
            fail(f"the web server is not available: {SERVER_MODULE} is missing")
        raise
    run = getattr(module, "run", None)
    if not callable(run):
        fail(f"the web server is not available: {SERVER_MODULE} has no run()")
    return run


def serve_command(
    host: Annotated[str | None, typer.Option(help="Address to listen on (default: the server's).")] = None,
    port: Annotated[int | None, typer.Option(help="Port to listen on (default: the server's).")] = None,
    data_dir: Annotated[
        str | None, typer.Option("--data-dir", help="Folder of the SQLite database (default: ./data).")
    ] = None,
    allowed_host: Annotated[
        list[str] | None,
        typer.Option(
            "--allowed-host",
            help="Another host name the server answers for (besides the listen address and "
            "localhost), e.g. its public DNS name; repeat for more.",
        ),
    ] = None,
) -> None:
    """Start the web app (SQLite in the data folder; $DATABASE_URL selects another database)."""
    run = load_server()
    given = (("host", host), ("port", port), ("data_dir", data_dir), ("allowed_hosts", allowed_host))
    options = {key: value for key, value in given if value is not None and value != []}
    run(**options)
