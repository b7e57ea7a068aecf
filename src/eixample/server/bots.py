"""Bots for server seats, through `eixample.ai.make_bot(spec, seed)`.

While that package is not available, every spec falls back to a seeded random choice, so the
server works with any game before the real bots exist. A bot that fails or answers an illegal
action is replaced by a random legal action for that one decision: a game never stalls.
"""

from __future__ import annotations

import importlib
import logging
import random
import re
from collections.abc import Callable
from typing import Any, Protocol

from eixample.core.protocol import Action, State

log = logging.getLogger(__name__)

SUGGESTED_SPECS = ["random", "greedy", "mcts:seconds=1"]
SPEC_PATTERN = re.compile(r"^[A-Za-z][A-Za-z0-9_\-]*(:[A-Za-z0-9_.=\-]+)*$")


class Bot(Protocol):
    def choose(self, state: State, player: int) -> Action: ...


class SeededRandomBot:
    """Picks uniformly among the legal actions, from its own seeded generator."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def choose(self, state: State, player: int) -> Action:
        return self._rng.choice(state.legal_actions())


def _factory() -> Callable[[str, int], Any] | None:
    try:
        module = importlib.import_module("eixample.ai")
    except ImportError:
        return None
    factory = getattr(module, "make_bot", None)
    return factory if callable(factory) else None


def ai_available() -> bool:
    return _factory() is not None


def make_bot(spec: str, seed: int) -> Bot:
    """A bot for `spec` ("random", "greedy", "mcts:seconds=1", ...). ValueError for a bad spec."""
    if not SPEC_PATTERN.match(spec):
        raise ValueError(f"bad bot spec '{spec}' (examples: {', '.join(SUGGESTED_SPECS)})")
    factory = _factory()
    if factory is None:
        return SeededRandomBot(seed)
    bot: Bot = factory(spec, seed)
    return bot


def check_spec(spec: str) -> None:
    """Raise ValueError with a clear message if `spec` names no bot."""
    try:
        make_bot(spec, 0)
    except (ValueError, KeyError, TypeError) as error:
        message = str(error).strip("'\"") or f"bad bot spec '{spec}'"
        raise ValueError(message) from error


def choose_safely(bot: Bot, state: State, player: int, fallback_seed: int) -> Action:
    """The bot's choice on a copy of the state; a random legal action if it fails."""
    legal = state.legal_actions()
    try:
        action = bot.choose(state.clone(), player)
    except Exception:
        log.exception("bot failed at seat %d; playing a random legal action instead", player)
        return random.Random(fallback_seed).choice(legal)
    if action not in legal:
        log.error("bot at seat %d chose illegal action %r; playing a random legal one", player, action)
        return random.Random(fallback_seed).choice(legal)
    return action
