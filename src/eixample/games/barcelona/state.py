"""The state of a game of Barcelona and its rules.

The state is flat (lists of ints and tuples) so `clone()` is a handful of list copies. A turn is a
stack of pending decisions (`stack`), like the rulebook's own structure: placing citizens pushes
the crossing's actions, an action pushes its own choices, gains that overflow the Warehouse push a
discard, and so on. Automatic steps (the building phase, the end of the turn) sit in the same
stack and run as soon as they reach the top.

Every decision is one action from `legal_actions()`, a short text ("place C23", "top M",
"act V2 streets", "street V2.1", "build L2 B12", "use C12+C13").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from eixample.core.errors import IllegalActionError
from eixample.core.protocol import TERMINAL, JsonDict
from eixample.core.records import make_record
from eixample.core.rng import Rng
from eixample.games.barcelona import board, scoring
from eixample.games.barcelona.components import ACTION_KINDS, SERVICE_EFFECTS, Benefit
from eixample.games.barcelona.tables import (
    BUILDING_TYPES,
    CITIZENS,
    CORNER,
    Tables,
)

# ------------------------------------------------------------------ decision kinds (stack frames)
PLACE, ORDER, BENEFITS, ACTIONS, GAIN, COBBLE, STREET_KIND, STREET, INTERSECTION = range(9)
IMPROVE, TAKE, SERVICE, TRAM, PASSENGER, PASSENGER_ACTION, SAGRADA, MIX, DISCARD = range(9, 18)
BUILD, CITIZENS_CHOICE = 18, 19
BUILD_PHASE, END_TURN = 30, 31  # automatic steps
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

# action kinds
K_GAIN, K_COBBLE, K_STREETS, K_INTERSECTION, K_IMPROVE, K_TAKE, K_SERVICE, K_TRAM = range(8)

# VP sources of the score breakdown
SOURCES = (
    "streets",
    "buildings",
    "building_bonus",
    "cloth",
    "benefits",
    "public_services",
    "cerda_scoring",
    "cerda_track",
    "cobblestones",
    "passengers",
    "modernisme",
)
SRC = {name: i for i, name in enumerate(SOURCES)}
NSRC = len(SOURCES)

FIELDS = (
    "rng",
    "bag",
    "hands",
    "cross_cit",
    "cross_owner",
    "space_owner",
    "space_passenger",
    "tram",
    "bld_type",
    "bld_tiles",
    "bld_markers",
    "bld_stock",
    "row_bonus",
    "track",
    "off_board",
    "street_action",
    "cerda_tiles",
    "cerda_scored",
    "mod_stack",
    "mod_offer",
    "mod_discard",
    "sagrada_offer",
    "services",
    "service_left",
    "sidewalk",
    "vp",
    "vp_src",
    "coins",
    "cloth",
    "cobbles",
    "inters",
    "passengers",
    "cerda",
    "sagrada",
    "sagrada_tiles",
    "services_built",
    "narrow_left",
    "wide_left",
    "markers_left",
    "mod_tile",
    "mod_top",
    "turn_player",
    "first_player",
    "turns",
    "end_triggered",
    "ended",
    "idle_turns",
    "progress",
    "stack",
    "floor",
    "last_actor",
    "n_actions",
    # solo mode (solo.py): a solo game, the meeple's crossing, the solo card deck (top last) and
    # the cards drawn since it was last shuffled (the current card last)
    "solo",
    "solo_meeple",
    "solo_deck",
    "solo_drawn",
)
TUPLE_ITEM_FIELDS = ("hands", "cross_cit", "bld_tiles", "bld_markers", "sagrada_tiles", "stack")


def _benefit_text(b: Benefit | None) -> str:
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


class BarcelonaState:
    """A game of Barcelona in progress (see the module docstring)."""

    __slots__ = (*FIELDS, "_legal", "_payloads", "_log", "_history", "n", "options", "seed", "t")

    t: Tables
    n: int
    seed: int
    options: dict[str, Any]
    rng: int
    bag: list[int]
    hands: list[tuple[int, ...]]
    cross_cit: list[tuple[int, ...]]
    cross_owner: list[int]
    space_owner: list[int]
    space_passenger: list[int]
    tram: list[int]
    bld_type: list[int]
    bld_tiles: list[tuple[int, ...]]
    bld_markers: list[tuple[int, ...]]
    bld_stock: list[int]
    row_bonus: list[int]
    track: list[list[int]]
    off_board: list[int]
    street_action: tuple[int, ...]
    cerda_tiles: tuple[int, ...]
    cerda_scored: list[int]
    mod_stack: list[int]
    mod_offer: list[int]
    mod_discard: list[int]
    sagrada_offer: list[int]
    services: tuple[int, ...]
    service_left: list[int]
    sidewalk: list[int]
    vp: list[int]
    vp_src: list[int]
    coins: list[int]
    cloth: list[int]
    cobbles: list[int]
    inters: list[int]
    passengers: list[int]
    cerda: list[int]
    sagrada: list[int]
    sagrada_tiles: list[tuple[int, ...]]
    services_built: list[int]
    narrow_left: list[int]
    wide_left: list[int]
    markers_left: list[int]
    mod_tile: list[int]
    mod_top: list[int]
    turn_player: int
    first_player: int
    turns: int
    end_triggered: bool
    ended: bool
    idle_turns: int
    progress: bool
    stack: list[tuple[int, ...]]
    floor: int
    last_actor: int
    n_actions: int
    solo: bool
    solo_meeple: int
    solo_deck: tuple[int, ...]
    solo_drawn: tuple[int, ...]
    _legal: list[str] | None
    _payloads: list[Any]
    _log: Any
    _history: Any

    # ------------------------------------------------------------------ protocol
    @property
    def num_players(self) -> int:
        return self.n

    def current_player(self) -> int:
        if self.ended:
            return TERMINAL
        return self.stack[-1][1]

    def is_terminal(self) -> bool:
        return self.ended

    def legal_actions(self) -> list[str]:
        if self._legal is None:
            self._compute_legal()
        assert self._legal is not None
        return list(self._legal)

    def apply(self, action: str) -> None:
        if self.ended:
            raise IllegalActionError("the game is over: no action is legal")
        if self._legal is None:
            self._compute_legal()
        legal = self._legal
        assert legal is not None
        try:
            index = legal.index(action)
        except ValueError:
            if not isinstance(action, str):
                raise IllegalActionError(f"an action is a text, not {type(action).__name__}") from None
            hint = ", ".join(legal[:12]) + (" ..." if len(legal) > 12 else "")
            raise IllegalActionError(
                f"'{action}' is not legal now ({self.describe_decision()}); legal: {hint}"
            ) from None
        payload = self._payloads[index]
        frame = self.stack.pop()
        actor = frame[1]
        if actor != self.last_actor:
            self.floor = self.n_actions
            self.last_actor = actor
        self.n_actions += 1
        self._history = (self._history, action)
        self._resolve(frame, payload, action)
        self._settle()

    def clone(self) -> BarcelonaState:
        o = object.__new__(BarcelonaState)
        o.t = self.t
        o.n = self.n
        o.seed = self.seed
        o.options = self.options
        o.rng = self.rng
        o.bag = self.bag[:]
        o.hands = self.hands[:]
        o.cross_cit = self.cross_cit[:]
        o.cross_owner = self.cross_owner[:]
        o.space_owner = self.space_owner[:]
        o.space_passenger = self.space_passenger[:]
        o.tram = self.tram[:]
        o.bld_type = self.bld_type[:]
        o.bld_tiles = self.bld_tiles[:]
        o.bld_markers = self.bld_markers[:]
        o.bld_stock = self.bld_stock[:]
        o.row_bonus = self.row_bonus[:]
        o.track = [self.track[0][:], self.track[1][:], self.track[2][:]]
        o.off_board = self.off_board[:]
        o.street_action = self.street_action
        o.cerda_tiles = self.cerda_tiles
        o.cerda_scored = self.cerda_scored[:]
        o.mod_stack = self.mod_stack[:]
        o.mod_offer = self.mod_offer[:]
        o.mod_discard = self.mod_discard[:]
        o.sagrada_offer = self.sagrada_offer[:]
        o.services = self.services
        o.service_left = self.service_left[:]
        o.sidewalk = self.sidewalk[:]
        o.vp = self.vp[:]
        o.vp_src = self.vp_src[:]
        o.coins = self.coins[:]
        o.cloth = self.cloth[:]
        o.cobbles = self.cobbles[:]
        o.inters = self.inters[:]
        o.passengers = self.passengers[:]
        o.cerda = self.cerda[:]
        o.sagrada = self.sagrada[:]
        o.sagrada_tiles = self.sagrada_tiles[:]
        o.services_built = self.services_built[:]
        o.narrow_left = self.narrow_left[:]
        o.wide_left = self.wide_left[:]
        o.markers_left = self.markers_left[:]
        o.mod_tile = self.mod_tile[:]
        o.mod_top = self.mod_top[:]
        o.turn_player = self.turn_player
        o.first_player = self.first_player
        o.turns = self.turns
        o.end_triggered = self.end_triggered
        o.ended = self.ended
        o.idle_turns = self.idle_turns
        o.progress = self.progress
        o.stack = self.stack[:]
        o.floor = self.floor
        o.last_actor = self.last_actor
        o.n_actions = self.n_actions
        o.solo = self.solo
        o.solo_meeple = self.solo_meeple
        o.solo_deck = self.solo_deck
        o.solo_drawn = self.solo_drawn
        o._legal = self._legal
        o._payloads = self._payloads
        o._log = self._log
        o._history = self._history
        return o

    def scores(self) -> list[int]:
        if self.solo:  # [player, Gaudí's Assistant with its difficulty multiplier]
            from eixample.games.barcelona import solo

            return solo.scores(self)
        return self.vp[:]

    def winners(self) -> list[int]:
        if self.solo:
            from eixample.games.barcelona import solo

            return solo.winners(self)
        if not self.ended:
            return []
        keys = [scoring.tie_break_key(self, p) for p in range(self.n)]
        best = max(keys)
        return [p for p in range(self.n) if keys[p] == best]

    def score_breakdown(self) -> list[dict[str, int]]:
        src = self.vp_src
        breakdown = [{name: src[p * NSRC + i] for i, name in enumerate(SOURCES)} for p in range(self.n)]
        if self.solo:
            from eixample.games.barcelona import solo

            return solo.score_breakdown(self, breakdown)
        return breakdown

    def undo_floor(self) -> int:
        return self.floor

    def record(self) -> JsonDict:
        players = 1 if self.solo else self.n  # solo: new_game(players=1), two seats inside
        return make_record("barcelona", players, self.seed, self.options, self.actions())

    def actions(self) -> list[str]:
        out: list[str] = []
        node = self._history
        while node is not None:
            node, action = node
            out.append(action)
        out.reverse()
        return out

    def log(self) -> list[str]:
        out: list[str] = []
        node = self._log
        while node is not None:
            node, line = node
            out.append(line)
        out.reverse()
        return out

    # ------------------------------------------------------------------ small helpers
    def seat_name(self, p: int) -> str:
        """How the log names a seat: P1..P4, and Gaudí's Assistant in a solo game."""
        return "Gaudí's Assistant" if self.solo and p == SOLO_SEAT else f"P{p + 1}"

    def _say(self, text: str) -> None:
        self._log = (self._log, text)

    def _draw_u64(self) -> int:
        rng = Rng(self.rng)
        value = rng.next_u64()
        self.rng = rng.state
        return value

    def _below(self, n: int) -> int:
        rng = Rng(self.rng)
        value = rng.below(n)
        self.rng = rng.state
        return value

    def _shuffle(self, items: list[int]) -> None:
        rng = Rng(self.rng)
        rng.shuffle(items)
        self.rng = rng.state

    def _draw_citizen(self) -> int:
        """One citizen at random from the bag (-1 if the bag is empty)."""
        total = self.bag[0] + self.bag[1] + self.bag[2]
        if total == 0:
            return -1
        pick = self._below(total)
        kind = 0 if pick < self.bag[0] else (1 if pick < self.bag[0] + self.bag[1] else 2)
        self.bag[kind] -= 1
        return kind

    def _score(self, p: int, amount: int, source: str) -> None:
        if amount:
            self.vp[p] += amount
            self.vp_src[p * NSRC + SRC[source]] += amount

    def capacity(self, p: int) -> int:
        return self.t.warehouse_open + self.cobbles[p]

    def _cerda_step(self, p: int, steps: int) -> None:
        """Move on the Cerdà track; past the top each forfeited step gives 2 VP; below 0 is ignored."""
        position = self.cerda[p] + steps
        if position > self.t.cerda_top:
            self._score(p, 2 * (position - self.t.cerda_top), "cerda_track")
            position = self.t.cerda_top
        self.cerda[p] = max(0, position)

    def _sagrada_step(self, p: int, steps: int) -> None:
        """Advance on the Sagrada Família track; each slot crossed lets the player take a tile."""
        levels: list[int] = []
        for _ in range(steps):
            if self.sagrada[p] >= self.t.sagrada_top:
                break
            self.sagrada[p] += 1
            level = self.t.sagrada_slot_level[self.sagrada[p]]
            if level and self._sagrada_available(level):
                levels.append(level)
        for level in reversed(levels):
            self.stack.append((SAGRADA, p, level))

    def _sagrada_available(self, level: int) -> bool:
        t = self.t
        return any(self.sagrada_offer[i] and t.sagrada_level[i] == level for i in range(len(t.sagrada_ids)))

    def _gain(self, p: int, b: Benefit | None, source: str = "benefits") -> None:
        """Gain a printed benefit. Resources overflowing the Warehouse are settled by a discard."""
        if b is None:
            return
        self.coins[p] += b.coin
        self.cloth[p] += b.cloth
        self._score(p, b.vp, source)
        if b.cerda:
            self._cerda_step(p, b.cerda)
        if b.action:
            kind = ACTION_KINDS.index(b.action)
            if self._action_available(p, kind):
                self._start_action(p, kind)
        if b.resource:
            self.stack.append((MIX, p, b.resource))
        if b.sagrada:
            self._sagrada_step(p, b.sagrada)

    def _pay(self, p: int, coins: int = 0, cloth: int = 0) -> None:
        assert self.coins[p] >= coins and self.cloth[p] >= cloth, "cost checked before paying"
        self.coins[p] -= coins
        self.cloth[p] -= cloth

    # ------------------------------------------------------------------ the turn
    def _start_turn(self, p: int) -> None:
        self.turn_player = p
        self.progress = False
        if self.solo and p == SOLO_SEAT:  # Gaudí's Assistant: three automatic steps (solo.py)
            self.stack = [(END_TURN, p), (AUTOMA, p, 2), (AUTOMA, p, 1), (AUTOMA, p, 0)]
            return
        self.stack = [(END_TURN, p), (BUILD_PHASE, p), (PLACE, p)]

    def _settle(self) -> None:
        """Run automatic steps and settle overflows until a player must decide (or the end)."""
        while True:
            if not self.ended:
                for p in range(self.n):
                    if self.coins[p] + self.cloth[p] > self.capacity(p) and self.stack[-1][:2] != (
                        DISCARD,
                        p,
                    ):
                        self.stack.append((DISCARD, p))
                        break
            if self.ended or not self.stack:
                self._legal, self._payloads = [], []
                return
            frame = self.stack[-1]
            if frame[0] in AUTOMATIC:
                self.stack.pop()
                if frame[0] == BUILD_PHASE:
                    if self._legal_builds(frame[1]):
                        self.stack.append((BUILD, frame[1]))
                elif frame[0] == END_TURN:
                    self._end_turn(frame[1])
                else:
                    from eixample.games.barcelona import solo

                    solo.step(self, frame)
                continue
            self._compute_legal()
            if self._legal:
                return
            self.stack.pop()  # nothing can be done: the step is skipped

    def _end_turn(self, p: int) -> None:
        self._run_cerda_scorings()
        hand = list(self.hands[p])
        while len(hand) < 2 and not (self.solo and p == SOLO_SEAT):  # the Assistant draws no hand
            kind = self._draw_citizen()
            if kind < 0:
                break
            hand.append(kind)
        self.hands[p] = tuple(hand)
        self.floor = self.n_actions  # a random draw: nothing before it can be undone
        self.turns += 1
        self.idle_turns = 0 if self.progress else self.idle_turns + 1
        nxt = (p + 1) % self.n
        if nxt == self.first_player and (self.end_triggered or self.idle_turns >= self.n):
            if not self.end_triggered:
                self._say("Nobody can place citizens or build any more: the game ends.")
            self._final_scoring()
            return
        self._start_turn(nxt)

    # ------------------------------------------------------------------ Cerdà scoring
    def section_triggered(self, section: int) -> bool:
        t = self.t
        return any(self.track[k][t.track_triggers[k][section]] for k in range(3))

    def _run_cerda_scorings(self) -> None:
        for section in range(3):
            if self.cerda_scored[section] or not self.section_triggered(section):
                continue
            tile = self.cerda_tiles[section]
            results = []
            for p in range(self.n):
                gained = scoring.cerda_tile_vp(self, tile, p)
                self._score(p, gained, "cerda_scoring")
                results.append(f"{self.seat_name(p)} {gained}")
            self.cerda_scored[section] = 1
            number = sum(self.cerda_scored)
            self._say(
                f"Cerdà Scoring {number} ({self.t.cerda_ids[tile]}: {self._condition_text(tile)}): "
                + ", ".join(results)
            )
            if number < 3:
                start = self.t.cerda_start
                self.cerda = [min(position, start) for position in self.cerda]
            if section == 2:
                self.end_triggered = True
                self._say("The third section is filled: the game ends after this round.")
            self._refresh_modernisme_offer()

    def _condition_text(self, tile: int) -> str:
        t = self.t
        return f"{t.cerda_vp[tile]} VP x {t.condition_text[t.cerda_condition[tile]]}"

    def _refresh_modernisme_offer(self) -> None:
        for i, tile in enumerate(self.mod_offer):
            if tile >= 0:
                self.mod_discard.append(tile)
                self.mod_offer[i] = -1
        for i in range(len(self.mod_offer)):
            self.mod_offer[i] = self._next_modernisme()
        self.floor = self.n_actions

    def _next_modernisme(self) -> int:
        if not self.mod_stack and self.mod_discard:
            self.mod_stack = self.mod_discard
            self.mod_discard = []
            self._shuffle(self.mod_stack)
        return self.mod_stack.pop() if self.mod_stack else -1

    # ------------------------------------------------------------------ final scoring
    def _final_scoring(self) -> None:
        t = self.t
        for p in range(self.n):
            self._score(p, t.cobblestone_vp[self.cobbles[p]], "cobblestones")
            self._score(p, t.passenger_vp[self.passengers[p]], "passengers")
            self._score(p, scoring.modernisme_vp(self, p), "modernisme")
        self.ended = True
        self.stack = []
        if self.solo:
            from eixample.games.barcelona import solo

            solo.announce_result(self)
            return
        winners = self.winners()
        self._say(
            "Final scores: "
            + ", ".join(f"{self.seat_name(p)} {self.vp[p]}" for p in range(self.n))
            + "; winner"
            + ("s " if len(winners) > 1 else " ")
            + " and ".join(self.seat_name(p) for p in winners)
        )

    # ------------------------------------------------------------------ legal actions
    def _compute_legal(self) -> None:
        frame = self.stack[-1]
        texts: list[str] = []
        payloads: list[Any] = []
        LEGAL[frame[0]](self, frame, texts, payloads)
        self._legal = texts
        self._payloads = payloads

    def _resolve(self, frame: tuple[int, ...], payload: Any, action: str) -> None:
        self._legal = None
        RESOLVE[frame[0]](self, frame, payload)

    # --- placing citizens
    def crossing_cost(self, x: int) -> int:
        """Coins to place citizens on a crossing: its printed cost, unless an Intersection covers it."""
        return 0 if self.cross_owner[x] >= 0 else self.t.crossing_cost[x]

    def _legal_place(self, frame: tuple[int, ...], texts: list[str], payloads: list[Any]) -> None:
        p = frame[1]
        if not self.hands[p]:
            return
        coins = self.coins[p]
        for x in range(25):
            if not self.cross_cit[x] and self.crossing_cost(x) <= coins:
                texts.append(PLACE_TEXT[x])
                payloads.append(x)

    def _do_place(self, frame: tuple[int, ...], x: int) -> None:
        p = frame[1]
        self._pay(p, coins=self.crossing_cost(x))
        hand = self.hands[p]
        self.progress = True
        if len(hand) == 2 and hand[0] != hand[1]:
            self.stack.append((ORDER, p, x))
        else:
            self._put_citizens(p, x, hand)

    def _legal_order(self, frame: tuple[int, ...], texts: list[str], payloads: list[Any]) -> None:
        for kind in sorted(set(self.hands[frame[1]])):
            texts.append(TOP_TEXT[kind])
            payloads.append(kind)

    def _do_order(self, frame: tuple[int, ...], top: int) -> None:
        p, x = frame[1], frame[2]
        hand = list(self.hands[p])
        hand.remove(top)
        self._put_citizens(p, x, (*hand, top))

    def _put_citizens(self, p: int, x: int, bottom_to_top: tuple[int, ...]) -> None:
        self.cross_cit[x] = bottom_to_top
        self.hands[p] = ()
        names = "/".join(CITIZENS[k] for k in bottom_to_top)
        self._say(f"P{p + 1} places {names} (top last) on {board.CROSSINGS[x]}")
        mask = (1 << len(board.CROSSING_STREETS[x])) - 1
        self.stack.append((ACTIONS, p, x, mask))
        owner = self.cross_owner[x]
        if owner >= 0:
            allowed = 3 if self.inters[owner] >= 5 else (2 if self.inters[owner] >= 3 else 1)
            if self.solo and owner == SOLO_SEAT:  # Gaudí's Assistant takes its benefits at once
                from eixample.games.barcelona import solo

                solo.intersection_benefits(self, allowed)
                return
            self.stack.append((BENEFITS, owner, allowed))

    # --- Intersection benefits for the owner
    def _legal_benefits(self, frame: tuple[int, ...], texts: list[str], payloads: list[Any]) -> None:
        owner, allowed = frame[1], frame[2]
        slots = self._distinct_benefit_slots(owner)
        texts.append("benefits none")
        payloads.append(())
        for combo in _subsets(slots, allowed):
            texts.append("benefits " + "+".join(str(i + 1) for i in combo))
            payloads.append(combo)

    def _distinct_benefit_slots(self, owner: int) -> list[int]:
        seen: list[Benefit] = []
        slots: list[int] = []
        for i in range(self.inters[owner]):
            b = self.t.intersection_benefit[i]
            if b not in seen:
                seen.append(b)
                slots.append(i)
        return slots

    def _do_benefits(self, frame: tuple[int, ...], combo: tuple[int, ...]) -> None:
        owner = frame[1]
        for i in reversed(combo):
            self._gain(owner, self.t.intersection_benefit[i], "benefits")
        if combo:
            chosen = "; ".join(_benefit_text(self.t.intersection_benefit[i]) for i in combo)
            self._say(f"P{owner + 1} takes Intersection benefits: {chosen}")

    # --- the crossing's actions
    def _legal_actions_frame(self, frame: tuple[int, ...], texts: list[str], payloads: list[Any]) -> None:
        p, x, mask = frame[1], frame[2], frame[3]
        for i, street in enumerate(board.CROSSING_STREETS[x]):
            if mask >> i & 1:
                kind = self.street_action[street]
                if self._action_available(p, kind):
                    texts.append(ACT_TEXT[street][kind])
                    payloads.append(i)
        texts.append("end actions")
        payloads.append(-1)

    def _do_actions_frame(self, frame: tuple[int, ...], i: int) -> None:
        if i < 0:
            return
        p, x, mask = frame[1], frame[2], frame[3]
        self.stack.append((ACTIONS, p, x, mask & ~(1 << i)))
        street = board.CROSSING_STREETS[x][i]
        self._start_action(p, self.street_action[street])

    def _start_action(self, p: int, kind: int) -> None:
        if kind == K_GAIN:
            self.stack.append((GAIN, p))
        elif kind == K_COBBLE:
            self.stack.append((COBBLE, p, 0))
        elif kind == K_STREETS:
            self.stack.append((STREET_KIND, p))
        elif kind == K_INTERSECTION:
            self.stack.append((INTERSECTION, p, 0))
        elif kind == K_IMPROVE:
            self.stack.append((IMPROVE, p))
        elif kind == K_TAKE:
            self.stack.append((TAKE, p, 0))
        elif kind == K_SERVICE:
            self.stack.append((SERVICE, p))
        else:
            self.stack.append((TRAM, p, 0))

    def _action_available(self, p: int, kind: int) -> bool:
        """True when the action can be performed with every cost paid in full."""
        texts: list[str] = []
        payloads: list[Any] = []
        frame = ACTION_FIRST_FRAME[kind](p)
        LEGAL[frame[0]](self, frame, texts, payloads)
        return bool(texts)

    # --- Gain Cloth/Coins
    def _legal_gain(self, frame: tuple[int, ...], texts: list[str], payloads: list[Any]) -> None:
        texts.extend(("gain cloth", "gain coins"))
        payloads.extend((0, 1))

    def _do_gain(self, frame: tuple[int, ...], coins: int) -> None:
        p = frame[1]
        if coins:
            self.coins[p] += 2
            self._say(f"P{p + 1} gains 2 coins")
        else:
            self.cloth[p] += 1
            self._score(p, 3, "cloth")
            self._say(f"P{p + 1} gains 1 cloth and 3 VP")

    # --- Resources in any mix, discards
    def _legal_mix(self, frame: tuple[int, ...], texts: list[str], payloads: list[Any]) -> None:
        total = frame[2]
        for coins in range(total, -1, -1):
            texts.append(f"mix coin {coins} cloth {total - coins}")
            payloads.append(coins)

    def _do_mix(self, frame: tuple[int, ...], coins: int) -> None:
        p = frame[1]
        self.coins[p] += coins
        self.cloth[p] += frame[2] - coins

    def _legal_discard(self, frame: tuple[int, ...], texts: list[str], payloads: list[Any]) -> None:
        p = frame[1]
        if self.coins[p]:
            texts.append("discard coin")
            payloads.append(0)
        if self.cloth[p]:
            texts.append("discard cloth")
            payloads.append(1)

    def _do_discard(self, frame: tuple[int, ...], cloth: int) -> None:
        p = frame[1]
        if cloth:
            self.cloth[p] -= 1
        else:
            self.coins[p] -= 1

    # --- Place Cobblestone
    def _legal_cobble(self, frame: tuple[int, ...], texts: list[str], payloads: list[Any]) -> None:
        p, anywhere = frame[1], frame[2]
        if self.cobbles[p] >= len(self.t.cobblestone_vp) - 1:
            return
        walk = self.sidewalk
        for s in range(25):
            if walk[s] == -1 and (anywhere or any(walk[t] != -1 for t in board.SIDEWALK_NEIGHBOURS[s])):
                texts.append(COBBLE_TEXT[s])
                payloads.append(s)

    def _do_cobble(self, frame: tuple[int, ...], s: int) -> None:
        p = frame[1]
        self.sidewalk[s] = p
        self.cobbles[p] += 1
        benefit = self.t.sidewalk_benefit[s]
        self._say(f"P{p + 1} places a cobblestone on {board.SIDEWALK[s]} ({_benefit_text(benefit)})")
        self._gain(p, benefit)

    # --- Build Wide/Narrow Streets
    def _street_tiles_left(self, p: int, wide: bool) -> int:
        t = self.t
        if wide:
            k = len(t.wide_stacks)
            return sum(self.wide_left[p * k : (p + 1) * k])
        k = len(t.narrow_stacks)
        return sum(self.narrow_left[p * k : (p + 1) * k])

    def _empty_street_spaces(self, wide: bool) -> list[int]:
        space_wide = self.t.space_wide
        return [s for s in range(44) if self.space_owner[s] < 0 and space_wide[s] == wide]

    def _legal_street_kind(self, frame: tuple[int, ...], texts: list[str], payloads: list[Any]) -> None:
        p = frame[1]
        for wide, text in ((True, "streets wide"), (False, "streets narrow")):
            if self._street_tiles_left(p, wide) and self._empty_street_spaces(wide):
                texts.append(text)
                payloads.append(wide)

    def _do_street_kind(self, frame: tuple[int, ...], wide: bool) -> None:
        self.stack.append((STREET, frame[1], int(wide), 1 if wide else 2))

    def _legal_street(self, frame: tuple[int, ...], texts: list[str], payloads: list[Any]) -> None:
        p, wide = frame[1], bool(frame[2])
        if not self._street_tiles_left(p, wide):
            return
        for s in self._empty_street_spaces(wide):
            texts.append(STREET_TEXT[s])
            payloads.append(s)

    def _do_street(self, frame: tuple[int, ...], s: int) -> None:
        p, wide, remaining = frame[1], bool(frame[2]), frame[3]
        if remaining > 1:
            self.stack.append((STREET, p, int(wide), remaining - 1))
        self._take_street_tile(p, wide)
        self.space_owner[s] = p
        line = self.street_line(s)
        self._score(p, line * (2 if wide else 1), "streets")
        self._say(
            f"P{p + 1} builds a {'Wide' if wide else 'Narrow'} Street on {board.SPACES[s]}: "
            f"line of {line}, {line * (2 if wide else 1)} VP"
        )
        self._gain(p, self.t.space_benefit[s])

    def _take_street_tile(self, p: int, wide: bool) -> None:
        t = self.t
        stacks, left = (t.wide_stacks, self.wide_left) if wide else (t.narrow_stacks, self.narrow_left)
        k = len(stacks)
        for i in range(p * k, (p + 1) * k):
            if left[i]:
                left[i] -= 1
                if left[i] == 0:
                    self._cerda_step(p, t.wide_stack_cerda if wide else t.narrow_stack_cerda)
                return

    def street_line(self, s: int) -> int:
        """Connected Street tiles (any owner) in a straight line on the street of space `s`."""
        spaces = board.STREET_SPACES[board.SPACE_STREET[s]]
        pos = board.SPACE_POSITION[s]
        owner = self.space_owner
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

    # --- Build an Intersection
    def _legal_intersection(self, frame: tuple[int, ...], texts: list[str], payloads: list[Any]) -> None:
        p, free = frame[1], frame[2]
        built = self.inters[p]
        if built >= len(self.t.intersection_cost):
            return
        budget = self.coins[p] - (0 if free else self.t.intersection_cost[built])
        if budget < 0:
            return
        for x in range(25):
            if self.cross_owner[x] < 0 and (free or self.t.crossing_cost[x] <= budget):
                texts.append(INTERSECTION_TEXT[x])
                payloads.append(x)

    def _do_intersection(self, frame: tuple[int, ...], x: int) -> None:
        p, free = frame[1], frame[2]
        t = self.t
        if not free:
            self._pay(p, coins=t.intersection_cost[self.inters[p]] + t.crossing_cost[x])
        self.inters[p] += 1
        self.cross_owner[x] = p
        self._say(f"P{p + 1} builds an Intersection on {board.CROSSINGS[x]}")
        for s in reversed(board.CROSSING_SPACES[x]):
            if self.space_owner[s] < 0:
                self._gain(p, t.space_benefit[s])

    # --- Modernisme
    def _legal_improve(self, frame: tuple[int, ...], texts: list[str], payloads: list[Any]) -> None:
        p = frame[1]
        k = len(self.t.modernisme_improve)
        for i in range(k):
            if not self.mod_top[p * k + i] and self.cloth[p] >= self.t.modernisme_improve[i]:
                texts.append(IMPROVE_TEXT[i])
                payloads.append(i)

    def _do_improve(self, frame: tuple[int, ...], i: int) -> None:
        p = frame[1]
        self._pay(p, cloth=self.t.modernisme_improve[i])
        self.mod_top[p * len(self.t.modernisme_improve) + i] = 1
        self._say(f"P{p + 1} improves Modernisme project space {i + 1}")

    def _legal_take(self, frame: tuple[int, ...], texts: list[str], payloads: list[Any]) -> None:
        p, free = frame[1], frame[2]
        t = self.t
        k = len(t.modernisme_take)
        spaces = [
            i
            for i in range(k)
            if self.mod_tile[p * k + i] < 0 and (free or self.cloth[p] >= t.modernisme_take[i])
        ]
        for tile in self.mod_offer:
            if tile >= 0:
                for i in spaces:
                    texts.append(f"take {t.modernisme_ids[tile]} into {i + 1}")
                    payloads.append((tile, i))

    def _do_take(self, frame: tuple[int, ...], payload: tuple[int, int]) -> None:
        p, free = frame[1], frame[2]
        tile, i = payload
        t = self.t
        if not free:
            self._pay(p, cloth=t.modernisme_take[i])
        self.mod_tile[p * len(t.modernisme_take) + i] = tile
        slot = self.mod_offer.index(tile)
        self.mod_offer[slot] = self._next_modernisme()
        self.floor = self.n_actions  # a face-down tile was revealed
        self._say(f"P{p + 1} takes Modernisme tile {t.modernisme_ids[tile]} into space {i + 1}")

    # --- Public Services
    def service_tile(self, slot: int) -> int:
        """Index (in cost order, 3 coins first) of the top tile of an in-play Public Service stack.
        With 2 players the stacks lack their cheapest tile, so the top is still the 3-coin tile."""
        per_stack = len(self.t.service_costs[self.services[slot]]) - (1 if self.n == 2 else 0)
        return per_stack - self.service_left[slot]

    def _legal_service(self, frame: tuple[int, ...], texts: list[str], payloads: list[Any]) -> None:
        p = frame[1]
        t = self.t
        for slot, service in enumerate(self.services):
            left = self.service_left[slot]
            if not left or self.services_built[p] >> service & 1:
                continue
            cost = t.service_costs[service][self.service_tile(slot)]
            if self.coins[p] >= cost:
                texts.append(f"service {t.service_ids[service]}")
                payloads.append(slot)

    def _do_service(self, frame: tuple[int, ...], slot: int) -> None:
        p = frame[1]
        t = self.t
        service = self.services[slot]
        tile = self.service_tile(slot)
        self._pay(p, coins=t.service_costs[service][tile])
        self.service_left[slot] -= 1
        self.services_built[p] |= 1 << service
        self._score(p, t.service_vp[service][tile], "public_services")
        self._cerda_step(p, t.service_cerda[service])
        self._say(f"P{p + 1} builds {t.service_names[service]} ({t.service_vp[service][tile]} VP)")
        effect = SERVICE_EFFECTS[t.service_effect[service]]
        if effect == "market":
            blocks = len(scoring.blocks_with_marker(self, p))
            self.cloth[p] += blocks
        elif effect == "sagrada":
            self._sagrada_step(p, 2)
        else:
            frame_for = SERVICE_FRAME[effect](p)
            texts: list[str] = []
            LEGAL[frame_for[0]](self, frame_for, texts, [])
            if texts:
                self.stack.append(frame_for)

    # --- Move your Tram, Passengers
    def tram_destinations(self, p: int) -> list[int]:
        """Street spaces the Tram may end on (see ruling 2 of the facts file)."""
        start = self.tram[p]
        others = {s for q, s in enumerate(self.tram) if q != p and s >= 0}
        if start < 0:
            return [s for s in range(44) if s not in others and self.space_passenger[s] < 0]
        owner = self.space_owner
        found: set[int] = set()
        todo = [(start, 0, 1 << start)]
        while todo:
            s, cost, visited = todo.pop()
            for nxt in board.SPACE_NEIGHBOURS[s]:
                if visited >> nxt & 1:
                    continue
                step_cost = cost + (0 if owner[nxt] == p else 1)
                if step_cost > 2:
                    continue
                if nxt not in others:
                    found.add(nxt)
                todo.append((nxt, step_cost, visited | 1 << nxt))
        return sorted(found)

    def _legal_tram(self, frame: tuple[int, ...], texts: list[str], payloads: list[Any]) -> None:
        for s in self.tram_destinations(frame[1]):
            texts.append(TRAM_TEXT[s])
            payloads.append(s)

    def _do_tram(self, frame: tuple[int, ...], s: int) -> None:
        p, free_coin = frame[1], frame[2]
        verb = "places" if self.tram[p] < 0 else "moves"
        self.tram[p] = s
        self._say(f"P{p + 1} {verb} the Tram to {board.SPACES[s]}")
        self.stack.append((PASSENGER, p, free_coin))

    def passenger_cost(self, p: int, free_coin: int) -> tuple[int, int] | None:
        if self.passengers[p] >= len(self.t.passenger_cost):
            return None
        coins, cloth = self.t.passenger_cost[self.passengers[p]]
        return (0 if free_coin else coins, cloth)

    def _legal_passenger(self, frame: tuple[int, ...], texts: list[str], payloads: list[Any]) -> None:
        p = frame[1]
        cost = self.passenger_cost(p, frame[2])
        s = self.tram[p]
        if cost is None or self.space_passenger[s] >= 0:
            return
        if self.coins[p] >= cost[0] and self.cloth[p] >= cost[1]:
            texts.append("passenger")
            payloads.append(1)
        texts.append("no passenger")
        payloads.append(0)

    def _do_passenger(self, frame: tuple[int, ...], board_one: int) -> None:
        if not board_one:
            return
        p = frame[1]
        cost = self.passenger_cost(p, frame[2])
        assert cost is not None
        self._pay(p, coins=cost[0], cloth=cost[1])
        s = self.tram[p]
        self.passengers[p] += 1
        self.space_passenger[s] = p
        self._say(f"P{p + 1} places a Passenger on {board.SPACES[s]}")
        owner = self.space_owner[s]
        if owner >= 0:
            line = self.street_line(s)
            gained = line * (2 if self.t.space_wide[s] else 1)
            self._score(owner, gained, "streets")
            self._say(f"P{owner + 1}'s Street tile scores again: {gained} VP")
        self.stack.append((PASSENGER_ACTION, p, board.SPACE_STREET[s]))

    def _legal_passenger_action(self, frame: tuple[int, ...], texts: list[str], payloads: list[Any]) -> None:
        p, street = frame[1], frame[2]
        kind = self.street_action[street]
        if self._action_available(p, kind):
            texts.append(ACT_TEXT[street][kind])
            payloads.append(kind)
        texts.append("skip action")
        payloads.append(-1)

    def _do_passenger_action(self, frame: tuple[int, ...], kind: int) -> None:
        if kind >= 0:
            self._start_action(frame[1], kind)

    # --- Sagrada Família tiles
    def _legal_sagrada(self, frame: tuple[int, ...], texts: list[str], payloads: list[Any]) -> None:
        level = frame[2]
        t = self.t
        for i, tile_id in enumerate(t.sagrada_ids):
            if self.sagrada_offer[i] and t.sagrada_level[i] == level:
                texts.append(f"sagrada {tile_id}")
                payloads.append(i)

    def _do_sagrada(self, frame: tuple[int, ...], i: int) -> None:
        p = frame[1]
        self.sagrada_offer[i] = 0
        self.sagrada_tiles[p] = (*self.sagrada_tiles[p], i)
        benefit = self.t.sagrada_benefit[i]
        self._say(f"P{p + 1} takes Sagrada Família tile {self.t.sagrada_ids[i]} ({_benefit_text(benefit)})")
        self._gain(p, benefit, "benefits")

    # --- Construct a Building
    def building_fits(self, kind: int, b: int) -> bool:
        """A tile of this type is in stock and may go on this space: Corner tiles on empty
        triangles, other types on empty blocks or over the types they may overbuild."""
        if not self.bld_stock[kind]:
            return False
        current = self.bld_type[b]
        if current < 0:
            return (kind == CORNER) == board.BUILDING_SPACES[b].corner
        return current in self.t.building_over[kind]

    def _legal_builds(self, p: int) -> list[tuple[int, int]]:
        out: list[tuple[int, int]] = []
        for b in range(len(board.BUILDING_SPACES)):
            for kind in range(4):
                if self.building_fits(kind, b) and self._citizen_choices(kind, b, first_only=True):
                    out.append((kind, b))
        return out

    def _citizen_choices(self, kind: int, b: int, first_only: bool = False) -> list[tuple[int, ...]]:
        need = self.t.building_citizens[kind]
        req_w, req_m, req_u = self.t.building_requires[kind]
        cross = self.cross_cit
        out: list[tuple[int, ...]] = []
        for combo in board.BUILDING_COMBOS[b].get(need, ()):
            counts = [0, 0, 0]
            for x in combo:
                stack = cross[x]
                if not stack:
                    break
                counts[stack[-1]] += 1
            else:
                if counts[0] >= req_w and counts[1] >= req_m and counts[2] >= req_u:
                    out.append(combo)
                    if first_only:
                        return out
        return out

    def _legal_build(self, frame: tuple[int, ...], texts: list[str], payloads: list[Any]) -> None:
        for kind, b in self._legal_builds(frame[1]):
            texts.append(f"build {BUILDING_TYPES[kind]} {board.BUILDING_SPACES[b].name}")
            payloads.append((kind, b))

    def _do_build(self, frame: tuple[int, ...], payload: tuple[int, int]) -> None:
        kind, b = payload
        self.stack.append((CITIZENS_CHOICE, frame[1], kind, b))

    def _legal_citizens(self, frame: tuple[int, ...], texts: list[str], payloads: list[Any]) -> None:
        for combo in self._citizen_choices(frame[2], frame[3]):
            texts.append("use " + "+".join(board.CROSSINGS[x] for x in combo))
            payloads.append(combo)

    def _do_citizens(self, frame: tuple[int, ...], combo: tuple[int, ...]) -> None:
        p, kind, b = frame[1], frame[2], frame[3]
        moved, gained, _ = self.construct(p, kind, b, combo)
        space = board.BUILDING_SPACES[b]
        self._say(
            f"P{p + 1} builds {BUILDING_TYPES[kind]} on {space.name} with {'+'.join(moved)}: {gained} VP"
        )
        if self.t.building_sagrada[kind]:
            self._sagrada_step(p, self.t.building_sagrada[kind])

    def construct(self, p: int, kind: int, b: int, combo: tuple[int, ...]) -> tuple[list[str], int, int]:
        """Construct a Building (steps 1-6 but the Sagrada steps, which the caller takes): place the
        tile, flip the row's bonus, move the citizens to their tracks, score the lowest visible
        value, then the Cerdà steps, the building's VP and the marker. Returns the citizens moved,
        the track VP and the row bonus gained."""
        t = self.t
        self.progress = True
        self.bld_stock[kind] -= 1
        self.bld_type[b] = kind
        self.bld_tiles[b] = (*self.bld_tiles[b], kind)
        row = board.BUILDING_SPACES[b].block[0]
        bonus = t.row_bonus_vp[row] if self.row_bonus[row] else 0
        if bonus:
            self.row_bonus[row] = 0
            self._score(p, bonus, "building_bonus")
        moved = []
        for x in combo:
            citizen = self.cross_cit[x][-1]
            self.cross_cit[x] = self.cross_cit[x][:-1]
            self._to_track(citizen)
            moved.append(CITIZENS[citizen])
        gained = self.lowest_visible()
        self._score(p, gained, "buildings")
        self._cerda_step(p, t.building_cerda[kind])  # step-backs come before Sagrada (ruling 3)
        self._score(p, t.building_vp[kind], "buildings")
        self._place_marker(p, b)
        return moved, gained, bonus

    def _place_marker(self, p: int, b: int) -> None:
        t = self.t
        k = len(t.marker_stacks)
        for i in range(p * k, (p + 1) * k):
            if self.markers_left[i]:
                self.markers_left[i] -= 1
                self.bld_markers[b] = (*self.bld_markers[b], p)
                if self.markers_left[i] == 0:
                    self._cerda_step(p, t.marker_stack_cerda)
                return

    def _to_track(self, citizen: int) -> None:
        """A citizen moves to the leftmost empty space of its track, or off the board."""
        spaces = self.track[citizen]
        for i, filled in enumerate(spaces):
            if not filled:
                spaces[i] = 1
                return
        self.off_board[citizen] += 1

    def lowest_visible(self, arriving: tuple[int, ...] = ()) -> int:
        """The lowest VP value visible over the three citizen tracks (after `arriving` citizens
        would have taken their places, if given)."""
        values = self.t.track_values
        best = 99
        for k in range(3):
            skip = arriving.count(k)
            for i, filled in enumerate(self.track[k]):
                if filled:
                    continue
                if skip:
                    skip -= 1
                    continue
                best = min(best, values[k][i])
        return best if best < 99 else max(max(v) for v in values)

    # ------------------------------------------------------------------ describing
    def describe_decision(self) -> str:
        if self.ended:
            return "The game is over."
        frame = self.stack[-1]
        return DESCRIBE[frame[0]](self, frame)

    def decision_kind(self) -> str:
        return "over" if self.ended else DECISION_NAMES[self.stack[-1][0]]

    # ------------------------------------------------------------------ evaluation (for bots)
    def evaluation(self) -> list[float]:
        from eixample.games.barcelona.evaluation import evaluate

        if self.solo:
            from eixample.games.barcelona import solo

            return solo.evaluation(self, evaluate(self))
        return evaluate(self)

    # ------------------------------------------------------------------ views and serialisation
    def view(self, player: int | None) -> JsonDict:
        from eixample.games.barcelona.views import make_view

        return make_view(self, player)

    def to_json(self) -> JsonDict:
        data: dict[str, Any] = {
            "format": 1,
            "players": 1 if self.solo else self.n,  # solo: two seats inside
            "seed": self.seed,
            "options": dict(self.options),
        }
        state: dict[str, Any] = {}
        for name in FIELDS:
            value = getattr(self, name)
            if isinstance(value, (list, tuple)):
                value = [list(v) if isinstance(v, (list, tuple)) else v for v in value]
            state[name] = value
        data["state"] = state
        data["actions"] = self.actions()
        data["log"] = self.log()
        return data

    def resample(self, player: int, rng_seed: int | Rng) -> BarcelonaState:
        """See `setup.resample`; `rng_seed` is a seed or a generator to draw one from."""
        from eixample.games.barcelona.setup import resample

        seed = rng_seed.next_u64() if isinstance(rng_seed, Rng) else rng_seed
        return resample(self, player, seed)


