"""No page is left half in English (issue 37): the lobby, a seat's game page of each game, a
finished game, a replay and both rules pages, in French, German, Japanese and Czech.

What is checked is everything a player reads: the page's text, the board's labels, tooltips
(titles), labels for screen readers (aria-label) and placeholders. None may hold an English
sentence of the catalogs that the page's language words differently; and in Japanese, no
English word may show at all (names of people, places and cards aside, which are capitalised).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.browser import READY, catalog, keep_seat_token, tab, with_lang
from tests.server.harness import ServerProcess, create_claimed_game, wait_until_finished

pytestmark = pytest.mark.browser

LANGUAGES = ("fr", "de", "ja", "cs")
PLACEHOLDER = re.compile(r"\{\{[^}]*\}\}|<[^>]+>|\$t\([^)]*\)")

# Everything a player reads on the page, as lines.
READ = """() => {
  const texts = [document.body.innerText];
  for (const node of document.querySelectorAll('[title], [aria-label], [placeholder]')) {
    for (const name of ['title', 'aria-label', 'placeholder']) {
      if (node.getAttribute(name)) texts.push(node.getAttribute(name));
    }
  }
  for (const node of document.querySelectorAll('svg title, svg text')) texts.push(node.textContent);
  return texts.join('\\n');
}"""


def flatten(tree: dict[str, Any], prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in tree.items():
        if isinstance(value, dict):
            out.update(flatten(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def texts(lang: str) -> dict[str, str]:
    return flatten(catalog(lang))


def english_sentences(lang: str) -> set[str]:
    """Stretches of English catalog texts (between their placeholders) that `lang` words
    otherwise: at least three words, so that a shared name or term does not count."""
    english, other = texts("en"), texts(lang)
    found: set[str] = set()
    for key, text in english.items():
        if other.get(key, "") == text:
            continue
        for part in PLACEHOLDER.split(text):
            part = part.strip(" :;,.()–—·")
            if len(part.split()) >= 3 and len(part) >= 14 and part not in other.get(key, ""):
                found.add(part)
    return found


# Latin words a Japanese page may show: the names of cards, places and people are capitalised
# and left alone; these are the lower-case words of such names, and the test server's own game
# ("Hidden cards", which exists only in tests).
JAPANESE_ALLOWED = {"de", "del", "of", "the", "la", "cards"}


def english_words_in_japanese(text: str) -> list[str]:
    words = re.findall(r"(?<![\w.'’-])[a-z][a-z]{2,}(?![\w'’-])", text)
    return sorted({word for word in words if word not in JAPANESE_ALLOWED})


PLAYED: list[dict[str, Any]] = []
"""The games whose seat pages are read (their tokens are kept in the browser, as once claimed)."""


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, tuple[str, str]]]:
    """Each page's address (without its language) and the selector that says it is ready."""
    process = ServerProcess(tmp_path_factory.mktemp("words-data")).start()
    try:
        with process.client() as client:
            people = [{"kind": "person", "name": "Ana"}, {"kind": "bot", "bot": "random"}]
            bcn = create_claimed_game(client, "barcelona", people, seed=6, seed_shown=True)
            rof = create_claimed_game(client, "rose-of-fire", people, seed=6, seed_shown=True)
            bots = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
            done = create_claimed_game(client, "rose-of-fire", bots, seed=7, seed_shown=True)
            wait_until_finished(client, done, timeout=90)
        url = process.url
        PLAYED.extend([bcn, rof])
        yield {
            "lobby": (f"{url}/", "#game-select option"),
            "barcelona": (bcn["seats"][0]["link"], READY),
            "rose-of-fire": (rof["seats"][0]["link"], READY),
            "finished": (done["spectator_link"], "body[data-status='finished'] #final:not([hidden])"),
            "replay": (f"{url}/replay/{done['game_id']}", "body[data-step='0'] svg#board > *"),
            "rules-barcelona": (f"{url}/static/rules.html?game=barcelona", "body[data-rules]"),
            "rules-rose-of-fire": (f"{url}/static/rules.html?game=rose-of-fire", "body[data-rules]"),
        }
    finally:
        process.stop()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_page_shows_english_in_another_language(
    browser: Any, pages: dict[str, tuple[str, str]], lang: str
) -> None:
    sentences = english_sentences(lang)
    found: dict[str, list[str]] = {}
    with tab(browser, 1280, 800) as page:
        for created in PLAYED:
            keep_seat_token(page, created)
        for name, (url, ready) in pages.items():
            page.goto(with_lang(url, lang))
            page.wait_for_selector(ready, state="attached", timeout=30_000)
            page.wait_for_timeout(300)
            text = page.evaluate(READ)
            english = sorted(sentence for sentence in sentences if sentence in text)
            if lang == "ja" and not name.startswith("rules"):
                english += english_words_in_japanese(text)
            if english:
                found[name] = english[:12]
        assert not found, found
        assert not page.problems, page.problems
