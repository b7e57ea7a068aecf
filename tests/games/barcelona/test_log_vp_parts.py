"""Every VP gain in the log names all its parts (issue 13): over whole random games of every
player count (the solo game included), the VP parts the log names add up, seat by seat, to the
points each seat scored, and each kind of line names the parts its rulebook scoring has."""

from __future__ import annotations

import random

import pytest

from eixample.core.messages import english, key_and_args, vp_parts
from eixample.games.barcelona import GAME
from eixample.games.barcelona.log import ASSISTANT
from eixample.games.barcelona.state import BarcelonaState


def seat_of(argument: object) -> int:
    if argument == ASSISTANT or key_and_args(argument) == ASSISTANT:
        return 1
    assert isinstance(argument, str) and argument[0] == "P", argument
    return int(argument[1:]) - 1


def played(players: int, seed: int) -> BarcelonaState:
    s = GAME.new_game(players, seed)
    rng = random.Random(seed)
    while not s.is_terminal():
        s.apply(rng.choice(s.legal_actions()))
    return s


def logged_vp(s: BarcelonaState) -> list[int]:
    totals = [0] * s.n
    for entry in s.log():
        for seat, amount in vp_parts(entry):
            totals[seat_of(seat)] += amount
    return totals


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("seed", [3, 11])
def test_the_vp_parts_of_the_log_add_up_to_each_score(players: int, seed: int) -> None:
    s = played(players, seed)
    assert logged_vp(s) == s.vp


def test_a_building_names_its_track_building_and_row_bonus_parts() -> None:
    """Rulebook: Construct a Building, steps 2, 4 and 6: the row's Building Bonus, the lowest
    visible track value and the Building's VP."""
    s = played(3, 5)
    built = [english(e) for e in s.log() if key_and_args(e) and key_and_args(e)[0] == "bcn.builds"]
    assert built and all(" VP citizen tracks" in line for line in built)
    assert any("VP Building Bonus" in line for line in built)


def test_every_line_with_vp_names_a_seat_and_renders_in_english() -> None:
    s = played(2, 7)
    for entry in s.log():
        text = english(entry)
        assert "{{" not in text and "bcn." not in text and "vp." not in text, text
