"""Shared by the interface tests: the games to cover and random walks through them."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from eixample.core.protocol import State
from eixample.interop.table import GameTable, research_games

SETUPS: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "barcelona": [(2, {}), (3, {"action_tiles": "printed"}), (4, {}), (1, {"difficulty": "hard"})],
    "tictactoe": [(2, {})],
}
"""Player counts and options per game; a game registered later is covered with its fewest
players (at least 2 when it allows it)."""


def setups() -> list[Any]:
    cases = []
    for name in research_games():
        from eixample.core.registry import get_game

        game = get_game(name)
        default = [(min(max(2, game.min_players), game.max_players), {})]
        for players, options in SETUPS.get(name, default):
            cases.append(pytest.param(name, players, options, id=f"{name}-{players}"))
    return cases


def first_setup_per_game() -> list[Any]:
    seen: set[str] = set()
    cases = []
    for case in setups():
        name = case.values[0]
        if name not in seen:
            seen.add(name)
            cases.append(case)
    return cases


def random_walk(table: GameTable, seed: int) -> Iterator[State]:
    """Every state of one random game, the last one terminal."""
    pick = random.Random(seed)
    state = table.new_state(seed)
    while not state.is_terminal():
        yield state
        state.apply(pick.choice(state.legal_actions()))
    yield state
