"""Cerdà Scoring (rulebook): a filled track section scores its Cerdà tile at the end of a turn,
the Cerdà disks go back to the start, and the Modernisme offer is refreshed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from eixample.core.messages import Entry
from eixample.games.barcelona import log, scoring

if TYPE_CHECKING:
    from eixample.games.barcelona.state import BarcelonaState


def section_triggered(s: BarcelonaState, section: int) -> bool:
    t = s.t
    return any(s.track[k][t.track_triggers[k][section]] for k in range(3))


def run_cerda_scorings(s: BarcelonaState) -> None:
    """At the end of a turn: score every section filled to its marked space, in section order."""
    for section in range(3):
        if s.cerda_scored[section] or not section_triggered(s, section):
            continue
        score_section(s, section)
        if section == 2:
            s.end_triggered = True
            s._say(("bcn.lastRound", {}))
        refresh_modernisme_offer(s)


def score_section(s: BarcelonaState, section: int) -> None:
    """Every player scores the section's Cerdà tile; after the first and second scorings the
    disks beyond the start go back to it."""
    tile = s.cerda_tiles[section]
    results = []
    for p in range(s.n):
        gained = scoring.cerda_tile_vp(s, tile, p)
        s._score(p, gained, "cerda_scoring")
        results.append(("bcn.seatVp", {"player": log.seat(s, p), "vp": log.parts(("cerda_scoring", gained))}))
    s.cerda_scored[section] = 1
    number = sum(s.cerda_scored)
    t = s.t
    condition: Entry = (f"bcn.condition.{t.cerda_condition[tile]}", {})
    s._say(("bcn.cerdaScoring", {"number": number, "tile": t.cerda_ids[tile], "per": t.cerda_vp[tile],
                                 "condition": condition, "results": results}))
    if number < 3:
        start = s.t.cerda_start
        s.cerda = [min(position, start) for position in s.cerda]


def condition_text(s: BarcelonaState, tile: int) -> str:
    t = s.t
    return f"{t.cerda_vp[tile]} VP x {t.condition_text[t.cerda_condition[tile]]}"


def refresh_modernisme_offer(s: BarcelonaState) -> None:
    """Discard the Modernisme tiles on display, then reveal new ones."""
    for i, tile in enumerate(s.mod_offer):
        if tile >= 0:
            s.mod_discard.append(tile)
            s.mod_offer[i] = -1
    rebuild_modernisme_stack(s)
    for i in range(len(s.mod_offer)):
        s.mod_offer[i] = next_modernisme(s)
    s.floor = s.n_actions


def next_modernisme(s: BarcelonaState) -> int:
    """Reveal the top tile of the Modernisme stack (-1 when there is none). "If at any point the
    Modernisme tiles stack would become empty, reshuffle the discarded tiles to create a new
    stack": the drawn tile empties it, the discards become the new stack at once."""
    rebuild_modernisme_stack(s)  # only for a state arranged by hand with an empty stack (rules 1: always)
    tile = s.mod_stack.pop() if s.mod_stack else -1
    if s.rules_version >= 2:  # rules 1 rebuilt the stack only when a tile was drawn from it empty
        rebuild_modernisme_stack(s)
    return tile


def rebuild_modernisme_stack(s: BarcelonaState) -> None:
    """An empty stack never sits beside discarded tiles: they are shuffled into a new stack."""
    if not s.mod_stack and s.mod_discard:
        s.mod_stack = s.mod_discard
        s.mod_discard = []
        s._shuffle(s.mod_stack)
