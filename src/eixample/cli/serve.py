"""`eixample serve`: the web app, from `eixample.server.app:run` (imported only when asked)."""

from __future__ import annotations

import errno
import importlib
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from eixample.cli.common import fail

SERVER_MODULE = "eixample.server.app"
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_DATA_DIR = "data"
PORTS = range(1, 65536)


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


def check_port(port: int) -> int:
    if port not in PORTS:
        fail(f"--port {port} is out of range: use 1 to 65535")
    return port


def check_free(host: str, port: int) -> None:
    """Fail with a clear line when `port` on `host` cannot be listened on (taken, or the address
    is not this machine's), before the server starts and prints a traceback."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as error:
        fail(f"--host {host}: {error.strerror or error}")
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                other = port + 1 if port < PORTS.stop - 1 else DEFAULT_PORT
                fail(f"port {port} on {host} is already in use: try another, e.g. --port {other}")
            fail(f"cannot listen on {host}:{port}: {error.strerror or error}")


def serve_command(
    host: Annotated[
        str | None, typer.Option(help="Address to listen on.", show_default=DEFAULT_HOST)
    ] = None,
    port: Annotated[
        int | None, typer.Option(help="Port to listen on (1 to 65535).", show_default=str(DEFAULT_PORT))
    ] = None,
    data_dir: Annotated[
        str | None,
        typer.Option("--data-dir", help="Folder of the SQLite database.", show_default=DEFAULT_DATA_DIR),
    ] = None,
    allowed_host: Annotated[
        list[str] | None,
        typer.Option(
            "--allowed-host",
            help="Another host name the server answers for (besides the listen address and "
            "localhost), e.g. its public DNS name; repeat for more.",
        ),
    ] = None,
    database_url: Annotated[
        str | None, typer.Option("--database-url", help="The database (default: $DATABASE_URL, else SQLite).")
    ] = None,
    bot_delay: Annotated[
        float | None,
        typer.Option("--bot-delay", help="Seconds before each bot decision.", show_default="0.5"),
    ] = None,
    log_level: Annotated[
        str | None, typer.Option("--log-level", help="debug, info, warning or error.", show_default="info")
    ] = None,
    log_format: Annotated[
        str | None, typer.Option("--log-format", help="json or text.", show_default="json")
    ] = None,
    drain_seconds: Annotated[
        float | None,
        typer.Option("--drain-seconds", help="On SIGTERM, how long moves in flight may take.",
                     show_default="10"),
    ] = None,
    config: Annotated[
        Path | None,
        typer.Option("--config", help="A TOML file of settings (docs/deploy.md lists them); "
                     "EIXAMPLE_<NAME> variables and flags override it."),
    ] = None,
    print_config: Annotated[
        bool, typer.Option("--print-config", help="Print the settings in force (as TOML) and exit.")
    ] = False,
) -> None:
    """Start the web app (SQLite in the data folder; $DATABASE_URL selects another database).
    Every setting can also come from a file (--config) or an EIXAMPLE_<NAME> variable."""
    from eixample.server.settings import SettingsError, as_toml, load

    if port is not None:
        check_port(port)
    flags = {
        "host": host, "port": port, "data_dir": data_dir, "allowed_hosts": allowed_host,
        "database_url": database_url, "bot_delay": bot_delay, "log_level": log_level,
        "log_format": log_format, "drain_seconds": drain_seconds,
    }
    try:
        settings = load(config, flags)
    except SettingsError as error:
        fail(str(error))
    if print_config:
        typer.echo(as_toml(settings), nl=False)
        return
    check_port(settings.port)
    run = load_server()
    check_free(settings.host, settings.port)
    run(settings=settings)
