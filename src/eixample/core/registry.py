"""The games the platform knows, by name."""

from __future__ import annotations

from eixample.core.protocol import Game

_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    _GAMES[game.name] = game
    return game


def get_game(name: str) -> Game:
    _load_builtin_games()
    try:
        return _GAMES[name]
    except KeyError:
        known = ", ".join(sorted(_GAMES)) or "none"
        raise KeyError(f"unknown game '{name}' (known: {known})") from None


def game_names() -> list[str]:
    _load_builtin_games()
    return sorted(_GAMES)


def _load_builtin_games() -> None:
    import eixample.games.barcelona
    import eixample.games.rose_of_fire
    import eixample.games.tictactoe  # noqa: F401
