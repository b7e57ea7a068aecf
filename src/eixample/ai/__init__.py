"""Bots that play any game of the platform through the protocol alone, and the means to pit them
against each other: matches, statistics and round-robin ratings."""

from eixample.ai.base import Bot, BotError
from eixample.ai.specs import BotSpecError, bot_names, check_spec, make_bot, parse_spec
from eixample.ai.view import ClosedViewError, PlayerView, player_view

__all__ = [
    "Bot",
    "BotError",
    "BotSpecError",
    "ClosedViewError",
    "PlayerView",
    "bot_names",
    "check_spec",
    "make_bot",
    "parse_spec",
    "player_view",
]
