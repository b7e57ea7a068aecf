"""The rules pages (docs/rules/<game>.<lang>.md): Barcelona is written in every language of the
web app, each page with one title and the same sections and building table as the English one;
every game of the registry has at least its English page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from eixample.core.registry import get_game

RULES = Path(__file__).resolve().parents[2] / "docs" / "rules"
LANGUAGES = ("en", "fr", "de", "ja", "cs")


def outline(text: str) -> tuple[int, int, int]:
    """(titles, sections, table rows) of a Markdown page."""
    titles = len(re.findall(r"^# ", text, re.MULTILINE))
    sections = len(re.findall(r"^## ", text, re.MULTILINE))
    rows = len(re.findall(r"^\|", text, re.MULTILINE))
    return titles, sections, rows


@pytest.mark.parametrize("lang", LANGUAGES)
def test_barcelona_rules_in_every_language(lang: str) -> None:
    english = outline((RULES / "barcelona.en.md").read_text(encoding="utf-8"))
    page = outline((RULES / f"barcelona.{lang}.md").read_text(encoding="utf-8"))
    assert english[0] == 1 and english[1] >= 5
    assert page == english


@pytest.mark.parametrize("game", ["barcelona", "tictactoe", "rose-of-fire"])
def test_every_game_has_an_english_rules_page(game: str) -> None:
    get_game(game)  # a game the platform knows
    page = (RULES / f"{game}.en.md").read_text(encoding="utf-8")
    assert page.startswith("# ")


@pytest.mark.parametrize("lang", ["fr", "de", "ja", "cs"])
def test_rose_of_fire_rules_keep_the_english_outline(lang: str) -> None:
    get_game("rose-of-fire")
    english = outline((RULES / "rose-of-fire.en.md").read_text(encoding="utf-8"))
    page = outline((RULES / f"rose-of-fire.{lang}.md").read_text(encoding="utf-8"))
    assert english[0] == 1 and english[1] >= 7
    assert page == english


# A path of the source tree ("docs/formats.md", "src/...") or a setting's name ("seat_vp"): a
# player can open neither from the rules page.
REPOSITORY_PATH = re.compile(r"\b(?:docs|src|tests|benchmarks)/[\w./-]+")
SETTING_NAME = re.compile(r"`[a-z]+(?:_[a-z]+)+`")


@pytest.mark.parametrize("page", sorted(path.name for path in RULES.glob("*.*.md")))
def test_rules_pages_name_nothing_a_player_cannot_open(page: str) -> None:
    text = (RULES / page).read_text(encoding="utf-8")
    assert not REPOSITORY_PATH.findall(text), REPOSITORY_PATH.findall(text)
    assert not SETTING_NAME.findall(text), SETTING_NAME.findall(text)
    for target in re.findall(r"\]\(([^)]+)\)", text):  # links: to a page of the site
        assert target.startswith(("/", "#", "https://")), target
