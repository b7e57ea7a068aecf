"""The social-conflict track (rulebook: Social-conflict track; Events on the track; Anarchy).

The bomb moves forward for each upper-class house, each soldier drawn in a rebellion and some
events of cards. Reaching (or passing, ruling R11) an event space removes every influence card of
that symbol no one has acquired: at the end of the turn when it happens in a turn, at once in an
end-of-phase procedure. The bomb stops on the Anarchy space (ruling R24); Anarchy itself begins
only in a rebellion that draws at least one soldier (ruling R10).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from eixample.core.messages import Entry
from eixample.games.rose_of_fire.state import AVAILABLE, LOST_TO_ANARCHY, REMOVED_BY_EVENT, SYMBOL_ARGS

if TYPE_CHECKING:
    from eixample.games.rose_of_fire.state import RoseState

EVENT_ARGS: tuple[Entry, ...] = tuple((f"rof.eventName.{k}", {}) for k in ("carlist", "disaster", "tragica"))


def advance_bomb(s: RoseState, steps: int, in_turn: bool, cause: Entry) -> None:
    """Move the bomb `steps` spaces (stopping on Anarchy); `cause`, an entry, ends the log line
    ("2 soldiers drawn"). Each event reached is logged, then resolved at once or at the end of the turn."""
    t = s.t
    if steps <= 0:
        return
    start = s.bomb
    reached = []
    for _ in range(steps):
        if s.bomb >= t.anarchy_space:
            break
        s.bomb += 1
        for symbol in range(3):
            if t.event_space[symbol] == s.bomb and not s.fired[symbol]:
                s.fired[symbol] = 1
                reached.append(symbol)
    moved = s.bomb - start
    if moved == 0:
        s._say(("rof.bombStays", {"space": s.bomb, "cause": cause}))
    else:
        key = "rof.bombToAnarchy" if s.bomb >= t.anarchy_space else "rof.bombMoves"
        s._say((key, {"count": moved, "space": s.bomb, "cause": cause}))
    for symbol in reached:
        s._say(("rof.eventLater" if in_turn else "rof.eventNow",
                {"event": EVENT_ARGS[symbol], "space": t.event_space[symbol]}))
        if in_turn:
            s.pending_events.append(symbol)
        else:
            resolve_event(s, symbol)


def resolve_event(s: RoseState, symbol: int) -> None:
    removed: list[Any] = []
    for k in range(len(s.influence_owner)):
        if s.t.influence_symbol[k] == symbol and s.influence_owner[k] == AVAILABLE:
            s.influence_owner[k] = REMOVED_BY_EVENT
            removed.append(s.t.influence_ids[k])
    s._say(("rof.event", {"event": EVENT_ARGS[symbol], "symbol": SYMBOL_ARGS[symbol],
                          "removed": removed or [("rof.none", {})]}))


def check_anarchy(s: RoseState, soldiers_drawn: int) -> None:
    """After a rebellion's bomb movement: the bomb on Anarchy and a soldier drawn."""
    if s.anarchy or soldiers_drawn < 1 or s.bomb < s.t.anarchy_space:
        return
    s.anarchy = 1
    lost: list[Any] = []
    for k, owner in enumerate(s.influence_owner):
        if owner >= 0:
            s.influence_owner[k] = LOST_TO_ANARCHY
            lost.append(s.t.influence_ids[k])
    s._say(("rof.anarchy", {"lost": lost or [("rof.none", {})]}))
