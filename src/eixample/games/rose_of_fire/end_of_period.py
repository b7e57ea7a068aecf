"""The end-of-period procedure (rulebook: End-of-period procedure): 1. score the houses in
completed blocks (the reversed table under Anarchy), then remove obelisks, return the houses and
turn the tiles to their complete side; 2. at the end of periods I and II, the suppression of
protests: the fewest strikers in the black bag earns a prestige reward."""

from __future__ import annotations

from typing import TYPE_CHECKING

from eixample.games.rose_of_fire.cards import prestige_reward

if TYPE_CHECKING:
    from eixample.core.decisions import Frame
    from eixample.games.rose_of_fire.state import RoseState


def block_scoring(s: RoseState, f: Frame) -> None:
    table = s.t.reversed_vp if s.anarchy else s.t.block_vp
    gained = [0] * s.n
    for q in s.blocks:
        for y in s.t.squares[q]:
            p = s.owner[y]
            if p >= 0:
                h = s.htype[y]
                gained[p] += table[h]
                s.houses_left[4 * p + h] += 1
                s.owner[y] = -1
                s.htype[y] = -1
        s.obelisks_left += 1
    for p in range(s.n):
        if gained[p]:
            s.score(p, gained[p], "blocks")
    s._say(
        f"Block scoring ({'reversed table' if s.anarchy else 'normal table'}) of {len(s.blocks)} "
        "block(s): " + ", ".join(f"{s.seat_name(p)} +{gained[p]}" for p in range(s.n)) + " VP."
    )
    s.blocks = []


def suppression(s: RoseState, f: Frame) -> None:
    """The fewest strikers in the bag (the general tie rule among the fewest) earns a prestige
    reward; then the bag is emptied: strikers to their supplies, soldiers to Montjuic."""
    w = max(range(s.n), key=lambda p: (-s.bag[p], *s.tie_key(p)))
    s._say(f"Suppression of protests: {s.seat_name(w)} has the fewest strikers in the bag.")
    for p in range(s.n):
        s.supply[p] += s.bag[p]
        s.bag[p] = 0
    s.montjuic += s.bag_soldiers
    s.bag_soldiers = 0
    prestige_reward(s, w)
