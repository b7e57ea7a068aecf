"""The Rose of Fire's structured observation: what `view(seat)` shows, as a flat float32 vector.

Written straight from the flat engine state into a caller's buffer, without building the view.
Seats are relative to the observing seat: row 0 of every part "by seat" is the observer, row 1 the
next seat clockwise, and so on (the absolute seat is in the part `seat`). Hidden parts stay out:
the faces of other players' cards (their counts by kind only), other families' tokens (their
number only) and secret convictions (only that one is held), the red bag's contents (its size),
the order of decks and immigration tokens (their sizes), the tokens another seat chooses between,
the generator. Two positions whose views differ for a seat never encode alike
(`tests/games/rose_of_fire/test_observation.py`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from eixample.core.observation import ObservationSpec, SpecBuilder
from eixample.games.observing import Entries, Group, GroupedWriter
from eixample.games.rose_of_fire import actions as txt
from eixample.games.rose_of_fire.components import COLOURS, HOUSES, KINDS, SYMBOLS, Tables
from eixample.games.rose_of_fire.state import DECISION_NAMES, DROP, KEEP, NSRC, SOURCES

if TYPE_CHECKING:
    from eixample.games.rose_of_fire.state import RoseState

TURN_PARTS = (
    "phase", "decision", "decision_seat", "first_player", "flags", "events_fired", "strike_in_front"
)
"""The parts the encoder's turn group writes."""
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
COUNTS = (
    "immigration_level",
    "immigration_tokens_left",
    "obelisks_left",
    *(f"tiles_left_{c}" for c in COLOURS),
    "bomb",
    "montjuic",
    "bag_soldiers",
    "barricade_soldiers",
    "red_bag",
    "city_deck",
    "popularity_deck",
    "prestige_deck",
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


class Encoder:
    """The observation of one set of tables and number of players."""

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
        self.seats = list(range(n))  # the groups write for seat 0; `GroupedWriter` turns it
        width = len(PLAYER_NUMBERS)
        player_rows = [self.o_players + p * width + j for p in range(n) for j in range(width)]
        breakdown = [self.o_breakdown + p * NSRC + j for p in range(n) for j in range(NSRC)]
        self.player_dest = np.array(player_rows + breakdown, np.intp)
        self.counts_dest = np.arange(self.o_counts, self.o_counts + len(COUNTS) + PHASES)
        self.writer = GroupedWriter(
            self.spec,
            n,
            [
                Group(TURN_PARTS, _turn_key, self._write_turn),
                Group(("players", "score_breakdown"), _players_key, self._write_players),
                Group(("counts", "round_track"), _counts_key, self._write_counts),
                Group(("tiles",), _tiles_key, self._write_tiles),
                Group(("house_owner", "house_type"), _houses_key, self._write_houses),
                Group(("block_of_space", "obelisk_blocks"), _blocks_key, self._write_blocks),
                Group(("influence_cards", "discarded", "conviction", "table"), _cards_key, self._write_cards),
            ],
            self._own,
        )

    def write(self, s: RoseState, viewer: int, out: npt.NDArray[Any]) -> None:
        self.writer.write(s, viewer, out)

    # each writer gives its group's entries (`Entries`) from the group's key
    def _write_turn(self, s: RoseState, key: Any) -> Entries:
        frame, ended, phase, first, anarchy, fired, strike_shown = key
        rel = self.seats
        hot = [self.o_phase + phase - 1, self.o_first + rel[first]]
        if frame is None:
            hot.append(self.o_decision + OVER)
        else:
            hot += [self.o_decision + frame[0], self.o_decider + rel[frame[1]]]
        if ended:
            hot.append(self.o_flags)
        if anarchy:
            hot.append(self.o_flags + 1)
        hot += [self.o_fired + k for k in range(3) if fired[k]]
        if strike_shown >= 0:
            hot.append(self.o_strike + rel[strike_shown])
        return hot, [], []

    def _write_players(self, s: RoseState, key: Any) -> Entries:
        kinds, n = self.t.card_kind, self.n
        numbers: list[int] = []
        for p in range(n):
            hand_kinds = [0, 0, 0, 0]
            for c in s.hands[p]:
                hand_kinds[kinds[c]] += 1
            numbers += (
                s.vp[p],
                s.prestige[p],
                *s.houses_left[4 * p : 4 * p + 4],
                s.supply[p],
                s.raval[p],
                s.barricade[p],
                s.bag[p],
                s.token_count(p),
                *hand_kinds,
            )
        numbers += s.vp_src
        return [], self.player_dest, numbers

    def _write_counts(self, s: RoseState, key: Any) -> Entries:
        return [], self.counts_dest, key

    def _write_tiles(self, s: RoseState, key: Any) -> Entries:
        base = self.o_tiles
        return [base + x * 3 + c for x, c in enumerate(key) if c >= 0], [], []

    def _write_houses(self, s: RoseState, key: Any) -> Entries:
        owner, htype = key
        rel, nx = self.seats, self.nx
        hot = [self.o_house_owner + rel[p] * nx + x for x, p in enumerate(owner) if p >= 0]
        hot += [self.o_house_type + x * 4 + h for x, h in enumerate(htype) if h >= 0]
        return hot, [], []

    def _write_blocks(self, s: RoseState, key: Any) -> Entries:
        in_block, blocks = key
        base = self.o_in_block
        where = [base + x for x, q in enumerate(in_block) if q >= 0]
        values = [q + 1 for q in in_block if q >= 0]
        where += [self.o_blocks + q for q in blocks]
        values += range(1, len(blocks) + 1)
        return [], where, values

    def _write_cards(self, s: RoseState, key: Any) -> Entries:
        influence_owner, discards, table, conviction, conviction_shown, ended = key
        rel, n = self.seats, self.n
        base, width = self.o_influence, 3 + n
        hot = [base + k * width + (3 + rel[o] if o >= 0 else -1 - o) for k, o in enumerate(influence_owner)]
        hot += [self.o_discard + c for c in discards]
        base, width = self.o_conviction, len(CONVICTION)
        for p in range(n):
            row = base + rel[p] * width
            shown, secret = conviction_shown[p], conviction[p]
            if shown >= 0:
                hot.append(row + shown)
            if secret >= 0 and shown < 0:
                hot.append(row + 3)
            if secret < 0 and shown >= 0 and not ended:
                hot.append(row + 7)
        base, ncards = self.o_table, self.ncards
        where = [base + rel[p] * ncards + c for p in range(n) for c in table[p]]
        return hot, where, [place for p in range(n) for place in range(1, len(table[p]) + 1)]

    def _own(self, s: RoseState, viewer: int) -> Entries:
        """What only the observer sees (written as the observer sees it, its rows first)."""
        hot = [self.o_seat + viewer, *(self.o_hand + c for c in s.hands[viewer])]
        if s.conviction[viewer] >= 0 and s.conviction_shown[viewer] < 0:
            hot.append(self.o_conviction + 4 + s.conviction[viewer])
        tokens = s.tokens[3 * viewer : 3 * viewer + 3]
        frame = _frame(s)
        if frame is not None and frame[1] == viewer and frame[0] in (KEEP, DROP):
            places = frame[-3:]
            symbols = {frame[2], frame[3]} if frame[0] == KEEP else {k for k in range(3) if tokens[k] > 0}
            hot += [self.o_secret + (places[k] - 1) * 3 + k for k in symbols]
        return hot, list(range(self.o_own_tokens, self.o_own_tokens + 3)), tokens


# each key is a fresh object holding every field its group reads (compared with the last one)
def _frame(s: RoseState) -> tuple[int, ...] | None:
    return s.stack[-1] if s.stack and not s.ended else None


def _turn_key(s: RoseState) -> tuple[Any, ...]:
    return (_frame(s), s.ended, s.phase, s.first, s.anarchy, s.fired[:], s.strike_shown)


def _players_key(s: RoseState) -> list[Any]:
    return [
        *s.vp,
        *s.prestige,
        *s.houses_left,
        *s.supply,
        *s.raval,
        *s.barricade,
        *s.bag,
        *s.tokens,
        *s.vp_src,
        *s.hands,
    ]


def _counts_key(s: RoseState) -> list[int]:
    return [
        s.level,
        len(s.imm_pool),
        s.obelisks_left,
        *s.tiles_left,
        s.bomb,
        s.montjuic,
        s.bag_soldiers,
        s.barricade_soldiers,
        sum(s.red_bag),
        len(s.city_deck),
        len(s.pop_deck),
        len(s.prestige_deck),
        *s.round_track,
        *[-1] * (PHASES - len(s.round_track)),
    ]


def _tiles_key(s: RoseState) -> Any:
    return s.tile[:]


def _houses_key(s: RoseState) -> tuple[Any, ...]:
    return (s.owner[:], s.htype[:])


def _blocks_key(s: RoseState) -> tuple[Any, ...]:
    return (s.in_block[:], s.blocks[:])


def _cards_key(s: RoseState) -> tuple[Any, ...]:
    return (
        s.influence_owner[:],
        s.city_discard + s.pop_discard + s.prestige_discard,
        s.table[:],
        s.conviction[:],
        s.conviction_shown[:],
        s.ended,
    )


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


def observation_spec(players: int, **options: Any) -> ObservationSpec:
    from eixample.games.rose_of_fire.components import load_tables
    from eixample.games.rose_of_fire.setup import check_options

    checked = check_options(players, dict(options))
    return encoder(load_tables(checked.get("data_dir")), players).spec
