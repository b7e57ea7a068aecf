"""The kinds of frames on Barcelona's decision stack, and the names the view gives them.

A frame is `(kind, seat, *arguments)` (see `eixample.core.decisions`). Decisions wait for a
player; automatic steps run as soon as they reach the top of the stack.
"""

from __future__ import annotations

# decisions
PLACE, ORDER, BENEFITS, ACTIONS, GAIN, COBBLE, STREET_KIND, STREET, INTERSECTION = range(9)
IMPROVE, TAKE, SERVICE, TRAM, PASSENGER, PASSENGER_ACTION, SAGRADA, MIX, DISCARD = range(9, 18)
BUILD, CITIZENS_CHOICE = 18, 19
# automatic steps
BUILD_PHASE, END_TURN = 30, 31
AUTOMA = 32  # solo: an automatic step of Gaudí's Assistant's turn (solo.py)
AUTOMATIC = frozenset({BUILD_PHASE, END_TURN, AUTOMA})
SOLO_SEAT = 1  # solo: the seat of Gaudí's Assistant, who never decides

DECISION_NAMES = {
    PLACE: "place",
    ORDER: "order",
    BENEFITS: "intersection_benefits",
    ACTIONS: "actions",
    GAIN: "cloth_or_coins",
    COBBLE: "cobblestone",
    STREET_KIND: "street_kind",
    STREET: "street",
    INTERSECTION: "intersection",
    IMPROVE: "improve_modernisme",
    TAKE: "take_modernisme",
    SERVICE: "public_service",
    TRAM: "tram",
    PASSENGER: "passenger",
    PASSENGER_ACTION: "passenger_action",
    SAGRADA: "sagrada_tile",
    MIX: "resources",
    DISCARD: "discard",
    BUILD: "build",
    CITIZENS_CHOICE: "building_citizens",
}

# action kinds, in the order of components.ACTION_KINDS
K_GAIN, K_COBBLE, K_STREETS, K_INTERSECTION, K_IMPROVE, K_TAKE, K_SERVICE, K_TRAM = range(8)
