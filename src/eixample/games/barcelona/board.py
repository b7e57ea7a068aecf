"""Geometry of the city: crossings, street spaces, streets, blocks and building spaces.

Pure geometry, no printed values (those come from the data files). Indices are small ints so the
engine state can be flat lists; ids are the stable text used in actions (see components.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

SIZE = 5  # crossings per side
BLOCKS = 4  # blocks per side

CROSSINGS: tuple[str, ...] = tuple(f"C{r}{c}" for r in range(SIZE) for c in range(SIZE))
CROSSING_INDEX = {name: i for i, name in enumerate(CROSSINGS)}

# Streets: V0..V4 (vertical, by column), H0..H4 (horizontal, by row), D (the diagonal).
STREETS: tuple[str, ...] = tuple(f"V{c}" for c in range(SIZE)) + tuple(f"H{r}" for r in range(SIZE)) + ("D",)
STREET_INDEX = {name: i for i, name in enumerate(STREETS)}
DIAGONAL = STREET_INDEX["D"]


def crossing(r: int, c: int) -> int:
    return r * SIZE + c


def _spaces() -> tuple[list[str], list[int], list[tuple[int, int]], list[int]]:
    names: list[str] = []
    street: list[int] = []
    ends: list[tuple[int, int]] = []
    position: list[int] = []  # position along its street, 0..3
    for c in range(SIZE):
        for r in range(BLOCKS):
            names.append(f"V{c}.{r}")
            street.append(STREET_INDEX[f"V{c}"])
            ends.append((crossing(r, c), crossing(r + 1, c)))
            position.append(r)
    for r in range(SIZE):
        for c in range(BLOCKS):
            names.append(f"H{r}.{c}")
            street.append(STREET_INDEX[f"H{r}"])
            ends.append((crossing(r, c), crossing(r, c + 1)))
            position.append(c)
    for i in range(BLOCKS):
        names.append(f"D.{i}")
        street.append(DIAGONAL)
        ends.append((crossing(i, i), crossing(i + 1, i + 1)))
        position.append(i)
    return names, street, ends, position


_names, _street, _ends, _position = _spaces()
SPACES: tuple[str, ...] = tuple(_names)
SPACE_INDEX = {name: i for i, name in enumerate(SPACES)}
SPACE_STREET: tuple[int, ...] = tuple(_street)
SPACE_ENDS: tuple[tuple[int, int], ...] = tuple(_ends)
SPACE_POSITION: tuple[int, ...] = tuple(_position)
STREET_SPACES: tuple[tuple[int, ...], ...] = tuple(
    tuple(s for s in range(len(SPACES)) if SPACE_STREET[s] == st) for st in range(len(STREETS))
)

CROSSING_SPACES: tuple[tuple[int, ...], ...] = tuple(
    tuple(s for s in range(len(SPACES)) if x in SPACE_ENDS[s]) for x in range(len(CROSSINGS))
)
"""The street spaces touching each crossing (its 'adjacent' spaces)."""

SPACE_NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted({t for x in SPACE_ENDS[s] for t in CROSSING_SPACES[x] if t != s}))
    for s in range(len(SPACES))
)
"""Street spaces reachable from a space through one of its two crossings (tram movement)."""


def crossing_streets(x: int) -> tuple[int, ...]:
    """The streets meeting at a crossing: vertical, horizontal, and the diagonal if on it."""
    r, c = divmod(x, SIZE)
    streets = (STREET_INDEX[f"V{c}"], STREET_INDEX[f"H{r}"])
    return (*streets, DIAGONAL) if r == c else streets


CROSSING_STREETS: tuple[tuple[int, ...], ...] = tuple(crossing_streets(x) for x in range(len(CROSSINGS)))


@dataclass(frozen=True)
class BuildingSpace:
    name: str
    block: tuple[int, int]
    corner: bool  # a triangle of a diagonal block
    crossings: tuple[int, ...]


def _building_spaces() -> tuple[BuildingSpace, ...]:
    spaces: list[BuildingSpace] = []
    for r in range(BLOCKS):
        for c in range(BLOCKS):
            tl, tr, bl, br = crossing(r, c), crossing(r, c + 1), crossing(r + 1, c), crossing(r + 1, c + 1)
            if r == c:
                spaces.append(BuildingSpace(f"B{r}{c}U", (r, c), True, (tl, tr, br)))
                spaces.append(BuildingSpace(f"B{r}{c}L", (r, c), True, (tl, bl, br)))
            else:
                spaces.append(BuildingSpace(f"B{r}{c}", (r, c), False, (tl, tr, bl, br)))
    return tuple(spaces)


BUILDING_SPACES = _building_spaces()
BUILDING_INDEX = {b.name: i for i, b in enumerate(BUILDING_SPACES)}
BLOCK_BUILDINGS: dict[tuple[int, int], tuple[int, ...]] = {}
for _i, _b in enumerate(BUILDING_SPACES):
    BLOCK_BUILDINGS.setdefault(_b.block, ())
    BLOCK_BUILDINGS[_b.block] = (*BLOCK_BUILDINGS[_b.block], _i)

CROSSING_BUILDINGS: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i, b in enumerate(BUILDING_SPACES) if x in b.crossings) for x in range(len(CROSSINGS))
)


def _space_buildings(s: int) -> tuple[int, ...]:
    """Building spaces bordering a street space (the blocks on either side of it)."""
    name = SPACES[s]
    kind, rest = name[0], name[1:]
    sides: list[str] = []
    if kind == "D":
        i = int(rest.split(".")[1])
        return (BUILDING_INDEX[f"B{i}{i}U"], BUILDING_INDEX[f"B{i}{i}L"])
    line, pos = (int(v) for v in rest.split("."))
    # (block row, block column, the triangle of a diagonal block on that side)
    if kind == "V":  # column `line` between rows pos and pos+1: its left block's right side, ...
        candidates = ((pos, line - 1, "U"), (pos, line, "L"))
    else:  # row `line` between columns pos and pos+1: the block above's bottom side, ...
        candidates = ((line - 1, pos, "L"), (line, pos, "U"))
    for r, c, triangle in candidates:
        if 0 <= r < BLOCKS and 0 <= c < BLOCKS:
            sides.append(f"B{r}{c}{triangle}" if r == c else f"B{r}{c}")
    return tuple(BUILDING_INDEX[n] for n in sides)


SPACE_BUILDINGS: tuple[tuple[int, ...], ...] = tuple(_space_buildings(s) for s in range(len(SPACES)))

BUILDING_COMBOS: tuple[dict[int, tuple[tuple[int, ...], ...]], ...] = tuple(
    {k: tuple(combinations(b.crossings, k)) for k in range(1, len(b.crossings) + 1)} for b in BUILDING_SPACES
)
"""Per building space and citizen count: the sets of its crossings that could supply them."""

SIDEWALK: tuple[str, ...] = tuple(f"S{r}{c}" for r in range(SIZE) for c in range(SIZE))
SIDEWALK_INDEX = {name: i for i, name in enumerate(SIDEWALK)}
SIDEWALK_NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        (r + dr) * SIZE + (c + dc)
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
        if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE
    )
    for r in range(SIZE)
    for c in range(SIZE)
)
