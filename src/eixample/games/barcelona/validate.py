"""Cross-checks of the component data files, beyond what each file's schema can check.

The schema (components.py) checks each file on its own: types, ranges, required fields. This module
checks what only the whole set can show: every geometry id present exactly once, counts stated by
the rulebook, references between files, and the facts of the rulebook's worked examples that the
printed values must satisfy (see docs/barcelona/data-provenance.md). Every problem is reported as
"<file>: <entry>: <problem>"; all problems found are raised together in one DataFileError.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from itertools import pairwise
from pathlib import Path

from eixample.core.errors import DataFileError
from eixample.games.barcelona import board
from eixample.games.barcelona.components import (
    ACTION_KINDS,
    CONDITIONS,
    SERVICE_EFFECTS,
    ActionsFile,
    Benefit,
    CityFile,
    Components,
    PlayerBoardFile,
    SideBoardFile,
    SoloFile,
    TilesFile,
    TracksFile,
)

# ----------------------------------------------------------------------------------------------------
# Geometry ids (defined in the docstring of components.py, built in board.py).
STREET_IDS = board.STREETS
CROSSING_IDS = board.CROSSINGS
DIAGONAL_CROSSINGS = tuple(board.CROSSINGS[board.crossing(i, i)] for i in range(board.SIZE))
SPACE_IDS = board.SPACES
SIDEWALK_IDS = board.SIDEWALK
CITIZEN_COUNTS = {"W": 25, "M": 24, "U": 23}

# Facts stated by the rulebook (or confirmed by public reviews of the game).
ACTION_TILES = 11
SECTIONS = 3
MULTIPLIERS = (0, 1, 2, 3, 4)
INTERSECTIONS = 5
PASSENGERS = 5
COBBLESTONES = 6
MODERNISME_SPACES = 5
PUBLIC_SERVICE_COSTS = [3, 2, 1]
PUBLIC_SERVICE_VP = [10, 6, 3]
PUBLIC_SERVICE_CERDA = 2
SERVICES_IN_PLAY = 5
MODERNISME_OFFER = 4
CERDA_TILES = 14
MODERNISME_TILES = 18
SAGRADA_TILES = 16
MAX_PLAYERS = 4
BUILDING_BONUS_VP = 5
MAX_CROSSING_COST = 3


# Building types: the rulebook's count, Citizens removed, required classes, effects, overbuilding.
BUILDING_RULES: dict[str, dict[str, object]] = {
    "corner": {"count": 8, "citizens": 2, "requires": {}, "cerda": 0, "sagrada": 0, "vp": 0, "over": []},
    "L1": {"count": 12, "citizens": 2, "requires": {}, "cerda": 1, "sagrada": 0, "vp": 0, "over": []},
    "L2": {"count": 8, "citizens": 2, "requires": {"M": 1}, "cerda": -1, "sagrada": 1, "vp": 0,
           "over": ["L1"]},
    "L3": {"count": 7, "citizens": 3, "requires": {"U": 1}, "cerda": -2, "sagrada": 2, "vp": 7,
           "over": ["L1", "L2"]},
}


class _Problems:
    """Collects "<file>: <entry>: <problem>" lines."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def add(self, file: str, entry: str, problem: str) -> None:
        self.lines.append(f"{file}: {entry}: {problem}")

    def ids(self, file: str, kind: str, ids: Iterable[str], expected: Iterable[str] | None = None) -> None:
        """Each id once; with `expected`, exactly those ids."""
        counts = Counter(ids)
        for name, n in counts.items():
            if n > 1:
                self.add(file, f"{kind} {name}", f"duplicate id (listed {n} times)")
        if expected is None:
            return
        wanted = tuple(expected)
        for name in counts:
            if name not in wanted:
                self.add(file, f"{kind} {name}", f"unknown {_KIND_LABEL.get(kind, kind)} id")
        for name in wanted:
            if name not in counts:
                self.add(file, f"{kind} {name}", "missing")

    def count(self, file: str, entry: str, found: int, expected: int, what: str) -> None:
        if found != expected:
            self.add(file, entry, f"{found} {what}, expected {expected}")


_KIND_LABEL = {"space": "street space", "sidewalk": "sidewalk space", "printed": "street", "track": "citizen"}


