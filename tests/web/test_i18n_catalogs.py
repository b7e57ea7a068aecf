"""The web app's message catalogs (src/eixample/web/i18n/<lang>.json, issue 13).

Every language has every key of every other (plural keys with the plural forms its language
needs), the same {{placeholders}} as English, and no key that the pages and renderers never use.
The catalogs also cover what the games can send: each Barcelona decision kind has help text,
each scoring condition and Public Service effect a wording, each score source a label.
"""

from __future__ import annotations

import json
import random
import re
import tomllib
from pathlib import Path

import pytest

from eixample.core.messages import keys_in
from eixample.core.registry import get_game
from eixample.games.barcelona.frames import DECISION_NAMES
from eixample.games.barcelona.state import SOURCES

SRC = Path(__file__).resolve().parents[2] / "src" / "eixample"
WEB = SRC / "web"
DATA = Path(__file__).resolve().parents[2] / "src" / "eixample" / "games" / "barcelona" / "data"
LANGUAGES = ("en", "fr", "de", "ja", "cs")
# The plural categories of each language (CLDR, as Intl.PluralRules reports them), which i18next
# looks up as key_<category>.
PLURALS = {
    "en": {"one", "other"},
    "fr": {"one", "many", "other"},
    "de": {"one", "other"},
    "ja": {"other"},
    "cs": {"one", "few", "many", "other"},
}
ALL_CATEGORIES = {"zero", "one", "two", "few", "many", "other"}
PLACEHOLDER = re.compile(r"\{\{\s*(\w+)\s*\}\}")


