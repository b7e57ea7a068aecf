"""Solo mode: one player against Gaudí's Assistant, an automa driven by 8 solo cards and a meeple.

The rules are reconstructed (the cards' text is not public): see docs/barcelona/solo.md for the procedure a
person follows with the physical game, and data/solo.toml for the cards, priorities, conversion
rates and difficulty multipliers.

In the engine the Assistant is seat 1 of a 2-seat state, with a player board of its own (the
per-seat lists of the state). It never decides through `legal_actions()`: `current_player()` is
always the player (seat 0) or TERMINAL. Its turn runs inside the engine right after the player's,
as three automatic stack frames (AUTOMA, 1, step), each writing its steps to the log:

- step 0: draw a solo card (reshuffling the 8 cards when the deck is empty), draw 2 citizens, move
  the meeple and place the citizens there, the higher class on top. If that crossing holds the
  player's Intersection, the player's benefit decision is pushed on top and the turn goes on after it;
- step 1: perform the card's action, for free, converting whatever it gains into VP;
- step 2: construct a Building if any is possible (mandatory, as for a player).

The END_TURN frame under them then closes the turn as for a player (Cerdà Scoring, game end), except
that the Assistant draws no hand: it draws its citizens when its turn begins, so it never holds
hidden citizens. Hidden solo information is only the order of the card deck (and of the bag).

Ties are broken by the card's direction: candidates are swept clockwise around a reference point
(the meeple, or the centre of the Sidewalk), starting at the card's arrow; on the same bearing the
nearer one comes first.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from eixample.core.messages import Entry, english
from eixample.games.barcelona import (
    actions,
    board,
    cerda_scoring,
    construction,
    log,
    placing,
    scoring,
    tracks,
)
from eixample.games.barcelona.components import ACTION_KINDS, SERVICE_EFFECTS, Benefit
from eixample.games.barcelona.frames import BENEFITS, SOLO_SEAT
from eixample.games.barcelona.tables import SoloTables

if TYPE_CHECKING:
    from eixample.games.barcelona.state import BarcelonaState

PLAYER, AUTOMA = 0, SOLO_SEAT
NAME = "Gaudí's Assistant"
SOLO_CARDS = 8
DIRECTION_NAMES = ("north", "east", "south", "west")
CARD_TITLES = (
    "Cloth/Coins",
    "Cobblestone",
    "Streets",
    "Intersection",
    "Improve Modernisme",
    "Take Modernisme",
    "Public Service",
    "Passenger",
)
K_GAIN, K_COBBLE, K_STREETS, K_INTERSECTION, K_IMPROVE, K_TAKE, K_SERVICE, K_TRAM = range(8)
MAX_DEPTH = 12  # actions triggered by actions (sidewalk, services, passengers) nest at most this deep


# ---------------------------------------------------------------------- geometry for tie-breaks
Point = tuple[int, int]  # (x east, y south) in twelfths of a block


def _crossing_point(x: int) -> Point:
    r, c = divmod(x, board.SIZE)
    return (12 * c, 12 * r)


def _centre(crossings: tuple[int, ...]) -> Point:
    points = [_crossing_point(x) for x in crossings]
    return (
        sum(p[0] for p in points) // len(points),
        sum(p[1] for p in points) // len(points),
    )


CROSSING_POINT: tuple[Point, ...] = tuple(_crossing_point(x) for x in range(len(board.CROSSINGS)))
SPACE_POINT: tuple[Point, ...] = tuple(_centre(ends) for ends in board.SPACE_ENDS)
BUILDING_POINT: tuple[Point, ...] = tuple(_centre(b.crossings) for b in board.BUILDING_SPACES)
SIDEWALK_POINT: tuple[Point, ...] = tuple(_crossing_point(i) for i in range(len(board.SIDEWALK)))


def _crossing_distances() -> tuple[tuple[int, ...], ...]:
    """Street steps between two crossings (along any street, the diagonal included)."""
    n = len(board.CROSSINGS)
    neighbours = [
        {a if b == x else b for a, b in (board.SPACE_ENDS[s] for s in board.CROSSING_SPACES[x])}
        for x in range(n)
    ]
    table: list[tuple[int, ...]] = []
    for start in range(n):
        dist = [-1] * n
        dist[start] = 0
        todo = [start]
        for x in todo:
            for y in sorted(neighbours[x]):
                if dist[y] < 0:
                    dist[y] = dist[x] + 1
                    todo.append(y)
        table.append(tuple(dist))
    return tuple(table)


DISTANCE = _crossing_distances()


def sweep_key(origin: Point, point: Point, direction: int) -> tuple[int, Fraction, int]:
    """Order of `point` when sweeping clockwise around `origin` from the arrow `direction`
    (0 north, 1 east, 2 south, 3 west); the origin itself first, the nearer first on one bearing.
    Exact (integer and fraction) arithmetic, so the order never depends on rounding."""
    east, north = point[0] - origin[0], origin[1] - point[1]
    if east == 0 and north == 0:
        return (-1, Fraction(0), 0)
    if east >= 0 and north > 0:
        quarter, ratio = 0, Fraction(east, north)
    elif east > 0 and north <= 0:
        quarter, ratio = 1, Fraction(-north, east)
    elif east <= 0 and north < 0:
        quarter, ratio = 2, Fraction(-east, -north)
    else:
        quarter, ratio = 3, Fraction(north, -east)
    return ((quarter - direction) % 4, ratio, east * east + north * north)


def _space_distance(meeple: int, s: int) -> int:
    a, b = board.SPACE_ENDS[s]
    return min(DISTANCE[meeple][a], DISTANCE[meeple][b])


# ---------------------------------------------------------------------- state helpers
def tables(s: BarcelonaState) -> SoloTables:
    return s.t.solo


def current_card(s: BarcelonaState) -> int:
    """The card drawn last (0-based), or -1 before the Assistant's first turn."""
    return s.solo_drawn[-1] if s.solo_drawn else -1


