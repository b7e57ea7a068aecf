"""The state of a game of Barcelona: its fields, the protocol, and the dispatch tables.

The state is flat (lists of ints and tuples) so `clone()` is a handful of list copies. A turn is a
stack of pending decisions, as in the rulebook (see `eixample.core.decisions`, which this class
extends): placing citizens pushes the crossing's actions, an action pushes its own choices, gains
that overflow the Warehouse push a discard (the interrupt), and so on. Automatic steps (the
building phase, the end of the turn, the solo Assistant's steps) sit in the same stack and run as
soon as they reach the top.

The rules live in modules named after the rulebook's chapters, each holding the legal/resolve
functions of its decisions: `placing` (Placing Citizens), `actions` (Actions), `construction`
(Construct a Building, Citizen tracks), `cerda_scoring` (Cerdà Scoring), `tracks` (Other game
concepts: the Cerdà and Sagrada Família tracks), `turn` (Playing the Game: a turn's steps),
`game_end` (Game End and Final Scoring) and `solo` (the solo mode).

Every decision is one action from `legal_actions()`, a short text ("place C23", "top M",
"act V2 streets", "street V2.1", "build L2 B12", "use C12+C13").
"""

from __future__ import annotations

from typing import Any, ClassVar

from eixample.core.decisions import DecisionStack, DescribeFn, LegalFn, ResolveFn, StepFn, fields_json
from eixample.core.messages import Entry
from eixample.core.protocol import JsonDict
from eixample.core.records import make_record
from eixample.core.rng import Rng, seed_from
from eixample.games.barcelona import (
    actions,
    board,
    construction,
    log,
    placing,
    scoring,
    solo,
    tracks,
    turn,
)
from eixample.games.barcelona.frames import (
    ACTIONS,
    AUTOMA,
    BENEFITS,
    BUILD,
    BUILD_PHASE,
    CITIZENS_CHOICE,
    COBBLE,
    DECISION_NAMES,
    DISCARD,
    END_TURN,
    GAIN,
    IMPROVE,
    INTERSECTION,
    MIX,
    ORDER,
    PASSENGER,
    PASSENGER_ACTION,
    PLACE,
    SAGRADA,
    SERVICE,
    SOLO_SEAT,
    STREET,
    STREET_KIND,
    TAKE,
    TRAM,
)
from eixample.games.barcelona.tables import Tables

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
    "house_rule",  # only the optional house rules (docs/barcelona/balance.md), never printed
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


_DECISION_FIELDS = frozenset(DecisionStack.__slots__)


class BarcelonaState(DecisionStack):
    """A game of Barcelona in progress (see the module docstring)."""

    __slots__ = (
        *(name for name in FIELDS if name not in _DECISION_FIELDS),
        "n",
        "options",
        "rules_version",
        "seed",
        "t",
    )

    LEGAL: ClassVar[dict[int, LegalFn]]
    RESOLVE: ClassVar[dict[int, ResolveFn]]
    STEPS: ClassVar[dict[int, StepFn]]
    DESCRIBE: ClassVar[dict[int, DescribeFn]]
    DECISION_NAMES: ClassVar[dict[int, str]] = DECISION_NAMES

    t: Tables
    n: int
    seed: int
    options: dict[str, Any]
    rules_version: int
    """The game's rules version (versions.py), from its `rules` option: rule code branches on it."""
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
    idle_turns: int
    progress: bool
    solo: bool
    solo_meeple: int
    solo_deck: tuple[int, ...]
    solo_drawn: tuple[int, ...]

    # ------------------------------------------------------------------ protocol
    @property
    def num_players(self) -> int:
        return self.n

    def clone(self) -> BarcelonaState:
        o = object.__new__(BarcelonaState)
        self._copy_decisions(o)
        o.t = self.t
        o.n = self.n
        o.seed = self.seed
        o.options = self.options
        o.rules_version = self.rules_version
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
        o.turn_player, o.first_player, o.turns = self.turn_player, self.first_player, self.turns
        o.end_triggered, o.idle_turns, o.progress = self.end_triggered, self.idle_turns, self.progress
        o.solo, o.solo_meeple = self.solo, self.solo_meeple
        o.solo_deck, o.solo_drawn = self.solo_deck, self.solo_drawn
        return o

    def scores(self) -> list[int]:
        if self.solo:  # [player, Gaudí's Assistant with its difficulty multiplier]
            return solo.scores(self)
        return self.vp[:]

    def winners(self) -> list[int]:
        if self.solo:
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
            return solo.score_breakdown(self, breakdown)
        return breakdown

    def record(self) -> JsonDict:
        players = 1 if self.solo else self.n  # solo: new_game(players=1), two seats inside
        return make_record("barcelona", players, self.seed, self.options, self.actions())

    def decision_kind(self) -> str:
        """The pending decision's name; "over" at the end (the view's documented value)."""
        return "over" if self.ended else DECISION_NAMES[self.stack[-1][0]]

    def _interrupt(self) -> bool:
        """A Warehouse over capacity: its owner returns resources before anything else happens,
        one at a time (the check runs again after each return, so one discard is pending at most)."""
        top = self.stack[-1]
        if top[0] == DISCARD:
            return False
        for p in range(self.n):
            if self.coins[p] + self.cloth[p] > self.t.warehouse_open + self.cobbles[p]:
                self.stack.append((DISCARD, p))
                return True
        return False

    # ------------------------------------------------------------------ small helpers
    def seat_name(self, p: int) -> str:
        """How the log names a seat: P1..P4, and Gaudí's Assistant in a solo game."""
        return "Gaudí's Assistant" if self.solo and p == SOLO_SEAT else f"P{p + 1}"

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

    # ------------------------------------------------------------------ evaluation (for bots)
    def evaluation(self) -> list[float]:
        from eixample.games.barcelona.evaluation import evaluate

        if self.solo:
            return solo.evaluation(self, evaluate(self))
        return evaluate(self)

    def win_estimate(self) -> list[float] | None:
        """Each seat's learned chance to win (`win_model.py`), or None where no model applies."""
        from eixample.games.barcelona.win_model import win_estimate

        return win_estimate(self)

    # ------------------------------------------------------------------ views and serialisation
    def view(self, player: int | None) -> JsonDict:
        from eixample.games.barcelona.views import make_view

        return make_view(self, player)

    def write_observation(self, player: int, out: Any) -> None:
        from eixample.games.barcelona.observation import write_observation

        write_observation(self, player, out)

    def to_json(self) -> JsonDict:
        data: dict[str, Any] = {
            "format": 1,
            "players": 1 if self.solo else self.n,  # solo: two seats inside
            "seed": self.seed,
            "options": dict(self.options),
        }
        data["state"] = fields_json(self, FIELDS)
        data["actions"] = self.actions()
        data["log"] = self.log()
        return data

    def resample(self, player: int, rng_seed: int | Rng) -> BarcelonaState:
        """See `setup.resample`; `rng_seed` is a seed or a generator to draw one from."""
        from eixample.games.barcelona.setup import resample

        return resample(self, player, seed_from(rng_seed))


