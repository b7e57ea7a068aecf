"""Construct a Building (rulebook), with the Citizen tracks the used citizens move to.

After the actions, a player who can construct a Building must: the building phase (an automatic
step) pushes the decision only when some Building fits. The Building is chosen first (type and
space), then the citizens it uses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from eixample.core.decisions import Frame
from eixample.games.barcelona import board, log, tracks
from eixample.games.barcelona.frames import BUILD, CITIZENS_CHOICE
from eixample.games.barcelona.tables import BUILDING_TYPES, CORNER, Tables

if TYPE_CHECKING:
    from eixample.games.barcelona.state import BarcelonaState


def building_phase(s: BarcelonaState, frame: Frame) -> None:
    """Automatic step: the construction decision, when some Building can be constructed."""
    if legal_builds(s, frame[1]):
        s.stack.append((BUILD, frame[1]))


def building_fits(s: BarcelonaState, kind: int, b: int) -> bool:
    """A tile of this type is in stock and may go on this space: Corner tiles on empty
    triangles, other types on empty blocks or over the types they may overbuild."""
    if not s.bld_stock[kind]:
        return False
    current = s.bld_type[b]
    if current < 0:
        return (kind == CORNER) == board.BUILDING_SPACES[b].corner
    return current in s.t.building_over[kind]


BUILDING_CROSSINGS: tuple[tuple[int, ...], ...] = tuple(space.crossings for space in board.BUILDING_SPACES)
CORNER_SPACE: tuple[bool, ...] = tuple(space.corner for space in board.BUILDING_SPACES)


BUILDS_MEMO_SIZE = 4096
_builds_memo: dict[tuple[int, tuple[Any, ...]], tuple[Tables, tuple[tuple[int, int], ...]]] = {}


def legal_builds(s: BarcelonaState, p: int) -> list[tuple[int, int]]:
    """Every (type, space) where a Building fits (see `count_legal_builds`).

    The answer depends only on the crossings' citizens, the spaces' Buildings, the stock and the
    game's tables, and a search asks it again and again for the same board (every evaluation
    during a turn's actions), so answers are remembered by board, up to BUILDS_MEMO_SIZE boards
    (then forgotten all at once). The entry keeps its tables alive, so their id stays theirs."""
    key = (id(s.t), (*s.cross_cit, *s.bld_type, *s.bld_stock))
    known = _builds_memo.get(key)
    if known is not None and known[0] is s.t:
        return list(known[1])
    builds = count_legal_builds(s)
    if len(_builds_memo) >= BUILDS_MEMO_SIZE:
        _builds_memo.clear()
    _builds_memo[key] = (s.t, tuple(builds))
    return builds


def count_legal_builds(s: BarcelonaState) -> list[tuple[int, int]]:
    """Every (type, space) where a Building fits and some set of its crossings' top citizens
    meets the type's requirement, by space then type.

    The same as trying `building_fits` and `citizen_choices` for every pair, but counted: a set
    of `need` top citizens holding at least (W, M, U) required ones exists exactly when the
    space shows `need` top citizens or more, at least the required number of each class, and
    the requirement fits in `need`. This runs inside every search iteration, so it counts each
    space's top citizens once instead of trying every set of crossings."""
    t = s.t
    stock = s.bld_stock
    kinds = [kind for kind in range(4) if stock[kind]]
    if not kinds:
        return []
    needs, requires, over = t.building_citizens, t.building_requires, t.building_over
    tops = [stack[-1] if stack else -1 for stack in s.cross_cit]
    types = s.bld_type
    out: list[tuple[int, int]] = []
    for b, crossings in enumerate(BUILDING_CROSSINGS):
        counts = [0, 0, 0]
        shown = 0
        for x in crossings:
            top = tops[x]
            if top >= 0:
                counts[top] += 1
                shown += 1
        if not shown:
            continue
        current = types[b]
        for kind in kinds:
            if current < 0:
                if (kind == CORNER) != CORNER_SPACE[b]:
                    continue
            elif current not in over[kind]:
                continue
            need = needs[kind]
            req_w, req_m, req_u = requires[kind]
            if (
                0 < need <= shown
                and req_w + req_m + req_u <= need
                and counts[0] >= req_w
                and counts[1] >= req_m
                and counts[2] >= req_u
            ):
                out.append((kind, b))
    return out


def citizen_choices(s: BarcelonaState, kind: int, b: int, first_only: bool = False) -> list[tuple[int, ...]]:
    """The sets of surrounding crossings whose top citizens meet the Building's requirement."""
    need = s.t.building_citizens[kind]
    req_w, req_m, req_u = s.t.building_requires[kind]
    cross = s.cross_cit
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