def direction(s: BarcelonaState) -> int:
    card = current_card(s)
    return tables(s).card_direction[card] if card >= 0 else 0


def percent(s: BarcelonaState) -> int:
    return tables(s).percent[s.options["difficulty"]]


def automa_score(s: BarcelonaState) -> int:
    """The Assistant's VP with the difficulty multiplier applied (rounded half up)."""
    return (s.vp[AUTOMA] * percent(s) + 50) // 100


def card_text(s: BarcelonaState, card: int) -> str:
    return english(card_entry(s, card))


def _say(s: BarcelonaState, key: str, **args: Any) -> None:
    """A line of the Assistant's turn (`bcn.solo.<key>`), naming it as its player."""
    args["player"] = log.ASSISTANT
    s._say((f"bcn.solo.{key}", args))


def card_entry(s: BarcelonaState, card: int) -> Entry:
    st = tables(s)
    return ("bcn.solo.card", {"number": card + 1, "action": log.action(ACTION_KINDS[st.card_kind[card]]),
                              "direction": (f"bcn.direction.{DIRECTION_NAMES[st.card_direction[card]]}", {})})


# ---------------------------------------------------------------------- setup and protocol hooks
def setup(s: BarcelonaState) -> None:
    """Solo setup after the 2-seat setup: the Assistant's board has no Warehouse (it starts without
    resources), the meeple on its start, the 8 cards shuffled with the game's own generator (the
    player's hand is already drawn)."""
    s.solo = True
    s.coins[AUTOMA] = 0
    s.cloth[AUTOMA] = 0
    s.solo_meeple = tables(s).meeple_start
    cards = list(range(SOLO_CARDS))
    s._shuffle(cards)
    s.solo_deck = tuple(cards)
    s.solo_drawn = ()


def no_solo(s: BarcelonaState) -> None:
    s.solo = False
    s.solo_meeple = -1
    s.solo_deck = ()
    s.solo_drawn = ()


def scores(s: BarcelonaState) -> list[int]:
    return [s.vp[PLAYER], automa_score(s)]


def winners(s: BarcelonaState) -> list[int]:
    """The rulebook's tie-breakers, on the player's VP against the Assistant's multiplied VP."""
    if not s.ended:
        return []
    keys = [scoring.tie_break_key(s, p) for p in range(s.n)]
    keys[AUTOMA] = (automa_score(s), *keys[AUTOMA][1:])
    best = max(keys)
    return [p for p in range(s.n) if keys[p] == best]


def score_breakdown(s: BarcelonaState, breakdown: list[dict[str, int]]) -> list[dict[str, int]]:
    """The Assistant's line gets a 'difficulty' entry, so that each line sums to `scores()`."""
    breakdown[AUTOMA]["difficulty"] = automa_score(s) - s.vp[AUTOMA]
    return breakdown