# ---------------------------------------------------------------------- dispatch tables
BarcelonaState.LEGAL = {
    PLACE: placing.legal_place,
    ORDER: placing.legal_order,
    BENEFITS: placing.legal_benefits,
    ACTIONS: actions.legal_crossing_actions,
    GAIN: actions.legal_gain,
    COBBLE: actions.legal_cobble,
    STREET_KIND: actions.legal_street_kind,
    STREET: actions.legal_street,
    INTERSECTION: actions.legal_intersection,
    IMPROVE: actions.legal_improve,
    TAKE: actions.legal_take,
    SERVICE: actions.legal_service,
    TRAM: actions.legal_tram,
    PASSENGER: actions.legal_passenger,
    PASSENGER_ACTION: actions.legal_passenger_action,
    SAGRADA: tracks.legal_sagrada,
    MIX: actions.legal_mix,
    DISCARD: actions.legal_discard,
    BUILD: construction.legal_build,
    CITIZENS_CHOICE: construction.legal_citizens,
}
BarcelonaState.RESOLVE = {
    PLACE: placing.resolve_place,
    ORDER: placing.resolve_order,
    BENEFITS: placing.resolve_benefits,
    ACTIONS: actions.resolve_crossing_actions,
    GAIN: actions.resolve_gain,
    COBBLE: actions.resolve_cobble,
    STREET_KIND: actions.resolve_street_kind,
    STREET: actions.resolve_street,
    INTERSECTION: actions.resolve_intersection,
    IMPROVE: actions.resolve_improve,
    TAKE: actions.resolve_take,
    SERVICE: actions.resolve_service,
    TRAM: actions.resolve_tram,
    PASSENGER: actions.resolve_passenger,
    PASSENGER_ACTION: actions.resolve_passenger_action,
    SAGRADA: tracks.resolve_sagrada,
    MIX: actions.resolve_mix,
    DISCARD: actions.resolve_discard,
    BUILD: construction.resolve_build,
    CITIZENS_CHOICE: construction.resolve_citizens,
}
BarcelonaState.STEPS = {
    BUILD_PHASE: construction.building_phase,
    END_TURN: turn.end_turn_step,
    AUTOMA: solo.step,
}


def _ask(key: str, **args: Any) -> Any:
    """A describer: the decision `bcn.ask.<key>` for the deciding seat, with extra arguments
    computed from the state and the frame by the given functions."""

    def describe(s: BarcelonaState, f: tuple[int, ...]) -> Entry:
        values = {name: compute(s, f) for name, compute in args.items()}
        values["player"] = log.seat(s, f[1])
        return (f"bcn.ask.{key}", values)

    return describe


DESCRIBE: dict[int, DescribeFn] = {
    PLACE: _ask("place", count=lambda s, f: len(s.hands[f[1]])),
    ORDER: _ask("order", crossing=lambda s, f: board.CROSSINGS[f[2]]),
    BENEFITS: _ask("benefits", count=lambda s, f: f[2]),
    ACTIONS: _ask("actions", crossing=lambda s, f: board.CROSSINGS[f[2]]),
    GAIN: _ask("gain"),
    COBBLE: lambda s, f: _ask("cobbleAnywhere" if f[2] else "cobble")(s, f),
    STREET_KIND: _ask("streetKind"),
    STREET: lambda s, f: _ask("wideStreet" if f[2] else "narrowStreet", count=lambda s, f: f[3])(s, f),
    INTERSECTION: lambda s, f: _ask("intersectionFree" if f[2] else "intersection")(s, f),
    IMPROVE: _ask("improve"),
    TAKE: _ask("take"),
    SERVICE: _ask("service"),
    TRAM: lambda s, f: _ask("tramPlace" if s.tram[f[1]] < 0 else "tramMove")(s, f),
    PASSENGER: _ask("passenger"),
    PASSENGER_ACTION: _ask("passengerAction"),
    SAGRADA: _ask("sagrada", level=lambda s, f: f[2]),
    MIX: _ask("mix", count=lambda s, f: f[2]),
    DISCARD: _ask("discard"),
    BUILD: _ask("build"),
    CITIZENS_CHOICE: _ask(
        "citizens",
        building=lambda s, f: log.BUILDING[f[2]],
        space=lambda s, f: board.BUILDING_SPACES[f[3]].name,
    ),
}

BarcelonaState.DESCRIBE = DESCRIBE
