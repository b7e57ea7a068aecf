"""Barcelona's structured observation: what `view(seat)` shows, as a flat float32 vector.

Written straight from the flat engine state into a caller's buffer, without building the view.
Seats are relative to the observing seat: row 0 of every part "by seat" is the observer, row 1 the
next seat in turn order, and so on (the absolute seat is in the part `seat`). Hidden parts stay
out: the other players' hands (their sizes only), the order of the Modernisme stack and of the solo
deck (their sizes only), the generator. Everything else the view shows is here, so two positions
whose views differ for a seat never encode alike (`tests/games/barcelona/test_observation.py`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy.typing as npt

from eixample.core.observation import ObservationSpec, SpecBuilder
from eixample.games.barcelona import board
from eixample.games.barcelona.components import ACTION_KINDS
from eixample.games.barcelona.frames import DECISION_NAMES
from eixample.games.barcelona.state import NSRC
from eixample.games.barcelona.tables import BUILDING_TYPES, Tables

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
OVER = len(DECISION_NAMES)
"""The index of "the game is over" among the decision kinds."""


class Encoder:
    """The observation of one set of tables and number of seats (a solo game has two)."""

    def __init__(self, t: Tables, seats: int, solo: bool):
        self.t, self.n, self.solo = t, seats, solo
        n = seats
        nx, ns, nst, nb, nw = (
            len(board.CROSSINGS),
            len(board.SPACES),
            len(board.STREETS),
            len(board.BUILDING_SPACES),
            len(board.SIDEWALK),
        )
        nmod, ncerda, nserv, nsag = (
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
        track_len = max(len(v) for v in t.track_values)
        b = SpecBuilder("barcelona", 1 if solo else n)
        # numbers first (written as slices), then indicators (written as one list of indexes)
        self.o_players = b.add(
            "players", (n, len(PLAYER_NUMBERS)), "per seat: " + ", ".join(PLAYER_NUMBERS), high=1000
        )
        self.o_breakdown = b.add(
            "score_breakdown", (n, NSRC), "per seat, VP by source (the view's order)", high=1000
        )
        self.o_stacks = b.add(
            "stacks_left",
            (n, self.kn + self.kw + self.kk),
            "per seat, tiles left on each narrow, wide and marker stack",
            high=20,
        )
        self.o_counts = b.add(
            "counts",
            (14,),
            "turns; citizens in the bag (W, M, U); buildings in stock "
            "(corner, L1, L2, L3); Modernisme stack size; citizens off each track (W, M, U); "
            "solo deck size; solo meeple's crossing + 1 (0 in a game with others)",
            high=1000,
        )
        self.o_service_left = b.add(
            "services_left", (t.services_in_play,), "tiles left on each Public Service in play", high=10
        )
        self.o_args = b.add(
            "decision_arguments",
            (FRAME_ARGUMENTS,),
            "the pending decision's arguments (crossing, count, type...), -1 where none",
            low=-1,
            high=1 << 16,
        )
        self.o_seat = b.add("seat", (n,), "the observer's seat")
        self.o_decision = b.add(
            "decision", (OVER + 1,), "the pending decision: " + ", ".join(DECISION_NAMES.values()) + ", over"
        )
        self.o_decider = b.add("decision_seat", (n,), "the seat to decide (none at the end)")
        self.o_turn = b.add("turn_player", (n,), "the seat whose turn it is")
        self.o_first = b.add("first_player", (n,), "the first player")
        self.o_flags = b.add("flags", (2,), "end triggered; game over")
        self.o_street_action = b.add(
            "street_actions",
            (nst, len(ACTION_KINDS)),
            "per street, its action kind: " + ", ".join(ACTION_KINDS),
        )
        self.o_cross = b.add(
            "crossing_citizens",
            (nx, CROSSING_SLOTS, 3),
            "per crossing, its citizens bottom to top by class (W, M, U)",
        )
        self.o_inters = b.add("intersections", (n, nx), "per seat, its Intersections by crossing")
        self.o_space = b.add("street_tiles", (n, ns), "per seat, its street tiles by space")
        self.o_passenger = b.add("passengers_on_board", (n, ns), "per seat, its passengers by space")
        self.o_tram = b.add("trams", (n, ns), "per seat, its tram's space")
        self.o_bld = b.add(
            "buildings",
            (nb, len(BUILDING_TYPES)),
            "per building space, the building: " + ", ".join(BUILDING_TYPES),
        )
        self.o_markers = b.add(
            "building_markers", (nb, self.markers, n), "per building space, its markers in order, by seat"
        )
        self.o_row = b.add("row_bonus", (4,), "row bonuses still to take")
        self.o_track = b.add("tracks", (3, track_len), "per citizen track (W, M, U), its filled spaces")
        self.o_cerda_tiles = b.add("cerda_scoring", (3, ncerda), "the Cerdà scoring tiles in play, in order")
        self.o_cerda_scored = b.add("cerda_scored", (3,), "which of them have scored")
        self.o_mod_offer = b.add(
            "modernisme_offer", (t.modernisme_offer, nmod), "per offer slot, its Modernisme tile"
        )
        self.o_mod_discard = b.add(
            "modernisme_discard", (nmod, nmod), "the Modernisme discard pile, in order"
        )
        self.o_services = b.add(
            "public_services", (t.services_in_play, nserv), "per Public Service slot, its service"
        )
        self.o_built = b.add("services_built", (n, nserv), "per seat, the services it has built")
        self.o_sidewalk = b.add(
            "sidewalk",
            (n + 1, nw),
            "per seat, its cobblestones by Sidewalk space; last row, the starting cobblestones",
        )
        self.o_sagrada_offer = b.add("sagrada_offer", (nsag,), "Sagrada Família tiles on offer")
        self.o_sagrada = b.add(
            "sagrada_tiles", (n, self.sagrada_slots, nsag), "per seat, its Sagrada Família tiles in order"
        )
        self.o_projects = b.add(
            "modernisme_projects",
            (n, self.km, nmod + 1),
            "per seat and project space, its Modernisme tile; last column, the tile is "
            "turned to its top side",
        )
        self.o_hand = b.add(
            "own_hand", (HAND_SLOTS, 3), "the observer's citizens in hand, in order, by class"
        )
        self.ns, self.nmod, self.nsag, self.nserv, self.track_len, self.ncerda = (
            ns,
            nmod,
            nsag,
            nserv,
            track_len,
            ncerda,
        )
        self.nx, self.nw = nx, nw
        if solo:
            nsolo = len(t.solo.card_kind)
            self.o_solo_drawn = b.add(
                "solo_drawn",
                (nsolo, nsolo),
                "the solo cards drawn since the last shuffle, in order (the current last)",
            )
            self.nsolo = nsolo
        self.spec: ObservationSpec = b.build()
        self.numbers_end = self.o_seat

    def write(self, s: BarcelonaState, viewer: int, out: npt.NDArray[Any]) -> None:
        n = self.n
        if not (isinstance(viewer, int) and 0 <= viewer < n):
            raise ValueError(f"no seat {viewer!r} in a {n}-player game")
        order = [(viewer + k) % n for k in range(n)]
        rel = [(p - viewer) % n for p in range(n)]
        km, kn, kw, kk = self.km, self.kn, self.kw, self.kk
        numbers: list[int] = []
        for p in order:
            numbers += (
                s.vp[p],
                s.coins[p],
                s.cloth[p],
                s.cobbles[p],
                s.inters[p],
                s.passengers[p],
                s.cerda[p],
                s.sagrada[p],
                len(s.hands[p]),
            )
        for p in order:
            numbers += s.vp_src[p * NSRC : p * NSRC + NSRC]
        for p in order:
            numbers += s.narrow_left[p * kn : p * kn + kn]
            numbers += s.wide_left[p * kw : p * kw + kw]
            numbers += s.markers_left[p * kk : p * kk + kk]
        numbers.append(s.turns)
        numbers += s.bag
        numbers += s.bld_stock
        numbers.append(len(s.mod_stack))
        numbers += s.off_board
        numbers.append(len(s.solo_deck))
        numbers.append(s.solo_meeple + 1 if s.solo else 0)
        numbers += s.service_left
        frame = s.stack[-1] if s.stack and not s.ended else (-1, -1)
        args = list(frame[2 : 2 + FRAME_ARGUMENTS])
        numbers += args + [-1] * (FRAME_ARGUMENTS - len(args))
        out[: self.numbers_end] = numbers

        hot = [self.o_seat + viewer]
        if s.ended:
            hot.append(self.o_decision + OVER)
        else:
            hot.append(self.o_decision + frame[0])
            hot.append(self.o_decider + rel[frame[1]])
        hot.append(self.o_turn + rel[s.turn_player])
        hot.append(self.o_first + rel[s.first_player])
        if s.end_triggered:
            hot.append(self.o_flags)
        if s.ended:
            hot.append(self.o_flags + 1)
        base, width = self.o_street_action, len(ACTION_KINDS)
        hot += [base + i * width + kind for i, kind in enumerate(s.street_action)]
        base = self.o_cross
        for x, citizens in enumerate(s.cross_cit):
            hot += [base + (x * CROSSING_SLOTS + j) * 3 + k for j, k in enumerate(citizens)]
        nx, ns = self.nx, self.ns
        base = self.o_inters
        hot += [base + rel[o] * nx + x for x, o in enumerate(s.cross_owner) if o >= 0]
        base = self.o_space
        hot += [base + rel[o] * ns + x for x, o in enumerate(s.space_owner) if o >= 0]
        base = self.o_passenger
        hot += [base + rel[o] * ns + x for x, o in enumerate(s.space_passenger) if o >= 0]
        base = self.o_tram
        hot += [base + rel[p] * ns + x for p, x in enumerate(s.tram) if x >= 0]
        base = self.o_bld
        hot += [base + i * 4 + k for i, k in enumerate(s.bld_type) if k >= 0]
        base, m = self.o_markers, self.markers
        for i, markers in enumerate(s.bld_markers):
            if markers:
                hot += [base + (i * m + j) * n + rel[p] for j, p in enumerate(markers)]
        base = self.o_row
        hot += [base + r for r, left in enumerate(s.row_bonus) if left]
        base, width = self.o_track, self.track_len
        for k in range(3):
            hot += [base + k * width + i for i, filled in enumerate(s.track[k]) if filled]
        base = self.o_cerda_tiles
        hot += [base + j * self.ncerda + tile for j, tile in enumerate(s.cerda_tiles)]
        base = self.o_cerda_scored
        hot += [base + j for j, scored in enumerate(s.cerda_scored) if scored]
        base, nmod = self.o_mod_offer, self.nmod
        hot += [base + j * nmod + tile for j, tile in enumerate(s.mod_offer) if tile >= 0]
        base = self.o_mod_discard
        hot += [base + j * nmod + tile for j, tile in enumerate(s.mod_discard)]
        base, nserv = self.o_services, self.nserv
        hot += [base + j * nserv + i for j, i in enumerate(s.services)]
        base = self.o_built
        for p in range(n):
            built = s.services_built[p]
            if built:
                hot += [base + rel[p] * nserv + i for i in range(nserv) if built >> i & 1]
        base, nw = self.o_sidewalk, self.nw
        hot += [base + (rel[c] if c >= 0 else n) * nw + i for i, c in enumerate(s.sidewalk) if c != -1]
        base = self.o_sagrada_offer
        hot += [base + i for i, on in enumerate(s.sagrada_offer) if on]
        base, nsag, slots = self.o_sagrada, self.nsag, self.sagrada_slots
        for p in range(n):
            hot += [base + (rel[p] * slots + j) * nsag + tile for j, tile in enumerate(s.sagrada_tiles[p])]
        base, width = self.o_projects, nmod + 1
        for p in range(n):
            row = base + rel[p] * km * width
            for i in range(km):
                tile = s.mod_tile[p * km + i]
                if tile >= 0:
                    hot.append(row + i * width + tile)
                if s.mod_top[p * km + i]:
                    hot.append(row + i * width + nmod)
        base = self.o_hand
        hot += [base + j * 3 + k for j, k in enumerate(s.hands[viewer])]
        if self.solo:
            base = self.o_solo_drawn
            hot += [base + j * self.nsolo + card for j, card in enumerate(s.solo_drawn)]
        out[self.numbers_end :] = 0
        out[hot] = 1


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


def observation_spec(players: int, **options: Any) -> ObservationSpec:
    from eixample.games.barcelona.setup import check_options
    from eixample.games.barcelona.tables import tables_for

    checked = check_options(players, dict(options))
    solo = players == 1
    return encoder(tables_for(checked.get("data_dir")), 2 if solo else players, solo).spec