def evaluation(s: BarcelonaState, values: list[float]) -> list[float]:
    values[AUTOMA] *= percent(s) / 100
    return values


def resample_deck(s: BarcelonaState, seed: int) -> None:
    """Redraw the order of the solo card deck (its contents are known: the cards not yet drawn)."""
    from eixample.core.rng import Rng

    rng = Rng(seed)
    deck = sorted(s.solo_deck)
    rng.shuffle(deck)
    s.solo_deck = tuple(deck)


def result(s: BarcelonaState) -> str | None:
    if not s.ended:
        return None
    won = s.winners()
    return "tied" if len(won) > 1 else ("won" if won == [PLAYER] else "lost")


def view(s: BarcelonaState) -> dict[str, Any]:
    """What the player sees of the solo game: never the order of the deck."""
    st = tables(s)
    card = current_card(s)
    automa = automa_score(s)
    return {
        "opponent": NAME,
        "seat": AUTOMA,
        "difficulty": s.options["difficulty"],
        "multiplier_percent": percent(s),
        "player_vp": s.vp[PLAYER],
        "automa_vp": automa,
        "automa_vp_before_multiplier": s.vp[AUTOMA],
        "margin": s.vp[PLAYER] - automa,
        "result": result(s),
        "card": None
        if card < 0
        else {
            "number": card + 1,
            "action": ACTION_KINDS[st.card_kind[card]],
            "title": CARD_TITLES[st.card_kind[card]],
            "direction": DIRECTION_NAMES[st.card_direction[card]],
        },
        "meeple": board.CROSSINGS[s.solo_meeple],
        "deck_left": len(s.solo_deck),
        "drawn": [c + 1 for c in s.solo_drawn],
    }


def announce_result(s: BarcelonaState) -> None:
    """The last log line of a solo game (after the final scoring)."""
    automa = automa_score(s)
    margin = s.vp[PLAYER] - automa
    s._say(("bcn.solo.finalScores", {
        "player": s.vp[PLAYER], "automa": automa, "before": s.vp[AUTOMA], "percent": percent(s),
        "difficulty": (f"bcn.difficulty.{s.options['difficulty']}", {}), "margin": f"{margin:+d}",
        "outcome": (f"bcn.solo.{result(s) or 'tied'}", {}),
    }))


# ---------------------------------------------------------------------- the Assistant's turn
def step(s: BarcelonaState, frame: tuple[int, ...]) -> None:
    """Run one automatic step of the Assistant's turn (see the module docstring)."""
    if frame[2] == 0:
        _begin_turn(s)
    elif frame[2] == 1:
        _card_action(s)
    else:
        _build(s)


def _draw_card(s: BarcelonaState) -> int:
    if not s.solo_deck:
        cards = list(range(SOLO_CARDS))
        s._shuffle(cards)
        s.solo_deck = tuple(cards)
        s.solo_drawn = ()
        _say(s, "shuffles", count=SOLO_CARDS)
    card = s.solo_deck[-1]
    s.solo_deck = s.solo_deck[:-1]
    s.solo_drawn = (*s.solo_drawn, card)
    return card


def _begin_turn(s: BarcelonaState) -> None:
    card = _draw_card(s)
    s.floor = s.n_actions  # random draws: nothing before them can be undone
    _say(s, "draws", card=card_entry(s, card))
    targets = meeple_targets(s)
    if not targets:
        _say(s, "noCrossing")
        return
    citizens: list[int] = []
    while len(citizens) < 2:
        kind = s._draw_citizen()
        if kind < 0:
            break
        citizens.append(kind)
    if not citizens:
        _say(s, "emptyBag")
        return
    stack = tuple(sorted(citizens))  # bottom to top: the higher class on top
    x = choose_crossing(s, targets, stack)
    s.solo_meeple = x
    _say(s, "meeple", crossing=board.CROSSINGS[x])
    place(s, x, stack)


