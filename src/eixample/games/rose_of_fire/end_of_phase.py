"""The end-of-phase procedure (rulebook: End-of-phase procedure), six steps in order:
1. Rebellion!  2. the Strike card  3. the Prestige card  4. Popularity cards  5. City cards
6. the first-player marker. After phase 5 the final form applies (rulebook: End of the game):
the Strike card costs VP, the Prestige card gives VP, each Popularity majority gives 1 VP, and no
cards are dealt.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from eixample.core.messages import vp
from eixample.games.rose_of_fire.components import (
    CITY,
    COLONIES,
    LOW,
    MIDDLE,
    POPULARITY,
    PRESTIGE,
)
from eixample.games.rose_of_fire.conflict import advance_bomb, check_anarchy
from eixample.games.rose_of_fire.state import (
    BLOCK_SCORING,
    DEAL,
    DISTRICT_ARGS,
    EXTRA,
    FINAL_SCORING,
    FIRST_PLAYER,
    HOUSE_ARGS,
    NEXT_PHASE,
    POPULARITY_CARDS,
    PRESTIGE_CARD,
    REBELLION,
    STRIKE_CARD,
    SUPPRESSION,
)

if TYPE_CHECKING:
    from eixample.core.decisions import Frame
    from eixample.games.rose_of_fire.state import RoseState


def begin_end_of_phase(s: RoseState) -> None:
    """Push the procedures that follow the phase, bottom of the stack first."""
    final = s.phase == 5
    if final:
        s.stack.extend(((FINAL_SCORING, -1), (BLOCK_SCORING, -1)))
    else:
        s.stack.append((NEXT_PHASE, -1))
        if s.phase % 2 == 0:  # phases 2 and 4 end periods I and II
            s.stack.extend(((SUPPRESSION, -1), (BLOCK_SCORING, -1)))
        s.stack.extend(((FIRST_PLAYER, -1), (DEAL, -1)))
    s.stack.extend(((POPULARITY_CARDS, -1), (PRESTIGE_CARD, -1), (STRIKE_CARD, -1), (REBELLION, -1)))
    s._say(("rof.endOfPhase", {"phase": s.phase}))


def rebellion(s: RoseState, f: Frame) -> None:
    """Raval's strikers into the black bag with max(players, barricade strikers) soldiers (at most
    8, as many as Montjuïc still holds); draw the immigration level's worth onto the barricades;
    each player loses 1 prestige per own striker there; the bomb moves 1 per soldier drawn."""
    n = s.n
    from_raval = s.raval[:]
    for p in range(n):
        s.bag[p] += s.raval[p]
        s.raval[p] = 0
    before = s.barricade[:]
    soldiers = min(s.t.soldiers_cap, max(n, sum(s.barricade)), s.montjuic)
    s.montjuic -= soldiers
    s.bag_soldiers += soldiers
    drawn = [0] * n
    soldiers_drawn = 0
    for _ in range(s.level):
        total = sum(s.bag) + s.bag_soldiers
        if total == 0:
            break  # ruling R4: a bag with fewer figures is emptied
        r = s._below(total)
        for p in range(n):
            if r < s.bag[p]:
                s.bag[p] -= 1
                s.barricade[p] += 1
                drawn[p] += 1
                break
            r -= s.bag[p]
        else:
            s.bag_soldiers -= 1
            s.barricade_soldiers += 1
            soldiers_drawn += 1
    say_rebellion(s, from_raval, before, soldiers, drawn, soldiers_drawn)
    for p in range(n):
        guard = next((c for c in s.table[p] if s.t.card_stays[c]), -1)
        if guard >= 0:
            table = s.table[p]
            i = table.index(guard)
            s.table[p] = table[:i] + table[i + 1 :]
            s.discard(guard)
            if s.barricade[p]:
                s._say(("rof.guardUsed", {"player": s.seat_name(p), "count": s.barricade[p]}))
            else:
                s._say(("rof.guardUnused", {"player": s.seat_name(p)}))
        elif s.barricade[p]:
            say_prestige_loss(s, p, before[p], drawn[p])
    advance_bomb(s, soldiers_drawn, in_turn=False, cause=("rof.cause.soldiers", {"count": soldiers_drawn}))
    check_anarchy(s, soldiers_drawn)


def say_rebellion(
    s: RoseState,
    from_raval: list[int],
    before: list[int],
    soldiers: int,
    drawn: list[int],
    soldiers_drawn: int,
) -> None:
    """The rebellion's first lines: what went into the bag, then what was drawn and where it went."""
    n = s.n
    none: list[Any] = [("rof.none", {})]
    raval = [("rof.seatCount", {"player": s.seat_name(p), "count": c}) for p, c in enumerate(from_raval) if c]
    s._say(("rof.rebellion", {"raval": raval or none, "soldiers": soldiers, "players": n,
                              "barricades": sum(before), "cap": s.t.soldiers_cap, "left": s.montjuic}))
    got = [("rof.seatStrikers", {"player": s.seat_name(p), "count": drawn[p]}) for p in range(n) if drawn[p]]
    if soldiers_drawn:
        got.append(("rof.soldiers", {"count": soldiers_drawn}))
    s._say(("rof.drawn", {"level": s.level, "count": sum(drawn) + soldiers_drawn, "figures": got or none}))
    there = [("rof.seatCount", {"player": s.seat_name(p), "count": before[p]}) for p in range(n) if before[p]]
    if there:
        s._say(("rof.already", {"strikers": there}))


