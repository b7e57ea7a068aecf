"""The state of a game of The Rose of Fire: flat lists of ints on the shared decision stack.

The rules live in modules named after the rulebook's chapters (turn.py, cards.py, influence.py,
conflict.py, end_of_phase.py, end_of_period.py, scoring.py); rules.py fills the dispatch tables.
This module holds the fields, the small helpers every chapter uses (prestige on the Auca, VP by
source, the general tie rule, draws from decks and bags) and the protocol methods.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar

from eixample.core.decisions import DecisionStack, fields_json
from eixample.core.messages import Entry, vp
from eixample.core.protocol import JsonDict
from eixample.core.records import make_record
from eixample.core.rng import Rng, seed_from
from eixample.games.rose_of_fire.actions import Texts
from eixample.games.rose_of_fire.components import (
    CITY,
    COLOURS,
    KINDS,
    POPULARITY,
    PRESTIGE,
    SYMBOLS,
    Tables,
)

GAME_NAME = "rose-of-fire"

# Log arguments (core/messages.py), built once: seats, card kinds, symbols, houses, colours
SEAT_ARGS = ("P1", "P2", "P3", "P4")
KIND_ARGS: tuple[Entry, ...] = tuple((f"rof.kind.{k}", {}) for k in KINDS)
SYMBOL_ARGS: tuple[Entry, ...] = tuple((f"rof.symbol.{k}", {}) for k in SYMBOLS)
HOUSE_ARGS: tuple[Entry, ...] = tuple((f"rof.house.{k}", {}) for k in "UMWL")
COLOUR_ARGS: tuple[Entry, ...] = tuple((f"rof.colour.{k}", {}) for k in COLOURS)
DISTRICT_ARGS: tuple[Entry, ...] = tuple((f"rof.district.{k}", {}) for k in "LRS")
A_HOUSE_ARGS: tuple[Entry, ...] = tuple((f"rof.aHouse.{k}", {}) for k in "UMWL")  # "an upper-class house"
A_TILE_ARGS: tuple[Entry, ...] = tuple((f"rof.aTile.{k}", {}) for k in COLOURS)  # "a yellow tile"

# Frame kinds: decisions ...
PLAY, TILE, HOUSE, KEEP, DROP, BLOCK, BUY, REWARD, EXTRA, WHEN = range(10)
# ... and automatic steps.
START_PHASE, ABILITY, COMPLETE, EVENT, END_TURN = range(20, 25)
REBELLION, STRIKE_CARD, PRESTIGE_CARD, POPULARITY_CARDS, DEAL, FIRST_PLAYER = range(30, 36)
BLOCK_SCORING, SUPPRESSION, FINAL_SCORING, NEXT_PHASE = range(36, 40)
RAVAL = 40  # rules 2: step III and the rest of step II's card text, after the house

DECISION_NAMES = {
    PLAY: "play",
    TILE: "tile",
    HOUSE: "house",
    KEEP: "keep",
    DROP: "drop",
    BLOCK: "block",
    BUY: "buy",
    REWARD: "reward",
    EXTRA: "extra",
    WHEN: "ability",
}

# Play modes of a card (frame argument)
NORMAL, AS_EVENT, BOTH = range(3)

SOURCES = (
    "blocks",  # houses in completed blocks, at the end of each period
    "outside",  # houses outside blocks at the end of the game
    "influence",  # influence cards
    "tokens",  # unused influence tokens
    "conviction",  # the family conviction kept secret to the end
    "cards",  # VP printed on Popularity and Prestige cards played
    "prestige_card",  # the Prestige card of the final end-of-phase procedure
    "popularity",  # majorities of the final end-of-phase procedure
    "strike",  # the Strike card
    "auca",  # prestige beyond the ends of the Auca
)
SRC = {name: i for i, name in enumerate(SOURCES)}
NSRC = len(SOURCES)

# Influence card owner codes besides a seat
AVAILABLE, REMOVED_BY_EVENT, LOST_TO_ANARCHY = -1, -2, -3
SPENT = -1  # conviction token once revealed and used

FIELDS = (
    "phase",
    "first",
    "level",
    "imm_pool",
    "round_track",
    "tile",
    "in_block",
    "owner",
    "htype",
    "blocks",
    "placed",
    "tiles_left",
    "obelisks_left",
    "houses_left",
    "supply",
    "raval",
    "barricade",
    "bag",
    "bag_soldiers",
    "barricade_soldiers",
    "montjuic",
    "bomb",
    "anarchy",
    "fired",
    "pending_events",
    "prestige",
    "vp",
    "vp_src",
    "tokens",
    "conviction",
    "conviction_shown",
    "red_bag",
    "influence_owner",
    "hands",
    "city_deck",
    "pop_deck",
    "prestige_deck",
    "city_discard",
    "pop_discard",
    "prestige_discard",
    "strike_shown",
    "strike_to",
    "table",
    "stack",
    "ended",
    "floor",
    "last_actor",
    "n_actions",
    "rng",
)
TUPLE_LIST_FIELDS = ("hands", "table", "stack")
SPACE_FIELDS = ("tile", "in_block", "owner", "htype")
"""Per space, as signed bytes: copied in one block by clone()."""
TUPLE_FIELDS = ("city_deck", "pop_deck", "prestige_deck", "city_discard", "pop_discard", "prestige_discard")


def adjusted(values: tuple[int, ...], indexes: Iterable[int], step: int) -> tuple[int, ...]:
    """`values` with `step` added at each of `indexes`, as a new tuple."""
    changed = list(values)
    for index in indexes:
        changed[index] += step
    return tuple(changed)


def open_squares(s: RoseState) -> tuple[int, ...]:
    """Per 2x2 square, how many of its tiles are down in no completed block: what the rules
    keep up to date as tiles go down and blocks complete (`square_open`), counted afresh."""
    tile, in_block = s.tile, s.in_block
    return tuple(sum(1 for y in square if tile[y] >= 0 and in_block[y] < 0) for square in s.t.squares)


def open_to_tiles(s: RoseState, x: int) -> bool:
    """x is empty and in a district in play (Sant Martí is not used with 2 players)."""
    return s.tile[x] == -1 and s.t.space_district[x] in s.districts_used


def frontiers(s: RoseState) -> tuple[tuple[int, ...], ...]:
    """Per tile colour, the empty spaces of the districts in play next to a tile of that colour
    or starting spaces of it, in order: what the rules keep up to date as tiles go down
    (`frontier`), found afresh."""
    t = s.t
    found = []
    for colour in range(3):
        candidates = set(t.start_spaces[colour])
        for x, c in enumerate(s.tile):
            if c == colour:
                candidates.update(t.neighbours[x])
        found.append(tuple(sorted(x for x in candidates if open_to_tiles(s, x))))
    return tuple(found)


def shuffle(items: list[int], below: Callable[[int], int]) -> None:
    """Fisher-Yates with the game's generator."""
    for i in range(len(items) - 1, 0, -1):
        j = below(i + 1)
        items[i], items[j] = items[j], items[i]


