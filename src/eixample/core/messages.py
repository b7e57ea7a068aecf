"""Structured log entries and decisions: what the engines say, in a form every language can render.

A game says things as entries `(key, args)`: `key` names a message of the web app's catalogs
(`engine.<key>` in web/i18n/<lang>.json) and `args` fills its {{placeholders}}. An argument is
a number, a text shown as it is (a space id "B21", a seat "P2" the clients replace by the
player's name), a nested entry (a card, building or tile name the client translates too) or a
list of these, joined by the catalog's `engine.join.<argument name>` (else `engine.join.list`).

Building an entry is a tuple and a small dict: nothing is formatted while bots play. Entries
become JSON (`{"key": ..., "args": {...}}`, see docs/formats.md) only when a view or a saved
state is written, and English text only when a terminal or an error message needs it: through
the English catalog, the single source of the English wording.

VP parts: an entry in which a seat gains or loses victory points names the seat in its `player`
argument and every part as an entry `vp.<name>` (in its `vp` argument, or among the gains it
lists) whose own `vp` argument is the signed amount. Tests add these up over whole games.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

Entry = tuple[str, dict[str, Any]]
"""A structured message as the engine keeps it: (key, args)."""

CATALOG = Path(__file__).resolve().parents[1] / "web" / "i18n" / "en.json"
_PLACEHOLDER = re.compile(r"\{\{\s*(\w+)\s*\}\}")


def entry(key: str, **args: Any) -> Entry:
    """An entry; the arguments as keywords."""
    return (key, args)


def vp(source: str, amount: int, **args: Any) -> Entry:
    """One VP part: `amount` VP from `source` (a score source of the game)."""
    args["vp"] = amount
    return (f"vp.{source}", args)


def to_json(item: Any) -> Any:
    """An entry (or an argument) as JSON: entries become {"key", "args"} objects; texts, numbers
    and entries already in JSON form (read from a saved state) stay as they are."""
    if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str) and isinstance(item[1], dict):
        return {"key": item[0], "args": {name: to_json(value) for name, value in item[1].items()}}
    if isinstance(item, list):
        return [to_json(value) for value in item]
    return item


def key_and_args(item: Any) -> tuple[str, dict[str, Any]] | None:
    """(key, args) of an entry in either form; None for anything else (a plain text)."""
    if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str) and isinstance(item[1], dict):
        return item[0], item[1]
    if isinstance(item, dict) and isinstance(item.get("key"), str):
        args = item.get("args", {})
        return item["key"], args if isinstance(args, dict) else {}
    return None


@cache
def whole_catalog(lang: str = "en") -> dict[str, str]:
    """A language's whole catalog (web/i18n/<lang>.json), flattened to dotted keys ("lobby.title")."""
    return _flattened(json.loads(CATALOG.with_name(f"{lang}.json").read_text(encoding="utf-8")))


@cache
def engine_catalog(lang: str = "en") -> dict[str, str]:
    """The `engine` section of a language's catalog, flattened to dotted keys below it."""
    prefix = "engine."
    return {key[len(prefix):]: text for key, text in whole_catalog(lang).items() if key.startswith(prefix)}


def fill(text: str, args: dict[str, Any]) -> str:
    """`text` with its {{placeholders}} replaced by `args` as they are."""
    return _PLACEHOLDER.sub(lambda match: str(args.get(match.group(1), "")), text)


def _flattened(tree: dict[str, Any]) -> dict[str, str]:
    flat: dict[str, str] = {}

    def walk(node: dict[str, Any], prefix: str) -> None:
        for name, value in node.items():
            if isinstance(value, dict):
                walk(value, f"{prefix}{name}.")
            else:
                flat[f"{prefix}{name}"] = str(value)

    walk(tree, "")
    return flat


def english(item: Any) -> str:
    """An entry in English words (a plain text as it is), as the web app renders it in `en`."""
    return render(item, "en")


def render(item: Any, lang: str) -> str:
    """An entry in a language's words, as the web app's `message()` renders it (i18next: the
    placeholders filled, the plural form chosen by `count`, nested entries and lists rendered)."""
    found = key_and_args(item)
    if found is None:
        return str(item)
    key, args = found
    catalog = engine_catalog(lang)
    text = _message(catalog, key, args, lang)
    if text is None:
        return f"{key} {json.dumps(to_json(args), ensure_ascii=False)}"
    return _PLACEHOLDER.sub(
        lambda match: _argument(catalog, match.group(1), args.get(match.group(1), ""), lang), text
    )


def plural_form(count: int, lang: str) -> str:
    """The CLDR plural category of a whole number, for the five languages of the catalogs."""
    if lang == "ja":
        return "other"
    if lang == "fr":
        return "one" if count in (0, 1) else "other"
    if lang == "cs":
        return "one" if count == 1 else ("few" if 2 <= count <= 4 else "other")
    return "one" if count == 1 else "other"


def _message(catalog: dict[str, str], key: str, args: dict[str, Any], lang: str) -> str | None:
    count = args.get("count")
    if isinstance(count, int) and not isinstance(count, bool):
        plural = catalog.get(f"{key}_{plural_form(count, lang)}")
        if plural is not None:
            return plural
    return catalog.get(key)


def _argument(catalog: dict[str, str], name: str, value: Any, lang: str) -> str:
    if isinstance(value, list):
        separator = catalog.get(f"join.{name}", catalog.get("join.list", ", "))
        return separator.join(_argument(catalog, name, item, lang) for item in value)
    if key_and_args(value) is not None:
        return render(value, lang)
    return str(value)


def keys_in(item: Any) -> set[str]:
    """Every message key an entry uses, nested ones and list joins included."""
    found = key_and_args(item)
    if found is None:
        if isinstance(item, list):
            return set().union(*(keys_in(value) for value in item)) if item else set()
        return set()
    key, args = found
    keys = {key}
    for value in args.values():
        keys |= keys_in(value)
    return keys


def vp_parts(item: Any, player: Any = None) -> list[tuple[Any, int]]:
    """(seat argument, amount) of every VP part an entry names: each `vp.*` entry inside it,
    credited to the `player` argument of the nearest entry around it that has one."""
    if isinstance(item, list):
        return [part for value in item for part in vp_parts(value, player)]
    found = key_and_args(item)
    if found is None:
        return []
    key, args = found
    player = args.get("player", player)
    if key.startswith("vp."):
        return [(player, int(args["vp"]))]
    return [part for value in args.values() for part in vp_parts(value, player)]
