"""The `eixample` command: every subcommand, on one Typer app."""

from __future__ import annotations

from typing import Annotated

import typer

from eixample.cli.analyze import analyze_command
from eixample.cli.backup import backup_command, restore_command
from eixample.cli.bench import bench_command
from eixample.cli.common import package_version
from eixample.cli.demo import demo_command
from eixample.cli.play import play_command
from eixample.cli.ratings import app as ratings_app
from eixample.cli.replay import replay_command
from eixample.cli.serve import serve_command
from eixample.cli.simulate import simulate_command
from eixample.cli.tournament import tournament_command

app = typer.Typer(
    name="eixample",
    help="Play, simulate and study the board games Barcelona and Barcelona: The Rose of Fire.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)



def show_version(value: bool) -> None:
    if value:
        typer.echo(f"eixample {package_version()}")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[bool, typer.Option("--version", help="Show the version and exit.", is_eager=True,
                                          callback=show_version)] = False,
) -> None:
    """Play, simulate and study the board games Barcelona and Barcelona: The Rose of Fire."""


app.command("play")(play_command)
app.command("simulate")(simulate_command)
app.command("tournament")(tournament_command)
app.command("replay")(replay_command)
app.command("bench")(bench_command)
app.command("demo")(demo_command)
app.command("serve")(serve_command)
app.command("analyze")(analyze_command)
app.command("backup")(backup_command)
app.command("restore")(restore_command)
app.add_typer(ratings_app, name="ratings")


if __name__ == "__main__":
    app()