def place(s: BarcelonaState, x: int, stack: tuple[int, ...]) -> None:
    """Put the Assistant's citizens on crossing `x` (it never pays a crossing's cost)."""
    s.cross_cit[x] = stack
    s.progress = True
    _say(s, "places", stack=log.citizens(stack), crossing=board.CROSSINGS[x])
    owner = s.cross_owner[x]
    if owner >= 0:
        allowed = placing.benefits_allowed(s, owner)
        if owner == AUTOMA:
            intersection_benefits(s, allowed)
        else:
            s.stack.append((BENEFITS, owner, allowed))



def intersection_benefits(s: BarcelonaState, allowed: int) -> None:
    """Citizens landed on one of the Assistant's Intersections: it takes the leftmost `allowed`
    different benefits of its built Intersections."""
    slots = placing.distinct_benefit_slots(s, AUTOMA)[:allowed]
    if not slots:
        return
    _say(s, "benefits", slots=[i + 1 for i in slots])
    for i in slots:
        gain(s, s.t.intersection_benefit[i])


# --- the meeple
def meeple_targets(s: BarcelonaState) -> list[int]:
    """The empty crossings nearest the meeple (at least one street step away)."""
    here = s.solo_meeple
    empty = [x for x in range(len(board.CROSSINGS)) if not s.cross_cit[x] and x != here]
    if not empty:
        return []
    nearest = min(DISTANCE[here][x] for x in empty)
    return [x for x in empty if DISTANCE[here][x] == nearest]


def best_building_with(s: BarcelonaState, x: int, stack: tuple[int, ...]) -> int:
    """Rank (by the solo building order, 0 for none) of the best Building the Assistant could
    construct next to crossing `x` using the citizen it would place on top there."""
    order = tables(s).building_order
    saved = s.cross_cit[x]
    s.cross_cit[x] = stack
    best = 0
    try:
        for b in board.CROSSING_BUILDINGS[x]:
            for kind in range(4):
                if not construction.building_fits(s, kind, b):
                    continue
                rank = len(order) - order.index(kind)
                if rank > best and any(x in combo for combo in construction.citizen_choices(s, kind, b)):
                    best = rank
    finally:
        s.cross_cit[x] = saved
    return best


PRIORITY: dict[str, Callable[[BarcelonaState, int, tuple[int, ...]], int]] = {
    "building": best_building_with,
    "own_intersection": lambda s, x, stack: int(s.cross_owner[x] == AUTOMA),
    "no_player_intersection": lambda s, x, stack: int(s.cross_owner[x] != PLAYER),
    "open_spaces": lambda s, x, stack: sum(1 for sp in board.CROSSING_SPACES[x] if s.space_owner[sp] < 0),
}


def crossing_key(s: BarcelonaState, x: int, stack: tuple[int, ...]) -> tuple[Any, ...]:
    priorities = tuple(-PRIORITY[name](s, x, stack) for name in tables(s).priorities)
    return (*priorities, sweep_key(CROSSING_POINT[s.solo_meeple], CROSSING_POINT[x], direction(s)))


def choose_crossing(s: BarcelonaState, targets: list[int], stack: tuple[int, ...]) -> int:
    return min(targets, key=lambda x: crossing_key(s, x, stack))


# --- gains: never kept, converted into VP
def gain(s: BarcelonaState, b: Benefit | None, depth: int = 0) -> None:
    if b is None:
        return
    if b.vp:
        s._score(AUTOMA, b.vp, "benefits")
        _say(s, "scores", vp=log.parts(("benefits", b.vp)))
    convert(s, b.coin, b.cloth, b.resource)
    if b.cerda:
        tracks.cerda_step(s, AUTOMA, b.cerda)
        _say(s, "cerda", count=b.cerda)
    if b.action:
        perform(s, ACTION_KINDS.index(b.action), depth=depth + 1)
    if b.sagrada:
        sagrada_step(s, b.sagrada, depth)


def convert(s: BarcelonaState, coins: int, cloth: int, resources: int = 0, source: str = "benefits") -> None:
    st = tables(s)
    parts: list[Entry] = []
    total = 0
    for amount, rate, word in (
        (coins, st.coin_vp, "coin"),
        (cloth, st.cloth_vp, "cloth"),
        (resources, st.resource_vp, "resource"),
    ):
        if amount:
            parts.append((f"bcn.gain.{word}", {"count": amount}))
            total += amount * rate
    if parts:
        s._score(AUTOMA, total, source)
        _say(s, "converts", goods=parts, vp=log.parts((source, total)))