def say_prestige_loss(s: RoseState, p: int, before: int, drawn: int) -> None:
    """One prestige per own striker on the barricades; below the Auca's bottom it costs VP."""
    vp = s.vp[p]
    s.lose_prestige(p, s.barricade[p])
    del vp  # a loss below the Auca's bottom is said by lose_prestige, with its VP
    parts = [("rof.alreadyThere", {"count": before})] if before else []
    if drawn:
        parts.append(("rof.drawnNow", {"count": drawn}))
    s._say(("rof.prestigeLoss", {"player": s.seat_name(p), "count": s.barricade[p], "parts": parts,
                                 "prestige": s.prestige[p]}))


def tied(s: RoseState, values: list[int], w: int, rule: str = "prestige") -> Any:
    """The winner's count in words, with how a tie was broken when others have as many as the
    winner w (the general tie rule): "rof.tie.<rule>", or "rof.tie.none"."""
    if sum(1 for v in values if v == values[w]) > 1:
        return (f"rof.tie.{rule}", {"count": values[w]})
    return ("rof.tie.none", {"count": values[w]})


def most(s: RoseState, values: Sequence[int]) -> int:
    """The seat with the most (at least 1), the general tie rule deciding; -1 if nobody has any."""
    top = max(values)
    if top <= 0:
        return -1
    holders = [p for p in range(s.n) if values[p] == top]
    return holders[0] if len(holders) == 1 else max(holders, key=s.tie_key)


def strike_card(s: RoseState, f: Frame) -> None:
    """The most strikers on the barricades takes the Strike card (rulings R5, R6); then the
    barricades are cleared: strikers to their supplies, soldiers to Montjuïc."""
    w = most(s, s.barricade)
    s.strike_to = w
    if w >= 0:
        s._say(("rof.strikeMost", {"player": s.seat_name(w), "tie": tied(s, s.barricade, w)}))
        if s.phase == 5:
            loss = s.t.strike_vp_negative if s.prestige[w] < 0 else s.t.strike_vp
            lost = s.score(w, -loss, "strike")
            s._say(("rof.strikeFinal", {"player": s.seat_name(w), "vp": [vp("strike", lost)]}))
        elif s.options.get("no_strike"):
            s.strike_shown = w
            s._say(("rof.strikeShown", {"player": s.seat_name(w)}))
        else:
            s.hands[w] = s.hands[w] + (s.t.card_index["strike"],)
            s._say(("rof.strikeTo", {"player": s.seat_name(w)}))
    else:
        s._say(("rof.strikeNobody", {}))
    if any(s.barricade) or s.barricade_soldiers:
        s._say(("rof.cleared", {"strikers": sum(s.barricade), "soldiers": s.barricade_soldiers}))
    for p in range(s.n):
        s.supply[p] += s.barricade[p]
        s.barricade[p] = 0
    s.montjuic += s.barricade_soldiers
    s.barricade_soldiers = 0


def prestige_card(s: RoseState, f: Frame) -> None:
    """The highest prestige takes a Prestige card (the general tie rule breaks ties)."""
    w = max(range(s.n), key=s.tie_key)
    s._say(("rof.prestigeMost", {"player": s.seat_name(w), "tie": tied(s, s.prestige, w, "order")}))
    if s.phase == 5:
        s.score(w, s.t.prestige_card_vp, "prestige_card")
        parts = [vp("prestige_card", s.t.prestige_card_vp)]
        s._say(("rof.prestigeFinal", {"player": s.seat_name(w), "vp": parts}))
        return
    card = s.draw_card(PRESTIGE)
    if card >= 0:
        s.hands[w] = s.hands[w] + (card,)
        s._say(("rof.prestigeTo", {"player": s.seat_name(w)}))
    else:
        s._say(("rof.prestigeOut", {}))


