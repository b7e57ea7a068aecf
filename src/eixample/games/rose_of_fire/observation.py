"""The Rose of Fire's structured observation: what `view(seat)` shows, as a flat float32 vector.

Written straight from the flat engine state into a caller's buffer, without building the view.
Per thread, state object and viewer, the encoder keeps the vector it wrote last with the fields it
was written from (`Written`): a write compares each field with the state's and rewrites only the
entries of those that changed, then copies the vector out. The fields compare by value, so any
position may come in any order and the result is that of writing everything afresh.
`write_observations` writes a batch of positions (of one table) at once, afresh: each field of
all the states converted in one go, the parts written by numpy operations over the whole batch,
through index arrays built once per batch size and viewer (`Plan`). Its fixed cost pays from
about a dozen positions on: a smaller batch is written position by position (`Encoder.NUMPY_FROM`).
Seats are relative to the observing seat: row 0 of every part "by seat" is the observer, row 1 the
next seat clockwise, and so on (the absolute seat is in the part `seat`). Hidden parts stay out:
the faces of other players' cards (their counts by kind only), other families' tokens (their
number only) and secret convictions (only that one is held), the red bag's contents (its size),
the order of decks and immigration tokens (their sizes), the tokens another seat chooses between,
the generator. Two positions whose views differ for a seat never encode alike
(`tests/interop/test_encoding.py`).
"""

from __future__ import annotations

import struct
from array import array
from collections.abc import Sequence
from dataclasses import replace
from functools import reduce
from operator import attrgetter, iconcat
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from eixample.core.observation import ObservationSpec, SpecBuilder
from eixample.games.observing import Kept
from eixample.games.rose_of_fire import actions as txt
from eixample.games.rose_of_fire.components import COLOURS, HOUSES, KINDS, SYMBOLS, Tables
from eixample.games.rose_of_fire.state import (
    AVAILABLE,
    DECISION_NAMES,
    DROP,
    KEEP,
    LOST_TO_ANARCHY,
    NSRC,
    REMOVED_BY_EVENT,
    SOURCES,
)

if TYPE_CHECKING:
    from eixample.games.rose_of_fire.state import RoseState

PLAYER_NUMBERS = (
    "vp",
    "prestige",
    *(f"houses_left_{h}" for h in HOUSES),
    "strikers_supply",
    "strikers_raval",
    "strikers_barricades",
    "strikers_bag",
    "tokens",
    *(f"hand_{k}" for k in KINDS),
)
PLAYER_COLUMNS = (
    ("vp", 0, 1),
    ("prestige", 1, 1),
    ("houses_left", 2, len(HOUSES)),
    ("supply", 2 + len(HOUSES), 1),
    ("raval", 3 + len(HOUSES), 1),
    ("barricade", 4 + len(HOUSES), 1),
    ("bag", 5 + len(HOUSES), 1),
)
"""The state's per-seat fields written as they are: the field (of the state and of what was
written), its first column in PLAYER_NUMBERS, and its numbers per seat."""
SUPPLY_COUNTS = (
    "bomb",
    "montjuic",
    "bag_soldiers",
    "barricade_soldiers",
    "red_bag",
    "city_deck",
    "popularity_deck",
    "prestige_deck",
)
"""The counts of the supplies, the bag and the decks, as `_supplies` lists them."""
COUNTS = (
    "immigration_level",
    "immigration_tokens_left",
    "obelisks_left",
    *(f"tiles_left_{c}" for c in COLOURS),
    *SUPPLY_COUNTS,
)
CONVICTION = (*(f"shown_{k}" for k in SYMBOLS), "secret_held", *(f"own_secret_{k}" for k in SYMBOLS), "spent")
SEAT_AXES = {
    **dict.fromkeys(
        (
            "players",
            "score_breakdown",
            "decision_seat",
            "first_player",
            "house_owner",
            "table",
            "conviction",
            "strike_in_front",
        ),
        (0, 0),
    ),
    "influence_cards": (1, 3),
}
"""The parts by seat: the axis of their seats, and where the seats begin along it."""
PHASES = 5
OVER = max(DECISION_NAMES) + 1
"""The index of "the game is over" among the decision kinds."""
BYTE_LISTS = ("vp", "houses_left", "supply", "raval", "barricade", "bag", "tokens", "tiles_left", "fired")
BYTE_SCALARS = (
    "level",
    "imm_pool",
    "obelisks_left",
    *SUPPLY_COUNTS,
    "phase",
    "first",
    "ended",
    "anarchy",
    "decision",
)
SIGNED_LISTS = ("prestige", "vp_src", "conviction", "conviction_shown", "influence_owner")
SIGNED_SCALARS = ("strike_shown", "decider")
"""A batch gathers each state's fixed-length numbers in one row: those that fit a byte in any
real game (`BYTE_LISTS`, `BYTE_SCALARS`: the sizes of pools, bags and decks, the decision on top
of the stack, `OVER` when there is none), converted as bytes, then those that may be negative
(`SIGNED_LISTS`, `SIGNED_SCALARS`: the decision's seat, -1 when there is none, then the round
track padded with -1), converted as 64-bit numbers."""