def validate_components(components: Components, folder: Path) -> None:
    """Raise DataFileError listing every problem of the data set read from `folder`."""
    problems = _Problems()
    _check_city(problems, components.city)
    _check_actions(problems, components.actions)
    _check_tracks(problems, components.tracks)
    _check_player_board(problems, components.player_board)
    _check_side_board(problems, components.side_board)
    _check_tiles(problems, components.tiles, components.player_board)
    _check_benefit_actions(problems, components)
    _check_solo(problems, components.solo)
    if problems.lines:
        raise DataFileError("; ".join(problems.lines) + f" (data folder {folder})")


# ----------------------------------------------------------------------------------------------------
def adjacent_spaces(crossing_id: str) -> tuple[str, ...]:
    """The street spaces touching a crossing: up to 4 orthogonal ones, plus the diagonal's."""
    return tuple(board.SPACES[s] for s in board.CROSSING_SPACES[board.CROSSING_INDEX[crossing_id]])


def _total(benefits: Iterable[Benefit]) -> Benefit:
    fields = ("coin", "cloth", "vp", "cerda", "sagrada", "resource")
    items = list(benefits)
    return Benefit(**{f: sum(getattr(b, f) for b in items) for f in fields})


def _check_city(p: _Problems, city: CityFile) -> None:
    f = "city.toml"
    p.ids(f, "street", [s.id for s in city.street], STREET_IDS)
    width = {s.id: s.width for s in city.street}
    if width.get("D") == "narrow":
        p.add(f, "street D", "the diagonal must be wide (Narrow lines are only vertical or horizontal)")

    p.ids(f, "crossing", [x.id for x in city.crossing], CROSSING_IDS)
    cost = {x.id: x.cost for x in city.crossing}
    for x in city.crossing:
        if x.cost > MAX_CROSSING_COST:
            p.add(f, f"crossing {x.id}", f"cost {x.cost} out of range 0..{MAX_CROSSING_COST}")
        if x.id in DIAGONAL_CROSSINGS and x.cost != 1:
            p.add(f, f"crossing {x.id}", f"a diagonal crossing costs 1 coin, not {x.cost}")

    p.ids(f, "space", [s.id for s in city.space], SPACE_IDS)
    benefit = {s.id: s.benefit for s in city.space}
    narrow = [s for s in city.space if width.get(s.id.split(".")[0]) == "narrow"]
    if not any(s.benefit == Benefit(coin=1) for s in narrow):
        p.add(f, "space", "no Narrow street space printed with exactly 1 coin (street example)")
    if not any(s.benefit.is_empty() for s in narrow):
        p.add(f, "space", "no Narrow street space without benefit (street example)")

    example = Benefit(coin=2, cerda=2)
    if not any(
        cost.get(x) == 1 and _total(benefit[s] for s in adjacent_spaces(x) if s in benefit) == example
        for x in CROSSING_IDS
    ):
        p.add(
            f,
            "crossing",
            "no 1-coin crossing whose adjacent street spaces show exactly 2 coins + 2 Cerdà steps "
            "(intersection example)",
        )

    rows = Counter(b.row for b in city.building_bonus)
    for row in range(4):
        if rows[row] != 1:
            p.add(f, f"building_bonus row {row}", f"listed {rows[row]} times, expected once")
    for b in city.building_bonus:
        if b.vp != BUILDING_BONUS_VP:
            p.add(f, f"building_bonus row {b.row}", f"{b.vp} VP, the rulebook says {BUILDING_BONUS_VP}")


# ----------------------------------------------------------------------------------------------------
def _check_actions(p: _Problems, actions: ActionsFile) -> None:
    f = "actions.toml"
    p.count(f, "tile", len(actions.tile), ACTION_TILES, "Action tiles")
    p.ids(f, "tile", [t.id for t in actions.tile])
    kinds: Counter[str] = Counter(t.kind for t in actions.tile)
    for kind in ACTION_KINDS:
        if not kinds[kind]:
            p.add(f, "tile", f"no Action tile of kind {kind}")
    p.ids(f, "printed", [a.street for a in actions.printed], STREET_IDS)
    printed: Counter[str] = Counter(a.kind for a in actions.printed)
    if printed != kinds:
        differ = [k for k in sorted(set(printed) | set(kinds)) if printed[k] != kinds[k]]
        detail = ", ".join(f"{k} {printed[k]} printed / {kinds[k]} tiles" for k in differ)
        p.add(f, "printed", f"the printed map must show the same actions as the tiles ({detail})")


