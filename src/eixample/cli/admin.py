"""`eixample admin create NAME`: an account with the admin role, made on the server's machine
(whoever can run commands there may moderate), in the database the server's settings name."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from eixample.cli.common import fail

admin_app = typer.Typer(help="Moderators' accounts (docs/deploy.md, Moderation).", no_args_is_help=True)


@admin_app.command("create")
def create_command(
    name: Annotated[str, typer.Argument(help="The admin's user name (to sign in with).")],
    config: Annotated[
        Path | None, typer.Option("--config", help="The server's settings file (for its database).")
    ] = None,
    data_dir: Annotated[str | None, typer.Option("--data-dir", help="Folder of the SQLite database.")] = None,
    password_stdin: Annotated[
        bool, typer.Option("--password-stdin", help="Read the password from standard input (one line).")
    ] = False,
) -> None:
    """Make an account with the admin role; its password is asked for (or read from stdin)."""
    from argon2 import PasswordHasher
    from sqlalchemy.engine import make_url

    from eixample.server.accounts import check_name, check_password
    from eixample.server.admin import Moderation
    from eixample.server.db import Store
    from eixample.server.db import database_url as resolve_database_url
    from eixample.server.errors import ApiError
    from eixample.server.settings import SettingsError, load

    try:
        settings = load(config, {"data_dir": data_dir})
    except SettingsError as error:
        fail(str(error))
    if password_stdin:
        password = sys.stdin.readline().rstrip("\n")
    else:
        password = typer.prompt("Password", hide_input=True, confirmation_prompt=True)
    try:
        name = check_name(name)
        check_password(password, name)
    except ApiError as error:
        fail(error.message)
    secret = settings.database_url.get_secret_value() if settings.database_url is not None else None
    url = resolve_database_url(settings.data_dir, secret)
    store = Store(url, exclusive=False)
    try:
        account = Moderation(store).make_admin(name, PasswordHasher().hash(password))
    except ValueError as error:
        fail(str(error))
    finally:
        store.close()
    shown = make_url(url).render_as_string(hide_password=True)
    typer.echo(f"admin {account.name} created in {shown}: sign in on the site, then open /admin")