def _subsets(items: list[int], most: int) -> list[tuple[int, ...]]:
    from itertools import combinations

    out: list[tuple[int, ...]] = []
    for size in range(1, min(most, len(items)) + 1):
        out.extend(combinations(items, size))
    return out


# ---------------------------------------------------------------------- static text tables
PLACE_TEXT = tuple(f"place {c}" for c in board.CROSSINGS)
INTERSECTION_TEXT = tuple(f"intersection {c}" for c in board.CROSSINGS)
TOP_TEXT = tuple(f"top {c}" for c in CITIZENS)
COBBLE_TEXT = tuple(f"cobble {s}" for s in board.SIDEWALK)
STREET_TEXT = tuple(f"street {s}" for s in board.SPACES)
TRAM_TEXT = tuple(f"tram {s}" for s in board.SPACES)
IMPROVE_TEXT = tuple(f"improve {i + 1}" for i in range(8))
ACT_TEXT = tuple(tuple(f"act {street} {kind}" for kind in ACTION_KINDS) for street in board.STREETS)

ACTION_FIRST_FRAME = (
    lambda p: (GAIN, p),
    lambda p: (COBBLE, p, 0),
    lambda p: (STREET_KIND, p),
    lambda p: (INTERSECTION, p, 0),
    lambda p: (IMPROVE, p),
    lambda p: (TAKE, p, 0),
    lambda p: (SERVICE, p),
    lambda p: (TRAM, p, 0),
)
SERVICE_FRAME = {
    "tram": lambda p: (TRAM, p, 1),
    "intersection": lambda p: (INTERSECTION, p, 1),
    "streets": lambda p: (STREET_KIND, p),
    "cobblestone": lambda p: (COBBLE, p, 1),
    "modernisme": lambda p: (TAKE, p, 1),
}