class Encoder:
    """The observation of one set of tables and number of players."""

    NUMPY_FROM = 12
    """The fewest states `write_batch` writes by numpy operations: a smaller batch costs less
    written state by state (`write`), the numpy operations' fixed cost shared by too few."""

    def __init__(self, t: Tables, players: int):
        self.t, self.n = t, players
        n = players
        nx, nsq, ncards, ninf = len(t.space_names), len(t.squares), len(t.card_names), len(t.influence_ids)
        self.nx, self.nsq, self.ncards, self.ninf = nx, nsq, ncards, ninf
        self.places = len(txt.DROP)
        b = SpecBuilder("rose-of-fire", n)
        self.o_players = b.add(
            "players",
            (n, len(PLAYER_NUMBERS)),
            "per seat: " + ", ".join(PLAYER_NUMBERS),
            low=-1000,
            high=1000,
        )
        self.o_breakdown = b.add(
            "score_breakdown",
            (n, NSRC),
            "per seat, VP by source: " + ", ".join(SOURCES),
            low=-1000,
            high=1000,
        )
        self.o_counts = b.add("counts", (len(COUNTS),), ", ".join(COUNTS), high=1000)
        self.o_round_track = b.add(
            "round_track",
            (PHASES,),
            "the immigration round track: per phase begun, its immigration level (-1: not begun)",
            low=-1,
            high=100,
        )
        self.o_own_tokens = b.add(
            "own_tokens", (3,), "the observer's influence tokens by symbol: " + ", ".join(SYMBOLS), high=100
        )
        self.o_in_block = b.add(
            "block_of_space", (nx,), "per space, 1 + the 2x2 square whose block it is in (0: none)", high=nsq
        )
        self.o_blocks = b.add(
            "obelisk_blocks",
            (nsq,),
            "per 2x2 square, its place (1, 2...) among the blocks holding an obelisk (0: none)",
            high=nsq,
        )
        self.o_table = b.add(
            "table",
            (n, ncards),
            "per seat and card, its place (1, 2...) among the cards "
            "face up in front of the seat (0: not there)",
            high=ncards,
        )
        self.o_seat = b.add("seat", (n,), "the observer's seat")
        self.o_phase = b.add("phase", (PHASES,), "the phase, 1 to 5")
        self.o_decision = b.add(
            "decision", (OVER + 1,), "the pending decision: " + ", ".join(DECISION_NAMES.values()) + ", over"
        )
        self.o_decider = b.add("decision_seat", (n,), "the seat to decide (none at the end)")
        self.o_first = b.add("first_player", (n,), "the first player")
        self.o_flags = b.add("flags", (2,), "game over; anarchy")
        self.o_fired = b.add("events_fired", (3,), "per symbol, its event has fired")
        self.o_tiles = b.add("tiles", (nx, 3), "per space, its tile: " + ", ".join(COLOURS))
        self.o_house_owner = b.add("house_owner", (n, nx), "per seat, its houses by space")
        self.o_house_type = b.add("house_type", (nx, 4), "per space, its house: " + ", ".join(HOUSES))
        self.o_influence = b.add(
            "influence_cards",
            (ninf, 3 + n),
            "per influence card: available, removed, lost to anarchy, or taken by a seat",
        )
        self.o_discard = b.add("discarded", (ncards,), "per card, it is in a discard pile")
        self.o_hand = b.add("own_hand", (ncards,), "per card, it is in the observer's hand")
        self.o_conviction = b.add(
            "conviction",
            (n, len(CONVICTION)),
            "per seat: " + ", ".join(CONVICTION) + " (own_secret only in the observer's row)",
        )
        self.o_strike = b.add("strike_in_front", (n,), "the seat with the Strike card in front")
        self.o_secret = b.add(
            "secret_choice",
            (self.places, 3),
            "while the observer keeps or drops a token in "
            "secret: per action (keep 1, keep 2 / drop 1, drop 2...), the symbol it names",
        )
        b.parts = [
            replace(part, seat_axis=SEAT_AXES[part.name][0], seat_start=SEAT_AXES[part.name][1])
            if part.name in SEAT_AXES
            else part
            for part in b.parts
        ]
        self.spec: ObservationSpec = b.build()
        self.width = len(PLAYER_NUMBERS)
        self.rows = [[(p - viewer) % n for p in range(n)] for viewer in range(n)]
        """Per viewer, the row of each seat in the parts by seat (the viewer's own first)."""
        self.kept = Kept(self._blank)
        self.card_kind = np.array(t.card_kind, np.intp)
        self.columns, self.signed, self.numbers = number_columns(n, ninf)
        self.plans: dict[tuple[int, int], Plan] = {}

    def write(self, s: RoseState, viewer: int, out: npt.NDArray[Any]) -> None:
        if not (isinstance(viewer, int) and 0 <= viewer < self.n):
            raise ValueError(f"no seat {viewer!r} in a {self.n}-player game")
        w: Written = self.kept.get(s, viewer)
        rows = self.rows[viewer]
        frame = s.stack[-1] if s.stack and not s.ended else None
        self._turn(w, s, rows, frame)
        self._players(w, s, rows, viewer)
        counts = _counts(s)
        if counts != w.counts:
            _values(w.mv, counts, w.counts, self.o_counts)
            w.counts[:] = counts
        self._board(w, s, rows)
        self._cards(w, s, rows, viewer)
        self._secret_choice(w, s, viewer, frame)
        np.copyto(out, w.vector)

    def _blank(self, s: RoseState, viewer: int) -> Written:
        """A vector of zeros for `viewer`, with fields that encode as zeros (the seat is set)."""
        w = Written(self.spec.size, self.n, self.nx, self.ninf)
        w.mv[self.o_seat + viewer] = 1
        return w

    def _turn(self, w: Written, s: RoseState, rows: list[int], frame: tuple[int, ...] | None) -> None:
        hot = [self.o_phase + s.phase - 1, self.o_first + rows[s.first]]
        if frame is None:
            hot.append(self.o_decision + OVER)
        else:
            hot += (self.o_decision + frame[0], self.o_decider + rows[frame[1]])
        if s.ended:
            hot.append(self.o_flags)
        if s.anarchy:
            hot.append(self.o_flags + 1)
        fired = s.fired
        hot += [self.o_fired + k for k in range(3) if fired[k]]
        if s.strike_shown >= 0:
            hot.append(self.o_strike + rows[s.strike_shown])
        if hot != w.turn:
            _swap(w.mv, w.turn, hot)
            w.turn[:] = hot

    def _players(self, w: Written, s: RoseState, rows: list[int], viewer: int) -> None:
        mv, base, width = w.mv, self.o_players, self.width
        for name, column, per_seat in PLAYER_COLUMNS:
            now, written = getattr(s, name), getattr(w, name)
            if now != written:
                _by_seat(mv, now, written, base + column, rows, width, per_seat)
                written[:] = now
        if s.vp_src != w.vp_src:
            _by_seat(mv, s.vp_src, w.vp_src, self.o_breakdown, rows, NSRC, NSRC)
            w.vp_src[:] = s.vp_src
        tokens = s.tokens
        if tokens != w.tokens:
            old = w.tokens
            for p in range(self.n):
                mine = tokens[3 * p : 3 * p + 3]
                if mine != old[3 * p : 3 * p + 3]:
                    mv[base + rows[p] * width + 10] = mine[0] + mine[1] + mine[2]
                    if p == viewer:
                        mv[self.o_own_tokens : self.o_own_tokens + 3] = array("f", mine)
            w.tokens[:] = tokens
        if s.hands != w.hands:
            kinds = self.t.card_kind
            for p, hand in enumerate(s.hands):
                held = w.hands[p]
                if hand != held:
                    counted = [0, 0, 0, 0]
                    for c in hand:
                        counted[kinds[c]] += 1
                    at = base + rows[p] * width + 11
                    mv[at : at + 4] = array("f", counted)
                    if p == viewer:
                        _swap(mv, [self.o_hand + c for c in held], [self.o_hand + c for c in hand])
            w.hands[:] = s.hands

    def _board(self, w: Written, s: RoseState, rows: list[int]) -> None:
        mv = w.mv
        board = s.tile.tobytes() + s.htype.tobytes() + s.owner.tobytes() + s.in_block.tobytes()
        if board != w.board:  # the four byte arrays, a space's entry every `nx` bytes
            nx, old = self.nx, w.board
            for i in _changed(board, old):
                field, x = divmod(i, nx)
                value, was = _signed(board[i]), _signed(old[i])
                if field == 0:  # tile
                    _move(mv, self.o_tiles + x * 3, was, value)
                elif field == 1:  # house type
                    _move(mv, self.o_house_type + x * 4, was, value)
                elif field == 2:  # house owner
                    base = self.o_house_owner + x
                    _move(mv, base, -1 if was < 0 else rows[was] * nx, -1 if value < 0 else rows[value] * nx)
                else:  # in a block
                    mv[self.o_in_block + x] = value + 1 if value >= 0 else 0
            w.board = board
        if s.blocks != w.blocks:
            base = self.o_blocks
            for q in w.blocks:
                mv[base + q] = 0
            for place, q in enumerate(s.blocks, 1):
                mv[base + q] = place
            w.blocks[:] = s.blocks

    def _cards(self, w: Written, s: RoseState, rows: list[int], viewer: int) -> None:
        mv = w.mv
        if s.influence_owner != w.influence_owner:
            base, width, old = self.o_influence, 3 + self.n, w.influence_owner
            for k, o in enumerate(s.influence_owner):
                was = old[k]
                if o != was:
                    row = base + k * width
                    if was is not None:
                        mv[row + (3 + rows[was] if was >= 0 else -1 - was)] = 0
                    mv[row + (3 + rows[o] if o >= 0 else -1 - o)] = 1
            w.influence_owner[:] = s.influence_owner
        piles = (s.city_discard, s.pop_discard, s.prestige_discard)
        if piles != w.piles:
            base, now = self.o_discard, set().union(*piles)
            for c in now.symmetric_difference(set().union(*w.piles)):
                mv[base + c] = c in now
            w.piles = piles
        conviction, shown = s.conviction, s.conviction_shown
        if conviction != w.conviction or shown != w.shown or s.ended != w.ended:
            base, width, hot = self.o_conviction, len(CONVICTION), []
            for p in range(self.n):
                row = base + rows[p] * width
                if shown[p] >= 0:
                    hot.append(row + shown[p])
                    if conviction[p] < 0 and not s.ended:
                        hot.append(row + 7)
                elif conviction[p] >= 0:
                    hot.append(row + 3)
                    if p == viewer:  # its own secret, in the observer's row
                        hot.append(row + 4 + conviction[p])
            _swap(mv, w.conviction_hot, hot)
            w.conviction_hot[:], w.conviction[:], w.shown[:], w.ended = hot, conviction, shown, s.ended
        if s.table != w.table:
            base, ncards = self.o_table, self.ncards
            for p, cards in enumerate(s.table):
                held = w.table[p]
                if cards != held:
                    row = base + rows[p] * ncards
                    for c in held:
                        mv[row + c] = 0
                    for place, c in enumerate(cards, 1):
                        mv[row + c] = place
            w.table[:] = s.table

    def _secret_choice(self, w: Written, s: RoseState, viewer: int, frame: tuple[int, ...] | None) -> None:
        """While the observer keeps or drops a token in secret: the symbol each choice names."""
        hot: list[int] = []
        if frame is not None and frame[1] == viewer and frame[0] in (KEEP, DROP):
            hot = self.secret_choice(s, viewer, frame)
        if hot != w.secret:
            _swap(w.mv, w.secret, hot)
            w.secret[:] = hot

    def secret_choice(self, s: RoseState, viewer: int, frame: tuple[int, ...]) -> list[int]:
        """The entries of the symbols the observer's secret keep or drop names."""
        places = frame[-3:]
        if frame[0] == KEEP:
            symbols = {frame[2], frame[3]}
        else:
            tokens = s.tokens
            symbols = {k for k in range(3) if tokens[3 * viewer + k] > 0}
        return [self.o_secret + (places[k] - 1) * 3 + k for k in symbols]

    def write_batch(self, states: Sequence[RoseState], viewer: int, out: npt.NDArray[np.float32]) -> None:
        """Row i of `out` as `write(states[i], viewer, row)` writes it: the whole batch encoded
        afresh, each field of all the states converted at once and written by numpy (a batch of
        fewer than `NUMPY_FROM` states: state by state)."""
        if not (isinstance(viewer, int) and 0 <= viewer < self.n):
            raise ValueError(f"no seat {viewer!r} in a {self.n}-player game")
        count = len(states)
        if out.shape != (count, self.spec.size) or out.dtype != np.float32 or not out.flags.c_contiguous:
            raise ValueError(
                f"{count} observations need a C-contiguous float32 array of shape "
                f"({count}, {self.spec.size}), not {out.dtype} {out.shape}"
            )
        _check_tables(states, self.t, self.n)
        if count < self.NUMPY_FROM:
            for i, s in enumerate(states):
                self.write(s, viewer, out[i])
        else:
            self.plan(count, viewer).write(gather(states, viewer), out)

    def plan(self, count: int, viewer: int) -> Plan:
        """The index arrays of `count` observations for `viewer`, built once."""
        plan = self.plans.get((count, viewer))
        if plan is None:
            if len(self.plans) >= 16:  # batches of many sizes: keep the newest only
                self.plans.clear()
            plan = self.plans[count, viewer] = Plan(self, count, viewer)
        return plan


