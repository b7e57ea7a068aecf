"""Placing Citizens (rulebook): the crossing and its cost, the order of the two citizens, and the
benefits the owner of an Intersection takes when citizens land on it."""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Any

from eixample.core.decisions import Frame
from eixample.games.barcelona import actions, board, log
from eixample.games.barcelona.components import Benefit
from eixample.games.barcelona.frames import ACTIONS, BENEFITS, ORDER, SOLO_SEAT
from eixample.games.barcelona.tables import CITIZENS

if TYPE_CHECKING:
    from eixample.games.barcelona.state import BarcelonaState

PLACE_TEXT = tuple(f"place {c}" for c in board.CROSSINGS)
TOP_TEXT = tuple(f"top {c}" for c in CITIZENS)


def crossing_cost(s: BarcelonaState, x: int) -> int:
    """Coins to place citizens on a crossing: its printed cost, unless an Intersection covers it."""
    return 0 if s.cross_owner[x] >= 0 else s.t.crossing_cost[x]


# --- decision: the crossing
def legal_place(s: BarcelonaState, frame: Frame, texts: list[str], payloads: list[Any]) -> None:
    p = frame[1]
    if not s.hands[p]:
        return
    coins = s.coins[p]
    cross, owner, cost = s.cross_cit, s.cross_owner, s.t.crossing_cost
    for x in range(25):
        if not cross[x] and (owner[x] >= 0 or cost[x] <= coins):  # crossing_cost, inlined
            texts.append(PLACE_TEXT[x])
            payloads.append(x)


def resolve_place(s: BarcelonaState, frame: Frame, x: int) -> None:
    p = frame[1]
    actions.pay(s, p, coins=crossing_cost(s, x))
    hand = s.hands[p]
    s.progress = True
    if len(hand) == 2 and hand[0] != hand[1]:
        s.stack.append((ORDER, p, x))
    else:
        put_citizens(s, p, x, hand)


# --- decision: which citizen goes on top
def legal_order(s: BarcelonaState, frame: Frame, texts: list[str], payloads: list[Any]) -> None:
    for kind in sorted(set(s.hands[frame[1]])):
        texts.append(TOP_TEXT[kind])
        payloads.append(kind)


def resolve_order(s: BarcelonaState, frame: Frame, top: int) -> None:
    p, x = frame[1], frame[2]
    hand = list(s.hands[p])
    hand.remove(top)
    put_citizens(s, p, x, (*hand, top))


def put_citizens(s: BarcelonaState, p: int, x: int, bottom_to_top: tuple[int, ...]) -> None:
    """The citizens are on the crossing: its actions follow, after the Intersection owner's benefits."""
    s.cross_cit[x] = bottom_to_top
    s.hands[p] = ()
    s._say(("bcn.places", {"player": log.seat(s, p), "stack": log.citizens(bottom_to_top),
                           "crossing": board.CROSSINGS[x]}))
    mask = (1 << len(board.CROSSING_STREETS[x])) - 1
    s.stack.append((ACTIONS, p, x, mask))
    owner = s.cross_owner[x]
    if owner >= 0:
        allowed = benefits_allowed(s, owner)
        if s.solo and owner == SOLO_SEAT:  # Gaudí's Assistant takes its benefits at once
            from eixample.games.barcelona import solo

            solo.intersection_benefits(s, allowed)
            return
        s.stack.append((BENEFITS, owner, allowed))


# --- decision: the Intersection owner's benefits
def benefits_allowed(s: BarcelonaState, owner: int) -> int:
    """How many different benefits the owner takes: 1, 2 from 3 Intersections, 3 from 5."""
    built = s.inters[owner]
    return 3 if built >= 5 else (2 if built >= 3 else 1)


def legal_benefits(s: BarcelonaState, frame: Frame, texts: list[str], payloads: list[Any]) -> None:
    owner, allowed = frame[1], frame[2]
    slots = distinct_benefit_slots(s, owner)
    texts.append("benefits none")
    payloads.append(())
    for combo in _subsets(slots, allowed):
        texts.append("benefits " + "+".join(str(i + 1) for i in combo))
        payloads.append(combo)


def distinct_benefit_slots(s: BarcelonaState, owner: int) -> list[int]:
    seen: list[Benefit] = []
    slots: list[int] = []
    for i in range(s.inters[owner]):
        b = s.t.intersection_benefit[i]
        if b not in seen:
            seen.append(b)
            slots.append(i)
    return slots


def resolve_benefits(s: BarcelonaState, frame: Frame, combo: tuple[int, ...]) -> None:
    owner = frame[1]
    for i in reversed(combo):
        actions.gain(s, owner, s.t.intersection_benefit[i], "benefits")
    if combo:
        chosen = [log.benefit(s.t.intersection_benefit[i]) for i in combo]
        s._say(("bcn.intersectionBenefits", {"player": log.seat(s, owner), "benefits": chosen}))


def _subsets(items: list[int], most: int) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = []
    for size in range(1, min(most, len(items)) + 1):
        out.extend(combinations(items, size))
    return out