# ----------------------------------------------------------------------------------------------------
_PREFILL_RANK = {3: 2, 2: 1, 0: 0}


def _check_tracks(p: _Problems, tracks: TracksFile) -> None:
    f = "tracks.toml"
    for citizen in sorted(set(tracks.citizens) | set(CITIZEN_COUNTS)):
        found = tracks.citizens.get(citizen)
        expected = CITIZEN_COUNTS.get(citizen)
        if expected is None:
            p.add(f, f"citizens {citizen}", "unknown citizen type (W, M or U)")
        elif found != expected:
            p.add(f, f"citizens {citizen}", f"{found} citizens, the rulebook says {expected}")

    p.ids(f, "track", [t.citizen for t in tracks.track], CITIZEN_COUNTS)
    for track in tracks.track:
        entry = f"track {track.citizen}"
        count = CITIZEN_COUNTS[track.citizen]
        if len(track.sections) != SECTIONS:
            p.add(f, entry, f"{len(track.sections)} sections, expected {SECTIONS}")
            continue
        spaces = sum(len(s.values) for s in track.sections)
        if 2 * spaces < count:
            p.add(f, entry, f"{spaces} spaces, too few for {count} citizens (at least half must fit)")
        prefilled = 0
        for number, section in enumerate(track.sections, start=1):
            where = f"{entry} section {number}"
            if len(section.values) < 2:
                p.add(f, where, f"{len(section.values)} spaces, expected at least 2")
            ranks = [_PREFILL_RANK[m] for m in section.prefill]
            if ranks != sorted(ranks, reverse=True):
                p.add(f, where, "prefill marks must fill the section from the left (3s, then 2s, then 0s)")
            if section.prefill[section.trigger]:
                p.add(f, where, "the trigger space is prefilled, the section would score at setup")
            prefilled += sum(1 for m in section.prefill if m)
        first, second, last = track.sections
        end = len(first.values) + len(second.values) + last.trigger + 1
        if end > count:
            p.add(f, entry, f"the end trigger needs {end} citizens, there are only {count}")
        if prefilled > count:
            p.add(f, entry, f"{prefilled} citizens prefilled with 2 players, there are only {count}")

    cerda = tracks.cerda
    where = "cerda"
    marks: dict[int, int] = {}
    for key, multiplier in cerda.marks.items():
        try:
            position = int(key)
        except ValueError:
            p.add(f, f"{where} mark {key!r}", "the position must be a whole number")
            continue
        if not 0 <= position <= cerda.top:
            p.add(f, f"{where} mark {key}", f"position out of range 0..{cerda.top}")
        marks[position] = multiplier
    if sorted(marks.values()) != list(MULTIPLIERS):
        p.add(f, f"{where} marks", f"multipliers {sorted(marks.values())}, expected each of 0..4 once")
    else:
        by_multiplier = {m: pos for pos, m in marks.items()}
        positions = [by_multiplier[m] for m in MULTIPLIERS]
        if positions != sorted(positions):
            p.add(f, f"{where} marks", "the multipliers must rise with the position")
        elif not by_multiplier[1] < cerda.start < by_multiplier[2]:
            p.add(
                f,
                f"{where} start",
                f"the start {cerda.start} must lie strictly between the x1 mark ({by_multiplier[1]}) "
                f"and the x2 mark ({by_multiplier[2]})",
            )
    if cerda.start > cerda.top:
        p.add(f, f"{where} start", f"start {cerda.start} above the top {cerda.top}")


# ----------------------------------------------------------------------------------------------------
def _non_decreasing(values: list[int]) -> bool:
    return all(a <= b for a, b in pairwise(values))