S = BarcelonaState
LegalFn = Callable[[BarcelonaState, tuple[int, ...], list[str], list[Any]], None]
LEGAL: dict[int, LegalFn] = {
    PLACE: S._legal_place,
    ORDER: S._legal_order,
    BENEFITS: S._legal_benefits,
    ACTIONS: S._legal_actions_frame,
    GAIN: S._legal_gain,
    COBBLE: S._legal_cobble,
    STREET_KIND: S._legal_street_kind,
    STREET: S._legal_street,
    INTERSECTION: S._legal_intersection,
    IMPROVE: S._legal_improve,
    TAKE: S._legal_take,
    SERVICE: S._legal_service,
    TRAM: S._legal_tram,
    PASSENGER: S._legal_passenger,
    PASSENGER_ACTION: S._legal_passenger_action,
    SAGRADA: S._legal_sagrada,
    MIX: S._legal_mix,
    DISCARD: S._legal_discard,
    BUILD: S._legal_build,
    CITIZENS_CHOICE: S._legal_citizens,
}
RESOLVE: dict[int, Callable[..., None]] = {
    PLACE: S._do_place,
    ORDER: S._do_order,
    BENEFITS: S._do_benefits,
    ACTIONS: S._do_actions_frame,
    GAIN: S._do_gain,
    COBBLE: S._do_cobble,
    STREET_KIND: S._do_street_kind,
    STREET: S._do_street,
    INTERSECTION: S._do_intersection,
    IMPROVE: S._do_improve,
    TAKE: S._do_take,
    SERVICE: S._do_service,
    TRAM: S._do_tram,
    PASSENGER: S._do_passenger,
    PASSENGER_ACTION: S._do_passenger_action,
    SAGRADA: S._do_sagrada,
    MIX: S._do_mix,
    DISCARD: S._do_discard,
    BUILD: S._do_build,
    CITIZENS_CHOICE: S._do_citizens,
}