def secret_places(order: list[int], below: Callable[[int], int]) -> tuple[int, int, int]:
    """For each symbol, the place (1-based) in `order` of one of its tokens chosen at random; 0 for
    a symbol absent. `order` must already be random (a draw, or shuffled): then the place of any
    token a player picks is uniform over 1..len(order) whatever its symbol, so an action text
    naming the place tells the other players nothing about the token (even with two alike)."""
    places = [0, 0, 0]
    for symbol in range(3):
        at = [i + 1 for i, k in enumerate(order) if k == symbol]
        if at:
            places[symbol] = at[below(len(at))]
    return places[0], places[1], places[2]


class RoseState(DecisionStack):
    """A game of Barcelona: The Rose of Fire in progress."""

    __slots__ = (
        "anarchy",
        "bag",
        "bag_soldiers",
        "barricade",
        "barricade_soldiers",
        "blocks",
        "bomb",
        "city_deck",
        "city_discard",
        "conviction",
        "conviction_shown",
        "districts_used",
        "fired",
        "first",
        "frontier",
        "hands",
        "house_count",
        "house_spaces",
        "houses_left",
        "htype",
        "imm_pool",
        "in_block",
        "influence_owner",
        "level",
        "limit",
        "montjuic",
        "n",
        "obelisks_left",
        "options",
        "owner",
        "pending_events",
        "phase",
        "placed",
        "pop_deck",
        "pop_discard",
        "prestige",
        "prestige_deck",
        "prestige_discard",
        "raval",
        "raval_limit",
        "red_bag",
        "round_track",
        "rules_version",
        "seed",
        "square_open",
        "strike_shown",
        "strike_to",
        "supply",
        "t",
        "table",
        "tile",
        "tiles_left",
        "tokens",
        "vp",
        "vp_src",
        "x",
    )

    DECISION_NAMES: ClassVar[dict[int, str]] = DECISION_NAMES

    t: Tables
    x: Texts
    n: int
    seed: int
    options: dict[str, Any]
    rules_version: int
    limit: int
    raval_limit: int
    districts_used: tuple[int, ...]
    phase: int
    first: int
    level: int
    imm_pool: list[int]
    round_track: list[int]
    tile: array[int]
    in_block: array[int]
    owner: array[int]
    htype: array[int]
    blocks: list[int]
    placed: int
    tiles_left: list[int]
    obelisks_left: int
    houses_left: list[int]
    supply: list[int]
    raval: list[int]
    barricade: list[int]
    bag: list[int]
    bag_soldiers: int
    barricade_soldiers: int
    montjuic: int
    bomb: int
    anarchy: int
    fired: list[int]
    pending_events: list[int]
    prestige: list[int]
    vp: list[int]
    vp_src: list[int]
    tokens: list[int]
    conviction: list[int]
    conviction_shown: list[int]
    red_bag: list[int]
    influence_owner: list[int]
    hands: list[tuple[int, ...]]
    city_deck: tuple[int, ...]
    pop_deck: tuple[int, ...]
    prestige_deck: tuple[int, ...]
    city_discard: tuple[int, ...]
    pop_discard: tuple[int, ...]
    prestige_discard: tuple[int, ...]
    strike_shown: int
    strike_to: int
    table: list[tuple[int, ...]]
    # kept by the rules, not saved; tuples shared by clones, replaced when changed
    frontier: tuple[tuple[int, ...], ...]  # per tile colour: the empty spaces a tile of it may take
    square_open: tuple[int, ...]  # per 2x2 square: its tiles down in no completed block
    house_spaces: tuple[int, ...]  # the spaces with a house, in order
    house_count: tuple[int, ...]  # houses at (seat * 3 + district) * 4 + type

    # ------------------------------------------------------------------ copying
    def clone(self) -> RoseState:
        o = object.__new__(RoseState)
        self._copy_decisions(o)
        o.t, o.x, o.n, o.seed, o.options = self.t, self.x, self.n, self.seed, self.options
        o.rules_version = self.rules_version
        o.limit, o.raval_limit, o.districts_used = self.limit, self.raval_limit, self.districts_used
        o.phase, o.first, o.level = self.phase, self.first, self.level
        o.imm_pool = self.imm_pool[:]
        o.round_track = self.round_track[:]
        o.tile = self.tile[:]
        o.in_block = self.in_block[:]
        o.owner = self.owner[:]
        o.htype = self.htype[:]
        o.blocks = self.blocks[:]
        o.placed = self.placed
        o.tiles_left = self.tiles_left[:]
        o.obelisks_left = self.obelisks_left
        o.houses_left = self.houses_left[:]
        o.supply = self.supply[:]
        o.raval = self.raval[:]
        o.barricade = self.barricade[:]
        o.bag = self.bag[:]
        o.bag_soldiers, o.barricade_soldiers, o.montjuic = (
            self.bag_soldiers,
            self.barricade_soldiers,
            self.montjuic,
        )
        o.bomb, o.anarchy = self.bomb, self.anarchy
        o.fired = self.fired[:]
        o.pending_events = self.pending_events[:]
        o.prestige = self.prestige[:]
        o.vp = self.vp[:]
        o.vp_src = self.vp_src[:]
        o.tokens = self.tokens[:]
        o.conviction = self.conviction[:]
        o.conviction_shown = self.conviction_shown[:]
        o.red_bag = self.red_bag[:]
        o.influence_owner = self.influence_owner[:]
        o.hands = self.hands[:]
        o.city_deck, o.pop_deck, o.prestige_deck = self.city_deck, self.pop_deck, self.prestige_deck
        o.city_discard, o.pop_discard, o.prestige_discard = (
            self.city_discard,
            self.pop_discard,
            self.prestige_discard,
        )
        o.strike_shown, o.strike_to = self.strike_shown, self.strike_to
        o.table = self.table[:]
        o.frontier, o.square_open = self.frontier, self.square_open
        o.house_spaces, o.house_count = self.house_spaces, self.house_count
        return o

    # ------------------------------------------------------------------ protocol
    @property
    def num_players(self) -> int:
        return self.n

    @property
    def period(self) -> int:
        """Period I (phases 1-2), II (3-4) or III (phase 5)."""
        return (self.phase + 1) // 2 if self.phase < 5 else 3

    def scores(self) -> list[int]:
        return self.vp[:]

    def winners(self) -> list[int]:
        """The most VP wins; ties: higher prestige, then turn order (rulebook: general tie rule)."""
        if not self.ended:
            return []
        return [max(range(self.n), key=lambda p: (self.vp[p], *self.tie_key(p)))]

    def score_breakdown(self) -> list[dict[str, int]]:
        return [{name: self.vp_src[p * NSRC + i] for i, name in enumerate(SOURCES)} for p in range(self.n)]

    def record(self) -> JsonDict:
        return make_record(GAME_NAME, self.n, self.seed, self.options, self.actions())

    def stage(self) -> int:
        """The phase: it changes once an end-of-phase procedure has handed out its cards."""
        return self.phase

    def evaluation(self) -> list[float]:
        from eixample.games.rose_of_fire.evaluation import evaluate

        return evaluate(self)

    def evaluations_after(self, actions: Sequence[str]) -> list[list[float]] | None:
        """For a tile decision (most of a greedy bot's look-ahead), the evaluation after each
        tile without copies (`evaluations_after_tiles`); None for any other decision."""
        if self.ended or not self.stack or self.stack[-1][0] != TILE:
            return None
        if self._legal is None:
            self._compute_legal()
        if actions != self._legal:  # only the whole legal list, in order, as bots ask for it
            return None
        from eixample.games.rose_of_fire.evaluation import evaluations_after_tiles

        return evaluations_after_tiles(self, [x for x, _colour in self._payloads])

    def view(self, player: int | None) -> JsonDict:
        from eixample.games.rose_of_fire.views import make_view

        return make_view(self, player)

    def write_observation(self, player: int, out: Any) -> None:
        from eixample.games.rose_of_fire.observation import write_observation

        write_observation(self, player, out)

    def to_json(self) -> JsonDict:
        return {
            "format": 1,
            "game": GAME_NAME,
            "players": self.n,
            "seed": self.seed,
            "options": dict(self.options),
            "state": fields_json(self, FIELDS),
            "actions": self.actions(),
            "log": self.log(),
        }

    def resample(self, player: int, rng_seed: int | Rng) -> RoseState:
        from eixample.games.rose_of_fire.setup import resample

        return resample(self, player, seed_from(rng_seed))

    # ------------------------------------------------------------------ helpers for the chapters
    def seat_name(self, p: int) -> str:
        return SEAT_ARGS[p]

    def complete_side(self, x: int) -> bool:
        """The tile on x shows its complete side: its block was scored at a period's end."""
        q = self.in_block[x]
        return q >= 0 and q not in self.blocks

    def turn_position(self, p: int) -> int:
        """0 for the first player, 1 for the next clockwise, ..."""
        return (p - self.first) % self.n

    def tie_key(self, p: int) -> tuple[int, int]:
        """The general tie rule: higher prestige wins, then the earlier seat in turn order."""
        return (self.prestige[p], -self.turn_position(p))

    def score(self, p: int, amount: int, source: str) -> int:
        """Move p's VP marker; returns the VP actually gained or lost. From rules 2 the track
        has no space below 0: a loss takes at most what the player has (ruling R41)."""
        if amount < 0 and self.rules_version >= 2:
            amount = max(amount, -self.vp[p])
        self.vp[p] += amount
        self.vp_src[p * NSRC + SRC[source]] += amount
        return amount

    def gain_prestige(self, p: int, amount: int) -> None:
        """Up the Auca; each step beyond the top gives 1 VP instead (rulebook: The Auca)."""
        room = max(0, self.t.auca_max - self.prestige[p])
        step = min(room, amount)
        self.prestige[p] += step
        if amount > step:
            self.score(p, amount - step, "auca")
            self._say(("rof.aucaTop", {"player": SEAT_ARGS[p], "vp": [vp("auca", amount - step)]}))

    def lose_prestige(self, p: int, amount: int) -> None:
        """Down the Auca; each step below the bottom costs 1 VP instead."""
        room = max(0, self.prestige[p] - self.t.auca_min)
        step = min(room, amount)
        self.prestige[p] -= step
        if amount > step:
            lost = self.score(p, -(amount - step), "auca")
            self._say(("rof.aucaBottom", {"player": SEAT_ARGS[p], "vp": [vp("auca", lost)]}))

    def hand_of_kind(self, p: int, kind: int) -> int:
        kinds = self.t.card_kind
        return sum(1 for c in self.hands[p] if kinds[c] == kind)

    def draw_card(self, kind: int) -> int:
        """A random card of a deck (decks are face down; order is drawn when a card is taken).
        An empty deck is refilled from its discard pile (ruling R15); -1 when both are empty."""
        deck_name, discard_name = {
            CITY: ("city_deck", "city_discard"),
            POPULARITY: ("pop_deck", "pop_discard"),
            PRESTIGE: ("prestige_deck", "prestige_discard"),
        }[kind]
        deck: tuple[int, ...] = getattr(self, deck_name)
        if not deck:
            deck = tuple(sorted(getattr(self, discard_name)))
            setattr(self, discard_name, ())
            if deck:
                self._say(("rof.reshuffle", {"kind": KIND_ARGS[kind]}))
        if not deck:
            return -1
        i = self._below(len(deck))
        card = deck[i]
        setattr(self, deck_name, deck[:i] + deck[i + 1 :])
        return card

    def discard(self, card: int) -> None:
        kind = self.t.card_kind[card]
        if kind == CITY:
            self.city_discard += (card,)
        elif kind == POPULARITY:
            self.pop_discard += (card,)
        elif kind == PRESTIGE:
            self.prestige_discard += (card,)
        # the Strike card goes back beside the board (ruling R14)

    def draw_token(self) -> int:
        """A random influence token from the red bag, or -1 when the bag is empty."""
        total = sum(self.red_bag)
        if total == 0:
            return -1
        r = self._below(total)
        for symbol in range(3):
            if r < self.red_bag[symbol]:
                self.red_bag[symbol] -= 1
                return symbol
            r -= self.red_bag[symbol]
        raise AssertionError("unreachable")

    def token_count(self, p: int) -> int:
        return self.tokens[3 * p] + self.tokens[3 * p + 1] + self.tokens[3 * p + 2]

    def spend_conviction(self, p: int, why: Any) -> None:
        """The secret conviction revealed and spent; `why` is an entry ("rof.why.*")."""
        symbol = self.conviction[p]
        self.conviction_shown[p] = symbol
        self.conviction[p] = SPENT
        self.red_bag[symbol] += 1
        self._say(("rof.conviction", {"player": SEAT_ARGS[p], "symbol": SYMBOL_ARGS[symbol], "why": why}))

    # ------------------------------------------------------------------ settling
    def _interrupt(self) -> bool:
        """A family card holding more than 6 tokens: its owner drops one first (rulebook: Influence)."""
        tokens = self.tokens
        if sum(tokens) <= 6:  # nobody can be over the limit
            return False
        for p in range(self.n):
            if tokens[3 * p] + tokens[3 * p + 1] + tokens[3 * p + 2] > 6:
                top = self.stack[-1] if self.stack else None
                if top is not None and top[0] == DROP and top[1] == p:
                    return False
                held = [k for k in range(3) for _ in range(tokens[3 * p + k])]
                shuffle(held, self._below)
                self.stack.append((DROP, p, *secret_places(held, self._below)))
                return True
        return False
