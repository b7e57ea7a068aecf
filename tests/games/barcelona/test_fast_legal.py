"""The fast legal-move code gives exactly what the rules' plain definitions give.

`construction.legal_builds` counts top citizens (and remembers answers by board) instead of
trying every set of crossings; `actions.legal_cobble` uses neighbour bit sets; Gain Cloth/Coins
is always available; the longest line of blocks is remembered by set of blocks. Each is checked
here against the plain definition, at every position of random games and on random boards that
games rarely reach.
"""

from __future__ import annotations

from typing import Any

import pytest

from eixample.core.rng import Rng
from eixample.games.barcelona import actions, board, construction, new_game, scoring
from eixample.games.barcelona.frames import COBBLE, K_GAIN
from eixample.games.barcelona.state import BarcelonaState
from tests.games.barcelona.helpers import random_playout


def plain_legal_builds(s: BarcelonaState) -> list[tuple[int, int]]:
    """Construct a Building: a tile that fits, and a set of crossings meeting its requirement."""
    return [
        (kind, b)
        for b in range(len(board.BUILDING_SPACES))
        for kind in range(4)
        if construction.building_fits(s, kind, b) and construction.citizen_choices(s, kind, b)
    ]


def plain_legal_cobble(s: BarcelonaState, p: int, anywhere: int) -> list[str]:
    """Place Cobblestone: an empty sidewalk space, next to a cobblestone unless placed anywhere."""
    if s.cobbles[p] >= len(s.t.cobblestone_vp) - 1:
        return []
    walk = s.sidewalk
    return [
        actions.COBBLE_TEXT[sp]
        for sp in range(25)
        if walk[sp] == -1 and (anywhere or any(walk[t] != -1 for t in board.SIDEWALK_NEIGHBOURS[sp]))
    ]


def fast_legal_cobble(s: BarcelonaState, p: int, anywhere: int) -> list[str]:
    texts: list[str] = []
    payloads: list[Any] = []
    actions.legal_cobble(s, (COBBLE, p, anywhere), texts, payloads)
    assert payloads == [actions.COBBLE_TEXT.index(text) for text in texts]
    return texts


def check_position(s: BarcelonaState) -> None:
    assert construction.legal_builds(s, 0) == plain_legal_builds(s)
    assert construction.legal_builds(s, 0) == plain_legal_builds(s)  # remembered: the same again
    for p in range(s.n):
        for anywhere in (0, 1):
            assert fast_legal_cobble(s, p, anywhere) == plain_legal_cobble(s, p, anywhere)
        assert actions.action_available(s, p, K_GAIN)
        blocks = scoring.blocks_with_marker(s, p)
        assert scoring.longest_block_line(s, p) == scoring._longest_run(blocks)


@pytest.mark.parametrize(("players", "seed"), [(2, 11), (3, 12), (4, 13), (2, 14)])
def test_fast_legal_moves_match_the_plain_rules_through_random_games(players: int, seed: int) -> None:
    positions = with_builds = 0
    for s in random_playout(players, seed, check=False):
        check_position(s)
        positions += 1
        with_builds += bool(plain_legal_builds(s))
    assert positions > 50 and with_builds > 5


def scrambled_board(seed: int) -> BarcelonaState:
    """A 2-player position with citizens, Buildings, stock, cobblestones and markers at random."""
    rng = Rng(seed)
    s = new_game(2, seed)
    s.cross_cit = [tuple(rng.below(3) for _ in range(rng.below(3))) for _ in range(25)]
    s.bld_type = [rng.below(5) - 1 for _ in board.BUILDING_SPACES]
    s.bld_stock = [rng.below(2) * (1 + rng.below(3)) for _ in range(4)]
    s.sidewalk = [rng.below(4) - 2 if rng.below(3) == 0 else -1 for _ in range(25)]
    s.bld_markers = [tuple(rng.below(2) for _ in range(rng.below(3))) for _ in board.BUILDING_SPACES]
    return s


@pytest.mark.parametrize("seed", range(300))
def test_fast_legal_moves_match_the_plain_rules_on_random_boards(seed: int) -> None:
    check_position(scrambled_board(seed))


def test_random_boards_offer_builds() -> None:
    """The random boards are not all alike: they offer many different sets of Buildings."""
    answers = {tuple(plain_legal_builds(scrambled_board(seed))) for seed in range(300)}
    assert len(answers) > 200


def test_a_remembered_answer_follows_the_board() -> None:
    """Two positions differing only in one crossing's top citizen get their own answers."""
    s = scrambled_board(5)
    before = construction.legal_builds(s, 0)
    changed = False
    for x in range(25):
        if s.cross_cit[x]:
            s.cross_cit[x] = (*s.cross_cit[x][:-1], (s.cross_cit[x][-1] + 1) % 3)
            changed = True
    assert changed
    assert construction.legal_builds(s, 0) == plain_legal_builds(s)
    assert plain_legal_builds(s) != before or before == []


def plain_tram_destinations(s: BarcelonaState, p: int) -> list[int]:
    """Move your Tram (rulebook; ruling 2 of the facts file): every way of 1 or 2 street spaces,
    spaces with your own Street tiles free, never back onto a space already passed, ending
    somewhere new and not on another Tram."""
    start = s.tram[p]
    others = {sp for q, sp in enumerate(s.tram) if q != p and sp >= 0}
    if start < 0:
        return [sp for sp in range(44) if sp not in others and s.space_passenger[sp] < 0]
    found: set[int] = set()
    ways = [(start, 0, 1 << start)]
    while ways:
        sp, cost, passed = ways.pop()
        for nxt in board.SPACE_NEIGHBOURS[sp]:
            step = cost + (0 if s.space_owner[nxt] == p else 1)
            if passed >> nxt & 1 or step > 2:
                continue
            if nxt not in others:
                found.add(nxt)
            ways.append((nxt, step, passed | 1 << nxt))
    return sorted(found)


@pytest.mark.parametrize(("players", "seed"), [(2, 71), (3, 72), (4, 73)])
def test_tram_destinations_match_every_way_through_random_games(players: int, seed: int) -> None:
    for s in random_playout(players, seed, check=False):
        for p in range(s.n):
            assert actions.tram_destinations(s, p) == plain_tram_destinations(s, p)


def test_tram_destinations_match_every_way_on_random_street_networks() -> None:
    rng = Rng(74)
    s = new_game(4, 74)
    for _ in range(300):
        s.space_owner = [rng.choice([-1, -1, -1, 0, 1, 2]) for _ in range(44)]
        s.tram = [rng.choice([-1, *range(44)]) for _ in range(4)]
        for p in range(4):
            assert actions.tram_destinations(s, p) == plain_tram_destinations(s, p)
    s.space_owner, s.tram = [0] * 44, [5, 20, -1, -1]  # a whole city of your own Street tiles
    assert actions.tram_destinations(s, 0) == [sp for sp in range(44) if sp not in (5, 20)]
