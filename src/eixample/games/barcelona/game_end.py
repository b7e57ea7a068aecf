"""Game End and Final Scoring (rulebook): Cobblestones, Passengers and Modernisme tiles, then the
winner."""

from __future__ import annotations

from typing import TYPE_CHECKING

from eixample.core.messages import vp
from eixample.games.barcelona import log, scoring

if TYPE_CHECKING:
    from eixample.games.barcelona.state import BarcelonaState


def final_scoring(s: BarcelonaState) -> None:
    t = s.t
    for p in range(s.n):
        cobblestones = t.cobblestone_vp[s.cobbles[p]]
        passengers = t.passenger_vp[s.passengers[p]]
        modernisme = scoring.modernisme_vp(s, p)
        s._score(p, cobblestones, "cobblestones")
        s._score(p, passengers, "passengers")
        s._score(p, modernisme, "modernisme")
        s._say(("bcn.finalScoring", {"player": log.seat(s, p), "vp": [
            vp("cobblestones", cobblestones), vp("passengers", passengers), vp("modernisme", modernisme)]}))
    s.ended = True
    s.stack = []
    if s.solo:
        from eixample.games.barcelona import solo

        solo.announce_result(s)
        return
    winners = s.winners()
    s._say(("bcn.finalScores", {
        "scores": [("seatScore", {"player": log.seat(s, p), "score": s.vp[p]}) for p in range(s.n)],
        "winners": [log.seat(s, p) for p in winners],
    }))