class Written:
    """One viewer's vector and the state's fields it was last written from (at first, fields that
    encode as all zeros). The lists are updated in place: no new objects for the garbage collector
    to follow as they age (many games in one process keep many of them)."""

    __slots__ = (
        "bag",
        "barricade",
        "blocks",
        "board",
        "conviction",
        "conviction_hot",
        "counts",
        "ended",
        "hands",
        "houses_left",
        "influence_owner",
        "mv",
        "piles",
        "prestige",
        "raval",
        "secret",
        "shown",
        "supply",
        "table",
        "tokens",
        "turn",
        "vector",
        "vp",
        "vp_src",
    )

    def __init__(self, size: int, n: int, nx: int, ninf: int):
        self.vector = np.zeros(size, np.float32)
        self.mv = self.vector.data
        self.turn: list[int] = []
        self.vp, self.prestige, self.supply, self.raval = [0] * n, [0] * n, [0] * n, [0] * n
        self.barricade, self.bag, self.houses_left = [0] * n, [0] * n, [0] * (4 * n)
        self.vp_src, self.tokens = [0] * (n * NSRC), [0] * (3 * n)
        self.hands: list[tuple[int, ...]] = [()] * n
        self.counts: list[int] = [0] * (len(COUNTS) + PHASES)
        self.board = bytes([255]) * (4 * nx)  # the engine's board fields are byte arrays, -1: none
        self.blocks: list[int] = []
        self.influence_owner: list[int | None] = [None] * ninf
        self.piles: tuple[tuple[int, ...], ...] = ((), (), ())
        self.conviction: list[int] = []
        self.shown: list[int] = []
        self.ended: bool | None = None
        self.conviction_hot: list[int] = []
        self.table: list[tuple[int, ...]] = [()] * n
        self.secret: list[int] = []


