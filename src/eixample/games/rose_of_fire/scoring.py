"""Final scoring (rulebook: End of the game; Influence): after the last blocks are scored,
1 VP per house outside completed blocks, the VP of influence cards, VP for unused influence
tokens, and +2 VP per influence card of its symbol for a conviction kept secret to the end
(nothing under Anarchy). The winner has the most VP; ties use the general tie rule."""

from __future__ import annotations

from typing import TYPE_CHECKING

from eixample.core.messages import vp
from eixample.games.rose_of_fire.state import SYMBOL_ARGS

if TYPE_CHECKING:
    from eixample.core.decisions import Frame
    from eixample.games.rose_of_fire.state import RoseState

CONVICTION_VP = 2


def say_source(s: RoseState, source: str, points: list[int]) -> None:
    """One line per source of the final scoring, each seat's VP a part of it."""
    seats = [("rof.seatVp", {"player": s.seat_name(p), "vp": [vp(source, points[p])]}) for p in range(s.n)]
    s._say((f"rof.final.{source}", {"seats": seats, "each": s.t.outside_vp}))


def final_scoring(s: RoseState, f: Frame) -> None:
    t = s.t
    outside = [0] * s.n
    for p in s.owner:
        if p >= 0:
            s.score(p, t.outside_vp, "outside")
            outside[p] += t.outside_vp
    say_source(s, "outside", outside)
    cards = [0] * s.n
    for k, owner in enumerate(s.influence_owner):
        if owner >= 0:
            s.score(owner, t.influence_vp[k], "influence")
            cards[owner] += t.influence_vp[k]
    say_source(s, "influence", cards)
    tokens = [t.unused_token_vp[min(6, s.token_count(p))] for p in range(s.n)]
    for p in range(s.n):
        s.score(p, tokens[p], "tokens")
    say_source(s, "tokens", tokens)
    for p in range(s.n):
        symbol = s.conviction[p]
        if symbol >= 0:
            s.conviction_shown[p] = symbol
            same = sum(
                1
                for k, owner in enumerate(s.influence_owner)
                if owner == p and t.influence_symbol[k] == symbol
            )
            bonus = 0 if s.anarchy else CONVICTION_VP * same
            s.score(p, bonus, "conviction")
            s._say(("rof.final.convictionAnarchy" if s.anarchy else "rof.final.conviction", {
                "player": s.seat_name(p), "symbol": SYMBOL_ARGS[symbol], "per": CONVICTION_VP,
                "vp": [vp("conviction", bonus)]}))
    s.ended = True
    s.stack = []
    s._say(("rof.finalScores", {"scores": [("seatScore", {"player": s.seat_name(p), "score": s.vp[p]})
                                           for p in range(s.n)]}))
