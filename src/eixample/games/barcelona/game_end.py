"""Game End and Final Scoring (rulebook): Cobblestones, Passengers and Modernisme tiles, then the
winner."""

from __future__ import annotations

from typing import TYPE_CHECKING

from eixample.games.barcelona import scoring

if TYPE_CHECKING:
    from eixample.games.barcelona.state import BarcelonaState


def final_scoring(s: BarcelonaState) -> None:
    t = s.t
    for p in range(s.n):
        s._score(p, t.cobblestone_vp[s.cobbles[p]], "cobblestones")
        s._score(p, t.passenger_vp[s.passengers[p]], "passengers")
        s._score(p, scoring.modernisme_vp(s, p), "modernisme")
    s.ended = True
    s.stack = []
    if s.solo:
        from eixample.games.barcelona import solo

        solo.announce_result(s)
        return
    winners = s.winners()
    s._say(
        "Final scores: "
        + ", ".join(f"{s.seat_name(p)} {s.vp[p]}" for p in range(s.n))
        + "; winner"
        + ("s " if len(winners) > 1 else " ")
        + " and ".join(s.seat_name(p) for p in winners)
    )