def _swap(mv: memoryview, old: list[int], new: list[int]) -> None:
    """Entries `old` set to 0, then entries `new` to 1."""
    for i in old:
        mv[i] = 0
    for i in new:
        mv[i] = 1


def _values(mv: memoryview, new: Sequence[int], old: Sequence[int], base: int) -> None:
    """The entries from `base` on that changed from `old` to `new`."""
    for i, value in enumerate(new):
        if value != old[i]:
            mv[base + i] = value


def _by_seat(mv: memoryview, new: Sequence[int], old: Sequence[int], base: int, rows: list[int],
             width: int, per_seat: int) -> None:
    """Values by seat (`per_seat` each, seat after seat in `new`) into rows of `width` entries."""
    for i, value in enumerate(new):
        if value != old[i]:
            p, j = divmod(i, per_seat)
            mv[base + rows[p] * width + j] = value


def _move(mv: memoryview, base: int, was: int, value: int) -> None:
    """A one-hot entry moved from `base + was` to `base + value` (none for a negative)."""
    if was >= 0:
        mv[base + was] = 0
    if value >= 0:
        mv[base + value] = 1


def _signed(byte: int) -> int:
    return byte - 256 if byte > 127 else byte


def _changed(new: bytes, old: bytes) -> list[int]:
    """The places where two byte strings of one length differ (found on their bits, in C)."""
    diff = int.from_bytes(new, "little") ^ int.from_bytes(old, "little")
    places, at = [], 0
    while diff:
        skip = ((diff & -diff).bit_length() - 1) >> 3
        at += skip
        places.append(at)
        diff >>= (skip + 1) << 3
        at += 1
    return places


