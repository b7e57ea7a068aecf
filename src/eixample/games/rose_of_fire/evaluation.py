"""A sound estimate of each player's final VP, for bots that know nothing of the game.

Points already scored, plus what the table promises:
- houses in completed blocks at their block-table value (reversed under Anarchy); other houses at
  a share of it (they may yet join a block; at the end they score 1 VP);
- influence cards and the secret conviction's bonus, discounted as the bomb nears Anarchy; tokens
  toward cards;
- a secret conviction (a use to come, or its end bonus);
- prestige: a value per point, and the Prestige card (4 VP) of each end-of-phase procedure still
  to come, shared by the seats by their chance of leading then (most to the leader, but each
  point toward the lead counts);
- Popularity majorities held now (a card, or a VP at the end);
- cards in hand and the card being played (a house to come), what the cards in hand carry (a
  Prestige card's 4 VP, a Popularity card's ability or event), the Strike card's loss;
- strikers: each on the barricades costs a prestige point at the rebellion, each in Raval may be
  drawn there; the most on the barricades will take the Strike card.

Each part is a hand-set estimate (the constants below); the evaluation weighs them by weights
fitted on self-play games for each player count and phase (`training.py`, the weights in
`data/evaluation_weights.json`): a part that has been worth less at the end of games from such
positions than its hand-set estimate weighs less, and so on.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from operator import mul
from pathlib import Path
from typing import TYPE_CHECKING, Any

from eixample.core.errors import DataFileError
from eixample.games.rose_of_fire.components import LOW, MIDDLE, STRIKE, Effects
from eixample.games.rose_of_fire.end_of_phase import most
from eixample.games.rose_of_fire.state import ABILITY, EVENT, HOUSE, TILE, adjusted
from eixample.games.rose_of_fire.turn import card_colours, completable, legal_spaces

if TYPE_CHECKING:
    from eixample.games.rose_of_fire.state import RoseState

PRESTIGE_VP = 0.6
LEADER_VP = 2.5  # per end-of-phase procedure to come: the Prestige card goes to the leader
LEADER_SPREAD = 1.5
"""Each this many prestige points make a seat e times likelier to hold the most (a softmax)."""
TOKEN_VP = 1.0
CARD_VP = 1.5
MAJORITY_VP = 2.0  # a Popularity card to come (in the last phase: the printed 1 VP)
RAVAL_DRAW = 0.6  # share of Raval's strikers that cost prestige, roughly (drawn now or later)
STRIKE_RISK_VP = 3.5  # -2 VP when played, and a hand slot lost to a card that builds nothing
CONVICTION_VP = 1.0  # a secret conviction: one use to come, or its end bonus
OPEN_HOUSE_SHARE = 0.5
EFFECT_VP = (2 * PRESTIGE_VP, PRESTIGE_VP, 1.0, TOKEN_VP, 0.5 * PRESTIGE_VP, -0.3, 0.3, 1.0)
"""Worth of one unit of each card effect (reward, prestige, vp, tokens, calm, bomb, agitate, guard)."""
BLOCK_PRESTIGE = 1.5


def house_value(s: RoseState, x: int, worth: int, square_open: tuple[int, ...]) -> float:
    """A house on x: its table value in a completed block; otherwise a share of it that grows
    with the tiles already down around it (`square_open`: the squares' counts; the likelier the
    block), at least its end value."""
    if s.in_block[x] >= 0:
        return float(worth)
    near = 1  # the house's own tile: x is in no completed block here
    for q in s.t.squares_of[x]:
        if square_open[q] > near:  # (no max(): this runs for every house of every evaluation)
            near = square_open[q]
    value = (0.15 + 0.15 * near) * worth + 0.5
    return value if value > s.t.outside_vp else float(s.t.outside_vp)


def best_placement(s: RoseState, p: int, card: int, table: tuple[int, ...]) -> float:
    """The card about to place a tile: the best house it can build on the best legal space, a
    space that completes a block counting the block's prestige and the house's full value."""
    t = s.t
    worths = [table[h] for h in t.card_houses[card] if s.houses_left[4 * p + h] > 0]
    if not worths:
        return 0.0
    worth = max(worths)
    in_block, square_open = s.in_block, s.square_open
    best = 0.0
    for colour in card_colours(s, card):
        for x in legal_spaces(s, colour):
            near = 1  # x is empty: the tiles of a square without a block, x's to come
            for q, (a, b, c, d) in zip(t.squares_of[x], t.square_spaces_of[x], strict=True):
                if in_block[a] < 0 and in_block[b] < 0 and in_block[c] < 0 and in_block[d] < 0:
                    near = max(near, 1 + square_open[q])
            if near == 4:
                value = worth + BLOCK_PRESTIGE * PRESTIGE_VP + 1.0
            else:
                value = max(float(t.outside_vp), (0.15 + 0.15 * near) * worth + 0.5)
            best = max(best, value)
    return best


PARTS = ("houses", "influence", "conviction", "leader", "tokens", "prestige", "strikers", "strike_risk",
         "hand", "hand_effects", "strike_cards", "placement", "effects", "majorities")
"""The parts `seat_parts` values, in order: each a hand-set estimate in VP (the constants above)."""
ALL_PARTS = (True,) * len(PARTS)
HOUSES, INFLUENCE, CONVICTION, LEADER, TOKENS, PRESTIGE, STRIKERS, STRIKE_RISK, HAND, HAND_EFFECTS, \
    STRIKE_CARDS, PLACEMENT, EFFECTS, MAJORITIES = range(len(PARTS))
WEIGHTS_FILE = Path(__file__).parent / "data" / "evaluation_weights.json"
MAX_WEIGHT = 10.0
"""Weights must be finite and at most this in size."""


def leader_shares(prestige: Sequence[int]) -> list[float]:
    """Each seat's chance of holding the most prestige when the Prestige cards are handed out:
    a softmax of the prestige, so that each point gained toward the lead counts, not only the
    point that takes it."""
    top = max(prestige)
    weights = [math.exp((points - top) / LEADER_SPREAD) for points in prestige]
    total = sum(weights)
    return [w / total for w in weights]


def seat_parts(s: RoseState, needed: tuple[bool, ...] = ALL_PARTS) -> list[list[float]]:
    """Per seat, the hand-set estimate of each part (PARTS order) of what the table promises;
    the costly parts (houses, placement, majorities) are left at 0 where `needed` says so."""
    t = s.t
    n = s.n
    parts = [[0.0] * len(PARTS) for _ in range(n)]
    table = t.reversed_vp if s.anarchy else t.block_vp
    if needed[HOUSES]:
        add_house_values(s, parts, table, s.square_open)
    if needed[MAJORITIES]:
        add_majorities(s, parts)
    danger = 0.0 if s.anarchy else max(0.0, 1.0 - (t.anarchy_space - s.bomb) / 8.0) * 0.5
    for k, owner in enumerate(s.influence_owner):
        if owner >= 0:
            bonus = 2 if s.conviction[owner] == t.influence_symbol[k] else 0
            parts[owner][INFLUENCE] += (t.influence_vp[k] + bonus) * (1.0 - danger)
    phases_left = 5 - s.phase + 1
    for p, share in enumerate(leader_shares(s.prestige)):
        parts[p][LEADER] = LEADER_VP * phases_left * share
    worst = max(s.barricade)
    for p in range(n):
        mine = parts[p]
        if s.conviction[p] >= 0:
            mine[CONVICTION] = CONVICTION_VP
        mine[TOKENS] = TOKEN_VP * s.token_count(p)
        mine[PRESTIGE] = PRESTIGE_VP * s.prestige[p]
        mine[STRIKERS] = -PRESTIGE_VP * (s.barricade[p] + RAVAL_DRAW * s.raval[p])
        if worst > 0 and s.barricade[p] == worst:
            mine[STRIKE_RISK] = -STRIKE_RISK_VP
        for c in s.hands[p]:
            if t.card_kind[c] == STRIKE:
                mine[STRIKE_CARDS] -= t.strike_vp_negative if s.prestige[p] < 0 else t.strike_vp
            else:
                mine[HAND] += CARD_VP
                mine[HAND_EFFECTS] += carried_vp(t.card_ability[c], t.card_event[c])
    for frame in s.stack:
        kind = frame[0]
        if kind == TILE:
            if needed[PLACEMENT]:
                parts[frame[1]][PLACEMENT] += best_placement(s, frame[1], frame[2], table)
        elif kind == HOUSE and s.placed >= 0:
            if needed[PLACEMENT]:
                add_house_placement(s, parts[frame[1]], frame[1], frame[2], s.placed, table, s.square_open)
        elif kind in (ABILITY, EVENT):
            effects = t.card_ability[frame[2]] if kind == ABILITY else t.card_event[frame[2]]
            parts[frame[1]][EFFECTS] += effects_vp(effects)
    return parts


@cache
def effects_vp(effects: Effects) -> float:
    """The worth of a card's ability or event, effect by effect (EFFECT_VP)."""
    return sum(EFFECT_VP[e] * a for e, a in effects)