def _check_vp_row(
    p: _Problems, f: str, entry: str, values: list[int], length: int, top: int, seen: int
) -> None:
    if len(values) != length:
        p.add(f, entry, f"{len(values)} values, expected {length}")
    if not _non_decreasing(values):
        p.add(f, entry, "values must not decrease")
    if values and max(values) != top:
        p.add(f, entry, f"maximum {max(values)}, expected {top}")
    if seen not in values:
        p.add(f, entry, f"the value {seen} must occur (final-scoring example)")


def _check_player_board(p: _Problems, board: PlayerBoardFile) -> None:
    f = "player_board.toml"
    sagrada = board.sagrada
    afters = [slot.after for slot in sagrada.slots]
    if afters != sorted(set(afters)):
        p.add(f, "sagrada slots", "slot positions must be distinct and listed left to right")
    for slot in sagrada.slots:
        if slot.after > sagrada.top:
            p.add(f, f"sagrada slot after {slot.after}", f"beyond the top space {sagrada.top}")

    p.count(f, "intersection", len(board.intersection), INTERSECTIONS, "Intersections")
    if len(board.intersection) >= 3 and board.intersection[2].coin != 2:
        cost = board.intersection[2].coin
        p.add(f, "intersection 3", f"costs {cost} coins, expected 2 (intersection example)")
    first = [x.benefit for x in board.intersection[:3]]
    if not any(b.coin == 1 for b in first) or not any(b.vp == 2 for b in first):
        need = "the first three benefits must include 1 coin and 2 VP"
        p.add(f, "intersection", f"{need} (intersection example)")
    for number, intersection in enumerate(board.intersection, start=1):
        if intersection.benefit.is_empty():
            p.add(f, f"intersection {number}", "no benefit")

    p.count(f, "passenger", len(board.passenger), PASSENGERS, "Passengers")
    for number, passenger in enumerate(board.passenger, start=1):
        if passenger.coin + passenger.cloth == 0:
            p.add(f, f"passenger {number}", "no cost (each Passenger costs coins and/or cloth)")
    if not any(x.coin == 0 and x.cloth == 1 for x in board.passenger):
        p.add(f, "passenger", "no Passenger costing exactly 1 cloth (tram example)")
    _check_vp_row(p, f, "passenger_vp", board.passenger_vp, PASSENGERS + 1, 23, 16)

    warehouse = board.warehouse
    _check_vp_row(p, f, "warehouse cobblestone_vp", warehouse.cobblestone_vp, COBBLESTONES + 1, 16, 7)
    if (warehouse.start_coin, warehouse.start_cloth) != (1, 1):
        p.add(f, "warehouse", "the rulebook starts the Warehouse with 1 coin and 1 cloth")
    if warehouse.start_coin + warehouse.start_cloth > warehouse.open_spaces:
        p.add(f, "warehouse", f"start resources do not fit the {warehouse.open_spaces} open spaces")

    spaces = board.modernisme
    p.count(f, "modernisme", len(spaces), MODERNISME_SPACES, "Modernisme Project spaces")
    if len(spaces) == MODERNISME_SPACES:
        if spaces[2].improve_cloth != 2:
            cloth = spaces[2].improve_cloth
            p.add(f, "modernisme 3", f"improving costs {cloth} cloth, expected 2 (Modernisme example)")
        if spaces[-1].top != 4:
            p.add(f, "modernisme 5", f"top multiplier x{spaces[-1].top}, expected x4 (final-scoring example)")
    if not any(s.take_cloth == 1 for s in spaces):
        p.add(f, "modernisme", "no space where taking a tile costs 1 cloth (Modernisme example)")

    for name, stacks, total, cerda, expected_cerda in (
        ("narrow_stacks", board.narrow_stacks, 10, board.narrow_stack_cerda, 1),
        ("wide_stacks", board.wide_stacks, 5, board.wide_stack_cerda, 2),
        ("marker_stacks", board.marker_stacks, 8, board.marker_stack_cerda, 1),
    ):
        if sum(stacks) != total:
            p.add(f, name, f"stacks hold {sum(stacks)} pieces, expected {total}")
        if cerda != expected_cerda:
            entry = name.replace("stacks", "stack_cerda")
            p.add(f, entry, f"{cerda} Cerdà steps, the rulebook says {expected_cerda}")


