"""The game log names what changed and why (issue 9): the rebellion, bomb moves, the end-of-phase
cards, block scoring and final scoring, each in short plain lines."""

from __future__ import annotations

import re

from eixample.games.rose_of_fire.components import UPPER, with_article
from eixample.games.rose_of_fire.conflict import advance_bomb
from eixample.games.rose_of_fire.end_of_phase import rebellion
from eixample.games.rose_of_fire.scoring import final_scoring
from eixample.games.rose_of_fire.state import RoseState

from .helpers import at_play, random_game


def new_lines(s: RoseState, before: int) -> list[str]:
    return s.log_text()[before:]


def test_article_follows_the_first_letter() -> None:
    assert with_article("upper-class") == "an upper-class"
    assert with_article("lilac") == "a lilac"
    assert with_article("working-class") == "a working-class"


def test_districts_keep_their_catalan_names() -> None:
    s = at_play(3)
    assert "Sant Martí" in s.t.district_names


def test_rebellion_names_strikers_already_on_the_barricades() -> None:
    """Rulebook: End-of-phase procedure, 1. Rebellion: 1 prestige per own striker there."""
    s = at_play(3)
    s.raval, s.supply = [0, 2, 0], [20, 16, 20]
    s.barricade[1] = 2  # P2 already has 2 strikers on the barricades
    s.montjuic = 0  # no soldier can join: only P2's strikers are in the bag
    s.level = 1
    s.prestige[1] = 4
    before = len(s.log())
    rebellion(s, (0, -1))
    lines = new_lines(s, before)
    assert any("Strikers from Raval into the black bag: P2 2." in line for line in lines)
    assert any("1 figure drawn onto the barricades: P2 1 striker." in line for line in lines)
    assert "Strikers already on the barricades before the draw: P2 2." in lines
    assert (
        "P2 loses 3 prestige: 3 strikers on the barricades (2 already there + 1 drawn); prestige now 1."
        in lines
    )
    assert s.prestige[1] == 1


def test_bomb_moved_by_drawn_soldiers_is_logged_with_each_event() -> None:
    """Rulebook: Social-conflict track: the bomb moves 1 space per soldier drawn."""
    s = at_play(3)
    event = min(s.t.event_space)
    s.bomb = event - 1
    s.raval = [0, 0, 0]
    s.level = 2  # the bag holds only soldiers
    before = len(s.log())
    rebellion(s, (0, -1))
    lines = new_lines(s, before)
    assert f"The bomb moves 2 spaces to {event + 1}: 2 soldiers drawn." in lines
    reached = [line for line in lines if line.startswith("The bomb reaches ")]
    assert reached and reached[0].endswith(f"(space {event}): its event fires now.")
    assert s.bomb == event + 1


def test_bomb_on_anarchy_says_it_stays() -> None:
    s = at_play(3)
    s.bomb = s.t.anarchy_space
    before = len(s.log())
    advance_bomb(s, 1, in_turn=True, cause=("rof.cause.upper", {}))
    assert new_lines(s, before) == [
        f"The bomb stays on the Anarchy space ({s.t.anarchy_space}): an upper-class house built."
    ]


def test_final_scoring_lines_sum_to_the_scores() -> None:
    """Rulebook: End of the game: each source of final points has its own line per seat."""
    s2 = at_play(3, seed=7)
    s2.owner[0], s2.htype[0] = 1, UPPER
    s2.influence_owner[0] = 2
    vp = s2.vp[:]
    before = len(s2.log())
    final_scoring(s2, (0, -1))
    lines = new_lines(s2, before)
    gained = [0] * 3
    for line in lines:
        if line.startswith("Final scoring"):
            for seat, points in re.findall(r"P(\d) \+(\d+)", line):
                gained[int(seat) - 1] += int(points)
            for seat, points in re.findall(r"^Final scoring, P(\d) reveals .*: \+(\d+) VP", line):
                gained[int(seat) - 1] += int(points)
    assert [vp[p] + gained[p] for p in range(3)] == s2.vp
    assert lines[-1] == "Final scores: " + ", ".join(f"P{p + 1} {s2.vp[p]}" for p in range(3)) + "."
    assert gained[1] >= s2.t.outside_vp and gained[2] >= s2.t.influence_vp[0]


def test_whole_games_explain_every_end_of_phase_step() -> None:
    for players, seed in ((2, 3), (3, 4), (4, 5)):
        lines = random_game(players, seed).log_text()
        text = "\n".join(lines)
        for words in (
            "Rebellion! ",
            "Strike card: ",
            "Prestige card: ",
            "City cards dealt",
            "Block scoring",
            "Suppression of protests: ",
            "Final scoring, houses outside",
            "Final scores: ",
        ):
            assert words in text, (players, seed, words)
        assert " a upper" not in text and "Marti " not in text


def test_block_scoring_names_the_blocks_the_table_and_each_seats_points() -> None:
    """Rulebook: End-of-period procedure, 1. houses in completed blocks score by the table."""
    from eixample.games.rose_of_fire.components import LOW, MIDDLE, WORKING
    from eixample.games.rose_of_fire.end_of_period import block_scoring
    from eixample.games.rose_of_fire.turn import complete_block

    from .helpers import put_tile, space

    s = at_play(3)
    for name, h, p in (("LA1", UPPER, 0), ("LA2", MIDDLE, 0), ("LB1", WORKING, 1), ("LB2", LOW, 1)):
        put_tile(s, name, 0, owner=p, house=h)
    complete_block(s, 0, s.t.squares_of[space(s, "LA1")][0])
    before = len(s.log())
    block_scoring(s, (0, -1))
    lines = new_lines(s, before)
    assert lines[0].startswith("Block scoring of 1 block at LA1, on the normal table (upper-class 4,")
    assert "P1 scores 7 VP for 2 houses in completed blocks." in lines
    assert "P2 scores 3 VP for 2 houses in completed blocks." in lines


def test_anarchy_line_says_why() -> None:
    """Rulebook: Anarchy: the bomb on the Anarchy space and a soldier drawn in a rebellion."""
    s = at_play(3)
    s.bomb = s.t.anarchy_space - 1
    s.raval = [0, 0, 0]
    s.level = 1
    before = len(s.log())
    rebellion(s, (0, -1))
    assert any(
        line.startswith("ANARCHY! (the bomb is on the Anarchy space and a soldier was drawn)")
        for line in new_lines(s, before)
    )
