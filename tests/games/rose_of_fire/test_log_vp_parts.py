"""Every VP gain in the log names all its parts (issue 13): over whole random games of every
player count, the VP parts the log names (block scoring, Popularity majorities, the Prestige and
Strike cards, cards' VP, the Auca's ends and each source of the final scoring) add up, seat by
seat, to each seat's score."""

from __future__ import annotations

import random

import pytest

from eixample.core.messages import english, key_and_args, vp_parts
from eixample.games.rose_of_fire import GAME
from eixample.games.rose_of_fire.state import RoseState


def played(players: int, seed: int) -> RoseState:
    s = GAME.new_game(players, seed)
    rng = random.Random(seed)
    while not s.is_terminal():
        s.apply(rng.choice(s.legal_actions()))
    return s


def logged_vp(s: RoseState) -> list[int]:
    totals = [0] * s.n
    for entry in s.log():
        for seat, amount in vp_parts(entry):
            assert isinstance(seat, str) and seat[0] == "P", (seat, entry)
            totals[int(seat[1:]) - 1] += amount
    return totals


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 6, 9])
def test_the_vp_parts_of_the_log_add_up_to_each_score(players: int, seed: int) -> None:
    s = played(players, seed)
    assert logged_vp(s) == list(s.vp)


def test_the_final_scoring_names_each_source_for_each_seat() -> None:
    """Rulebook: End of the game: houses outside blocks, influence cards, unused tokens."""
    s = played(3, 4)
    keys = [key_and_args(entry)[0] for entry in s.log() if key_and_args(entry)]
    for source in ("outside", "influence", "tokens"):
        assert f"rof.final.{source}" in keys
    line = next(english(e) for e in s.log() if key_and_args(e) and key_and_args(e)[0] == "rof.final.outside")
    assert line.startswith("Final scoring, houses outside completed blocks") and "P1 +" in line


def test_every_line_renders_in_english() -> None:
    s = played(4, 2)
    for entry in s.log():
        text = english(entry)
        assert "{{" not in text and "rof." not in text and "vp." not in text, text