# ----------------------------------------------------------------------------------------------------
def _check_side_board(p: _Problems, side: SideBoardFile) -> None:
    f = "side_board.toml"
    p.ids(f, "sidewalk", [s.id for s in side.sidewalk], SIDEWALK_IDS)
    starts = [s.id for s in side.sidewalk if s.start]
    if len(starts) != 1:
        p.add(f, "sidewalk", f"{len(starts)} starting cobblestone spaces {starts}, expected exactly one")
    for space in side.sidewalk:
        if space.start and not space.benefit.is_empty():
            p.add(f, f"sidewalk {space.id}", "the starting space is covered at setup, it shows no benefit")
        if not space.start and space.benefit.is_empty():
            p.add(f, f"sidewalk {space.id}", "no benefit (every Sidewalk space shows one)")

    p.count(f, "service", len(side.service), len(SERVICE_EFFECTS), "Public Service types")
    p.ids(f, "service", [s.id for s in side.service])
    effects: Counter[str] = Counter(s.effect for s in side.service)
    for effect in SERVICE_EFFECTS:
        if effects[effect] != 1:
            p.add(f, "service", f"effect {effect} on {effects[effect]} types, expected one")
    for service in side.service:
        where = f"service {service.id}"
        if service.costs != PUBLIC_SERVICE_COSTS:
            p.add(f, where, f"costs {service.costs}, the rulebook says {PUBLIC_SERVICE_COSTS}")
        if service.vp != PUBLIC_SERVICE_VP:
            p.add(f, where, f"VP {service.vp}, the rulebook says {PUBLIC_SERVICE_VP}")
        if service.cerda != PUBLIC_SERVICE_CERDA:
            p.add(f, where, f"{service.cerda} Cerdà steps, the rulebook says {PUBLIC_SERVICE_CERDA}")
    if side.services_in_play != SERVICES_IN_PLAY:
        p.add(f, "services_in_play", f"{side.services_in_play}, the rulebook says {SERVICES_IN_PLAY}")
    if side.modernisme_offer != MODERNISME_OFFER:
        p.add(f, "modernisme_offer", f"{side.modernisme_offer}, the rulebook says {MODERNISME_OFFER}")


# ----------------------------------------------------------------------------------------------------
def _check_tiles(p: _Problems, tiles: TilesFile, board: PlayerBoardFile) -> None:
    f = "tiles.toml"
    p.ids(f, "condition", [c.id for c in tiles.condition], CONDITIONS)
    for c in tiles.condition:
        if not c.text.strip():
            p.add(f, f"condition {c.id}", "empty text")

    p.count(f, "cerda", len(tiles.cerda), CERDA_TILES, "Cerdà Scoring tiles")
    p.count(f, "modernisme", len(tiles.modernisme), MODERNISME_TILES, "Modernisme tiles")
    tile_ids = [t.id for t in tiles.cerda] + [t.id for t in tiles.modernisme] + [t.id for t in tiles.sagrada]
    p.ids(f, "tile", tile_ids)
    modernisme = {t.id for t in tiles.modernisme}
    twins = Counter(t.twin for t in tiles.cerda)
    for tile in tiles.cerda:
        if not tile.twin:
            p.add(f, f"cerda {tile.id}", "no twin (each Cerdà tile names its Modernisme twin)")
        elif tile.twin not in modernisme:
            p.add(f, f"cerda {tile.id}", f"twin {tile.twin} is not a Modernisme tile")
        elif twins[tile.twin] > 1:
            p.add(f, f"cerda {tile.id}", f"twin {tile.twin} is also the twin of another Cerdà tile")
    for tile in (*tiles.cerda, *tiles.modernisme):
        if tile.vp < 1:
            p.add(f, f"tile {tile.id}", "0 VP per unit")
    for tile in tiles.modernisme:
        if tile.twin:
            p.add(f, f"modernisme {tile.id}", "only Cerdà tiles have a twin")
    used = {t.condition for t in (*tiles.cerda, *tiles.modernisme)}
    for condition in CONDITIONS:
        if condition not in used:
            p.add(f, f"condition {condition}", "not used by any tile")
    if not any(t.condition == "corner_buildings_different_blocks" and t.vp == 3 for t in tiles.cerda):
        p.add(f, "cerda", "no Cerdà tile with 3 VP per Corner Building on different blocks (Cerdà example)")
    if not any(t.condition == "wide_tiles" and t.vp == 2 for t in tiles.modernisme):
        p.add(f, "modernisme", "no Modernisme tile with 2 VP per Wide Street tile (final-scoring example)")

    p.count(f, "sagrada", len(tiles.sagrada), SAGRADA_TILES, "Sagrada Família tiles")
    per_level = Counter(t.level for t in tiles.sagrada)
    slot_levels = Counter(slot.level for slot in board.sagrada.slots)
    for level, slots in sorted(slot_levels.items()):
        if per_level[level] < MAX_PLAYERS * slots:
            p.add(
                f,
                f"sagrada level {level}",
                f"{per_level[level]} tiles, {MAX_PLAYERS} players need {MAX_PLAYERS * slots}",
            )
    for sagrada in tiles.sagrada:
        if sagrada.level not in slot_levels:
            p.add(f, f"sagrada {sagrada.id}", f"level {sagrada.level} has no slot on the player board")
        if sagrada.benefit.is_empty():
            p.add(f, f"sagrada {sagrada.id}", "no benefit")

    p.ids(f, "building", [b.id for b in tiles.building], BUILDING_RULES)
    for building in tiles.building:
        rule = BUILDING_RULES[building.id]
        for field, expected in rule.items():
            found = getattr(building, field)
            if found != expected:
                p.add(f, f"building {building.id}", f"{field} {found}, the rulebook says {expected}")


