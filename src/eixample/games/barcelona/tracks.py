"""Other game concepts (rulebook): the Cerdà track and the Sagrada Família track."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from eixample.core.decisions import Frame
from eixample.games.barcelona import actions, log
from eixample.games.barcelona.frames import SAGRADA

if TYPE_CHECKING:
    from eixample.games.barcelona.state import BarcelonaState


def cerda_step(s: BarcelonaState, p: int, steps: int) -> None:
    """Move on the Cerdà track; past the top each forfeited step gives 2 VP; below 0 is ignored."""
    position = s.cerda[p] + steps
    if position > s.t.cerda_top:
        s._score(p, 2 * (position - s.t.cerda_top), "cerda_track")
        s._say(("bcn.cerdaTop", {"player": log.seat(s, p),
                                 "vp": log.parts(("cerda_track", 2 * (position - s.t.cerda_top)))}))
        position = s.t.cerda_top
    s.cerda[p] = max(0, position)


def sagrada_step(s: BarcelonaState, p: int, steps: int) -> None:
    """Advance on the Sagrada Família track; each slot crossed lets the player take a tile."""
    levels: list[int] = []
    for _ in range(steps):
        if s.sagrada[p] >= s.t.sagrada_top:
            break
        s.sagrada[p] += 1
        level = s.t.sagrada_slot_level[s.sagrada[p]]
        if level and sagrada_available(s, level):
            levels.append(level)
    for level in reversed(levels):
        s.stack.append((SAGRADA, p, level))


def sagrada_available(s: BarcelonaState, level: int) -> bool:
    t = s.t
    return any(s.sagrada_offer[i] and t.sagrada_level[i] == level for i in range(len(t.sagrada_ids)))


# --- decision: a Sagrada Família tile of the slot's level
def legal_sagrada(s: BarcelonaState, frame: Frame, texts: list[str], payloads: list[Any]) -> None:
    level = frame[2]
    t = s.t
    for i, tile_id in enumerate(t.sagrada_ids):
        if s.sagrada_offer[i] and t.sagrada_level[i] == level:
            texts.append(f"sagrada {tile_id}")
            payloads.append(i)


def resolve_sagrada(s: BarcelonaState, frame: Frame, i: int) -> None:
    p = frame[1]
    s.sagrada_offer[i] = 0
    s.sagrada_tiles[p] = (*s.sagrada_tiles[p], i)
    benefit = s.t.sagrada_benefit[i]
    s._say(("bcn.sagradaTile", {"player": log.seat(s, p), "tile": s.t.sagrada_ids[i],
                                "gains": log.benefit(benefit)}))
    actions.gain(s, p, benefit, "benefits")