def _supplies(s: RoseState) -> tuple[int, ...]:
    """The counts named in SUPPLY_COUNTS, in its order (both writers)."""
    return (
        s.bomb,
        s.montjuic,
        s.bag_soldiers,
        s.barricade_soldiers,
        sum(s.red_bag),
        len(s.city_deck),
        len(s.pop_deck),
        len(s.prestige_deck),
    )


def _counts(s: RoseState) -> list[int]:
    return [
        s.level,
        len(s.imm_pool),
        s.obelisks_left,
        *s.tiles_left,
        *_supplies(s),
        *s.round_track,
        *[-1] * (PHASES - len(s.round_track)),
    ]


def number_columns(n: int, ninf: int) -> tuple[dict[str, int], int, int]:
    """Where each field begins in a state's row of gathered numbers, where the signed numbers
    begin, and the row's length."""
    lengths = {
        **{name: n * width for name, _column, width in PLAYER_COLUMNS},
        "vp_src": n * NSRC,
        "tokens": n * 3,
        "conviction": n,
        "conviction_shown": n,
        "influence_owner": ninf,
        "tiles_left": len(COLOURS),
        "fired": 3,
        "round_track": PHASES,
    }
    columns, at, signed = {}, 0, 0
    for name in (*BYTE_LISTS, *BYTE_SCALARS, *SIGNED_LISTS, *SIGNED_SCALARS, "round_track"):
        if name == SIGNED_LISTS[0]:
            signed = at
        columns[name] = at
        at += lengths.get(name, 1)
    return columns, signed, at


class Gathered:
    """A batch's fields, gathered in one pass over its states (`gather`)."""

    __slots__ = ("board", "bytes", "ragged", "secret", "signed")

    def __init__(self) -> None:
        self.bytes: list[int] = []
        """Row after row, each state's numbers that fit a byte (`number_columns`)."""
        self.signed: list[int] = []
        """Row after row, each state's numbers that may be negative."""
        self.board: list[array[int]] = []
        """Per state, its tile, house type, house owner and block per space (signed bytes)."""
        self.ragged: list[Sequence[int]] = []
        """The hands (every seat's, state after state), the discard piles (three per state), the
        cards in front of every seat, the blocks (one list per state): `Plan._ragged`."""
        self.secret: list[tuple[int, RoseState, tuple[int, ...]]] = []
        """The states where the observer keeps or drops a token in secret, with their frame."""


_BYTE_LISTS = attrgetter(*BYTE_LISTS)
_SIGNED_LISTS = attrgetter(*SIGNED_LISTS)
_NO_FRAME = (OVER, -1)
_NONE = np.zeros(0, np.intp)
_PAD = (-1,) * PHASES


def _check_tables(states: Sequence[RoseState], t: Tables, n: int) -> None:
    for s in states:
        if s.t is not t or s.n != n:
            raise ValueError(f"a batch holds states of one table ({n} players, the same tables)")


