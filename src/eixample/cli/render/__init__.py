"""Drawing a game's table in the terminal: one renderer per game, and a generic fallback.

A renderer turns `view(seat)` (a JSON-ready dict) into a rich renderable. Register one with
`@renderer("game name")`; renderers of the built-in games are found in
`eixample.cli.render.<game name>` and imported the first time they are needed.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from eixample.core.protocol import JsonDict

Renderer = Callable[[JsonDict], RenderableType]

_RENDERERS: dict[str, Renderer] = {}
_SKIPPED_KEYS = {"log", "game", "viewer"}


def renderer(game: str) -> Callable[[Renderer], Renderer]:
    """Decorator: register `function` as the renderer of `game`."""

    def register(function: Renderer) -> Renderer:
        _RENDERERS[game] = function
        return function

    return register


def render(game: str, view: JsonDict) -> RenderableType:
    """The table of `game` as `view` shows it."""
    return _find(game)(view)


def _find(game: str) -> Renderer:
    if game not in _RENDERERS and game.isidentifier():
        try:
            importlib.import_module(f"{__name__}.{game}")
        except ModuleNotFoundError as error:
            if error.name != f"{__name__}.{game}":
                raise
    return _RENDERERS.get(game, render_generic)


def render_generic(view: JsonDict) -> RenderableType:
    """Any view, readably: one row per entry (the log is shown elsewhere); nested objects as
    nested tables, lists of objects one line per item."""
    return _table({key: value for key, value in view.items() if key not in _SKIPPED_KEYS})


def _table(entries: dict[str, Any]) -> Table:
    table = Table(show_header=False, box=None, padding=(0, 1))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    for key, value in entries.items():
        table.add_row(str(key).replace("_", " "), _value(value))
    return table


def _value(value: Any) -> RenderableType:
    if isinstance(value, dict) and value and any(isinstance(item, dict | list) for item in value.values()):
        return _table(value)
    if isinstance(value, list) and any(isinstance(item, dict | list) for item in value):
        return Group(*(Text(_inline(item)) for item in value))
    return Text(_inline(value))


def _inline(value: Any) -> str:
    """A value on one line: lists space-separated, objects as key=value pairs."""
    if isinstance(value, dict):
        return "{" + " ".join(f"{key}={_inline(item)}" for key, item in value.items()) + "}"
    if isinstance(value, list):
        return "[" + " ".join(_inline(item) for item in value) + "]" if any(
            isinstance(item, dict | list) for item in value) else " ".join(_inline(item) for item in value)
    return "-" if value is None else str(value)


def log_lines(view: JsonDict) -> list[str]:
    """The game's log from a view, as lines of text (empty if the game keeps none)."""
    log = view.get("log")
    if not isinstance(log, list):
        return []
    return [entry if isinstance(entry, str) else _log_entry(entry) for entry in log]


def _log_entry(entry: Any) -> str:
    if isinstance(entry, dict) and isinstance(entry.get("text"), str):
        return str(entry["text"])
    return str(entry)
