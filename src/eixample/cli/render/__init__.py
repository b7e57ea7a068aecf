"""Drawing a game's table in the terminal: one renderer per game, and a generic fallback.

A renderer turns `view(seat)` (a JSON-ready dict) into a rich renderable. Register one with
`@renderer("game name")`; renderers of the built-in games are found in
`eixample.cli.render.<game name>` and imported the first time they are needed.

A game module may also register how its legal choices are listed (`@choices_renderer`), extra
help about its action texts (`register_help`) and the long texts of its table (`@details_renderer`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from eixample.cli.render.words import action_words, group_words
from eixample.core.messages import english
from eixample.core.protocol import Action, JsonDict

Renderer = Callable[[JsonDict], RenderableType]
ChoicesRenderer = Callable[[JsonDict, list[Action]], RenderableType]

_RENDERERS: dict[str, Renderer] = {}
_CHOICES: dict[str, ChoicesRenderer] = {}
_DETAILS: dict[str, Renderer] = {}
_COMPACT: dict[str, Renderer] = {}
_HELP: dict[str, str] = {}
_HINTS: dict[str, dict[str, str]] = {}
_SKIPPED_KEYS = {"log", "game", "viewer"}
GROUP_AT = 3
"""Choices sharing their first word are listed together from this many on."""


def renderer(game: str) -> Callable[[Renderer], Renderer]:
    """Decorator: register `function` as the renderer of `game`."""

    def register(function: Renderer) -> Renderer:
        _RENDERERS[game] = function
        return function

    return register


def choices_renderer(game: str) -> Callable[[ChoicesRenderer], ChoicesRenderer]:
    """Decorator: register how the legal choices of `game` are listed (numbered from 1, in
    the order given)."""

    def register(function: ChoicesRenderer) -> ChoicesRenderer:
        _CHOICES[game] = function
        return function

    return register


def details_renderer(game: str) -> Callable[[Renderer], Renderer]:
    """Decorator: register the long texts of `game`'s table (tile texts and the like)."""

    def register(function: Renderer) -> Renderer:
        _DETAILS[game] = function
        return function

    return register


def register_help(game: str, text: str) -> None:
    """Extra help for `game`: the forms of its action texts."""
    _HELP[game] = text


def compact_renderer(game: str) -> Callable[[Renderer], Renderer]:
    """Decorator: register the compact table of `game`: what a decision needs, on a screen of
    80 x 24 (the whole table stays `render`)."""

    def register(function: Renderer) -> Renderer:
        _COMPACT[game] = function
        return function

    return register


def render(game: str, view: JsonDict) -> RenderableType:
    """The table of `game` as `view` shows it."""
    return _find(game)(view)


def has_compact(game: str) -> bool:
    _load(game)
    return game in _COMPACT


def render_compact(game: str, view: JsonDict) -> RenderableType:
    """The compact table of `game` (the whole table for a game without one)."""
    _load(game)
    return _COMPACT.get(game, _find(game))(view)


def render_choices(game: str, view: JsonDict, actions: list[Action]) -> RenderableType:
    """The legal choices, numbered from 1 in the order of `actions`, in the game's words."""
    _load(game)
    function = _CHOICES.get(game)
    return function(view, actions) if function is not None else numbered_choices(view, actions, game)


def render_details(game: str, view: JsonDict) -> RenderableType | None:
    """The long texts of the table, if the game has any."""
    _load(game)
    function = _DETAILS.get(game)
    return None if function is None else function(view)


def register_hints(game: str, hints: dict[str, str]) -> None:
    """What each decision kind of `game` means (shown by help, to keep the table short)."""
    _HINTS[game] = hints


def decision_hint(game: str, kind: object) -> str | None:
    _load(game)
    return _HINTS.get(game, {}).get(str(kind))


def game_help(game: str) -> str | None:
    _load(game)
    return _HELP.get(game)


def _find(game: str) -> Renderer:
    _load(game)
    return _RENDERERS.get(game, render_generic)


def _load(game: str) -> None:
    module = game.replace("-", "_")  # "rose-of-fire" is drawn by rose_of_fire.py
    if game not in _RENDERERS and module.isidentifier():
        try:
            importlib.import_module(f"{__name__}.{module}")
        except ModuleNotFoundError as error:
            if error.name != f"{__name__}.{module}":
                raise


def numbered_choices(view: JsonDict, actions: list[Action], game: str = "") -> RenderableType:
    """Every choice as "N) action", in the words of `game` where the web app has them; runs of
    choices sharing their first word (at least GROUP_AT of them) are listed under a heading (the
    group's words, else the word), by the rest of their text, e.g. "Place citizens  1) C00
    2) C01 ..."."""
    groups = group_choices(actions)

    def label(number: int, word: str, rest: str) -> Text:
        action = f"{word} {rest}".rstrip()
        return Text(f"{number:>2}) {action_words(game, action, view)}")

    if all(len(items) < GROUP_AT for _, items in groups):
        cells = [label(number, *action.partition(" ")[::2]) for number, action in enumerate(actions, 1)]
        return Columns(cells, padding=(0, 3))
    parts: list[RenderableType] = []
    for word, items in groups:
        if len(items) >= GROUP_AT:
            # under their heading the texts are short enough, unless they hold internal names
            worded = any("_" in rest for _, rest in items)
            heading = group_words(game, word) or word
            cells = [label(number, word, rest) if worded else Text(f"{number:>2}) {rest}")
                     for number, rest in items]
            parts += [Text(heading, style="bold"), Columns(cells, padding=(0, 2))]
        else:
            parts += [label(number, word, rest) for number, rest in items]
    return Group(*parts)


def group_choices(actions: list[Action]) -> list[tuple[str, list[tuple[int, str]]]]:
    """The choices grouped by first word, groups in order of first appearance:
    [(word, [(number, rest of the text)])]."""
    groups: dict[str, list[tuple[int, str]]] = {}
    for number, action in enumerate(actions, 1):
        word, _, rest = action.partition(" ")
        groups.setdefault(word, []).append((number, rest))
    return list(groups.items())


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
    return english(entry)  # a structured entry, in the English catalog's words