def gather(states: Sequence[RoseState], viewer: int) -> Gathered:
    """The fields of the states, for `viewer`."""
    g = Gathered()
    small, signed, board, hands = g.bytes, g.signed, g.board, g.ragged
    piles: list[Sequence[int]] = []
    table: list[Sequence[int]] = []
    blocks: list[Sequence[int]] = []
    for i, s in enumerate(states):
        for field in _BYTE_LISTS(s):
            small += field
        stack, ended, track = s.stack, s.ended, s.round_track
        frame = stack[-1] if stack and not ended else _NO_FRAME
        small += (
            s.level,
            len(s.imm_pool),
            s.obelisks_left,
            *_supplies(s),
            s.phase,
            s.first,
            +ended,  # an int: a bool in the list would take bytearray off its fast path
            s.anarchy,
            frame[0],
        )
        for field in _SIGNED_LISTS(s):
            signed += field
        signed += (s.strike_shown, frame[1], *track, *_PAD[len(track) :])
        board += (s.tile, s.htype, s.owner, s.in_block)
        hands += s.hands
        piles += (s.city_discard, s.pop_discard, s.prestige_discard)
        table += s.table
        blocks.append(s.blocks)
        if frame[1] == viewer and frame[0] in (KEEP, DROP):
            g.secret.append((i, s, frame))
    hands += piles
    hands += table
    hands += blocks
    return g


