"""Every kind of choice a game offers has a heading in each language (issue 37): the page
groups a decision's buttons by their first word and titles each group from the catalog
(`bcn.group.<word>`, `rof.group.<word>`); a word without one showed as is ("done (1)" in a
Czech page)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from eixample.core.registry import get_game

CATALOGS = Path(__file__).resolve().parents[2] / "src" / "eixample" / "web" / "i18n"
LANGUAGES = ("en", "fr", "de", "ja", "cs")
GAMES = {"barcelona": ("bcn", (1, 2, 3)), "rose-of-fire": ("rof", (2, 3, 4))}


def first_words(game: str, counts: tuple[int, ...], seeds: int = 4) -> set[str]:
    words: set[str] = set()
    for players in counts:
        for seed in range(seeds):
            state = get_game(game).new_game(players=players, seed=seed)
            rng = random.Random(seed)
            while not state.is_terminal():
                legal = state.legal_actions()
                words |= {action.split()[0] for action in legal}
                state.apply(rng.choice(legal))
    return words


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_group_of_choices_has_a_heading(game: str) -> None:
    prefix, counts = GAMES[game]
    words = first_words(game, counts)
    for lang in LANGUAGES:
        groups = json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))[prefix]["group"]
        assert not words - groups.keys(), f"{lang}: no heading for {sorted(words - groups.keys())}"
