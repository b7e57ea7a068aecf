"""The pieces Barcelona's log entries are made of (see core/messages.py): seats, citizens,
buildings, actions and benefits as arguments the clients translate. Keys are `bcn.*`, rendered
through `engine.bcn.*` of the catalogs; VP parts are `vp.*`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from eixample.core.messages import Entry, vp
from eixample.games.barcelona.tables import BUILDING_TYPES, CITIZENS

if TYPE_CHECKING:
    from eixample.games.barcelona.components import Benefit
    from eixample.games.barcelona.state import BarcelonaState

SEATS = ("P1", "P2", "P3", "P4")
ASSISTANT: Entry = ("bcn.assistant", {})
CITIZEN: tuple[Entry, ...] = tuple((f"bcn.citizen.{k}", {}) for k in CITIZENS)
NOTHING: Entry = ("bcn.gain.nothing", {})
BUILDING: tuple[Entry, ...] = tuple((f"bcn.building.{k}", {}) for k in BUILDING_TYPES)


def seat(s: BarcelonaState, p: int) -> Any:
    """A seat as an argument: "P1".."P4" (clients show the player's name), or Gaudí's Assistant."""
    return ASSISTANT if s.solo and p == 1 else SEATS[p]


def action(name: str) -> Entry:
    return (f"bcn.action.{name}", {})


def citizens(kinds: tuple[int, ...] | list[int]) -> list[Entry]:
    return [CITIZEN[k] for k in kinds]


def benefit(b: Benefit | None, source: str = "benefits") -> Entry:
    """A printed benefit as one argument: its gains, the VP among them a VP part of `source`."""
    gains: list[Any] = []
    if b is not None:
        if b.coin:
            gains.append(("bcn.gain.coin", {"count": b.coin}))
        if b.cloth:
            gains.append(("bcn.gain.cloth", {"count": b.cloth}))
        if b.vp:
            gains.append(vp(source, b.vp))
        if b.cerda:
            gains.append(("bcn.gain.cerda", {"count": b.cerda}))
        if b.sagrada:
            gains.append(("bcn.gain.sagrada", {"count": b.sagrada}))
        if b.resource:
            gains.append(("bcn.gain.resource", {"count": b.resource}))
        if b.action:
            gains.append(("bcn.gain.action", {"action": action(b.action)}))
    if not gains:
        return NOTHING
    return ("bcn.gains", {"gains": gains})


def parts(*pairs: tuple[str, int]) -> list[Entry]:
    """VP parts (source, amount), leaving out zeros but the first (a line names at least one)."""
    out = [vp(source, amount) for i, (source, amount) in enumerate(pairs) if amount or i == 0]
    return out
