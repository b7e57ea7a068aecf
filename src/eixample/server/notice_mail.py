"""The words of "your turn" notices (mail and Web Push) in the player's language, their links, and
the unsubscribe link that works without signing in.

The texts are the `notices` section of the web app's catalogs (web/i18n/<lang>.json), so every
language has every text (tests/web/test_i18n_catalogs.py). An unsubscribe link carries the
account's id and an HMAC of it with a key made at the first start and kept in the data folder
(`unsubscribe.key`, mode 0600; servers sharing a database share the file): nothing about the link is
stored, and it cannot be made for another account without the key.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import quote

from eixample.core.registry import get_game
from eixample.server.notices import Recipient, Turn
from eixample.server.push import b64url, secret_file

LANGUAGES = ("en", "fr", "de", "ja", "cs")
KEY_FILE = "unsubscribe.key"
WEB_DIR = Path(__file__).resolve().parent.parent / "web"


@cache
def _catalog(language: str) -> dict[str, Any]:
    texts = json.loads((WEB_DIR / "i18n" / f"{language}.json").read_text(encoding="utf-8"))
    section: dict[str, Any] = texts["notices"]
    return section


def plural_category(language: str, count: int) -> str:
    """The CLDR plural category of a whole number in one of the five languages."""
    if language == "ja":
        return "other"
    if language == "fr":
        return "one" if count in (0, 1) else "many" if count and count % 1_000_000 == 0 else "other"
    if language == "cs":
        return "one" if count == 1 else "few" if 2 <= count <= 4 else "other"
    return "one" if count == 1 else "other"


def language_of(code: str | None) -> str:
    """One of the five languages from a tag ("fr-CA", "de"), English otherwise."""
    base = (code or "").strip().lower().replace("_", "-").split("-")[0]
    return base if base in LANGUAGES else "en"


def words(language: str, key: str, **args: Any) -> str:
    """The catalog's text for `key` ("notices.<name>") with its {{placeholders}} filled (`count`
    picks the plural form)."""
    section = _catalog(language_of(language))
    key = key.removeprefix("notices.")
    if "count" in args:
        key = f"{key}_{plural_category(language, int(args['count']))}"
    text = str(section[key])
    for name, value in args.items():
        text = text.replace("{{" + name + "}}", str(value))
    return text


def unsubscribe_key(data_dir: str | os.PathLike[str]) -> bytes:
    return secret_file(Path(data_dir) / KEY_FILE, lambda: secrets.token_bytes(32))


def unsubscribe_token(key: bytes, account_id: str) -> str:
    return b64url(hmac.new(key, f"unsubscribe:{account_id}".encode(), hashlib.sha256).digest()[:24])


def token_fits(key: bytes, account_id: str, token: str) -> bool:
    return hmac.compare_digest(unsubscribe_token(key, account_id), token)


def game_title(name: str) -> str:
    try:
        return get_game(name).title
    except KeyError:
        return name


def game_link(base_url: str, turn: Turn) -> str:
    return f"{base_url}/play/{quote(turn.game_id)}"


def unsubscribe_link(base_url: str, key: bytes, account_id: str, language: str) -> str:
    token = unsubscribe_token(key, account_id)
    return f"{base_url}/notices/unsubscribe?account={quote(account_id)}&token={token}&lang={language}"


def _when(moment: datetime | None) -> str:
    return moment.strftime("%Y-%m-%d %H:%M UTC") if moment is not None else ""


@dataclass(frozen=True)
class Mail:
    subject: str
    text: str
    unsubscribe: str


def compose(recipient: Recipient, base_url: str, key: bytes) -> Mail:
    """The mail for the recipient's waiting turns: one game, or a digest of several."""
    language = recipient.language
    turns = recipient.turns
    lines = [words(language, "notices.greeting", name=recipient.name), ""]
    if len(turns) == 1:
        turn = turns[0]
        subject = words(language, "notices.subjectOne", game=game_title(turn.game),
                        opponents=", ".join(turn.opponents))
        lines.append(words(language, "notices.bodyOne", game=game_title(turn.game), seat=turn.seat_name,
                           opponents=", ".join(turn.opponents)))
    else:
        subject = words(language, "notices.subjectMany", count=len(turns))
        lines.append(words(language, "notices.bodyMany", count=len(turns)))
    for turn in turns:
        lines.append("")
        against = words(language, "notices.against", opponents=", ".join(turn.opponents))
        lines.append(f"- {game_title(turn.game)}: {against}")
        if turn.deadline is not None:
            lines.append("  " + words(language, "notices.deadline", when=_when(turn.deadline)))
        lines.append("  " + words(language, "notices.open", link=game_link(base_url, turn)))
    unsubscribe = unsubscribe_link(base_url, key, recipient.account_id, language)
    lines += ["", "--", words(language, "notices.why", name=recipient.name),
              words(language, "notices.stop", link=unsubscribe)]
    return Mail(subject=subject, text="\n".join(lines) + "\n", unsubscribe=unsubscribe)


def push_payload(recipient: Recipient, base_url: str) -> dict[str, Any]:
    """The Web Push message (encrypted on its way): what the service worker shows and opens."""
    language = recipient.language
    turns = recipient.turns
    first = turns[0]
    if len(turns) == 1:
        body = words(language, "notices.pushOne", game=game_title(first.game),
                     opponents=", ".join(first.opponents))
    else:
        body = words(language, "notices.pushMany", count=len(turns))
    return {
        "title": words(language, "notices.pushTitle"),
        "body": body,
        "url": f"/play/{quote(first.game_id)}",
        "origin": base_url,
        "tag": f"turn-{first.game_id}",
        "games": [turn.game_id for turn in turns],
    }
