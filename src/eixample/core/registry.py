"""The games the platform knows, by name.

Games plug in through package entry points in the group `eixample.games`: each names a `Game`
object (`"barcelona = eixample.games.barcelona:GAME"` in this project's `pyproject.toml`). An
installed package with such an entry point is found by the CLI, the server, the bots and the
research interfaces alike, without any change here. `register` adds a game at run time (tests).
"""

from __future__ import annotations

import logging
from importlib.metadata import entry_points

from eixample.core.protocol import Game

ENTRY_POINT_GROUP = "eixample.games"

_GAMES: dict[str, Game] = {}
_installed_loaded = False
log = logging.getLogger(__name__)


def register(game: Game) -> Game:
    _GAMES[game.name] = game
    return game


def get_game(name: str) -> Game:
    _load_installed_games()
    try:
        return _GAMES[name]
    except KeyError:
        known = ", ".join(sorted(_GAMES)) or "none"
        raise KeyError(f"unknown game '{name}' (known: {known})") from None


def game_names() -> list[str]:
    _load_installed_games()
    return sorted(_GAMES)


def _load_installed_games() -> None:
    """Register every game of the `eixample.games` entry points, once. A plug-in that fails to
    load is left out with a warning: one broken package does not take the platform down."""
    global _installed_loaded
    if _installed_loaded:
        return
    _installed_loaded = True
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        try:
            game = entry.load()
        except Exception as error:
            log.warning("the game plug-in %r (%s) could not be loaded: %s", entry.name, entry.value, error)
            continue
        if entry.name != game.name:
            log.warning("the game plug-in %r names a game called %r; registered as %r", entry.name,
                        game.name, game.name)
        _GAMES.setdefault(game.name, game)
