"""Records the tests write by hand (the format of eixample.core.records)."""

from __future__ import annotations

from eixample.core.protocol import JsonDict


def record_of(actions: list[str], game: str = "tictactoe") -> JsonDict:
    """The record of a 2-player game of `game` with seed 0 and no options, played up to `actions`."""
    return {"format": 1, "game": game, "players": 2, "seed": 0, "options": {}, "actions": actions}