# --- decision: the Building (type and space)
def legal_build(s: BarcelonaState, frame: Frame, texts: list[str], payloads: list[Any]) -> None:
    for kind, b in legal_builds(s, frame[1]):
        texts.append(f"build {BUILDING_TYPES[kind]} {board.BUILDING_SPACES[b].name}")
        payloads.append((kind, b))


def resolve_build(s: BarcelonaState, frame: Frame, payload: tuple[int, int]) -> None:
    kind, b = payload
    s.stack.append((CITIZENS_CHOICE, frame[1], kind, b))


# --- decision: the citizens it uses
def legal_citizens(s: BarcelonaState, frame: Frame, texts: list[str], payloads: list[Any]) -> None:
    for combo in citizen_choices(s, frame[2], frame[3]):
        texts.append("use " + "+".join(board.CROSSINGS[x] for x in combo))
        payloads.append(combo)


def resolve_citizens(s: BarcelonaState, frame: Frame, combo: tuple[int, ...]) -> None:
    p, kind, b = frame[1], frame[2], frame[3]
    moved, gained, bonus = construct(s, p, kind, b, combo)
    say_built(s, p, kind, b, moved, gained, bonus)
    if s.t.building_sagrada[kind]:
        tracks.sagrada_step(s, p, s.t.building_sagrada[kind])


def say_built(
    s: BarcelonaState, p: int, kind: int, b: int, moved: list[int], gained: int, bonus: int
) -> None:
    """The Building in the log with each part of its VP: the citizen tracks, the building's own
    VP and the row's Building Bonus."""
    s._say(("bcn.builds", {
        "player": log.seat(s, p),
        "building": log.BUILDING[kind],
        "space": board.BUILDING_SPACES[b].name,
        "citizens": log.citizens(moved),
        "vp": log.parts(("track", gained), ("building", s.t.building_vp[kind]), ("row_bonus", bonus)),
    }))


def construct(
    s: BarcelonaState, p: int, kind: int, b: int, combo: tuple[int, ...]
) -> tuple[list[int], int, int]:
    """Construct a Building (steps 1-6 but the Sagrada steps, which the caller takes): place the
    tile, flip the row's bonus, move the citizens to their tracks, score the lowest visible
    value, then the Cerdà steps, the building's VP and the marker. Returns the citizens moved,
    the track VP and the row bonus gained."""
    t = s.t
    s.progress = True
    s.bld_stock[kind] -= 1
    s.bld_type[b] = kind
    s.bld_tiles[b] = (*s.bld_tiles[b], kind)
    row = board.BUILDING_SPACES[b].block[0]
    bonus = t.row_bonus_vp[row] if s.row_bonus[row] else 0
    if bonus:
        s.row_bonus[row] = 0
        s._score(p, bonus, "building_bonus")
    moved = []
    for x in combo:
        citizen = s.cross_cit[x][-1]
        s.cross_cit[x] = s.cross_cit[x][:-1]
        to_track(s, citizen)
        moved.append(citizen)
    gained = lowest_visible(s)
    s._score(p, gained, "buildings")
    tracks.cerda_step(s, p, t.building_cerda[kind])  # step-backs come before Sagrada (ruling 3)
    s._score(p, t.building_vp[kind], "buildings")
    place_marker(s, p, b)
    return moved, gained, bonus


def place_marker(s: BarcelonaState, p: int, b: int) -> None:
    t = s.t
    k = len(t.marker_stacks)
    for i in range(p * k, (p + 1) * k):
        if s.markers_left[i]:
            s.markers_left[i] -= 1
            s.bld_markers[b] = (*s.bld_markers[b], p)
            if s.markers_left[i] == 0:
                tracks.cerda_step(s, p, t.marker_stack_cerda)
            return


# ---------------------------------------------------------------------- Citizen tracks
def to_track(s: BarcelonaState, citizen: int) -> None:
    """A citizen moves to the leftmost empty space of its track, or off the board."""
    spaces = s.track[citizen]
    for i, filled in enumerate(spaces):
        if not filled:
            spaces[i] = 1
            return
    s.off_board[citizen] += 1


def lowest_visible(s: BarcelonaState, arriving: tuple[int, ...] = ()) -> int:
    """The lowest VP value visible over the three citizen tracks (after `arriving` citizens
    would have taken their places, if given)."""
    values = s.t.track_values
    best = 99
    for k in range(3):
        skip = arriving.count(k)
        for i, filled in enumerate(s.track[k]):
            if filled:
                continue
            if skip:
                skip -= 1
                continue
            best = min(best, values[k][i])
    return best if best < 99 else max(max(v) for v in values)