class Plan:
    """The index arrays that write `count` observations for `viewer` (`Encoder.write_batch`):
    row i's entry j is `i * size + j` in the flat output (`base`). Small numbers become one-hots
    through tables by value (`lut`, `board_lut`)."""

    KEYS = 64
    """Keys per lookup in `lut`: a number looked up alone lies in -4..59 (a frame's kind is below
    41, a seat or an influence card's owner above -4)."""

    def __init__(self, e: Encoder, count: int, viewer: int):
        n = e.n
        self.e, self.count, self.viewer = e, count, viewer
        self.row_of_seat = np.array(e.rows[viewer], np.intp)
        self.seat_of_row = np.array([(r + viewer) % n for r in range(n)], np.intp)
        self.base = np.arange(count, dtype=np.intp)[:, None] * e.spec.size
        self.signed = struct.Struct(f"<{count * (e.numbers - e.signed)}q")
        self.seat_hot = (self.base + e.o_seat + viewer).ravel()
        self._copies()
        self._lookups()
        self._board()
        self._ragged()

    def _copies(self) -> None:
        """The entries written as they are, and where they are among the gathered numbers."""
        e, col = self.e, self.e.columns
        to: list[int] = []
        source: list[int] = []
        for name, column, width in PLAYER_COLUMNS:
            for row, seat in enumerate(self.seat_of_row):
                first = e.o_players + row * e.width + column
                to += range(first, first + width)
                source += range(col[name] + seat * width, col[name] + seat * width + width)
        for row, seat in enumerate(self.seat_of_row):
            to += range(e.o_breakdown + row * NSRC, e.o_breakdown + row * NSRC + NSRC)
            source += range(col["vp_src"] + seat * NSRC, col["vp_src"] + seat * NSRC + NSRC)
        to += range(e.o_own_tokens, e.o_own_tokens + 3)
        source += range(col["tokens"] + 3 * self.viewer, col["tokens"] + 3 * self.viewer + 3)
        counted = [
            col["level"],
            col["imm_pool"],
            col["obelisks_left"],
            *range(col["tiles_left"], col["tiles_left"] + len(COLOURS)),
            *(col[name] for name in SUPPLY_COUNTS),
            *range(col["round_track"], col["round_track"] + PHASES),
        ]
        to += range(e.o_counts, e.o_counts + len(counted))
        source += counted
        slots = list(range(len(to)))
        for row, seat in enumerate(self.seat_of_row):  # a seat's tokens: the sum of its three
            to.append(e.o_players + row * e.width + 10)
            source += range(col["tokens"] + 3 * seat, col["tokens"] + 3 * seat + 3)
            slots += [len(to) - 1] * 3
        rows = np.arange(self.count)[:, None]
        self.copy_to = (self.base + np.array(to)).ravel()
        self.copy_from = (rows * e.numbers + np.array(source)).ravel()
        self.copy_slot = (rows * len(to) + np.array(slots)).ravel()

    def _lookups(self) -> None:
        """The one-hots looked up in `lut`: per lookup, three numbers (`lookup_from`) weighed
        into a key (`lookup_weight`, `lookup_shift`), and per key two entries (-1: none). A
        conviction row weighs what its seat shows, holds and whether the game is over; every
        other lookup is one number, by value."""
        e, col, n = self.e, self.e.columns, self.e.n
        values = np.arange(-4, self.KEYS - 4)
        seated = (values >= 0) & (values < n)
        rows = np.where(seated, self.row_of_seat[np.clip(values, 0, n - 1)], 0)
        set_to_one = {"ended": e.o_flags, "anarchy": e.o_flags + 1}
        by_number = {
            col["phase"]: e.o_phase + values - 1,
            col["decision"]: np.where(values >= 0, e.o_decision + values, -1),
            col["first"]: np.where(seated, e.o_first + rows, -1),
            col["decider"]: np.where(seated, e.o_decider + rows, -1),
            col["strike_shown"]: np.where(seated, e.o_strike + rows, -1),
            **{col[name]: np.where(values != 0, entry, -1) for name, entry in set_to_one.items()},
            **{col["fired"] + k: np.where(values != 0, e.o_fired + k, -1) for k in range(3)},
        }
        width, codes = 3 + n, {AVAILABLE: 0, REMOVED_BY_EVENT: 1, LOST_TO_ANARCHY: 2}
        column = np.where(seated, 3 + rows, [codes.get(v, -1) for v in values.tolist()])
        for k in range(e.ninf):  # per influence card: available, removed, lost or a seat's
            entry = e.o_influence + k * width + column
            by_number[col["influence_owner"] + k] = np.where(column >= 0, entry, -1)
        lookups = [((c, c, c), (1, 0, 0), 4) for c in by_number]
        tables = [np.stack([entries, np.full(self.KEYS, -1)], axis=1) for entries in by_number.values()]
        for row, seat in enumerate(self.seat_of_row.tolist()):
            sources = (col["conviction_shown"] + seat, col["conviction"] + seat, col["ended"])
            lookups.append((sources, (4, 1, 16), 5 + 32 * (row == 0)))
            tables.append(_conviction_table(e.o_conviction + len(CONVICTION) * row, own=row == 0))
        # (number, lookup): the sum over the three numbers runs along the outer axis, fast
        self.lookup_from = np.array([sources for sources, _weight, _shift in lookups]).T.copy()
        self.lookup_weight = np.array([weight for _sources, weight, _shift in lookups]).T.copy()
        self.lookup_shift = self.KEYS * np.arange(len(lookups)) + [shift for *_, shift in lookups]
        self.lut = np.concatenate(tables)
        self.lut[self.lut < 0] = e.o_seat + self.viewer  # none: an entry that is 1 anyway

    def _board(self) -> None:
        """The board's one-hots by field (tile, house, owner) and value; the blocks by byte."""
        e, nx = self.e, self.e.nx
        spaces = np.arange(nx)
        by_field = [e.o_tiles + 3 * spaces, e.o_house_type + 4 * spaces, e.o_house_owner + spaces, 0 * spaces]
        self.board_base = (self.base[:, :, None] + np.array(by_field)).ravel()
        lut = np.full((4, 128), e.o_seat + self.viewer, np.intp)  # blocks: an entry that is 1 anyway
        lut[:2] = np.arange(128)  # a tile's colour, a house's type
        lut[2, : e.n] = self.row_of_seat * nx  # a house owner's row
        lut[2, e.n :] = 1 << 40  # no such seat: out of bounds, as for the single writer
        self.board_lut = lut.ravel()
        self.board_shift = np.tile(np.repeat(128 * np.arange(4), nx), self.count)
        self.in_block = np.array([b + 1 if b < 128 else 0 for b in range(256)], np.float32)

    def _ragged(self) -> None:
        """Where the items of `Gathered.ragged` go: a hand's cards only for the observer."""
        e, n, count = self.e, self.e.n, self.count
        nowhere = -(1 << 40)
        hand = np.where(np.arange(n) == self.viewer, self.base + e.o_hand, nowhere)
        piles = np.repeat(self.base.ravel() + e.o_discard, 3)
        table = self.base + e.o_table + self.row_of_seat * e.ncards
        blocks = self.base.ravel() + e.o_blocks
        self.ragged_base = np.concatenate([hand.ravel(), piles, table.ravel(), blocks])
        self.hands = count * n
        self.ones = self.hands + 3 * count
        self.hand_rows = 4 * (np.arange(count)[:, None] * n + self.row_of_seat).ravel()
        by_kind = e.o_players + e.width * np.arange(n)[:, None] + 11 + np.arange(4)  # (row, kind)
        self.hand_to = (self.base[:, :, None] + by_kind.ravel()).ravel()

    def write(self, g: Gathered, out: npt.NDArray[np.float32]) -> None:
        flat = out.reshape(-1)
        flat.fill(0)
        numbers = self._numbers(g)
        flat[self.copy_to] = np.bincount(self.copy_slot, numbers.take(self.copy_from), len(self.copy_to))
        items = _small(reduce(iconcat, g.ragged, []))
        lengths = _small(list(map(len, g.ragged)))
        ends = lengths.cumsum(dtype=np.intp)  # the methods: numpy's functions add a Python layer to each call
        at = self.ragged_base.repeat(lengths) + items
        ones = ends[self.ones - 1]
        hot = at[:ones]
        flat[
            np.concatenate(
                [
                    self.seat_hot,
                    self._lookups_hot(numbers),
                    self._board_hot(g, out),
                    hot[hot >= 0],
                    self._secret_choice_hot(g),
                ]
            )
        ] = 1
        self._hands(items, lengths, ends, flat)
        places = np.arange(1, len(items) + 1) - (ends - lengths).repeat(lengths)
        flat[at[ones:]] = places[ones:]

    def _numbers(self, g: Gathered) -> npt.NDArray[np.intp]:
        """The gathered numbers, a row per state."""
        try:
            signed = np.frombuffer(self.signed.pack(*g.signed), np.int64)
        except struct.error:  # a number beyond 64 bits: numpy refuses it too
            signed = np.array(g.signed, np.intp)
        rows = (self.count, -1)
        return np.concatenate([_small(g.bytes).reshape(rows), signed.reshape(rows)], axis=1, dtype=np.intp)

    def _lookups_hot(self, numbers: npt.NDArray[np.intp]) -> npt.NDArray[np.intp]:
        looked = numbers.take(self.lookup_from, axis=1)
        key = (looked * self.lookup_weight).sum(axis=1) + self.lookup_shift
        return (self.base[:, :, None] + self.lut.take(key, axis=0)).ravel()

    def _board_hot(self, g: Gathered, out: npt.NDArray[np.float32]) -> npt.NDArray[np.intp]:
        """Blocks of spaces into `out`; the entries of tiles, houses and owners (the engine's -1
        for none)."""
        e = self.e
        raw = np.frombuffer(b"".join(g.board), np.uint8)
        blocks = raw.reshape(self.count, 4, e.nx)[:, 3]
        out[:, e.o_in_block : e.o_in_block + e.nx] = self.in_block.take(blocks)
        board = raw.view(np.int8)
        down = (board >= 0).nonzero()[0]
        entry = self.board_lut.take(board.take(down) + self.board_shift.take(down))
        return self.board_base.take(down) + entry

    def _hands(
        self,
        items: npt.NDArray[Any],
        lengths: npt.NDArray[Any],
        ends: npt.NDArray[np.intp],
        flat: npt.NDArray[np.float32],
    ) -> None:
        """Every hand by kind of card."""
        kinds = self.e.card_kind.take(items[: ends[self.hands - 1]])
        in_hands = self.hand_rows.repeat(lengths[: self.hands]) + kinds
        flat[self.hand_to] = np.bincount(in_hands, minlength=4 * self.hands)

    def _secret_choice_hot(self, g: Gathered) -> npt.NDArray[np.intp]:
        if not g.secret:
            return _NONE
        size, hot = self.e.spec.size, []
        for i, s, frame in g.secret:
            hot += [i * size + entry for entry in self.e.secret_choice(s, self.viewer, frame)]
        return np.array(hot, np.intp)


