"""The rulebook's worked examples, with the rulebook's numbers."""

from __future__ import annotations

import itertools

from eixample.games.barcelona import board, cerda_scoring, game_end
from eixample.games.barcelona.components import ACTION_KINDS, Benefit
from eixample.games.barcelona.frames import (
    ACTIONS,
    BUILD,
    IMPROVE,
    INTERSECTION,
    STREET_KIND,
    TAKE,
    TRAM,
)
from eixample.games.barcelona.state import BarcelonaState
from eixample.games.barcelona.tables import CORNER
from tests.games.barcelona.helpers import decide, scenario

W, M, U = 0, 1, 2
BLUE, PURPLE, ORANGE = 0, 1, 2
X = board.CROSSING_INDEX
SP = board.SPACE_INDEX
B = board.BUILDING_INDEX


def test_example_build_narrow_streets() -> None:
    """Build Wide/Narrow Streets: 1 coin and 1 VP, then 2 VP for a line of two, then +1 Cerdà."""
    s = scenario()
    t = s.t
    pairs = [
        (a, b)
        for spaces in board.STREET_SPACES
        for a, b in itertools.pairwise(spaces)
        if not t.space_wide[a] and t.space_benefit[a] == Benefit(coin=1) and t.space_benefit[b] is None
    ]
    first, second = pairs[0]
    s.narrow_left[BLUE * 2 : BLUE * 2 + 2] = [2, 6]  # the first stack holds its last two tiles
    s.coins[BLUE], s.cloth[BLUE] = 0, 0
    decide(s, (STREET_KIND, BLUE))
    cerda = s.cerda[BLUE]
    s.apply("streets narrow")
    s.apply(f"street {board.SPACES[first]}")
    assert s.coins[BLUE] == 1 and s.vp[BLUE] == 1
    s.apply(f"street {board.SPACES[second]}")
    assert s.vp[BLUE] == 1 + 2
    assert s.cerda[BLUE] == cerda + 1
    assert s.narrow_left[BLUE * 2 : BLUE * 2 + 2] == [0, 6]


def test_example_build_an_intersection() -> None:
    """Build an Intersection: third Intersection, 2 coins + 1 coin, gains 2 coins and 2 Cerdà steps;
    later Orange places on it and Blue picks 1 coin and 2 VP."""
    s = scenario()
    t = s.t
    assert t.intersection_cost[2] == 2 and t.crossing_cost[X["C13"]] == 1
    s.inters[BLUE] = 2
    s.cross_owner[X["C40"]] = BLUE
    s.cross_owner[X["C44"]] = BLUE
    s.coins[BLUE], s.cloth[BLUE] = 3, 0
    cerda = s.cerda[BLUE]
    decide(s, (INTERSECTION, BLUE, 0))
    s.apply("intersection C13")
    assert s.coins[BLUE] == 3 - 2 - 1 + 2
    assert s.cerda[BLUE] == cerda + 2
    assert s.inters[BLUE] == 3
    # a later turn: Orange places citizens on Blue's Intersection
    coins, vp = s.coins[BLUE], s.vp[BLUE]
    s.stack = [(ACTIONS, ORANGE, 0, 0)]
    s.hands[ORANGE] = (W, W)
    s.stack.append((0, ORANGE))  # PLACE
    s._legal = None
    s.apply("place C13")
    assert s.current_player() == BLUE
    benefits = [t.intersection_benefit[i] for i in range(3)]
    coin = next(i for i, b in enumerate(benefits) if b.coin == 1) + 1
    two_vp = next(i for i, b in enumerate(benefits) if b.vp == 2) + 1
    options = s.legal_actions()
    assert max(len(a.split()[1].split("+")) for a in options if a != "benefits none") == 2
    s.apply(f"benefits {min(coin, two_vp)}+{max(coin, two_vp)}")
    assert s.coins[BLUE] == coins + 1 and s.vp[BLUE] == vp + 2


def test_example_improve_a_modernisme_project_space() -> None:
    """Improve: Blue pays 2 cloth to move the marker of the middle project space to its top."""
    s = scenario()
    s.coins[BLUE], s.cloth[BLUE] = 0, 2
    decide(s, (IMPROVE, BLUE))
    s.apply("improve 3")
    assert s.cloth[BLUE] == 0 and s.mod_top[2] == 1


def test_example_take_a_modernisme_project() -> None:
    """Take: Blue pays 1 cloth to put a Modernisme tile into a project space that costs 1 cloth."""
    s = scenario()
    space = s.t.modernisme_take.index(1)
    s.coins[BLUE], s.cloth[BLUE] = 0, 1
    decide(s, (TAKE, BLUE, 0))
    tile = s.mod_offer[0]
    s.apply(f"take {s.t.modernisme_ids[tile]} into {space + 1}")
    assert s.cloth[BLUE] == 0 and s.mod_tile[space] == tile
    assert s.mod_offer[0] >= 0 and s.mod_offer[0] != tile