def flatten(tree: dict[str, object], prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in tree.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(flatten(value, f"{path}."))
        else:
            assert isinstance(value, str), f"{path}: not a text"
            out[path] = value
    return out


def split_plural(key: str) -> tuple[str, str | None]:
    base, _, suffix = key.rpartition("_")
    # the server's error codes are names, never plural forms ("too_many")
    if base and suffix in ALL_CATEGORIES and not key.startswith("errors.code."):
        return base, suffix
    return key, None


@pytest.fixture(scope="module")
def catalogs() -> dict[str, dict[str, str]]:
    return {
        lang: flatten(json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8")))
        for lang in LANGUAGES
    }


def base_keys(catalog: dict[str, str]) -> set[str]:
    return {split_plural(key)[0] for key in catalog}


def plural_bases(catalog: dict[str, str]) -> set[str]:
    return {base for base, suffix in map(split_plural, catalog) if suffix}


def test_every_language_has_every_key(catalogs: dict[str, dict[str, str]]) -> None:
    english = base_keys(catalogs["en"])
    for lang in LANGUAGES:
        keys = base_keys(catalogs[lang])
        assert not english - keys, f"{lang} lacks {sorted(english - keys)}"
        assert not keys - english, f"{lang} has keys English lacks: {sorted(keys - english)}"


def test_plural_keys_have_the_forms_of_their_language(catalogs: dict[str, dict[str, str]]) -> None:
    plurals = plural_bases(catalogs["en"])
    for lang in LANGUAGES:
        assert plural_bases(catalogs[lang]) == plurals, lang
        for base in plurals:
            forms = {suffix for key, suffix in map(split_plural, catalogs[lang]) if key == base}
            assert forms == PLURALS[lang], (
                f"{lang} {base}: forms {sorted(forms)}, needs {sorted(PLURALS[lang])}"
            )


def english_text(catalogs: dict[str, dict[str, str]], base: str) -> str:
    english = catalogs["en"]
    return english.get(base) or english[f"{base}_other"]


def test_placeholders_match_english(catalogs: dict[str, dict[str, str]]) -> None:
    for lang in LANGUAGES:
        for key, text in catalogs[lang].items():
            base, _ = split_plural(key)
            expected = set(PLACEHOLDER.findall(english_text(catalogs, base)))
            found = set(PLACEHOLDER.findall(text))
            assert found == expected, (
                f"{lang} {key}: placeholders {sorted(found)}, English has {sorted(expected)}"
            )
            assert text.strip(), f"{lang} {key} is empty"


# -- which keys the code uses -------------------------------------------------------------------

LITERAL = re.compile(r"""["'`]([a-z][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)+)["'`]""")
TEMPLATE_PREFIX = re.compile(r"`([a-z][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*\.)\$\{")
I18N_ATTRIBUTE = re.compile(r'data-i18n"?\s*[=:]\s*"([^"]+)"')  # in HTML, or an el() attribute in JS
I18N_ATTRIBUTES = re.compile(r'data-i18n-attr"?\s*[=:]\s*"([^"]+)"')


SERVER_TEXTS = [SRC / "server" / "notice_mail.py"]
"""Server modules that write the catalogs' texts themselves (the turn notices' mails and pushes)."""


def sources() -> list[Path]:
    web = [path for path in WEB.rglob("*") if path.suffix in {".js", ".html"} and "vendor" not in path.parts]
    return web + SERVER_TEXTS


def used_keys(namespaces: set[str]) -> tuple[set[str], set[str]]:
    """Exact keys named in the code, and prefixes of keys built from a template."""
    exact: set[str] = set()
    prefixes: set[str] = set()
    for path in sources():
        text = path.read_text(encoding="utf-8")
        exact |= {key for key in LITERAL.findall(text) if key.split(".")[0] in namespaces}
        prefixes |= {key for key in TEMPLATE_PREFIX.findall(text) if key.split(".")[0] in namespaces}
        exact |= set(I18N_ATTRIBUTE.findall(text))
        for pairs in I18N_ATTRIBUTES.findall(text):
            exact |= {pair.split(":", 1)[1].strip() for pair in pairs.split(";") if ":" in pair}
    return exact, prefixes


def test_no_key_is_missing_or_unused(catalogs: dict[str, dict[str, str]]) -> None:
    keys = base_keys(catalogs["en"])
    namespaces = {key.split(".")[0] for key in keys}
    exact, prefixes = used_keys(namespaces)
    # the client renders every engine.<key> the engines send: which of them exist is the engines'
    # business (test_every_engine_key_is_used_by_an_engine below)
    prefixes.discard("engine.")
    engine_exact, engine_prefixes = engine_keys_used()
    exact |= engine_exact
    prefixes |= engine_prefixes | server_groups_used(namespaces)
    missing = {key for key in exact if key not in keys and not any(k.startswith(f"{key}.") for k in keys)}
    # a literal naming a whole group (e.g. "bcn.help") is a prefix too
    assert not missing, f"used but in no catalog: {sorted(missing)}"
    unused = {
        key for key in keys if key not in exact and not any(key.startswith(prefix) for prefix in prefixes)
    }
    assert not unused, f"in the catalogs but never used: {sorted(unused)}"


SERVER_GROUP = re.compile(r"""["']([a-z][A-Za-z0-9_]*\.[A-Za-z0-9_]+)["']""")


def server_groups_used(namespaces: set[str]) -> set[str]:
    """Groups of keys the server reads from the catalogs itself (a mail's `<group>.subject` and
    `<group>.text`, server/mail.py `localized`), as prefixes."""
    return {
        f"{group}."
        for path in (SRC / "server").rglob("*.py")
        for group in SERVER_GROUP.findall(path.read_text(encoding="utf-8"))
        if group.split(".")[0] in namespaces
    }


# -- what the engines send (structured log entries and decisions, core/messages.py) -----------

ENGINES = [SRC / "games", SRC / "core", SRC / "server"]
PY_LITERAL = re.compile(
    r"""["']((?:bcn|rof|ttt|vp|join)\.[A-Za-z0-9_.]*[A-Za-z0-9_])["']"""  # a namespaced key anywhere
    r"""|[\[(]\(\s*["']([a-z][A-Za-z0-9_]*)["']\s*,\s*\{"""  # an entry (("key", {...}) or [("key", {...})
    r"""|["']key["']\s*:\s*["']([a-z][A-Za-z0-9_]*)["']"""  # an entry in JSON form
)
PY_PREFIX = re.compile(r"""f["']([a-z][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*\.)\{""")


def engine_keys_used() -> tuple[set[str], set[str]]:
    """Keys the engines name as entries `("key", {...})`, and prefixes of keys they build
    (f"bcn.solo.{key}"), as catalog keys under engine."""
    exact: set[str] = set()
    prefixes: set[str] = set()
    for folder in ENGINES:
        for path in folder.rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            exact |= {f"engine.{''.join(groups)}" for groups in PY_LITERAL.findall(text)}
            prefixes |= {f"engine.{key}" for key in PY_PREFIX.findall(text)}
    return exact, prefixes


def test_every_key_an_engine_names_is_in_the_catalogs(catalogs: dict[str, dict[str, str]]) -> None:
    exact, _ = engine_keys_used()
    assert len(exact) > 40
    for lang in LANGUAGES:
        keys = base_keys(catalogs[lang])
        assert not exact - keys, f"{lang} lacks {sorted(exact - keys)}"


def sent_keys(state: object) -> set[str]:
    log = state.log()  # type: ignore[attr-defined]
    return set().union(*(keys_in(entry) for entry in log)) if log else set()


@pytest.mark.parametrize("game", ["barcelona", "rose-of-fire", "tictactoe"])
def test_every_key_sent_over_random_games_is_in_every_catalog(
    catalogs: dict[str, dict[str, str]], game: str
) -> None:
    """Whole random games of each player count: every key of every log entry and decision, nested
    ones included, is in every language (plural keys in the forms of that language)."""
    sent: set[str] = set()
    module = get_game(game)
    for players in range(module.min_players, module.max_players + 1):
        for seed in (1, 2):
            state = module.new_game(players, seed)
            rng = random.Random(seed)
            while not state.is_terminal():
                sent |= keys_in(state.decision_message())
                state.apply(rng.choice(state.legal_actions()))
            sent |= keys_in(state.decision_message()) | sent_keys(state)
    assert len(sent) > (2 if game == "tictactoe" else 30)
    for lang in LANGUAGES:
        keys = base_keys(catalogs[lang])
        lacking = {key for key in sent if f"engine.{key}" not in keys}
        assert not lacking, f"{lang} lacks {sorted(lacking)}"


def test_the_checker_sees_a_missing_and_an_unused_key(tmp_path: Path) -> None:
    catalog = {"a": {"b": "x", "c_one": "1", "c_other": "{{count}}"}}
    flat = flatten(catalog)
    assert base_keys(flat) == {"a.b", "a.c"}
    assert plural_bases(flat) == {"a.c"}
    assert LITERAL.findall('t("a.b") + t(`a.d`)') == ["a.b", "a.d"]
    assert TEMPLATE_PREFIX.findall("t(`lobby.none.${status}`)") == ["lobby.none."]
    assert PY_LITERAL.findall('s._say(("bcn.builds", {"player": p}))') == [("bcn.builds", "", "")]
    assert PY_LITERAL.findall('s._say(("newGame", {}))') == [("", "newGame", "")]
    assert PY_PREFIX.findall('(f"bcn.solo.{key}", args)') == ["bcn.solo."]


# -- what the games send ------------------------------------------------------------------------


def test_every_barcelona_decision_kind_has_help(catalogs: dict[str, dict[str, str]]) -> None:
    kinds = set(DECISION_NAMES.values()) - {"over", "solo_step"}
    for lang in LANGUAGES:
        lacking = {kind for kind in kinds if f"bcn.help.{kind}" not in catalogs[lang]}
        assert not lacking, f"{lang}: no help for {sorted(lacking)}"


def test_every_scoring_condition_service_effect_and_source_has_words(
    catalogs: dict[str, dict[str, str]],
) -> None:
    tiles = tomllib.loads((DATA / "tiles.toml").read_text(encoding="utf-8"))
    side = tomllib.loads((DATA / "side_board.toml").read_text(encoding="utf-8"))
    conditions = {entry["id"] for entry in tiles["condition"]}
    effects = {entry["effect"] for entry in side["service"]}
    services = (
        {entry["id"] for entry in side["service"]} if all("id" in e for e in side["service"]) else set()
    )
    for lang in LANGUAGES:
        catalog = catalogs[lang]
        assert not {c for c in conditions if f"bcn.condition.{c}" not in catalog}, lang
        assert not {e for e in effects if f"bcn.serviceEffect.{e}" not in catalog}, lang
        assert not {s for s in services if f"bcn.service.{s}" not in catalog}, lang
        assert not {s for s in SOURCES if f"source.{s}" not in catalog}, lang
