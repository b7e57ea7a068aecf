"""Barcelona's structured observation: what `view(seat)` shows, as a flat float32 vector.

Written straight from the flat engine state into a caller's buffer, without building the view.
Seats are relative to the observing seat: row 0 of every part "by seat" is the observer, row 1 the
next seat in turn order, and so on (the absolute seat is in the part `seat`). Hidden parts stay
out: the other players' hands (their sizes only), the order of the Modernisme stack and of the solo
deck (their sizes only), the generator. Everything else the view shows but the log is here, so two
positions whose views differ for a seat never encode alike (`tests/interop/test_encoding.py`).

`write_observations` writes the observations of many states at once (a vector environment's games):
each state becomes one row of ints, and numpy turns all the rows into vectors through tables built
once per seat, with the same entries as the groups of one state's encoder.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from itertools import chain, product
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from eixample.core.observation import ObservationSpec, SpecBuilder
from eixample.games.barcelona import board
from eixample.games.barcelona.components import ACTION_KINDS
from eixample.games.barcelona.frames import DECISION_NAMES
from eixample.games.barcelona.state import NSRC, SOURCES
from eixample.games.barcelona.tables import BUILDING_TYPES, Tables
from eixample.games.observing import Entries, Group, GroupedWriter

if TYPE_CHECKING:
    from eixample.games.barcelona.state import BarcelonaState

CROSSING_SLOTS = 2
"""Citizens on a crossing, bottom to top: the two placed there this turn."""
HAND_SLOTS = 2
"""Citizens in a hand: the two drawn at the start of a turn."""
FRAME_ARGUMENTS = 3
"""Arguments of a pending decision, at most (see frames.py)."""
PLAYER_NUMBERS = (
    "vp",
    "coins",
    "cloth",
    "cobblestones",
    "intersections",
    "passengers",
    "cerda",
    "sagrada",
    "hand_size",
)
COUNTS = (
    "bag_W",
    "bag_M",
    "bag_U",
    *(f"stock_{b}" for b in BUILDING_TYPES),
    "modernisme_stack",
    "off_track_W",
    "off_track_M",
    "off_track_U",
    "solo_deck",
    "solo_meeple",
)
SEAT_AXES = {
    **dict.fromkeys(
        (
            "decision_seat",
            "turn_player",
            "first_player",
            "players",
            "score_breakdown",
            "stacks_left",
            "intersections",
            "street_tiles",
            "passengers_on_board",
            "trams",
            "services_built",
            "sagrada_tiles",
            "modernisme_projects",
            "sidewalk",
        ),
        0,
    ),
    "building_markers": 2,
}
"""The parts by seat, and the axis of their seats (the sidewalk's last row, the starting
cobblestones, is no seat's)."""
TURN_PARTS = (
    "decision", "decision_seat", "decision_arguments", "turn_player", "first_player", "flags", "turns"
)
CITY_PARTS = ("crossing_citizens", "intersections", "street_tiles", "passengers_on_board", "trams")
BUILDING_PARTS = ("street_actions", "buildings", "building_markers", "row_bonus", "tracks")
CARD_PARTS = (
    "cerda_scoring",
    "cerda_scored",
    "modernisme_offer",
    "modernisme_discard",
    "public_services",
    "services_built",
    "sagrada_offer",
    "sagrada_tiles",
    "modernisme_projects",
)
"""The parts each group of the encoder writes (the seat and the hand are the observer's own)."""
OVER = len(DECISION_NAMES)
"""The index of "the game is over" among the decision kinds."""
NONE = -1
"""In a batch row: no entry (an empty slot, no owner)."""
OVER_FRAME = (OVER, NONE, *[NONE] * FRAME_ARGUMENTS)
"""A batch row's decision at the end of the game: none to take, nobody to take it."""
NO_ARGUMENTS = (NONE,) * FRAME_ARGUMENTS


class Encoder:
    """The observation of one set of tables and number of seats (a solo game has two)."""

    def __init__(self, t: Tables, seats: int, solo: bool):
        self.t, self.n, self.solo = t, seats, solo
        n = seats
        self.nx, self.ns, self.nw = len(board.CROSSINGS), len(board.SPACES), len(board.SIDEWALK)
        nst, nb = len(board.STREETS), len(board.BUILDING_SPACES)
        self.nmod, self.ncerda, self.nserv, self.nsag = (
            len(t.modernisme_ids),
            len(t.cerda_ids),
            len(t.service_ids),
            len(t.sagrada_ids),
        )
        self.km, self.kn, self.kw, self.kk = (
            len(t.modernisme_take),
            len(t.narrow_stacks),
            len(t.wide_stacks),
            len(t.marker_stacks),
        )
        self.markers = max(len(b.crossings) for b in board.BUILDING_SPACES)
        self.sagrada_slots = max(t.sagrada_slot_level)
        self.track_len = max(len(v) for v in t.track_values)
        nmod, nserv = self.nmod, self.nserv
        b = SpecBuilder("barcelona", 1 if solo else n)
        add = b.add
        self.o_seat = add("seat", (n,), "the observer's seat")
        self.o_decision = add(
            "decision", (OVER + 1,), "the pending decision: " + ", ".join(DECISION_NAMES.values()) + ", over"
        )
        self.o_decider = add("decision_seat", (n,), "the seat to decide (none at the end)")
        self.o_args = add(
            "decision_arguments",
            (FRAME_ARGUMENTS,),
            "the pending decision's arguments (crossing, count, type...), -1 where none",
            low=-1,
            high=1 << 16,
        )
        self.o_turn = add("turn_player", (n,), "the seat whose turn it is")
        self.o_first = add("first_player", (n,), "the first player")
        self.o_flags = add("flags", (2,), "end triggered; game over")
        self.o_turns = add("turns", (1,), "turns played", high=1000)
        self.o_players = add(
            "players", (n, len(PLAYER_NUMBERS)), "per seat: " + ", ".join(PLAYER_NUMBERS), high=1000
        )
        self.o_breakdown = add(
            "score_breakdown", (n, NSRC), "per seat, VP by source: " + ", ".join(SOURCES), high=1000
        )
        self.o_stacks = add(
            "stacks_left",
            (n, self.kn + self.kw + self.kk),
            "per seat, tiles left on each narrow, wide and marker stack",
            high=100,
        )
        self.o_counts = add(
            "counts",
            (len(COUNTS),),
            "citizens in the bag by class; buildings in stock by "
            "type; Modernisme stack size; citizens off each track; solo deck size; solo "
            "meeple's crossing + 1 (0 in a game with others)",
            high=1000,
        )
        self.o_service_left = add(
            "services_left", (t.services_in_play,), "tiles left on each Public Service in play", high=100
        )
        self.o_cross = add(
            "crossing_citizens",
            (self.nx, CROSSING_SLOTS, 3),
            "per crossing, its citizens bottom to top by class (W, M, U)",
        )
        self.o_inters = add("intersections", (n, self.nx), "per seat, its Intersections by crossing")
        self.o_space = add("street_tiles", (n, self.ns), "per seat, its street tiles by space")
        self.o_passenger = add("passengers_on_board", (n, self.ns), "per seat, its passengers by space")
        self.o_tram = add("trams", (n, self.ns), "per seat, its tram's space")
        self.o_street_action = add(
            "street_actions",
            (nst, len(ACTION_KINDS)),
            "per street, its action kind: " + ", ".join(ACTION_KINDS),
        )
        self.o_bld = add(
            "buildings",
            (nb, len(BUILDING_TYPES)),
            "per building space, the building: " + ", ".join(BUILDING_TYPES),
        )
        self.o_markers = add(
            "building_markers", (nb, self.markers, n), "per building space, its markers in order, by seat"
        )
        self.o_row = add("row_bonus", (4,), "row bonuses still to take")
        self.o_track = add("tracks", (3, self.track_len), "per citizen track (W, M, U), its filled spaces")
        self.o_cerda_tiles = add(
            "cerda_scoring", (3, self.ncerda), "the Cerdà scoring tiles in play, in order"
        )
        self.o_cerda_scored = add("cerda_scored", (3,), "which of them have scored")
        self.o_mod_offer = add(
            "modernisme_offer", (t.modernisme_offer, nmod), "per offer slot, its Modernisme tile"
        )
        self.o_mod_discard = add("modernisme_discard", (nmod, nmod), "the Modernisme discard pile, in order")
        self.o_services = add(
            "public_services", (t.services_in_play, nserv), "per Public Service slot, its service"
        )
        self.o_built = add("services_built", (n, nserv), "per seat, the services it has built")
        self.o_sagrada_offer = add("sagrada_offer", (self.nsag,), "Sagrada Família tiles on offer")
        self.o_sagrada = add(
            "sagrada_tiles",
            (n, self.sagrada_slots, self.nsag),
            "per seat, its Sagrada Família tiles in order",
        )
        self.o_projects = add(
            "modernisme_projects",
            (n, self.km, nmod + 1),
            "per seat and project space, its "
            "Modernisme tile; last column, the tile is turned to its top side",
        )
        self.o_sidewalk = add(
            "sidewalk",
            (n + 1, self.nw),
            "per seat, its cobblestones by Sidewalk space; last row, the starting cobblestones",
        )
        self.o_hand = add("own_hand", (HAND_SLOTS, 3), "the observer's citizens in hand, in order, by class")
        if solo:
            self.nsolo = len(t.solo.card_kind)
            self.o_solo_drawn = add(
                "solo_drawn",
                (self.nsolo, self.nsolo),
                "the solo cards drawn since the last shuffle, in order (the current last)",
            )
        b.parts = [
            replace(part, seat_axis=SEAT_AXES[part.name]) if part.name in SEAT_AXES else part
            for part in b.parts
        ]
        self.spec: ObservationSpec = b.build()
        self.seats = list(range(n))  # the groups write for seat 0; `GroupedWriter` turns it
        self.player_dest = np.array(self._player_dest(self.seats), np.intp)
        self.counts_dest = np.arange(self.o_counts, self.o_counts + len(COUNTS) + t.services_in_play)
        self.writer = GroupedWriter(self.spec, n, self._groups(), self._own)

    def _groups(self) -> list[Group]:
        groups = [
            Group(TURN_PARTS, _turn_key, self._write_turn),
            Group(("players", "score_breakdown", "stacks_left"), _players_key, self._write_players),
            Group(("counts", "services_left"), _counts_key, self._write_counts),
            Group(CITY_PARTS, _city_key, self._write_city),
            Group(BUILDING_PARTS, _buildings_key, self._write_buildings),
            Group(CARD_PARTS, _cards_key, self._write_cards),
            Group(("sidewalk",), _sidewalk_key, self._write_sidewalk),
        ]
        if self.solo:
            groups.append(Group(("solo_drawn",), _solo_key, self._write_solo))
        return groups

    def _player_dest(self, rel: list[int]) -> list[int]:
        """Where each entry of `_players_key` goes, for one observing seat."""
        n, width = self.n, len(PLAYER_NUMBERS)
        dest = [self.o_players + rel[p] * width + column for column in range(width) for p in range(n)]
        dest += [self.o_breakdown + rel[p] * NSRC + j for p in range(n) for j in range(NSRC)]
        kn, kw, kk = self.kn, self.kw, self.kk
        stacks = kn + kw + kk
        dest += [self.o_stacks + rel[p] * stacks + j for p in range(n) for j in range(kn)]
        dest += [self.o_stacks + rel[p] * stacks + kn + j for p in range(n) for j in range(kw)]
        dest += [self.o_stacks + rel[p] * stacks + kn + kw + j for p in range(n) for j in range(kk)]
        return dest

    def write(self, s: BarcelonaState, viewer: int, out: npt.NDArray[Any]) -> None:
        self.writer.write(s, viewer, out)

    # each writer gives its group's entries (`Entries`) from the group's key
    def _write_turn(self, s: BarcelonaState, key: Any) -> Entries:
        frame, ended, end_triggered, turn_player, first_player, turns = key
        rel = self.seats
        hot = [self.o_turn + rel[turn_player], self.o_first + rel[first_player]]
        if ended or frame is None:
            hot.append(self.o_decision + OVER)
            args: list[int] = []
        else:
            hot += [self.o_decision + frame[0], self.o_decider + rel[frame[1]]]
            args = list(frame[2 : 2 + FRAME_ARGUMENTS])
        if end_triggered:
            hot.append(self.o_flags)
        if ended:
            hot.append(self.o_flags + 1)
        where = [*range(self.o_args, self.o_args + FRAME_ARGUMENTS), self.o_turns]
        return hot, where, [*args, *[-1] * (FRAME_ARGUMENTS - len(args)), turns]

    def _write_players(self, s: BarcelonaState, key: Any) -> Entries:
        return [], self.player_dest, key

    def _write_counts(self, s: BarcelonaState, key: Any) -> Entries:
        return [], self.counts_dest, key

    def _write_city(self, s: BarcelonaState, key: Any) -> Entries:
        cross_cit, cross_owner, space_owner, space_passenger, tram = key
        rel, nx, ns = self.seats, self.nx, self.ns
        base = self.o_cross
        hot = [
            base + (x * CROSSING_SLOTS + j) * 3 + k
            for x, citizens in enumerate(cross_cit)
            for j, k in enumerate(citizens)
        ]
        base = self.o_inters
        hot += [base + rel[o] * nx + x for x, o in enumerate(cross_owner) if o >= 0]
        base = self.o_space
        hot += [base + rel[o] * ns + x for x, o in enumerate(space_owner) if o >= 0]
        base = self.o_passenger
        hot += [base + rel[o] * ns + x for x, o in enumerate(space_passenger) if o >= 0]
        base = self.o_tram
        hot += [base + rel[p] * ns + x for p, x in enumerate(tram) if x >= 0]
        return hot, [], []

    def _write_buildings(self, s: BarcelonaState, key: Any) -> Entries:
        street_action, bld_type, bld_markers, row_bonus, track = key
        rel, n = self.seats, self.n
        base, width = self.o_street_action, len(ACTION_KINDS)
        hot = [base + i * width + kind for i, kind in enumerate(street_action)]
        base, width = self.o_bld, len(BUILDING_TYPES)
        hot += [base + i * width + k for i, k in enumerate(bld_type) if k >= 0]
        base, m = self.o_markers, self.markers
        hot += [
            base + (i * m + j) * n + rel[p]
            for i, markers in enumerate(bld_markers)
            for j, p in enumerate(markers)
        ]
        base = self.o_row
        hot += [base + r for r, left in enumerate(row_bonus) if left]
        base, width = self.o_track, self.track_len
        hot += [
            base + k * width + i
            for k, filled_spaces in enumerate(track)
            for i, filled in enumerate(filled_spaces)
            if filled
        ]
        return hot, [], []

    def _write_cards(self, s: BarcelonaState, key: Any) -> Entries:
        (
            cerda_tiles,
            cerda_scored,
            mod_offer,
            mod_discard,
            services,
            services_built,
            sagrada_offer,
            sagrada_tiles,
            mod_tile,
            mod_top,
        ) = key
        rel, n, km, nmod, nserv, nsag = self.seats, self.n, self.km, self.nmod, self.nserv, self.nsag
        base = self.o_cerda_tiles
        hot = [base + j * self.ncerda + tile for j, tile in enumerate(cerda_tiles)]
        base = self.o_cerda_scored
        hot += [base + j for j, scored in enumerate(cerda_scored) if scored]
        base = self.o_mod_offer
        hot += [base + j * nmod + tile for j, tile in enumerate(mod_offer) if tile >= 0]
        base = self.o_mod_discard
        hot += [base + j * nmod + tile for j, tile in enumerate(mod_discard)]
        base = self.o_services
        hot += [base + j * nserv + i for j, i in enumerate(services)]
        base = self.o_built
        hot += [
            base + rel[p] * nserv + i for p in range(n) for i in range(nserv) if services_built[p] >> i & 1
        ]
        base = self.o_sagrada_offer
        hot += [base + i for i, on in enumerate(sagrada_offer) if on]
        base, slots = self.o_sagrada, self.sagrada_slots
        hot += [
            base + (rel[p] * slots + j) * nsag + tile
            for p, tiles in enumerate(sagrada_tiles)
            for j, tile in enumerate(tiles)
        ]
        base, width = self.o_projects, nmod + 1
        hot += [
            base + (rel[k // km] * km + k % km) * width + tile for k, tile in enumerate(mod_tile) if tile >= 0
        ]
        hot += [base + (rel[k // km] * km + k % km) * width + nmod for k, top in enumerate(mod_top) if top]
        return hot, [], []

    def _write_sidewalk(self, s: BarcelonaState, key: Any) -> Entries:
        rel, n, nw, base = self.seats, self.n, self.nw, self.o_sidewalk
        return [base + (rel[c] if c >= 0 else n) * nw + i for i, c in enumerate(key) if c != -1], [], []

    def _own(self, s: BarcelonaState, viewer: int) -> Entries:
        """The observer's seat and hand (written as the observer sees them)."""
        return (
            [self.o_seat + viewer, *(self.o_hand + j * 3 + k for j, k in enumerate(s.hands[viewer]))],
            [],
            [],
        )

    def _write_solo(self, s: BarcelonaState, key: Any) -> Entries:
        return [self.o_solo_drawn + j * self.nsolo + card for j, card in enumerate(key)], [], []

    # ------------------------------------------------------------------ many states at once
    def write_batch(
        self, states: Sequence[BarcelonaState], viewer: int, out: npt.NDArray[np.float32]
    ) -> None:
        """Row i of `out` gets what `write(states[i], viewer, row)` writes (see `write_observations`)."""
        if not (isinstance(viewer, int) and 0 <= viewer < self.n):
            raise ValueError(f"no seat {viewer!r} in a {self.n}-player game")
        self._check_batch(states, out)
        rows = self._batch_rows(states, viewer)
        tables = self._batch_tables[viewer]
        coded, hot = len(tables.coded_starts), len(tables.hot_starts)
        rows_start = np.arange(0, len(states) * self.spec.size, self.spec.size)[:, None]
        flat = out.reshape(-1)
        out.fill(0)
        coded_entries = tables.coded.take(rows[:, :coded] + tables.coded_starts, axis=0)
        flat[coded_entries.reshape(len(states), -1) + rows_start] = 1
        flat[tables.hot.take(rows[:, coded : coded + hot] + tables.hot_starts) + rows_start] = 1
        out[:, tables.numbers] = rows[:, coded + hot :]  # last: see `_batch_tables`

    def _check_batch(self, states: Sequence[BarcelonaState], out: npt.NDArray[np.float32]) -> None:
        size = self.spec.size
        if out.shape != (len(states), size) or out.dtype != np.float32 or not out.flags.c_contiguous:
            raise ValueError(
                f"the observations of {len(states)} states need a C-contiguous float32 array of shape "
                f"({len(states)}, {size}), not {out.dtype} {out.shape}"
            )
        t, n, solo = self.t, self.n, self.solo
        for s in states:
            if s.t is not t or s.n != n or s.solo != solo:
                raise ValueError(
                    "a batch of observations holds states of one table: same data, seats and mode"
                )

    def _batch_rows(self, states: Sequence[BarcelonaState], viewer: int) -> npt.NDArray[np.int32]:
        """Per state, a row of ints (`_batch_row`). Python ints are converted by `struct`, several
        times faster than by numpy."""
        row = self._batch_row
        try:
            packed = b"".join([row(s, viewer) for s in states])
        except KeyError as error:  # no code in `_tuple_codes`
            raise ValueError(f"citizens or markers out of bounds: {error}") from None
        return np.frombuffer(packed, np.int32).reshape(len(states), -1)

    def _batch_row(self, s: BarcelonaState, viewer: int) -> bytes:
        """The state's row: the codes of its crossings' citizens and buildings' markers, then its
        hot columns, then its numbers, as `_coded_columns`, `_hot_columns` and `_number_destinations`
        list them."""
        frame = s.stack[-1] + NO_ARGUMENTS if s.stack and not s.ended else OVER_FRAME
        crossing_codes, marker_codes = self._tuple_codes
        hand, sagrada, bits = self._padded
        return self._batch_struct.pack(
            *map(crossing_codes.__getitem__, s.cross_cit),
            *map(marker_codes.__getitem__, s.bld_markers),
            viewer,
            *hand[s.hands[viewer]],
            s.turn_player,
            s.first_player,
            s.end_triggered,
            s.ended,
            *s.cross_owner,
            *s.space_owner,
            *s.space_passenger,
            *s.tram,
            *s.street_action,
            *s.bld_type,
            *s.row_bonus,
            *s.track[0],
            *s.track[1],
            *s.track[2],
            *s.cerda_tiles,
            *s.cerda_scored,
            *s.mod_offer,
            *(s.mod_discard + self._no_tiles)[: self.nmod],
            *s.services,
            *chain.from_iterable(map(bits.__getitem__, s.services_built)),
            *s.sagrada_offer,
            *chain.from_iterable(map(sagrada.__getitem__, s.sagrada_tiles)),
            *s.mod_tile,
            *s.mod_top,
            *s.sidewalk,
            *((s.solo_drawn + self._no_cards)[: self.nsolo] if self.solo else ()),
            # the frame straddles the hot columns and the numbers: its kind and seat are hot
            *frame[: 2 + FRAME_ARGUMENTS],
            s.turns,
            # `_players_key`
            *s.vp,
            *s.coins,
            *s.cloth,
            *s.cobbles,
            *s.inters,
            *s.passengers,
            *s.cerda,
            *s.sagrada,
            *map(len, s.hands),
            *s.vp_src,
            *s.narrow_left,
            *s.wide_left,
            *s.markers_left,
            # `_counts_key`
            *s.bag,
            *s.bld_stock,
            len(s.mod_stack),
            *s.off_board,
            len(s.solo_deck),
            s.solo_meeple + 1 if s.solo else 0,
            *s.service_left,
        )

    @cached_property
    def _tuple_codes(self) -> tuple[dict[tuple[int, ...], int], dict[tuple[int, ...], int]]:
        """A number for each possible crossing's citizens and building's markers."""
        return _codes(CROSSING_SLOTS, 3), _codes(self.markers, self.n)

    @cached_property
    def _padded(self) -> tuple[_Padded, _Padded, _Bits]:
        """Hands and Sagrada tiles as rows of fixed width (NONE after the last), services built as
        one 0/1 per service."""
        return _Padded(HAND_SLOTS), _Padded(self.sagrada_slots), _Bits(self.nserv)

    @cached_property
    def _no_tiles(self) -> list[int]:
        return [NONE] * self.nmod

    @cached_property
    def _no_cards(self) -> tuple[int, ...]:
        return (NONE,) * self.nsolo if self.solo else ()

    @cached_property
    def _batch_struct(self) -> struct.Struct:
        coded, hot, numbers = self._coded_columns(), self._hot_columns(), self._number_destinations()
        return struct.Struct(f"{len(coded) + len(hot) + len(numbers)}i")

    @cached_property
    def _batch_tables(self) -> list[_BatchTables]:
        """Per observing seat, where each column of a batch row goes. What sets nothing sets the
        entry `turns` instead, which the numbers write after (cheaper than leaving it out)."""
        hot_starts, hot = _lay_out(self._hot_columns())
        coded_columns = self._coded_columns()
        most = max(len(entries) for _, column in coded_columns for entries in column)
        coded_starts, coded = _lay_out(
            (low, [[*entries, *[NONE] * (most - len(entries))] for entries in column])
            for low, column in coded_columns
        )
        numbers = np.array(self._number_destinations(), np.intp)
        tables = []
        for order in self.writer.orders:
            moved = np.empty_like(order)  # where each of seat 0's entries goes for this seat
            moved[order] = np.arange(len(order))
            scratch = moved[self.o_turns]
            tables.append(
                _BatchTables(
                    hot_starts,
                    np.where(hot >= 0, moved[hot], scratch),
                    coded_starts,
                    np.where(coded >= 0, moved[coded], scratch),
                    moved[numbers],
                )
            )
        return tables

    def _coded_columns(self) -> list[tuple[int, list[list[int]]]]:
        """Per crossing's citizens and building's markers in a batch row: for each code (from 0),
        the entries of seat 0's observation that it sets to 1."""
        crossing_codes, marker_codes = self._tuple_codes
        n, m = self.n, self.markers
        cross, markers = self.o_cross, self.o_markers
        columns = [
            (0, [[cross + (x * CROSSING_SLOTS + j) * 3 + k for j, k in enumerate(c)] for c in crossing_codes])
            for x in range(self.nx)
        ]
        columns += [
            (0, [[markers + (i * m + j) * n + p for j, p in enumerate(seats)] for seats in marker_codes])
            for i in range(len(board.BUILDING_SPACES))
        ]
        return columns

    def _hot_columns(self) -> list[tuple[int, list[int]]]:
        """Per hot column of a batch row, its least value and, for each value from there, the
        entry it sets to 1 in seat 0's observation (NONE: none), as the group writers set them."""
        n, nx, ns, nw = self.n, self.nx, self.ns, self.nw
        seats = range(n)
        columns: list[tuple[int, list[int]]] = [(0, [self.o_seat + p for p in seats])]
        columns += [(NONE, [NONE, *(self.o_hand + j * 3 + k for k in range(3))]) for j in range(HAND_SLOTS)]
        columns += [(0, [self.o_turn + p for p in seats]), (0, [self.o_first + p for p in seats])]
        columns += [(0, [NONE, self.o_flags]), (0, [NONE, self.o_flags + 1])]
        columns += [(NONE, [NONE, *(self.o_inters + o * nx + x for o in seats)]) for x in range(nx)]
        for base in (self.o_space, self.o_passenger):
            columns += [(NONE, [NONE, *(base + o * ns + x for o in seats)]) for x in range(ns)]
        columns += [(NONE, [NONE, *(self.o_tram + p * ns + x for x in range(ns))]) for p in seats]
        width = len(ACTION_KINDS)
        columns += [
            (0, [self.o_street_action + i * width + kind for kind in range(width)])
            for i in range(len(board.STREETS))
        ]
        width = len(BUILDING_TYPES)
        columns += [
            (NONE, [NONE, *(self.o_bld + i * width + k for k in range(width))])
            for i in range(len(board.BUILDING_SPACES))
        ]
        columns += [(0, [NONE, self.o_row + r]) for r in range(4)]
        columns += [
            (0, [NONE, self.o_track + k * self.track_len + i])
            for k, marks in enumerate(self.t.track_prefill)
            for i in range(len(marks))
        ]
        columns += self._card_columns()
        columns += [
            (-2, [self.o_sidewalk + n * nw + i, NONE, *(self.o_sidewalk + c * nw + i for c in seats)])
            for i in range(nw)
        ]
        if self.solo:
            nsolo = self.nsolo
            columns += [
                (NONE, [NONE, *(self.o_solo_drawn + j * nsolo + card for card in range(nsolo))])
                for j in range(nsolo)
            ]
        columns += [(0, [self.o_decision + kind for kind in range(OVER + 1)])]
        columns += [(NONE, [NONE, *(self.o_decider + p for p in seats)])]
        return columns

    def _card_columns(self) -> list[tuple[int, list[int]]]:
        """The hot columns of `_write_cards`'s parts."""
        seats, nmod, nserv, ncerda, nsag = range(self.n), self.nmod, self.nserv, self.ncerda, self.nsag
        tiles, width = range(nmod), nmod + 1
        columns = [(0, [self.o_cerda_tiles + j * ncerda + tile for tile in range(ncerda)]) for j in range(3)]
        columns += [(0, [NONE, self.o_cerda_scored + j]) for j in range(3)]
        columns += [
            (NONE, [NONE, *(self.o_mod_offer + j * nmod + tile for tile in tiles)])
            for j in range(self.t.modernisme_offer)
        ]
        columns += [(NONE, [NONE, *(self.o_mod_discard + j * nmod + tile for tile in tiles)]) for j in tiles]
        columns += [
            (0, [self.o_services + j * nserv + i for i in range(nserv)])
            for j in range(self.t.services_in_play)
        ]
        columns += [(0, [NONE, self.o_built + p * nserv + i]) for p in seats for i in range(nserv)]
        columns += [(0, [NONE, self.o_sagrada_offer + i]) for i in range(nsag)]
        slots = self.sagrada_slots
        columns += [
            (NONE, [NONE, *(self.o_sagrada + (p * slots + j) * nsag + tile for tile in range(nsag))])
            for p in seats
            for j in range(slots)
        ]
        projects = range(self.n * self.km)  # seat k // km, project space k % km
        columns += [(NONE, [NONE, *(self.o_projects + k * width + tile for tile in tiles)]) for k in projects]
        columns += [(0, [NONE, self.o_projects + k * width + nmod]) for k in projects]
        return columns

    def _number_destinations(self) -> list[int]:
        """The entries of seat 0's observation that get a batch row's numbers, in order."""
        return [
            *range(self.o_args, self.o_args + FRAME_ARGUMENTS),
            self.o_turns,
            *self.player_dest.tolist(),
            *self.counts_dest.tolist(),
        ]


@dataclass(frozen=True)
class _BatchTables:
    """Where a batch row goes in one seat's observation: hot column c with value v sets entry
    `hot[hot_starts[c] + v]` to 1; coded column c with code v sets the entries
    `coded[coded_starts[c] + v]` (a row of them); number j goes to entry `numbers[j]`."""

    hot_starts: npt.NDArray[np.intp]
    hot: npt.NDArray[np.intp]
    coded_starts: npt.NDArray[np.intp]
    coded: npt.NDArray[np.intp]
    numbers: npt.NDArray[np.intp]


def _lay_out(columns: Iterable[tuple[int, list[Any]]]) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """Columns (least value, what each value sets) laid end to end: where value 0 of each would
    be, and what they set, in order."""
    starts: list[int] = []
    entries: list[Any] = []
    for low, column in columns:
        starts.append(len(entries) - low)
        entries += column
    return np.array(starts, np.intp), np.array(entries, np.intp)


def _codes(slots: int, values: int) -> dict[tuple[int, ...], int]:
    """A number for each tuple of at most `slots` items below `values`."""
    tuples = (items for size in range(slots + 1) for items in product(range(values), repeat=size))
    return {items: code for code, items in enumerate(tuples)}


class _Padded(dict[tuple[int, ...], tuple[int, ...]]):
    """Tuples of at most `width` items, each with NONE after its last (made once per tuple)."""

    def __init__(self, width: int):
        super().__init__()
        self.width = width

    def __missing__(self, key: tuple[int, ...]) -> tuple[int, ...]:
        if len(key) > self.width:
            raise ValueError(f"{len(key)} items where the observation has room for {self.width}")
        padded = self[key] = key + (NONE,) * (self.width - len(key))
        return padded


class _Bits(dict[int, tuple[int, ...]]):
    """A set of `width` flags held as bits: one 0/1 per flag, the lowest bit first (made once per set)."""

    def __init__(self, width: int):
        super().__init__()
        self.width = width

    def __missing__(self, key: int) -> tuple[int, ...]:
        if not 0 <= key < 1 << self.width:
            raise ValueError(f"{key} is no set of {self.width} flags")
        bits = self[key] = tuple(key >> i & 1 for i in range(self.width))
        return bits


# each key is a fresh object holding every field its group reads (compared with the last one)
def _turn_key(s: BarcelonaState) -> tuple[Any, ...]:
    return (
        s.stack[-1] if s.stack else None,
        s.ended,
        s.end_triggered,
        s.turn_player,
        s.first_player,
        s.turns,
    )


def _players_key(s: BarcelonaState) -> list[int]:
    return [
        *s.vp,
        *s.coins,
        *s.cloth,
        *s.cobbles,
        *s.inters,
        *s.passengers,
        *s.cerda,
        *s.sagrada,
        *map(len, s.hands),
        *s.vp_src,
        *s.narrow_left,
        *s.wide_left,
        *s.markers_left,
    ]


def _counts_key(s: BarcelonaState) -> list[int]:
    return [
        *s.bag,
        *s.bld_stock,
        len(s.mod_stack),
        *s.off_board,
        len(s.solo_deck),
        s.solo_meeple + 1 if s.solo else 0,
        *s.service_left,
    ]


def _city_key(s: BarcelonaState) -> tuple[Any, ...]:
    return (s.cross_cit[:], s.cross_owner[:], s.space_owner[:], s.space_passenger[:], s.tram[:])


def _buildings_key(s: BarcelonaState) -> tuple[Any, ...]:
    return (s.street_action, s.bld_type[:], s.bld_markers[:], s.row_bonus[:], [track[:] for track in s.track])


def _cards_key(s: BarcelonaState) -> tuple[Any, ...]:
    return (
        s.cerda_tiles,
        s.cerda_scored[:],
        s.mod_offer[:],
        s.mod_discard[:],
        s.services,
        s.services_built[:],
        s.sagrada_offer[:],
        s.sagrada_tiles[:],
        s.mod_tile[:],
        s.mod_top[:],
    )


def _sidewalk_key(s: BarcelonaState) -> list[int]:
    return s.sidewalk[:]


def _solo_key(s: BarcelonaState) -> tuple[int, ...]:
    return s.solo_drawn


_ENCODERS: dict[tuple[int, int, bool], tuple[Tables, Encoder]] = {}


def encoder(t: Tables, seats: int, solo: bool) -> Encoder:
    """The encoder of these tables and seats, built once (kept by the identity of the tables, which
    `tables_for` keeps alive)."""
    key = (id(t), seats, solo)
    entry = _ENCODERS.get(key)
    if entry is None or entry[0] is not t:
        entry = (t, Encoder(t, seats, solo))
        _ENCODERS[key] = entry
    return entry[1]


def write_observation(s: BarcelonaState, viewer: int, out: npt.NDArray[Any]) -> None:
    encoder(s.t, s.n, s.solo).write(s, viewer, out)


def write_observations(states: Sequence[BarcelonaState], viewer: int, out: npt.NDArray[np.float32]) -> None:
    """Row i of `out` (float32, C-contiguous, one row per state) gets exactly what
    `write_observation(states[i], viewer, row)` writes; the states are positions of one table (same
    data, seats and mode), in any games, at any point. Written for the whole batch at once with
    numpy, far cheaper per state than one call each."""
    if not states:
        if len(out):
            raise ValueError(f"no states for {len(out)} rows")
        return
    first = states[0]
    encoder(first.t, first.n, first.solo).write_batch(states, viewer, out)


def observation_spec(players: int, **options: Any) -> ObservationSpec:
    from eixample.games.barcelona.setup import check_options
    from eixample.games.barcelona.tables import tables_for

    checked = check_options(players, dict(options))
    solo = players == 1
    return encoder(tables_for(checked.get("data_dir")), 2 if solo else players, solo).spec