# ----------------------------------------------------------------------------------------------------
def _benefits(components: Components) -> Iterator[tuple[str, str, Benefit]]:
    for space in components.city.space:
        yield "city.toml", f"space {space.id}", space.benefit
    for number, slot in enumerate(components.player_board.intersection, start=1):
        yield "player_board.toml", f"intersection {number}", slot.benefit
    for sidewalk in components.side_board.sidewalk:
        yield "side_board.toml", f"sidewalk {sidewalk.id}", sidewalk.benefit
    for tile in components.tiles.sagrada:
        yield "tiles.toml", f"sagrada {tile.id}", tile.benefit


def _check_benefit_actions(p: _Problems, components: Components) -> None:
    for file, entry, benefit in _benefits(components):
        if benefit.action is not None and benefit.action not in ACTION_KINDS:
            p.add(file, entry, f"unknown action {benefit.action!r}")


# ----------------------------------------------------------------------------------------------------
# Solo mode (solo.toml): the 8 solo cards, the meeple, the conversion rates, the difficulty levels.
SOLO_CARDS = 8


def _check_solo(p: _Problems, solo: SoloFile) -> None:
    f = "solo.toml"
    p.count(f, "card", len(solo.card), SOLO_CARDS, "solo cards")
    p.ids(f, "card", [str(c.number) for c in solo.card], [str(n) for n in range(1, SOLO_CARDS + 1)])
    for card in solo.card:
        if card.action != "cloth_or_coins" and "gain" in card.model_fields_set:
            p.add(f, f"card {card.number}", f"'gain' is only for a cloth_or_coins card, not {card.action}")
    if solo.meeple.start not in CROSSING_IDS:
        p.add(f, "meeple start", f"unknown crossing id {solo.meeple.start!r}")
    for name, n in Counter(solo.meeple.priorities).items():
        if n > 1:
            p.add(f, "meeple priorities", f"{name} listed {n} times")
    order = solo.building.order
    if sorted(order) != sorted(BUILDING_RULES):
        p.add(f, "building order", f"must list each of {', '.join(BUILDING_RULES)} once, not {order}")
    p.ids(f, "difficulty", [d.id for d in solo.difficulty], ("easy", "normal", "hard"))
    percent = {d.id: d.percent for d in solo.difficulty}
    levels = [percent[d] for d in ("easy", "normal", "hard") if d in percent]
    if levels != sorted(levels):
        p.add(f, "difficulty", "multipliers must not decrease from easy to normal to hard")
    for mark, n in Counter(solo.setup.prefill).items():
        if n > 1:
            p.add(f, "setup prefill", f"mark {mark} listed {n} times")
