"""The web app's English words for the terminal: a reader of web/i18n/en.json (the single source
of the English wording) and the action texts of both games in words, as the web app's
barcelona-words.js and rose-of-fire-words.js say them ("act V0 cloth_or_coins" reads
"Street V0: Cloth / Coins"). A text that follows no form is shown as it is."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from eixample.core.messages import fill, plural_form, whole_catalog
from eixample.core.protocol import JsonDict


def catalog() -> dict[str, str]:
    """The whole English catalog, flattened to dotted keys ("lobby.title")."""
    return whole_catalog("en")


def has(key: str) -> bool:
    return key in catalog() or f"{key}_one" in catalog()


def say(key: str, **args: Any) -> str:
    """The catalog's words for `key`, placeholders filled (a plural form chosen by `count`); the
    key itself when the catalog lacks it."""
    words = catalog()
    count = args.get("count")
    text = None
    if isinstance(count, int) and not isinstance(count, bool):
        text = words.get(f"{key}_{plural_form(count, 'en')}")
    text = text if text is not None else words.get(key, key)
    return fill(text, args)


def _named(prefix: str, name: str) -> str:
    return say(f"{prefix}.{name}") if has(f"{prefix}.{name}") else name


# -- Barcelona ------------------------------------------------------------------------------------


def _list_of(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return say("bcn.do.list", items=", ".join(items[:-1]), last=items[-1])


def _mix(coins: int, cloth: int) -> tuple[str, dict[str, Any]]:
    if coins and cloth:
        return "mix", {"coins": say("bcn.benefit.coin", count=coins),
                       "cloth": say("bcn.benefit.cloth", count=cloth)}
    if coins:
        return "mixOne", {"what": say("bcn.benefit.coin", count=coins)}
    return "mixOne", {"what": say("bcn.benefit.cloth", count=cloth)}


Form = tuple[re.Pattern[str], Callable[[re.Match[str], JsonDict], tuple[str, dict[str, Any]]]]


def _form(pattern: str, words: Callable[[re.Match[str], JsonDict], tuple[str, dict[str, Any]]]) -> Form:
    return re.compile(pattern), words


BARCELONA_FORMS: tuple[Form, ...] = (
    _form(r"^place (\S+)$", lambda m, v: ("place", {"crossing": m[1]})),
    _form(r"^top ([WMU])$", lambda m, v: ("top", {"citizen": say(f"bcn.citizen.{m[1]}")})),
    _form(r"^benefits none$", lambda m, v: ("benefitsNone", {})),
    _form(r"^benefits ([\d+]+)$", lambda m, v: ("benefits", {"list": _list_of(m[1].split("+"))})),
    _form(r"^act (\S+) (\w+)$", lambda m, v: ("act", {"street": m[1], "action": _named("bcn.action", m[2])})),
    _form(r"^end actions$", lambda m, v: ("endActions", {})),
    _form(r"^gain cloth$", lambda m, v: ("gainCloth", {})),
    _form(r"^gain coins$", lambda m, v: ("gainCoins", {})),
    _form(r"^cobble (\S+)$", lambda m, v: ("cobble", {"space": m[1]})),
    _form(r"^streets wide$", lambda m, v: ("streetsWide", {})),
    _form(r"^streets narrow$", lambda m, v: ("streetsNarrow", {})),
    _form(r"^street (\S+)$", lambda m, v: ("street", {"space": m[1]})),
    _form(r"^intersection (\S+)$", lambda m, v: ("intersection", {"crossing": m[1]})),
    _form(r"^improve (\d+)$", lambda m, v: ("improve", {"n": m[1]})),
    _form(r"^take (\S+) into (\d+)$", lambda m, v: ("take", {"tile": m[1], "n": m[2]})),
    _form(r"^service (\S+)$", lambda m, v: ("service", {"service": _named("bcn.service", m[1])})),
    _form(r"^tram (\S+)$", lambda m, v: ("tram", {"space": m[1]})),
    _form(r"^passenger$", lambda m, v: ("passenger", {})),
    _form(r"^no passenger$", lambda m, v: ("noPassenger", {})),
    _form(r"^skip action$", lambda m, v: ("skipAction", {})),
    _form(r"^sagrada (\S+)$", lambda m, v: ("sagrada", {"tile": m[1]})),
    _form(r"^mix coin (\d+) cloth (\d+)$", lambda m, v: _mix(int(m[1]), int(m[2]))),
    _form(r"^discard coin$", lambda m, v: ("discardCoin", {})),
    _form(r"^discard cloth$", lambda m, v: ("discardCloth", {})),
    _form(r"^build (corner|L1|L2|L3) (\S+)$",
          lambda m, v: ("build", {"type": say(f"bcn.building.{m[1]}"), "space": m[2]})),
    _form(r"^use (\S+)\+(\S+)$", lambda m, v: ("use", {"first": m[1], "second": m[2]})),
)


# -- The Rose of Fire -----------------------------------------------------------------------------

COLOUR_OF_LETTER = {"Y": "yellow", "L": "lilac", "G": "green"}
SYMBOL_OF_LETTER = {"K": "crown", "C": "colonies", "P": "personalities"}
CARD_KINDS = {"c": "city", "p": "popularity", "r": "prestige"}


def influence_label(card: dict[str, Any]) -> str:
    """An influence card as the terminal names it: its name and its symbol and level ("Antoni
    Gaudi (personalities 1)"), never its bare id, which reads like a seat ("P1")."""
    return f"{card.get('name', card['id'])} ({influence_short(str(card['id']))})"


def influence_short(card_id: str) -> str:
    """"personalities 1" for the id "P1"."""
    symbol = SYMBOL_OF_LETTER.get(card_id[:1])
    return f"{say(f'rof.symbol.{symbol}')} {card_id[1:]}" if symbol else card_id


def _influence_name(view: JsonDict, card_id: str) -> str:
    for card in view.get("influence_cards") or []:
        if card.get("id") == card_id:
            return influence_label(card)
    return influence_short(card_id)


def _card_name(view: JsonDict, card_id: str) -> str:
    if card_id == "strike":
        return say("rof.card.strike")
    for player in view.get("player_list") or []:
        for card in player.get("hand") or []:
            if card.get("id") == card_id:
                if card.get("kind") == "city":
                    return say("rof.card.city", colour=say(f"rof.colour.{card.get('colour')}"), id=card_id)
                return f"{card.get('title', card_id)} ({card_id})"
    kind = CARD_KINDS.get(card_id[:1])
    return f"{say(f'rof.kind.{kind}')} {card_id}" if kind else card_id


def _payment(payment: str) -> str:
    if payment == "conv":
        return say("rof.pay.conviction")
    tokens, _, conviction = payment.partition("+")
    parts = [say("rof.pay.tokens", n=int(count), symbol=say(f"rof.symbol.{SYMBOL_OF_LETTER[letter]}"))
             for count, letter in re.findall(r"(\d+)([KCP])", tokens)]
    if conviction == "conv":
        parts.append(say("rof.pay.conviction"))
    return ", ".join(parts)


def _secret_symbol(view: JsonDict, action: str) -> str:
    for player in view.get("player_list") or []:
        symbol = (player.get("secret_choice") or {}).get(action)
        if symbol:
            return str(symbol)
    return "hidden"


ROSE_FORMS: tuple[Form, ...] = (
    _form(r"^card (\S+)$", lambda m, v: ("card", {"card": _card_name(v, m[1])})),
    _form(r"^event (\S+)$", lambda m, v: ("event", {"card": _card_name(v, m[1])})),
    _form(r"^both (\S+)$", lambda m, v: ("both", {"card": _card_name(v, m[1])})),
    _form(r"^discard (\S+)$", lambda m, v: ("discard", {"card": _card_name(v, m[1])})),
    _form(r"^tile (\S+) ([YLG])$",
          lambda m, v: ("tile", {"space": m[1], "colour": say(f"rof.colour.{COLOUR_OF_LETTER[m[2]]}")})),
    _form(r"^house ([UMWL])$", lambda m, v: ("house", {"house": say(f"rof.house.{m[1]}")})),
    _form(r"^keep \d+$", lambda m, v: ("keep", {"symbol": say(f"rof.symbol.{_secret_symbol(v, m[0])}")})),
    _form(r"^drop \d+$", lambda m, v: ("drop", {"symbol": say(f"rof.symbol.{_secret_symbol(v, m[0])}")})),
    _form(r"^block (\S+)$", lambda m, v: ("block", {"space": m[1]})),
    _form(r"^buy (\S+) with (\S+)$",
          lambda m, v: ("buy", {"card": _influence_name(v, m[1]), "payment": _payment(m[2])})),
    _form(r"^done$", lambda m, v: ("done", {})),
    _form(r"^reward$", lambda m, v: ("reward", {})),
    _form(r"^reward personalities$", lambda m, v: ("rewardConviction", {})),
    _form(r"^extra none$", lambda m, v: ("extraNone", {})),
    _form(r"^extra colonies$", lambda m, v: ("extraConviction", {})),
)

_GAMES: dict[str, tuple[str, tuple[Form, ...]]] = {
    "barcelona": ("bcn", BARCELONA_FORMS),
    "rose-of-fire": ("rof", ROSE_FORMS),
}


def action_words(game: str, action: str, view: JsonDict | None = None) -> str:
    """`action` in the web app's words; the text itself for a game or a text without words."""
    prefix, forms = _GAMES.get(game, ("", ()))
    for pattern, words in forms:
        match = pattern.match(action)
        if match:
            try:
                key, args = words(match, view or {})
            except (KeyError, ValueError):
                return action
            return say(f"{prefix}.do.{key}", **args)
    return action


def group_words(game: str, word: str) -> str | None:
    """The heading of the choices that start with `word` ("Street actions" for "act")."""
    prefix = _GAMES.get(game, ("", ()))[0]
    key = f"{prefix}.group.{word}"
    return say(key) if prefix and has(key) else None