def house_counts(s: RoseState) -> list[int]:
    """Each seat's houses by district and type, at (seat * 3 + district) * 4 + type."""
    counts = [0] * (s.n * 3 * 4)
    district = s.t.space_district
    for x, p in enumerate(s.owner):
        if p >= 0:
            counts[(p * 3 + district[x]) * 4 + s.htype[x]] += 1
    return counts


def majorities(s: RoseState, counts: list[int] | None = None) -> list[tuple[int, int, int, list[int]]]:
    """(district, house type, winner, each seat's count) of each comparison, in the order Left,
    Right, Sant Martí and middle, working, low-budget within each (ruling R7); `counts` are
    `house_counts(s)` where the caller has them."""
    if counts is None:
        counts = house_counts(s)
    out = []
    for d in s.districts_used:
        for h in range(MIDDLE, LOW + 1):
            values = [counts[(p * 3 + d) * 4 + h] for p in range(s.n)]
            out.append((d, h, most(s, values), values))
    return out


def popularity_cards(s: RoseState, f: Frame) -> None:
    final = s.phase == 5
    for d, h, w, values in majorities(s):
        if w < 0:
            continue
        what = {"player": s.seat_name(w), "house": HOUSE_ARGS[h], "district": DISTRICT_ARGS[d],
                "tie": tied(s, values, w)}
        if final:
            s.score(w, s.t.majority_vp, "popularity")
            s._say(("rof.majorityFinal", {**what, "vp": [vp("popularity", s.t.majority_vp)]}))
        elif len(s.hands[w]) >= s.limit:
            s._say(("rof.majorityFull", what))
        else:
            card = s.draw_card(POPULARITY)
            if card >= 0:
                s.hands[w] = s.hands[w] + (card,)
                s._say(("rof.majority", what))
            else:
                s._say(("rof.majorityOut", what))
    if final:
        return
    # the Colonies conviction: every holder of a secret conviction is asked (revealing nothing)
    for step in reversed(range(s.n)):
        p = (s.first + step) % s.n
        if s.conviction[p] >= 0 and len(s.hands[p]) < s.limit:
            s.stack.append((EXTRA, p))


def legal_extra(s: RoseState, f: Frame, texts: list[str], payloads: list[Any]) -> None:
    texts.append("extra none")
    payloads.append(False)
    cards_left = s.pop_deck or s.pop_discard
    if s.conviction[f[1]] == COLONIES and len(s.hands[f[1]]) < s.limit and cards_left:
        texts.append("extra colonies")
        payloads.append(True)


def resolve_extra(s: RoseState, f: Frame, colonies: bool) -> None:
    if not colonies:
        return
    p = f[1]
    s.spend_conviction(p, ("rof.why.extra", {}))
    card = s.draw_card(POPULARITY)
    if card >= 0:
        s.hands[p] = s.hands[p] + (card,)


def describe_extra(s: RoseState, f: Frame) -> object:
    return ("rof.ask.extra", {"player": s.seat_name(f[1])})


def deal(s: RoseState, f: Frame) -> None:
    """Hands are filled up to the limit with City cards."""
    dealt = [0] * s.n
    for step in range(s.n):
        p = (s.first + step) % s.n
        while len(s.hands[p]) < s.limit:
            card = s.draw_card(CITY)
            if card < 0:
                s._say(("rof.cityOut", {}))
                break
            s.hands[p] = s.hands[p] + (card,)
            dealt[p] += 1
    counts = [("rof.seatCount", {"player": s.seat_name(p), "count": dealt[p]}) for p in range(s.n)]
    s._say(("rof.dealt", {"limit": s.limit, "dealt": counts}))


def first_player(s: RoseState, f: Frame) -> None:
    """The Strike card's receiver takes the first-player marker (nobody: it stays, ruling R6)."""
    if s.strike_to >= 0:
        s.first = s.strike_to
        s._say(("rof.firstPlayer", {"player": s.seat_name(s.first)}))
    else:
        s._say(("rof.firstStays", {"player": s.seat_name(s.first)}))
    s.strike_to = -1
    s.strike_shown = -1


def next_phase(s: RoseState, f: Frame) -> None:
    from eixample.games.rose_of_fire.turn import start_phase

    start_phase(s, f)
