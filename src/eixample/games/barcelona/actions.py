"""Actions (rulebook): the actions of a street crossing, and the benefits that grant them.

After placing citizens a player may perform the action of each street meeting at the crossing,
once each, in any order (`ACTIONS` frame). Each action is one or more decisions: Gain Cloth/Coins,
Place Cobblestone, Build Wide/Narrow Streets, Build an Intersection, Improve a Modernisme Project
Space, Take a Modernisme Project, Build a Public Service, Move your Tram (with its Passenger).
Gains go to the Warehouse; what overflows it is settled by a discard (`DISCARD`, pushed by the
state's interrupt).

"If you cannot or are not willing to pay the costs of performing an action, then you cannot take
that action": an action granted by a benefit (a Sidewalk or street space, an Intersection benefit)
offers `decline` beside its choices exactly when every one of them costs something (rules 3; rules
2 offered it for Build an Intersection, Improve or Take a Modernisme Project and Build a Public
Service whatever they cost, rules 1 never). An action that costs nothing is a benefit gained, like
the actions a Public Service performs, which ignore their costs.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from eixample.core.decisions import Frame
from eixample.core.messages import Entry
from eixample.games.barcelona import board, log, scoring, tracks
from eixample.games.barcelona.components import ACTION_KINDS, SERVICE_EFFECTS, Benefit
from eixample.games.barcelona.frames import (
    ACTIONS,
    COBBLE,
    GAIN,
    IMPROVE,
    INTERSECTION,
    K_COBBLE,
    K_GAIN,
    K_IMPROVE,
    K_INTERSECTION,
    K_SERVICE,
    K_STREETS,
    K_TAKE,
    MIX,
    PASSENGER,
    PASSENGER_ACTION,
    SERVICE,
    STREET,
    STREET_KIND,
    TAKE,
    TRAM,
)

if TYPE_CHECKING:
    from eixample.games.barcelona.state import BarcelonaState

COBBLE_TEXT = tuple(f"cobble {s}" for s in board.SIDEWALK)
STREET_TEXT = tuple(f"street {s}" for s in board.SPACES)
TRAM_TEXT = tuple(f"tram {s}" for s in board.SPACES)
IMPROVE_TEXT = tuple(f"improve {i + 1}" for i in range(8))
DECLINE = "decline"
ALL_SIDEWALK = (1 << len(board.SIDEWALK)) - 1
SIDEWALK_NEIGHBOUR_MASK = tuple(sum(1 << t for t in near) for near in board.SIDEWALK_NEIGHBOURS)
"""Per sidewalk space, the bit set of the spaces next to it."""
INTERSECTION_TEXT = tuple(f"intersection {c}" for c in board.CROSSINGS)
ACT_TEXT = tuple(tuple(f"act {street} {kind}" for kind in ACTION_KINDS) for street in board.STREETS)

ACTION_FIRST_FRAME: tuple[Callable[[int], Frame], ...] = (
    lambda p: (GAIN, p),
    lambda p: (COBBLE, p, 0),
    lambda p: (STREET_KIND, p),
    lambda p: (INTERSECTION, p, 0),
    lambda p: (IMPROVE, p),
    lambda p: (TAKE, p, 0),
    lambda p: (SERVICE, p),
    lambda p: (TRAM, p, 0),
)
SERVICE_FRAME: dict[str, Callable[[int], Frame]] = {
    "tram": lambda p: (TRAM, p, 1),
    "intersection": lambda p: (INTERSECTION, p, 1),
    "streets": lambda p: (STREET_KIND, p),
    "cobblestone": lambda p: (COBBLE, p, 1),
    "modernisme": lambda p: (TAKE, p, 1),
}


# ---------------------------------------------------------------------- benefits and costs
def benefit_text(b: Benefit | None) -> str:
    if b is None:
        return "nothing"
    parts = []
    for name in ("coin", "cloth", "vp", "cerda", "sagrada", "resource"):
        value = getattr(b, name)
        if value:
            parts.append(f"{value} {name}")
    if b.action:
        parts.append(f"action {b.action}")
    return ", ".join(parts) or "nothing"


def benefit_json(b: Benefit | None) -> dict[str, Any] | None:
    return None if b is None else b.model_dump(exclude_defaults=True)


def gain(s: BarcelonaState, p: int, b: Benefit | None, source: str = "benefits") -> None:
    """Gain a printed benefit. Resources overflowing the Warehouse are settled by a discard."""
    if b is None:
        return
    s.coins[p] += b.coin
    s.cloth[p] += b.cloth
    s._score(p, b.vp, source)
    if b.cerda:
        tracks.cerda_step(s, p, b.cerda)
    if b.action:
        kind = ACTION_KINDS.index(b.action)
        if action_available(s, p, kind):
            start_action(s, p, kind, granted=True)
    if b.resource:
        s.stack.append((MIX, p, b.resource))
    if b.sagrada:
        tracks.sagrada_step(s, p, b.sagrada)


def pay(s: BarcelonaState, p: int, coins: int = 0, cloth: int = 0) -> None:
    assert s.coins[p] >= coins and s.cloth[p] >= cloth, "cost checked before paying"
    s.coins[p] -= coins
    s.cloth[p] -= cloth


# ---------------------------------------------------------------------- the crossing's actions
def offer_street_action(
    s: BarcelonaState, p: int, street: int, payload: Any, texts: list[str], payloads: list[Any]
) -> None:
    """Offer player p the action of `street` (as `payload`) if they can take it."""
    kind = s.street_action[street]
    if action_available(s, p, kind):
        texts.append(ACT_TEXT[street][kind])
        payloads.append(payload)


def legal_crossing_actions(s: BarcelonaState, frame: Frame, texts: list[str], payloads: list[Any]) -> None:
    p, x, mask = frame[1], frame[2], frame[3]
    for i, street in enumerate(board.CROSSING_STREETS[x]):
        if mask >> i & 1:
            offer_street_action(s, p, street, i, texts, payloads)
    texts.append("end actions")
    payloads.append(-1)


def resolve_crossing_actions(s: BarcelonaState, frame: Frame, i: int) -> None:
    if i < 0:
        return
    p, x, mask = frame[1], frame[2], frame[3]
    s.stack.append((ACTIONS, p, x, mask & ~(1 << i)))
    street = board.CROSSING_STREETS[x][i]
    start_action(s, p, s.street_action[street])


def start_action(s: BarcelonaState, p: int, kind: int, granted: bool = False) -> None:
    """Push the first decision of an action; a costly action `granted` by a benefit may be declined
    (rules 2 on; under rules 1 only the actions chosen at a crossing could be left out)."""
    if s.rules_version < 2:
        s.stack.append(ACTION_FIRST_FRAME[kind](p))
        return
    declinable = int(granted)
    if kind == K_GAIN:
        s.stack.append((GAIN, p))
    elif kind == K_COBBLE:
        s.stack.append((COBBLE, p, 0))
    elif kind == K_STREETS:
        s.stack.append((STREET_KIND, p))
    elif kind == K_INTERSECTION:
        s.stack.append((INTERSECTION, p, 0, declinable))
    elif kind == K_IMPROVE:
        s.stack.append((IMPROVE, p, declinable))
    elif kind == K_TAKE:
        s.stack.append((TAKE, p, 0, declinable))
    elif kind == K_SERVICE:
        s.stack.append((SERVICE, p, declinable))
    else:
        s.stack.append((TRAM, p, 0))


def offer_decline(s: BarcelonaState, texts: list[str], payloads: list[Any], costless: bool) -> None:
    """`decline` beside the choices of a granted action. Rules 3: only when every choice costs
    something ("If you cannot or are not willing to pay the costs of performing an action, then you
    cannot take that action"); with a choice that costs nothing (`costless`) the action is a benefit
    gained, as a free Street or Cobblestone is. Rules 2: whatever the choices cost."""
    if not (costless and s.rules_version >= 3):
        texts.append(DECLINE)
        payloads.append(None)


def say_declined(s: BarcelonaState, frame: Frame, action: str) -> None:
    s._say(("bcn.declines", {"player": log.seat(s, frame[1]), "action": log.action(action)}))


def action_available(s: BarcelonaState, p: int, kind: int) -> bool:
    """True when the action can be performed with every cost paid in full."""
    if kind == K_GAIN:  # Gain Cloth/Coins costs nothing and always offers both
        return True
    texts: list[str] = []
    payloads: list[Any] = []
    frame = ACTION_FIRST_FRAME[kind](p)
    s.LEGAL[frame[0]](s, frame, texts, payloads)
    return bool(texts)


# ---------------------------------------------------------------------- Gain Cloth/Coins
def legal_gain(s: BarcelonaState, frame: Frame, texts: list[str], payloads: list[Any]) -> None:
    texts.extend(("gain cloth", "gain coins"))
    payloads.extend((0, 1))


def resolve_gain(s: BarcelonaState, frame: Frame, coins: int) -> None:
    p = frame[1]
    if coins:
        s.coins[p] += 2
        s._say(("bcn.gainCoins", {"player": log.seat(s, p)}))
    else:
        s.cloth[p] += 1
        s._score(p, 3, "cloth")
        s._say(("bcn.gainCloth", {"player": log.seat(s, p), "vp": log.parts(("cloth", 3))}))


# --- resources in any mix; the Warehouse's discards
def legal_mix(s: BarcelonaState, frame: Frame, texts: list[str], payloads: list[Any]) -> None:
    total = frame[2]
    for coins in range(total, -1, -1):
        texts.append(f"mix coin {coins} cloth {total - coins}")
        payloads.append(coins)


def resolve_mix(s: BarcelonaState, frame: Frame, coins: int) -> None:
    p = frame[1]
    s.coins[p] += coins
    s.cloth[p] += frame[2] - coins


def legal_discard(s: BarcelonaState, frame: Frame, texts: list[str], payloads: list[Any]) -> None:
    p = frame[1]
    if s.coins[p]:
        texts.append("discard coin")
        payloads.append(0)
    if s.cloth[p]:
        texts.append("discard cloth")
        payloads.append(1)


def resolve_discard(s: BarcelonaState, frame: Frame, cloth: int) -> None:
    p = frame[1]
    if cloth:
        s.cloth[p] -= 1
    else:
        s.coins[p] -= 1


# ---------------------------------------------------------------------- Place Cobblestone
def legal_cobble(s: BarcelonaState, frame: Frame, texts: list[str], payloads: list[Any]) -> None:
    p, anywhere = frame[1], frame[2]
    if s.cobbles[p] >= len(s.t.cobblestone_vp) - 1:
        return
    walk = s.sidewalk
    if anywhere:
        allowed = ALL_SIDEWALK
    else:
        allowed = 0
        for sp in range(25):
            if walk[sp] != -1:
                allowed |= SIDEWALK_NEIGHBOUR_MASK[sp]
    for sp in range(25):
        if walk[sp] == -1 and allowed >> sp & 1:
            texts.append(COBBLE_TEXT[sp])
            payloads.append(sp)


def resolve_cobble(s: BarcelonaState, frame: Frame, sp: int) -> None:
    p = frame[1]
    s.sidewalk[sp] = p
    s.cobbles[p] += 1
    benefit = s.t.sidewalk_benefit[sp]
    s._say(("bcn.cobblestone", {"player": log.seat(s, p), "space": board.SIDEWALK[sp],
                                "gains": log.benefit(benefit)}))
    gain(s, p, benefit)


# ---------------------------------------------------------------------- Build Wide/Narrow Streets
def street_tiles_left(s: BarcelonaState, p: int, wide: bool) -> int:
    t = s.t
    if wide:
        k = len(t.wide_stacks)
        return sum(s.wide_left[p * k : (p + 1) * k])
    k = len(t.narrow_stacks)
    return sum(s.narrow_left[p * k : (p + 1) * k])


def empty_street_spaces(s: BarcelonaState, wide: bool) -> list[int]:
    space_wide = s.t.space_wide
    return [sp for sp in range(44) if s.space_owner[sp] < 0 and space_wide[sp] == wide]


def legal_street_kind(s: BarcelonaState, frame: Frame, texts: list[str], payloads: list[Any]) -> None:
    p = frame[1]
    for wide, text in ((True, "streets wide"), (False, "streets narrow")):
        if street_tiles_left(s, p, wide) and empty_street_spaces(s, wide):
            texts.append(text)
            payloads.append(wide)


def resolve_street_kind(s: BarcelonaState, frame: Frame, wide: bool) -> None:
    s.stack.append((STREET, frame[1], int(wide), 1 if wide else 2))


def legal_street(s: BarcelonaState, frame: Frame, texts: list[str], payloads: list[Any]) -> None:
    p, wide = frame[1], bool(frame[2])
    if not street_tiles_left(s, p, wide):
        return
    for sp in empty_street_spaces(s, wide):
        texts.append(STREET_TEXT[sp])
        payloads.append(sp)


def resolve_street(s: BarcelonaState, frame: Frame, sp: int) -> None:
    p, wide, remaining = frame[1], bool(frame[2]), frame[3]
    if remaining > 1:
        s.stack.append((STREET, p, int(wide), remaining - 1))
    take_street_tile(s, p, wide)
    s.space_owner[sp] = p
    line = street_line(s, sp)
    s._score(p, line * (2 if wide else 1), "streets")
    say_street(s, p, wide, sp, line)
    gain(s, p, s.t.space_benefit[sp])


def say_street(s: BarcelonaState, p: int, wide: bool, sp: int, line: int) -> None:
    """A Street tile in the log: its line's VP (doubled for a Wide Street) and the space's benefit."""
    s._say(("bcn.wideStreet" if wide else "bcn.narrowStreet", {
        "player": log.seat(s, p), "space": board.SPACES[sp], "line": line,
        "vp": log.parts(("streets", line * (2 if wide else 1))), "gains": log.benefit(s.t.space_benefit[sp]),
    }))


def take_street_tile(s: BarcelonaState, p: int, wide: bool) -> None:
    t = s.t
    stacks, left = (t.wide_stacks, s.wide_left) if wide else (t.narrow_stacks, s.narrow_left)
    k = len(stacks)
    for i in range(p * k, (p + 1) * k):
        if left[i]:
            left[i] -= 1
            if left[i] == 0:
                tracks.cerda_step(s, p, t.wide_stack_cerda if wide else t.narrow_stack_cerda)
            return


def street_line(s: BarcelonaState, sp: int) -> int:
    """Connected Street tiles (any owner) in a straight line on the street of space `sp`."""
    spaces = board.STREET_SPACES[board.SPACE_STREET[sp]]
    pos = board.SPACE_POSITION[sp]
    owner = s.space_owner
    length = 1
    i = pos - 1
    while i >= 0 and owner[spaces[i]] >= 0:
        length += 1
        i -= 1
    i = pos + 1
    while i < len(spaces) and owner[spaces[i]] >= 0:
        length += 1
        i += 1
    return length


# ---------------------------------------------------------------------- Build an Intersection
def legal_intersection(s: BarcelonaState, frame: Frame, texts: list[str], payloads: list[Any]) -> None:
    p, free = frame[1], frame[2]
    built = s.inters[p]
    if built >= len(s.t.intersection_cost):
        return
    board_cost = 0 if free else s.t.intersection_cost[built]
    budget = s.coins[p] - board_cost
    if budget < 0:
        return
    for x in range(25):
        if s.cross_owner[x] < 0 and (free or s.t.crossing_cost[x] <= budget):
            texts.append(INTERSECTION_TEXT[x])
            payloads.append(x)
    if len(frame) > 3 and frame[3] and texts:  # granted by a benefit
        crossing_cost = s.t.crossing_cost
        costless = bool(free) or (board_cost == 0 and any(crossing_cost[x] == 0 for x in payloads))
        offer_decline(s, texts, payloads, costless)


def resolve_intersection(s: BarcelonaState, frame: Frame, x: int | None) -> None:
    if x is None:
        say_declined(s, frame, "intersection")
        return
    p, free = frame[1], frame[2]
    t = s.t
    if not free:
        pay(s, p, coins=t.intersection_cost[s.inters[p]] + t.crossing_cost[x])
    s.inters[p] += 1
    s.cross_owner[x] = p
    say_intersection(s, p, x)
    for sp in reversed(board.CROSSING_SPACES[x]):
        if s.space_owner[sp] < 0:
            gain(s, p, t.space_benefit[sp])


def say_intersection(s: BarcelonaState, p: int, x: int) -> None:
    """An Intersection in the log, with the benefits of the empty street spaces around it."""
    benefits = [log.benefit(s.t.space_benefit[sp]) for sp in reversed(board.CROSSING_SPACES[x])
                if s.space_owner[sp] < 0]
    s._say(("bcn.intersection", {"player": log.seat(s, p), "crossing": board.CROSSINGS[x],
                                 "benefits": benefits or [log.NOTHING]}))


# ---------------------------------------------------------------------- Modernisme
def legal_improve(s: BarcelonaState, frame: Frame, texts: list[str], payloads: list[Any]) -> None:
    p = frame[1]
    k = len(s.t.modernisme_improve)
    for i in range(k):
        if not s.mod_top[p * k + i] and s.cloth[p] >= s.t.modernisme_improve[i]:
            texts.append(IMPROVE_TEXT[i])
            payloads.append(i)
    if len(frame) > 2 and frame[2] and texts:  # granted by a benefit
        offer_decline(s, texts, payloads, any(s.t.modernisme_improve[i] == 0 for i in payloads))


def resolve_improve(s: BarcelonaState, frame: Frame, i: int | None) -> None:
    if i is None:
        say_declined(s, frame, "improve_modernisme")
        return
    p = frame[1]
    pay(s, p, cloth=s.t.modernisme_improve[i])
    s.mod_top[p * len(s.t.modernisme_improve) + i] = 1
    s._say(("bcn.improve", {"player": log.seat(s, p), "space": i + 1}))


def legal_take(s: BarcelonaState, frame: Frame, texts: list[str], payloads: list[Any]) -> None:
    p, free = frame[1], frame[2]
    t = s.t
    k = len(t.modernisme_take)
    spaces = [
        i for i in range(k) if s.mod_tile[p * k + i] < 0 and (free or s.cloth[p] >= t.modernisme_take[i])
    ]
    for tile in s.mod_offer:
        if tile >= 0:
            for i in spaces:
                texts.append(f"take {t.modernisme_ids[tile]} into {i + 1}")
                payloads.append((tile, i))
    if len(frame) > 3 and frame[3] and texts:  # granted by a benefit
        offer_decline(s, texts, payloads, bool(free) or any(t.modernisme_take[i] == 0 for i in spaces))


def resolve_take(s: BarcelonaState, frame: Frame, payload: tuple[int, int] | None) -> None:
    from eixample.games.barcelona import cerda_scoring

    if payload is None:
        say_declined(s, frame, "take_modernisme")
        return
    p, free = frame[1], frame[2]
    tile, i = payload
    t = s.t
    if not free:
        pay(s, p, cloth=t.modernisme_take[i])
    s.mod_tile[p * len(t.modernisme_take) + i] = tile
    slot = s.mod_offer.index(tile)
    s.mod_offer[slot] = cerda_scoring.next_modernisme(s)
    s.floor = s.n_actions  # a face-down tile was revealed
    s._say(("bcn.takeModernisme", {"player": log.seat(s, p), "tile": t.modernisme_ids[tile], "space": i + 1}))


# ---------------------------------------------------------------------- Public Services
def service_tile(s: BarcelonaState, slot: int) -> int:
    """Index (in cost order, 3 coins first) of the top tile of an in-play Public Service stack.
    With 2 players the stacks lack their cheapest tile, so the top is still the 3-coin tile."""
    per_stack = len(s.t.service_costs[s.services[slot]]) - (1 if s.n == 2 else 0)
    return per_stack - s.service_left[slot]


def legal_service(s: BarcelonaState, frame: Frame, texts: list[str], payloads: list[Any]) -> None:
    p = frame[1]
    t = s.t
    for slot, service in enumerate(s.services):
        left = s.service_left[slot]
        if not left or s.services_built[p] >> service & 1:
            continue
        cost = t.service_costs[service][service_tile(s, slot)]
        if s.coins[p] >= cost:
            texts.append(f"service {t.service_ids[service]}")
            payloads.append(slot)
    if len(frame) > 2 and frame[2] and texts:  # granted by a benefit
        costs = [t.service_costs[s.services[slot]][service_tile(s, slot)] for slot in payloads]
        offer_decline(s, texts, payloads, 0 in costs)


def resolve_service(s: BarcelonaState, frame: Frame, slot: int | None) -> None:
    if slot is None:
        say_declined(s, frame, "public_service")
        return
    p = frame[1]
    t = s.t
    service = s.services[slot]
    tile = service_tile(s, slot)
    pay(s, p, coins=t.service_costs[service][tile])
    s.service_left[slot] -= 1
    s.services_built[p] |= 1 << service
    s._score(p, t.service_vp[service][tile], "public_services")
    tracks.cerda_step(s, p, t.service_cerda[service])
    say_service(s, p, service, t.service_vp[service][tile])
    effect = SERVICE_EFFECTS[t.service_effect[service]]
    if effect == "market":
        blocks = len(scoring.blocks_with_marker(s, p))
        s.cloth[p] += blocks
    elif effect == "sagrada":
        tracks.sagrada_step(s, p, 2)
    else:
        frame_for = SERVICE_FRAME[effect](p)
        texts: list[str] = []
        s.LEGAL[frame_for[0]](s, frame_for, texts, [])
        if texts:
            s.stack.append(frame_for)


# ---------------------------------------------------------------------- Move your Tram, Passengers
TRAM_REACH = 2
"""Rulebook, Move your Tram: "move it 1 or 2 street spaces"; spaces with your own Street tiles are free."""


def tram_destinations(s: BarcelonaState, p: int) -> list[int]:
    """Street spaces the Tram may end on (see ruling 2 of the facts file): those reachable for at
    most 2 steps onto spaces without your own Street tile (steps onto your own are free), other
    than its own space and a space another Tram is on. The cheapest way to each space is found
    as in Dijkstra's algorithm with step costs 0 and 1: any way within the budget can be cut down
    to one that visits no space twice, so this is the same set as trying every way, without the
    many ways a large network of your own Street tiles offers."""
    start = s.tram[p]
    others = {sp for q, sp in enumerate(s.tram) if q != p and sp >= 0}
    if start < 0:
        return [sp for sp in range(44) if sp not in others and s.space_passenger[sp] < 0]
    owner = s.space_owner
    cost = [TRAM_REACH + 1] * 44
    cost[start] = 0
    ways = deque([start])
    while ways:
        sp = ways.popleft()
        for nxt in board.SPACE_NEIGHBOURS[sp]:
            free = owner[nxt] == p
            step = cost[sp] + (0 if free else 1)
            if step < cost[nxt]:
                cost[nxt] = step
                if free:
                    ways.appendleft(nxt)
                else:
                    ways.append(nxt)
    return [sp for sp in range(44) if cost[sp] <= TRAM_REACH and sp != start and sp not in others]


def legal_tram(s: BarcelonaState, frame: Frame, texts: list[str], payloads: list[Any]) -> None:
    for sp in tram_destinations(s, frame[1]):
        texts.append(TRAM_TEXT[sp])
        payloads.append(sp)


def resolve_tram(s: BarcelonaState, frame: Frame, sp: int) -> None:
    p, free_coin = frame[1], frame[2]
    key = "bcn.tramPlaces" if s.tram[p] < 0 else "bcn.tramMoves"
    s.tram[p] = sp
    s._say((key, {"player": log.seat(s, p), "space": board.SPACES[sp]}))
    s.stack.append((PASSENGER, p, free_coin))


def say_street_again(s: BarcelonaState, owner: int, sp: int, gained: int) -> None:
    s._say(("bcn.streetAgain", {"player": log.seat(s, owner), "space": board.SPACES[sp],
                                "vp": log.parts(("streets", gained))}))


def say_service(s: BarcelonaState, p: int, service: int, points: int) -> None:
    name: Entry = (f"bcn.service.{s.t.service_ids[service]}", {})
    s._say(("bcn.publicService", {"player": log.seat(s, p), "service": name,
                                  "vp": log.parts(("public_services", points))}))


def passenger_cost(s: BarcelonaState, p: int, free_coin: int) -> tuple[int, int] | None:
    if s.passengers[p] >= len(s.t.passenger_cost):
        return None
    coins, cloth = s.t.passenger_cost[s.passengers[p]]
    return (0 if free_coin else coins, cloth)


def legal_passenger(s: BarcelonaState, frame: Frame, texts: list[str], payloads: list[Any]) -> None:
    p = frame[1]
    cost = passenger_cost(s, p, frame[2])
    sp = s.tram[p]
    if cost is None or s.space_passenger[sp] >= 0:
        return
    if s.coins[p] >= cost[0] and s.cloth[p] >= cost[1]:
        texts.append("passenger")
        payloads.append(1)
    texts.append("no passenger")
    payloads.append(0)


def resolve_passenger(s: BarcelonaState, frame: Frame, board_one: int) -> None:
    if not board_one:
        return
    p = frame[1]
    cost = passenger_cost(s, p, frame[2])
    assert cost is not None
    pay(s, p, coins=cost[0], cloth=cost[1])
    sp = s.tram[p]
    s.passengers[p] += 1
    s.space_passenger[sp] = p
    s._say(("bcn.passenger", {"player": log.seat(s, p), "space": board.SPACES[sp]}))
    owner = s.space_owner[sp]
    if owner >= 0:
        line = street_line(s, sp)
        gained = line * (2 if s.t.space_wide[sp] else 1)
        s._score(owner, gained, "streets")
        say_street_again(s, owner, sp, gained)
    s.stack.append((PASSENGER_ACTION, p, board.SPACE_STREET[sp]))


def legal_passenger_action(s: BarcelonaState, frame: Frame, texts: list[str], payloads: list[Any]) -> None:
    p, street = frame[1], frame[2]
    offer_street_action(s, p, street, s.street_action[street], texts, payloads)
    texts.append("skip action")
    payloads.append(-1)


def resolve_passenger_action(s: BarcelonaState, frame: Frame, kind: int) -> None:
    if kind >= 0:
        start_action(s, frame[1], kind)