@cache
def carried_vp(ability: Effects, event: Effects) -> float:
    """What a card in hand carries: the better of its ability (played with a tile) and its event
    (played instead of one); nothing for a card whose effects would cost its owner."""
    return max(0.0, effects_vp(ability), effects_vp(event))


def add_house_values(s: RoseState, parts: list[list[float]], table: tuple[int, ...],
                     square_open: tuple[int, ...]) -> None:
    """Each house's value to its owner's houses part."""
    owner, htype = s.owner, s.htype
    for x in s.house_spaces:
        parts[owner[x]][HOUSES] += house_value(s, x, table[htype[x]], square_open)


def add_house_placement(s: RoseState, mine: list[float], p: int, card: int, x: int,
                        table: tuple[int, ...], square_open: tuple[int, ...]) -> None:
    """The house p is about to build on x with `card`, to p's placement part (`mine`): the best
    type p has left, and the block it completes."""
    best = max(table[h] for h in s.t.card_houses[card] if s.houses_left[4 * p + h] > 0)
    mine[PLACEMENT] += house_value(s, x, best, square_open)
    if completable(s, x, square_open):
        mine[PLACEMENT] += BLOCK_PRESTIGE * PRESTIGE_VP + 1.0


def add_majorities(s: RoseState, parts: list[list[float]]) -> None:
    """The Popularity majorities held now, to their holders' majorities part: the winners of the
    rules' `end_of_phase.majorities`, from the house counts the rules keep."""
    majority = MAJORITY_VP if s.phase < 5 else float(s.t.majority_vp)
    counts = s.house_count
    for d in s.districts_used:
        for h in range(MIDDLE, LOW + 1):
            winner = most(s, counts[d * 4 + h::3 * 4])  # each seat's count: (seat * 3 + d) * 4 + h
            if winner >= 0:
                parts[winner][MAJORITIES] += majority