def test_example_move_your_tram() -> None:
    """Tram: the second Tram action; Blue pays 1 cloth for the leftmost Passenger, Purple scores 2 VP
    for their Street tile, then Blue takes the street's Gain 2 Coins action."""
    s = scenario()
    t = s.t
    street = next(i for i, kind in enumerate(s.street_action) if ACTION_KINDS[kind] == "cloth_or_coins")
    spaces = board.STREET_SPACES[street]
    wide = t.space_wide[spaces[0]]
    s.space_owner[spaces[1]] = PURPLE
    if not wide:
        s.space_owner[spaces[2]] = PURPLE  # a narrow line of two scores 2 VP
    s.tram[BLUE] = spaces[0]  # placed by the first Tram action
    assert t.passenger_cost[0] == (0, 1)
    s.coins[BLUE], s.cloth[BLUE] = 0, 1
    decide(s, (TRAM, BLUE, 0))
    s.apply(f"tram {board.SPACES[spaces[1]]}")
    s.apply("passenger")
    assert s.cloth[BLUE] == 0 and s.passengers[BLUE] == 1
    assert s.vp[PURPLE] == 2
    s.apply(f"act {board.STREETS[street]} cloth_or_coins")
    s.apply("gain coins")
    assert s.coins[BLUE] == 2


def test_example_level_2_building_scores_7_vp() -> None:
    """Construct a Building: a Level-2 Building with a Middle citizen; 7 VP from the tracks,
    one Sagrada step, one Cerdà step back, a Building marker; no Cerdà Scoring."""
    s = scenario()
    t = s.t
    for k in range(3):  # the first sections are full; the Working track's 6 is covered too
        for i, section in enumerate(t.track_section[k]):
            s.track[k][i] = 1 if section == 0 else 0
    s.track[W][t.track_section[W].index(1)] = 1
    s.cerda_scored[0] = 1
    s.cross_cit[X["C01"]] = (M,)
    s.cross_cit[X["C12"]] = (U, W)
    s.stack = [s.stack[0], (BUILD, BLUE)]
    s._legal = None
    cerda, vp = s.cerda[BLUE], s.vp[BLUE]
    s.apply("build L2 B01")
    s.apply("use C01+C12")
    assert s.vp_src[1] == 7
    assert s.vp[BLUE] - vp == 7 + 5  # and the row's Building Bonus
    assert s.cerda[BLUE] == cerda - 1
    assert s.sagrada[BLUE] == 1
    assert s.bld_markers[B["B01"]] == (BLUE,)
    while s.legal_actions() and s.legal_actions()[0].startswith("sagrada"):
        s.apply(s.legal_actions()[0])
    scored = s.cerda_scored[:]
    cerda_scoring.run_cerda_scorings(s)
    assert s.cerda_scored == scored


def _corner(s: BarcelonaState, name: str, player: int) -> None:
    b = B[name]
    s.bld_type[b] = CORNER
    s.bld_tiles[b] = (CORNER,)
    s.bld_markers[b] = (player,)
    s.bld_stock[CORNER] -= 1


def test_example_cerda_scoring_18_0_3() -> None:
    """Cerdà Scoring: 3 VP per Corner Building on different blocks; Blue x3 with 3 corners on
    2 blocks scores 18, Purple x2 with none 0, Orange x1 with one 3; Blue and Purple reset."""
    s = scenario(players=3)
    t = s.t
    tile = next(i for i, c in enumerate(t.cerda_condition) if c == "corner_buildings_different_blocks")
    assert t.cerda_vp[tile] == 3
    s.cerda_tiles = (tile, *[i for i in range(len(t.cerda_ids)) if i != tile][:2])
    marks = {m: pos for pos, m in reversed(list(enumerate(t.cerda_multiplier)))}
    first_x = {m: t.cerda_multiplier.index(m) for m in range(5)}
    s.cerda[BLUE] = first_x[3] + 1 if t.cerda_multiplier[first_x[3] + 1] == 3 else first_x[3]
    s.cerda[PURPLE] = first_x[2]
    s.cerda[ORANGE] = t.cerda_start
    assert marks and t.cerda_multiplier[s.cerda[ORANGE]] == 1
    _corner(s, "B00U", BLUE)
    _corner(s, "B00L", BLUE)
    _corner(s, "B11U", BLUE)
    _corner(s, "B22L", ORANGE)
    s.track[U] = [1 if i <= t.track_triggers[U][0] else 0 for i in range(len(s.track[U]))]
    s.bag[U] -= sum(s.track[U])
    before = s.vp[:]
    cerda_scoring.run_cerda_scorings(s)
    assert [s.vp[p] - before[p] for p in range(3)] == [18, 0, 3]
    assert s.cerda == [t.cerda_start] * 3
    assert s.cerda_scored == [1, 0, 0]


def test_example_final_scoring_154_7_16_24_makes_201() -> None:
    """Final scoring: 154 VP + 7 for cobblestones + 16 for passengers + 24 for a Modernisme tile
    (2 VP per Wide Street tile x 3 tiles x4) = 201."""
    s = scenario()
    t = s.t
    s.vp[BLUE] = 154
    s.vp_src[1] = 154
    s.cobbles[BLUE] = t.cobblestone_vp.index(7)
    s.passengers[BLUE] = t.passenger_vp.index(16)
    tile = next(
        i for i, c in enumerate(t.modernisme_condition) if c == "wide_tiles" and t.modernisme_vp[i] == 2
    )
    s.mod_tile[4] = tile
    s.mod_top[4] = 1
    assert t.modernisme_top[4] == 4
    wide = [x for x in range(44) if t.space_wide[x]][:3]
    for x in wide:
        s.space_owner[x] = BLUE
    game_end.final_scoring(s)
    assert s.vp[BLUE] == 201
    breakdown = s.score_breakdown()[BLUE]
    assert (breakdown["cobblestones"], breakdown["passengers"], breakdown["modernisme"]) == (7, 16, 24)