def _who(frame: tuple[int, ...]) -> str:
    return f"P{frame[1] + 1}"


DESCRIBE: dict[int, Callable[[BarcelonaState, tuple[int, ...]], str]] = {
    PLACE: lambda s, f: (
        f"{_who(f)}: place your {len(s.hands[f[1]])} citizens on an empty street crossing "
        "(paying its coin cost)."
    ),
    ORDER: lambda s, f: f"{_who(f)}: choose which citizen goes on top at {board.CROSSINGS[f[2]]}.",
    BENEFITS: lambda s, f: (
        f"{_who(f)}: citizens landed on your Intersection: choose up to {f[2]} different "
        "benefits from your built Intersections."
    ),
    ACTIONS: lambda s, f: (
        f"{_who(f)}: perform the actions of crossing {board.CROSSINGS[f[2]]} "
        "(each once, any order), or end your actions."
    ),
    GAIN: lambda s, f: f"{_who(f)}: gain 1 cloth and 3 VP, or 2 coins.",
    COBBLE: lambda s, f: (
        f"{_who(f)}: place your leftmost cobblestone on the sidewalk"
        + (" (anywhere)." if f[2] else " next to another cobblestone.")
    ),
    STREET_KIND: lambda s, f: f"{_who(f)}: build 1 Wide Street tile or 2 Narrow Street tiles.",
    STREET: lambda s, f: (
        f"{_who(f)}: choose an empty {'Wide' if f[2] else 'Narrow'} street space "
        f"({f[3]} tile{'s' if f[3] > 1 else ''} to place)."
    ),
    INTERSECTION: lambda s, f: (
        f"{_who(f)}: choose a street crossing for your Intersection"
        + (" (free)." if f[2] else " (paying its costs).")
    ),
    IMPROVE: lambda s, f: f"{_who(f)}: move a Modernisme marker to its top position.",
    TAKE: lambda s, f: f"{_who(f)}: take a Modernisme tile into an empty project space.",
    SERVICE: lambda s, f: f"{_who(f)}: build a Public Service you have not built yet.",
    TRAM: lambda s, f: (
        f"{_who(f)}: "
        + ("place your Tram on a street space." if s.tram[f[1]] < 0 else "move your Tram 1 or 2 spaces.")
    ),
    PASSENGER: lambda s, f: f"{_who(f)}: place a Passenger on your Tram's space, or not.",
    PASSENGER_ACTION: lambda s, f: f"{_who(f)}: take the action of the Passenger's street, or skip it.",
    SAGRADA: lambda s, f: f"{_who(f)}: choose a level-{f[2]} Sagrada Família tile.",
    MIX: lambda s, f: f"{_who(f)}: choose how to take {f[2]} resources (coins and cloth).",
    DISCARD: lambda s, f: f"{_who(f)}: your Warehouse is over capacity: return a coin or a cloth.",
    BUILD: lambda s, f: f"{_who(f)}: construct a Building (mandatory when possible).",
    CITIZENS_CHOICE: lambda s, f: (
        f"{_who(f)}: choose the citizens for the {BUILDING_TYPES[f[2]]} "
        f"building on {board.BUILDING_SPACES[f[3]].name}."
    ),
}