def evaluate(s: RoseState) -> list[float]:
    """Points scored plus each part weighed by the weights fitted for the player count and phase
    (`training.py`): what the parts have been worth at the end of games from such positions."""
    if s.ended:
        return [float(v) for v in s.vp]
    weights, needed = weighed(s)
    return [vp + sum(map(mul, weights, parts)) for vp, parts in zip(s.vp, seat_parts(s, needed), strict=True)]


def weighed(s: RoseState) -> tuple[tuple[float, ...], tuple[bool, ...]]:
    """The weights for the player count and phase, and which parts need computing: a part
    weighed 0 adds nothing."""
    weights = (_weighing or phase_weights())[s.n][s.phase]
    return weights, tuple(w != 0.0 for w in weights)


def evaluations_after_tiles(s: RoseState, spaces: Sequence[int]) -> list[list[float]]:
    """What `evaluate` gives after the tile decision on top of the stack places a tile on each
    of `spaces`, without playing it on a copy. A tile only adds to the counts of its squares and
    turns the pending tile into a house to build on it, so only the houses' and the placement
    parts are computed for each space, and only the houses sharing a square with it change
    value: the same values, to the last bit, as `evaluate` after the tile action (its colour
    changes nothing the evaluation reads)."""
    weights, needed = weighed(s)
    unchanged = seat_parts(s, tuple(need and k != HOUSES and k != PLACEMENT for k, need in enumerate(needed)))
    _, p, card = s.stack[-1]
    table = s.t.reversed_vp if s.anarchy else s.t.block_vp
    squares_of, houses, owner = s.t.squares_of, s.house_spaces, s.owner
    before = [house_value(s, y, table[s.htype[y]], s.square_open) for y in houses] if needed[HOUSES] else []
    in_square: dict[int, list[int]] = {}  # per square, the houses (by index) whose value it moves
    for i, y in enumerate(houses):
        if s.in_block[y] < 0:
            for q in squares_of[y]:
                in_square.setdefault(q, []).append(i)
    values = []
    for x in spaces:
        square_open = adjusted(s.square_open, squares_of[x], 1)
        parts = [row[:] for row in unchanged]
        if needed[HOUSES]:
            house_values = before
            moved = {i for q in squares_of[x] for i in in_square.get(q, ())}
            if moved:
                house_values = before[:]
                for i in moved:
                    house_values[i] = house_value(s, houses[i], table[s.htype[houses[i]]], square_open)
            for y, value in zip(houses, house_values, strict=True):  # in add_house_values' order
                parts[owner[y]][HOUSES] += value
        if needed[PLACEMENT]:
            add_house_placement(s, parts[p], p, card, x, table, square_open)
        values.append([vp + sum(map(mul, weights, row)) for vp, row in zip(s.vp, parts, strict=True)])
    return values