def sagrada_step(s: BarcelonaState, steps: int, depth: int = 0) -> None:
    """Advance on the Assistant's Sagrada Família track; at each slot it takes the lowest-numbered
    tile of that level still available."""
    t = s.t
    for _ in range(steps):
        if s.sagrada[AUTOMA] >= t.sagrada_top:
            break
        s.sagrada[AUTOMA] += 1
        level = t.sagrada_slot_level[s.sagrada[AUTOMA]]
        _say(s, "sagrada", space=s.sagrada[AUTOMA])
        if not level:
            continue
        tile = next(
            (i for i in range(len(t.sagrada_ids)) if s.sagrada_offer[i] and t.sagrada_level[i] == level),
            -1,
        )
        if tile >= 0:
            s.sagrada_offer[tile] = 0
            s.sagrada_tiles[AUTOMA] = (*s.sagrada_tiles[AUTOMA], tile)
            _say(s, "sagradaTile", tile=t.sagrada_ids[tile])
            gain(s, t.sagrada_benefit[tile], depth)


# --- the card's action
def _card_action(s: BarcelonaState) -> None:
    card = current_card(s)
    st = tables(s)
    kind = st.card_kind[card]
    if not perform(s, kind, coins=st.card_coins[card]):
        vp = st.card_fallback_vp[card]
        s._score(AUTOMA, vp, "benefits")
        _say(s, "cannot", action=log.action(ACTION_KINDS[kind]), vp=log.parts(("benefits", vp)))


def perform(
    s: BarcelonaState, kind: int, depth: int = 0, coins: bool = False, anywhere: bool = False
) -> bool:
    """Perform an action for free; False when it cannot be performed at all."""
    if depth > MAX_DEPTH:
        return False
    return bool(ACTIONS[kind](s, depth, coins, anywhere))


def _gain_action(s: BarcelonaState, depth: int, coins: bool, anywhere: bool) -> bool:
    if coins:
        convert(s, 2, 0, source="cloth")
    else:
        s._score(AUTOMA, 3, "cloth")
        _say(s, "cloth", vp=log.parts(("cloth", 3)))
        convert(s, 0, 1, source="cloth")
    return True


def _cobble_action(s: BarcelonaState, depth: int, coins: bool, anywhere: bool) -> bool:
    if s.cobbles[AUTOMA] >= len(s.t.cobblestone_vp) - 1:
        return False
    walk = s.sidewalk
    legal = [
        i
        for i in range(len(walk))
        if walk[i] == -1 and (anywhere or any(walk[j] != -1 for j in board.SIDEWALK_NEIGHBOURS[i]))
    ]
    if not legal:
        return False
    centre = SIDEWALK_POINT[s.t.sidewalk_start]
    where = min(legal, key=lambda i: sweep_key(centre, SIDEWALK_POINT[i], direction(s)))
    walk[where] = AUTOMA
    s.cobbles[AUTOMA] += 1
    _say(s, "cobblestone", space=board.SIDEWALK[where])
    gain(s, s.t.sidewalk_benefit[where], depth)
    return True


def _street_choice(s: BarcelonaState, wide: bool) -> int:
    meeple = s.solo_meeple
    spaces = actions.empty_street_spaces(s, wide)
    if not spaces:
        return -1
    origin = CROSSING_POINT[meeple]
    return min(
        spaces,
        key=lambda sp: (
            _space_distance(meeple, sp),
            -actions.street_line(s, sp),
            sweep_key(origin, SPACE_POINT[sp], direction(s)),
        ),
    )


def _streets_action(s: BarcelonaState, depth: int, coins: bool, anywhere: bool) -> bool:
    """1 Wide tile when an empty Wide space touches the meeple's crossing, else 2 Narrow tiles,
    else 1 Wide tile anywhere; each tile on the nearest empty space, the longest line first."""
    meeple = s.solo_meeple
    wide_ok = bool(actions.street_tiles_left(s, AUTOMA, True) and actions.empty_street_spaces(s, True))
    narrow_ok = bool(actions.street_tiles_left(s, AUTOMA, False) and actions.empty_street_spaces(s, False))
    wide_near = wide_ok and any(
        s.t.space_wide[sp] and s.space_owner[sp] < 0 for sp in board.CROSSING_SPACES[meeple]
    )
    if wide_near or (wide_ok and not narrow_ok):
        wide = True
    elif narrow_ok:
        wide = False
    else:
        return False
    for _ in range(1 if wide else 2):
        if not actions.street_tiles_left(s, AUTOMA, wide):
            break
        sp = _street_choice(s, wide)
        if sp < 0:
            break
        actions.take_street_tile(s, AUTOMA, wide)
        s.space_owner[sp] = AUTOMA
        line = actions.street_line(s, sp)
        vp = line * (2 if wide else 1)
        s._score(AUTOMA, vp, "streets")
        _say(s, "wideStreet" if wide else "narrowStreet", space=board.SPACES[sp], line=line,
             vp=log.parts(("streets", vp)))
        gain(s, s.t.space_benefit[sp], depth)
    return True


