"""The end-of-period procedure (rulebook: End-of-period procedure): 1. score the houses in
completed blocks (the reversed table under Anarchy), then remove obelisks, return the houses and
turn the tiles to their complete side; 2. at the end of periods I and II, the suppression of
protests: the fewest strikers in the black bag earns a prestige reward."""

from __future__ import annotations

from typing import TYPE_CHECKING

from eixample.core.messages import vp
from eixample.games.rose_of_fire.cards import prestige_reward
from eixample.games.rose_of_fire.state import HOUSE_ARGS, adjusted

if TYPE_CHECKING:
    from eixample.core.decisions import Frame
    from eixample.games.rose_of_fire.state import RoseState


def block_scoring(s: RoseState, f: Frame) -> None:
    table = s.t.reversed_vp if s.anarchy else s.t.block_vp
    gained = [0] * s.n
    houses = [0] * s.n
    names = [s.t.space_names[s.t.squares[q][0]] for q in s.blocks]
    for q in s.blocks:
        for y in s.t.squares[q]:
            p = s.owner[y]
            if p >= 0:
                h = s.htype[y]
                gained[p] += table[h]
                houses[p] += 1
                s.houses_left[4 * p + h] += 1
                s.owner[y] = -1
                s.htype[y] = -1
                s.house_spaces = tuple(x for x in s.house_spaces if x != y)
                s.house_count = adjusted(s.house_count, ((p * 3 + s.t.space_district[y]) * 4 + h,), -1)
        s.obelisks_left += 1
    for p in range(s.n):
        if gained[p]:
            s.score(p, gained[p], "blocks")
    if not s.blocks:
        s._say(("rof.noBlock", {}))
        s.blocks = []
        return
    values = [("rof.houseVp", {"house": HOUSE_ARGS[h], "count": table[h]}) for h in range(4)]
    s._say(("rof.blockScoringAnarchy" if s.anarchy else "rof.blockScoring",
            {"count": len(s.blocks), "spaces": names, "values": values}))
    for p in range(s.n):
        if houses[p]:
            parts = [vp("blocks", gained[p])]
            s._say(("rof.blockVp", {"player": s.seat_name(p), "count": houses[p], "vp": parts}))
    s._say(("rof.blocksBack", {}))
    s.blocks = []


def suppression(s: RoseState, f: Frame) -> None:
    """The fewest strikers in the bag (the general tie rule among the fewest) earns a prestige
    reward; then the bag is emptied: strikers to their supplies, soldiers to Montjuïc."""
    w = max(range(s.n), key=lambda p: (-s.bag[p], *s.tie_key(p)))
    tie = ("rof.tie.prestige" if s.bag.count(s.bag[w]) > 1 else "rof.tie.none", {"count": s.bag[w]})
    s._say(("rof.suppression", {"player": s.seat_name(w), "tie": tie}))
    for p in range(s.n):
        s.supply[p] += s.bag[p]
        s.bag[p] = 0
    s._say(("rof.bagEmptied", {"count": s.bag_soldiers}))
    s.montjuic += s.bag_soldiers
    s.bag_soldiers = 0
    prestige_reward(s, w)
