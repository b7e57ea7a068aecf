"""`eixample tournament`: a round robin between bot configurations, rated with openskill."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from eixample.ai.tournament import Ratings, schedule
from eixample.cli.common import (
    FirstSeedOption,
    GameOption,
    RayOption,
    WorkersOption,
    console,
    error_console,
    fail,
    game_bots_and_players,
    play_games,
)
from eixample.core.errors import EixampleError


def tournament_command(
    bots: Annotated[str, typer.Option(
        help="Comma-separated bot specs, each entered once.")] = "random,greedy,mcts",
    games_per_pair: Annotated[int, typer.Option(
        min=1, help="Games each group of players plays (seats rotate).")] = 10,
    players: Annotated[int, typer.Option(min=1, help="Players per game.")] = 2,
    seed: FirstSeedOption = 0,
    workers: WorkersOption = None,
    game_name: GameOption = None,
    use_ray: RayOption = False,
) -> None:
    """Round robin between bot configurations; Plackett-Luce ratings in a table."""
    game, specs, players = game_bots_and_players(game_name, bots, players)
    try:
        lineups = schedule(specs, players, games_per_pair)
    except ValueError as error:
        fail(str(error))
    results = play_games(game, specs, lineups, len(lineups), seed, workers, use_ray, error_console())
    ratings = Ratings(specs)
    played = 0
    try:
        for result in results:
            ratings.update(result)
            played += 1
    except (EixampleError, ValueError, RuntimeError) as error:
        fail(f"a game failed: {error}")
    out = console()
    out.print(standings_table(ratings, played, game.title))
    if players == 2:
        out.print(head_to_head_table(ratings))


def standings_table(ratings: Ratings, games: int, title: str) -> Table:
    table = Table(title=f"Round robin of {title}: {games} games, Plackett-Luce ratings")
    for name in ("Rank", "Bot", "Rating", "mu", "sigma", "Games", "Wins", "Win rate"):
        table.add_column(name, justify="left" if name == "Bot" else "right")
    for rank, standing in enumerate(ratings.table(), start=1):
        table.add_row(str(rank), standing.spec, f"{standing.ordinal:.2f}", f"{standing.rating.mu:.2f}",
                      f"{standing.rating.sigma:.2f}", str(standing.games), str(standing.wins),
                      f"{standing.win_rate:.1%}")
    table.caption = "Rating = mu - 3 sigma (a conservative estimate of skill)"
    return table


def head_to_head_table(ratings: Ratings) -> Table:
    table = Table(title="Head to head: games the row bot finished ahead of the column bot")
    specs = [standing.spec for standing in ratings.table()]
    table.add_column("")
    for spec in specs:
        table.add_column(spec, justify="right")
    for row in specs:
        table.add_row(row, *("-" if row == col else str(ratings.head_to_head.get((row, col), 0))
                             for col in specs))
    return table