Weights = dict[int, dict[int, tuple[float, ...]]]
"""Weights by player count (2-4) and phase (1-5), one per part."""
_weighing: Weights | None = None
"""Weights `weighing` put in place of the shipped ones (None: the shipped ones)."""


HAND_SET: Weights = {players: {phase: (1.0,) * len(PARTS) for phase in range(1, 6)} for players in (2, 3, 4)}
"""Every weight 1: the parts' hand-set estimates as they are."""


@contextmanager
def weighing(weights: Weights) -> Iterator[None]:
    """Evaluate with `weights` instead of the shipped ones inside the block (in this process):
    for the training's self-play and for comparing two sets of weights."""
    global _weighing
    before, _weighing = _weighing, weights
    try:
        yield
    finally:
        _weighing = before


@cache
def phase_weights() -> Weights:
    """The weights of WEIGHTS_FILE by player count and phase (1-5)."""
    return parse_weights(json.loads(WEIGHTS_FILE.read_text()), WEIGHTS_FILE.name)


def parse_weights(data: Any, name: str) -> Weights:
    """Check a weights file's content; DataFileError naming the file, entry and problem."""
    def fail(entry: str, problem: str) -> DataFileError:
        return DataFileError(f"{name}: {entry}: {problem}")

    if not isinstance(data, dict) or list(data.get("parts", [])) != list(PARTS):
        raise fail("parts", f"must list {', '.join(PARTS)}")
    counts = data.get("weights")
    if not isinstance(counts, dict) or sorted(counts) != ["2", "3", "4"]:
        raise fail("weights", "must hold the player counts 2, 3 and 4")
    found: dict[int, dict[int, tuple[float, ...]]] = {}
    for players, phases in counts.items():
        if not isinstance(phases, dict) or sorted(phases) != ["1", "2", "3", "4", "5"]:
            raise fail(f"weights.{players}", "must hold the phases 1 to 5")
        found[int(players)] = {}
        for phase, row in phases.items():
            entry = f"weights.{players}.{phase}"
            if not isinstance(row, list) or len(row) != len(PARTS):
                raise fail(entry, f"must list {len(PARTS)} weights, one per part")
            if not all(isinstance(w, (int, float)) and math.isfinite(w) and abs(w) <= MAX_WEIGHT
                       for w in row):
                raise fail(entry, f"weights must be finite numbers of size at most {MAX_WEIGHT:g}")
            found[int(players)][int(phase)] = tuple(float(w) for w in row)
    return found
