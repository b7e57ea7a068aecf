"""Every action text that can ever be legal in a game of Barcelona, in one fixed order.

Researchers' interfaces (OpenSpiel, PettingZoo, Gymnasium) number actions by their place in this
list. It is derived from the board geometry and the component tables (so a corrected data folder
gives its own ids), one group per action form of `docs/formats.md`, in the order of that table.
The list depends only on the data folder: games of 1 to 4 players, solo included, and either
`action_tiles` mode share one numbering.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from itertools import combinations
from typing import Any

from eixample.games.barcelona import board
from eixample.games.barcelona.actions import DECLINE
from eixample.games.barcelona.components import ACTION_KINDS, Benefit
from eixample.games.barcelona.setup import check_options
from eixample.games.barcelona.tables import BUILDING_TYPES, CITIZENS, CORNER, Tables, tables_for

MOST_INTERSECTION_BENEFITS = 3
"""An Intersection owner takes up to 1/2/3 different benefits with 1/3/5 Intersections built."""


def all_actions(players: int, **options: Any) -> list[str]:
    """The global action list of a game with these options (validated like `new_game`'s)."""
    checked = check_options(players, options)
    return list(_catalog(checked.get("data_dir")))


@cache
def _catalog(data_dir: str | None) -> tuple[str, ...]:
    texts = tuple(_texts(tables_for(data_dir)))
    assert len(set(texts)) == len(texts), "action texts must be unique"
    return texts


def _texts(t: Tables) -> Iterator[str]:
    yield from (f"place {x}" for x in board.CROSSINGS)
    yield from (f"top {c}" for c in CITIZENS)
    yield "benefits none"
    yield from _benefit_choices(t)
    yield from (f"act {street} {kind}" for street in board.STREETS for kind in ACTION_KINDS)
    yield "end actions"
    yield from ("gain cloth", "gain coins")
    yield from (f"cobble {s}" for s in board.SIDEWALK)
    yield from ("streets wide", "streets narrow")
    yield from (f"street {s}" for s in board.SPACES)
    yield from (f"intersection {x}" for x in board.CROSSINGS)
    yield from (f"improve {i + 1}" for i in range(len(t.modernisme_improve)))
    projects = range(1, len(t.modernisme_take) + 1)
    yield from (f"take {tile} into {i}" for tile in t.modernisme_ids for i in projects)
    yield from (f"service {service}" for service in t.service_ids)
    yield from (f"tram {s}" for s in board.SPACES)
    yield from ("passenger", "no passenger", "skip action")
    yield from (f"sagrada {tile}" for tile in t.sagrada_ids)
    most = max(b.resource for b in _printed_benefits(t))
    for total in range(1, most + 1):
        yield from (f"mix coin {coins} cloth {total - coins}" for coins in range(total, -1, -1))
    yield from ("discard coin", "discard cloth")
    yield from _builds(t)
    yield from _citizen_choices(t)
    yield DECLINE  # last, so that the numbers of the earlier actions did not change when it came


def _benefit_choices(t: Tables) -> Iterator[str]:
    """Intersection benefits are offered once per different benefit, by its first slot."""
    distinct: list[int] = []
    for i, benefit in enumerate(t.intersection_benefit):
        if benefit not in (t.intersection_benefit[j] for j in distinct):
            distinct.append(i)
    for size in range(1, min(MOST_INTERSECTION_BENEFITS, len(distinct)) + 1):
        for combo in combinations(distinct, size):
            yield "benefits " + "+".join(str(i + 1) for i in combo)


def _printed_benefits(t: Tables) -> Iterator[Benefit]:
    for group in (t.space_benefit, t.sidewalk_benefit, t.intersection_benefit, t.sagrada_benefit):
        yield from (b for b in group if b is not None)


def _types_on(t: Tables, b: int) -> list[int]:
    """Building types that may ever stand on space `b`: those that fit it empty (Corner tiles on
    triangles, the others on blocks), then every type that may be built over one of them."""
    corner = board.BUILDING_SPACES[b].corner
    found = [kind for kind in range(len(BUILDING_TYPES)) if (kind == CORNER) == corner]
    grew = True
    while grew:
        grew = False
        for kind in range(len(BUILDING_TYPES)):
            if kind not in found and any(under in found for under in t.building_over[kind]):
                found.append(kind)
                grew = True
    return sorted(found)


def _builds(t: Tables) -> Iterator[str]:
    for kind, name in enumerate(BUILDING_TYPES):
        for b, space in enumerate(board.BUILDING_SPACES):
            if kind in _types_on(t, b):
                yield f"build {name} {space.name}"


def _citizen_choices(t: Tables) -> Iterator[str]:
    seen: set[str] = set()
    for b in range(len(board.BUILDING_SPACES)):
        for need in sorted({t.building_citizens[kind] for kind in _types_on(t, b)}):
            for combo in board.BUILDING_COMBOS[b].get(need, ()):
                text = "use " + "+".join(board.CROSSINGS[x] for x in combo)
                if text not in seen:
                    seen.add(text)
                    yield text
