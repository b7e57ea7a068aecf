"""The social-conflict track (rulebook: Social-conflict track; Events on the track; Anarchy).

The bomb moves forward for each upper-class house, each soldier drawn in a rebellion and some
events of cards. Reaching (or passing, ruling R11) an event space removes every influence card of
that symbol no one has acquired: at the end of the turn when it happens in a turn, at once in an
end-of-phase procedure. The bomb stops on the Anarchy space (ruling R24); Anarchy itself begins
only in a rebellion that draws at least one soldier (ruling R10).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from eixample.games.rose_of_fire.components import SYMBOLS
from eixample.games.rose_of_fire.state import AVAILABLE, LOST_TO_ANARCHY, REMOVED_BY_EVENT

if TYPE_CHECKING:
    from eixample.games.rose_of_fire.state import RoseState

EVENT_NAMES = ("the Third Carlist War", "the Disaster of 1898", "the Setmana Tragica")


def advance_bomb(s: RoseState, steps: int, in_turn: bool) -> None:
    t = s.t
    for _ in range(steps):
        if s.bomb >= t.anarchy_space:
            return
        s.bomb += 1
        for symbol in range(3):
            if t.event_space[symbol] == s.bomb and not s.fired[symbol]:
                s.fired[symbol] = 1
                if in_turn:
                    s.pending_events.append(symbol)
                else:
                    resolve_event(s, symbol)


def resolve_event(s: RoseState, symbol: int) -> None:
    removed = []
    for k in range(len(s.influence_owner)):
        if s.t.influence_symbol[k] == symbol and s.influence_owner[k] == AVAILABLE:
            s.influence_owner[k] = REMOVED_BY_EVENT
            removed.append(s.t.influence_ids[k])
    s._say(
        f"Event: {EVENT_NAMES[symbol]} ({SYMBOLS[symbol]}): "
        f"{', '.join(removed) if removed else 'no'} influence card(s) removed from the game."
    )


def check_anarchy(s: RoseState, soldiers_drawn: int) -> None:
    """After a rebellion's bomb movement: the bomb on Anarchy and a soldier drawn."""
    if s.anarchy or soldiers_drawn < 1 or s.bomb < s.t.anarchy_space:
        return
    s.anarchy = 1
    lost = []
    for k, owner in enumerate(s.influence_owner):
        if owner >= 0:
            s.influence_owner[k] = LOST_TO_ANARCHY
            lost.append(s.t.influence_ids[k])
    s._say(
        "ANARCHY! Every influence card acquired is discarded"
        f"{' (' + ', '.join(lost) + ')' if lost else ''}; blocks now score on the reversed table."
    )