def _nearest_free(s: BarcelonaState, placed: int, supply: int, free: list[int],
                  rank: Callable[[int, Any, int], tuple[Any, ...]]) -> int | None:
    """Where the Automa puts its next piece of a kind: none when its `supply` is spent (`placed`
    of it) or no place is `free`; else the free place ranked first by `rank(meeple's crossing,
    its point, place)`."""
    if placed >= supply or not free:
        return None
    meeple = s.solo_meeple
    origin = CROSSING_POINT[meeple]
    return min(free, key=lambda place: rank(meeple, origin, place))


def _intersection_action(s: BarcelonaState, depth: int, coins: bool, anywhere: bool) -> bool:
    x = _nearest_free(
        s,
        s.inters[AUTOMA],
        len(s.t.intersection_cost),
        [x for x in range(len(board.CROSSINGS)) if s.cross_owner[x] < 0],
        lambda meeple, origin, y: (DISTANCE[meeple][y], sweep_key(origin, CROSSING_POINT[y], direction(s))),
    )
    if x is None:
        return False
    s.inters[AUTOMA] += 1
    s.cross_owner[x] = AUTOMA
    _say(s, "intersection", crossing=board.CROSSINGS[x])
    for sp in reversed(board.CROSSING_SPACES[x]):
        if s.space_owner[sp] < 0:
            gain(s, s.t.space_benefit[sp], depth)
    return True


def _improve_action(s: BarcelonaState, depth: int, coins: bool, anywhere: bool) -> bool:
    """The rightmost marker still at the bottom of a space holding a tile, else the rightmost
    marker still at the bottom."""
    k = len(s.t.modernisme_take)
    base = AUTOMA * k
    down = [i for i in range(k) if not s.mod_top[base + i]]
    if not down:
        return False
    with_tile = [i for i in down if s.mod_tile[base + i] >= 0]
    i = (with_tile or down)[-1]
    s.mod_top[base + i] = 1
    _say(s, "improve", space=i + 1)
    return True


def _take_action(s: BarcelonaState, depth: int, coins: bool, anywhere: bool) -> bool:
    """The offer's tile worth most to the Assistant now (leftmost on a tie), into its rightmost
    empty project space."""
    t = s.t
    k = len(t.modernisme_take)
    base = AUTOMA * k
    empty = [i for i in range(k) if s.mod_tile[base + i] < 0]
    offer = [tile for tile in s.mod_offer if tile >= 0]
    if not empty or not offer:
        return False

    def worth(tile: int) -> int:
        count = scoring.condition_count(s, t.modernisme_condition[tile], AUTOMA, t.modernisme_cap[tile])
        return t.modernisme_vp[tile] * count

    tile = max(offer, key=worth)  # max keeps the first (leftmost) of equal values
    i = empty[-1]
    s.mod_tile[base + i] = tile
    slot = s.mod_offer.index(tile)
    s.mod_offer[slot] = cerda_scoring.next_modernisme(s)
    s.floor = s.n_actions  # a face-down tile was revealed
    _say(s, "takeModernisme", tile=t.modernisme_ids[tile], space=i + 1)
    return True