def _conviction_table(first: int, own: bool) -> npt.NDArray[np.intp]:
    """A conviction row's two entries (as `_cards` writes them; -1: none) by its key: 4 * (shown
    + 1) + held + 1, plus 16 once the game is over, plus 32 in the observer's row."""
    table = np.full((Plan.KEYS, 2), -1, np.intp)
    for ended, shown, held in np.ndindex(2, 4, 4):
        hot = []
        if shown >= 1:
            hot.append(first + shown - 1)
            if held < 1 and not ended:
                hot.append(first + 7)
        elif held >= 1:
            hot.append(first + 3)
            if own:
                hot.append(first + 4 + held - 1)
        table[own * 32 + ended * 16 + shown * 4 + held, : len(hot)] = hot
    return table


def _small(values: list[int]) -> npt.NDArray[Any]:
    """Numbers as an array: bytes when they fit (converted in C), else numbers of any size."""
    try:
        return np.frombuffer(bytearray(values), np.uint8)
    except ValueError:
        return np.array(values, np.intp)


_ENCODERS: dict[tuple[int, int], tuple[Tables, Encoder]] = {}


def encoder(t: Tables, players: int) -> Encoder:
    """The encoder of these tables and players, built once (`load_tables` keeps the tables alive)."""
    key = (id(t), players)
    entry = _ENCODERS.get(key)
    if entry is None or entry[0] is not t:
        entry = (t, Encoder(t, players))
        _ENCODERS[key] = entry
    return entry[1]


def write_observation(s: RoseState, viewer: int, out: npt.NDArray[Any]) -> None:
    encoder(s.t, s.n).write(s, viewer, out)


def write_observations(states: Sequence[RoseState], viewer: int, out: npt.NDArray[np.float32]) -> None:
    """Row i of `out` (one row per state, each state of the same tables and players) as
    `write_observation(states[i], viewer, row)` writes it, in numpy operations over the batch."""
    if states:
        encoder(states[0].t, states[0].n).write_batch(states, viewer, out)
    elif out.shape[:1] != (0,):
        raise ValueError(f"no states for {out.shape[0]} observations")


def observation_spec(players: int, **options: Any) -> ObservationSpec:
    from eixample.games.rose_of_fire.components import load_tables
    from eixample.games.rose_of_fire.setup import check_options

    checked = check_options(players, dict(options))
    return encoder(load_tables(checked.get("data_dir")), players).spec