def _service_action(s: BarcelonaState, depth: int, coins: bool, anywhere: bool) -> bool:
    """The Public Service with the most VP that it has not built (leftmost on a tie), for free."""
    t = s.t
    options: list[tuple[int, int]] = []
    for slot, service in enumerate(s.services):
        left = s.service_left[slot]
        if left and not s.services_built[AUTOMA] >> service & 1:
            options.append((-t.service_vp[service][actions.service_tile(s, slot)], slot))
    if not options:
        return False
    slot = min(options)[1]
    service = s.services[slot]
    tile = actions.service_tile(s, slot)
    s.service_left[slot] -= 1
    s.services_built[AUTOMA] |= 1 << service
    s._score(AUTOMA, t.service_vp[service][tile], "public_services")
    tracks.cerda_step(s, AUTOMA, t.service_cerda[service])
    actions.say_service(s, AUTOMA, service, t.service_vp[service][tile])
    effect = SERVICE_EFFECTS[t.service_effect[service]]
    if effect == "market":
        convert(s, 0, len(scoring.blocks_with_marker(s, AUTOMA)))
    elif effect == "sagrada":
        sagrada_step(s, 2, depth)
    else:
        perform(s, SERVICE_ACTION[effect], depth=depth + 1, anywhere=effect == "cobblestone")
    return True


def _passenger_action(s: BarcelonaState, depth: int, coins: bool, anywhere: bool) -> bool:
    """A Passenger (never the Tram) on the nearest street space without one, its own Street tile
    first; then that street's action, for free."""
    t = s.t
    sp = _nearest_free(
        s,
        s.passengers[AUTOMA],
        len(t.passenger_cost),
        [sp for sp in range(len(board.SPACES)) if s.space_passenger[sp] < 0],
        lambda meeple, origin, x: (
            _space_distance(meeple, x),
            s.space_owner[x] != AUTOMA,
            sweep_key(origin, SPACE_POINT[x], direction(s)),
        ),
    )
    if sp is None:
        return False
    s.passengers[AUTOMA] += 1
    s.space_passenger[sp] = AUTOMA
    _say(s, "passenger", space=board.SPACES[sp])
    owner = s.space_owner[sp]
    if owner >= 0:
        line = actions.street_line(s, sp)
        vp = line * (2 if t.space_wide[sp] else 1)
        s._score(owner, vp, "streets")
        actions.say_street_again(s, owner, sp, vp)
    street = board.SPACE_STREET[sp]
    kind = s.street_action[street]
    _say(s, "streetAction", street=board.STREETS[street], action=log.action(ACTION_KINDS[kind]))
    perform(s, kind, depth=depth + 1)
    return True


Action = Callable[["BarcelonaState", int, bool, bool], bool]
ACTIONS: tuple[Action, ...] = (
    _gain_action,
    _cobble_action,
    _streets_action,
    _intersection_action,
    _improve_action,
    _take_action,
    _service_action,
    _passenger_action,
)
SERVICE_ACTION = {
    "tram": K_TRAM,
    "intersection": K_INTERSECTION,
    "streets": K_STREETS,
    "cobblestone": K_COBBLE,
    "modernisme": K_TAKE,
}


# --- the building phase
def build_key(s: BarcelonaState, kind: int, b: int) -> tuple[Any, ...]:
    order = tables(s).building_order
    meeple = s.solo_meeple
    space = board.BUILDING_SPACES[b]
    return (
        order.index(kind),
        meeple not in space.crossings,
        sweep_key(CROSSING_POINT[meeple], BUILDING_POINT[b], direction(s)),
    )


def citizens_key(s: BarcelonaState, b: int, combo: tuple[int, ...]) -> list[Any]:
    """The meeple's crossing first, then the space's other crossings clockwise from the arrow."""
    centre = BUILDING_POINT[b]
    here = (0, -1, Fraction(0), 0)
    ranks = [
        here if x == s.solo_meeple else (1, *sweep_key(centre, CROSSING_POINT[x], direction(s)))
        for x in combo
    ]
    return sorted(ranks)


def choose_build(s: BarcelonaState) -> tuple[int, int, tuple[int, ...]] | None:
    builds = construction.legal_builds(s, AUTOMA)
    if not builds:
        return None
    kind, b = min(builds, key=lambda kb: build_key(s, *kb))
    combo = min(construction.citizen_choices(s, kind, b), key=lambda c: citizens_key(s, b, c))
    return kind, b, combo


def _build(s: BarcelonaState) -> None:
    choice = choose_build(s)
    if choice is None:
        return
    kind, b, combo = choice
    t = s.t
    moved, gained, bonus = construction.construct(s, AUTOMA, kind, b, combo)
    construction.say_built(s, AUTOMA, kind, b, moved, gained, bonus)
    if t.building_sagrada[kind]:
        sagrada_step(s, t.building_sagrada[kind])
