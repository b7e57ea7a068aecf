"""Printed component values compiled into flat tuples indexed like the board geometry.

The engine reads only these tables; they are built once per data folder from the validated
`Components`, so the hot path never touches pydantic models.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from eixample.games.barcelona import board
from eixample.games.barcelona.components import (
    ACTION_KINDS,
    DIRECTIONS,
    SERVICE_EFFECTS,
    Benefit,
    BuildingType,
    Components,
    SoloFile,
    load_components,
)

CITIZENS = "WMU"  # Working, Middle, Upper class
CITIZEN_NAMES = ("Working", "Middle", "Upper")
BUILDING_TYPES: tuple[str, ...] = ("corner", "L1", "L2", "L3")
CORNER, L1, L2, L3 = range(4)
NARROW, WIDE = 0, 1


@dataclass(frozen=True)
class SoloTables:
    """The solo mode (solo.toml): Gaudí's Assistant's cards, meeple, conversions, difficulty."""

    card_kind: tuple[int, ...]  # by card (number - 1): action kind index
    card_direction: tuple[int, ...]  # 0 north, 1 east, 2 south, 3 west
    card_coins: tuple[bool, ...]  # Gain Cloth/Coins: takes the coins
    card_fallback_vp: tuple[int, ...]
    meeple_start: int  # crossing index
    priorities: tuple[str, ...]
    building_order: tuple[int, ...]  # building types, preferred first
    coin_vp: int
    cloth_vp: int
    resource_vp: int
    percent: dict[str, int]  # difficulty -> the Assistant's final VP multiplier in percent
    prefill: frozenset[int]  # Citizen-track marks covered at setup


def compile_solo(solo: SoloFile) -> SoloTables:
    cards = sorted(solo.card, key=lambda c: c.number)
    kind_index = {k: i for i, k in enumerate(ACTION_KINDS)}
    return SoloTables(
        card_kind=tuple(kind_index[c.action] for c in cards),
        card_direction=tuple(DIRECTIONS.index(c.direction) for c in cards),
        card_coins=tuple(c.gain == "coins" for c in cards),
        card_fallback_vp=tuple(c.fallback_vp for c in cards),
        meeple_start=board.CROSSING_INDEX[solo.meeple.start],
        priorities=tuple(solo.meeple.priorities),
        building_order=tuple(BUILDING_TYPES.index(b) for b in solo.building.order),
        coin_vp=solo.conversion.coin,
        cloth_vp=solo.conversion.cloth,
        resource_vp=solo.conversion.resource,
        percent={d.id: d.percent for d in solo.difficulty},
        prefill=frozenset(solo.setup.prefill),
    )


@dataclass(frozen=True)
class Tables:
    """The printed data compiled for the rules; one per data folder (`tables_for`)."""

    components: Components
    data_dir: str | None
    # city
    space_wide: tuple[bool, ...]
    space_benefit: tuple[Benefit | None, ...]
    crossing_cost: tuple[int, ...]
    row_bonus_vp: tuple[int, ...]
    # actions
    action_tiles: tuple[int, ...]  # kind index of each of the 11 tiles
    printed_actions: tuple[int, ...]  # kind index per street
    # citizen tracks: per track, flat lists over its spaces
    track_values: tuple[tuple[int, ...], ...]
    track_section: tuple[tuple[int, ...], ...]  # section index of each space
    track_triggers: tuple[tuple[int, ...], ...]  # per track, per section: flat index of the trigger space
    track_prefill: tuple[tuple[int, ...], ...]
    citizen_counts: tuple[int, int, int]
    # Cerdà track
    cerda_top: int
    cerda_start: int
    cerda_multiplier: tuple[int, ...]  # by position
    # player board
    sagrada_top: int
    sagrada_slot_level: tuple[int, ...]  # by space: level of the slot crossed to reach it, 0 if none
    intersection_cost: tuple[int, ...]
    intersection_benefit: tuple[Benefit, ...]
    passenger_cost: tuple[tuple[int, int], ...]  # (coins, cloth)
    passenger_vp: tuple[int, ...]
    warehouse_open: int
    cobblestone_vp: tuple[int, ...]
    start_coin: int
    start_cloth: int
    modernisme_take: tuple[int, ...]
    modernisme_improve: tuple[int, ...]
    modernisme_bottom: tuple[int, ...]
    modernisme_top: tuple[int, ...]
    narrow_stacks: tuple[int, ...]
    wide_stacks: tuple[int, ...]
    narrow_stack_cerda: int
    wide_stack_cerda: int
    marker_stacks: tuple[int, ...]
    marker_stack_cerda: int
    # side board
    sidewalk_benefit: tuple[Benefit | None, ...]
    sidewalk_start: int
    service_ids: tuple[str, ...]
    service_names: tuple[str, ...]
    service_effect: tuple[int, ...]  # index into SERVICE_EFFECTS
    service_costs: tuple[tuple[int, ...], ...]
    service_vp: tuple[tuple[int, ...], ...]
    service_cerda: tuple[int, ...]
    services_in_play: int
    modernisme_offer: int
    # tiles
    condition_text: dict[str, str]
    cerda_ids: tuple[str, ...]
    cerda_condition: tuple[str, ...]
    cerda_vp: tuple[int, ...]
    cerda_cap: tuple[int, ...]
    cerda_twin: tuple[int, ...]  # index of the Modernisme twin
    modernisme_ids: tuple[str, ...]
    modernisme_condition: tuple[str, ...]
    modernisme_vp: tuple[int, ...]
    modernisme_cap: tuple[int, ...]
    sagrada_ids: tuple[str, ...]
    sagrada_level: tuple[int, ...]
    sagrada_benefit: tuple[Benefit, ...]
    building_count: tuple[int, ...]
    building_citizens: tuple[int, ...]
    building_requires: tuple[tuple[int, int, int], ...]  # at least this many W, M, U
    building_cerda: tuple[int, ...]
    building_sagrada: tuple[int, ...]
    building_vp: tuple[int, ...]
    building_over: tuple[tuple[int, ...], ...]  # types it may be built on
    # solo mode
    solo: SoloTables

    def __reduce__(self) -> tuple[object, tuple[str | None]]:
        """Pickled by its folder: a state sent to another process (a search helper) carries the
        folder's name, not a copy of every table; the other side loads it once."""
        return tables_for, (self.data_dir,)

def _nonempty(benefit: Benefit) -> Benefit | None:
    return None if benefit.is_empty() else benefit


def compile_tables(components: Components, data_dir: str | None = None) -> Tables:
    city, acts, tracks = components.city, components.actions, components.tracks
    pb, side, tiles = components.player_board, components.side_board, components.tiles
    streets = {s.id: s for s in city.street}
    spaces = {s.id: s for s in city.space}
    crossings = {c.id: c for c in city.crossing}
    kind_index = {k: i for i, k in enumerate(ACTION_KINDS)}

    track_values, track_section, track_triggers, track_prefill = [], [], [], []
    for letter in CITIZENS:
        track = next(t for t in tracks.track if t.citizen == letter)
        values: list[int] = []
        section_of: list[int] = []
        triggers: list[int] = []
        prefill: list[int] = []
        for k, section in enumerate(track.sections):
            triggers.append(len(values) + section.trigger)
            values.extend(section.values)
            section_of.extend([k] * len(section.values))
            prefill.extend(section.prefill)
        track_values.append(tuple(values))
        track_section.append(tuple(section_of))
        track_triggers.append(tuple(triggers))
        track_prefill.append(tuple(prefill))

    marks = {int(pos): mult for pos, mult in tracks.cerda.marks.items()}
    multiplier: list[int] = []
    current = 0
    for pos in range(tracks.cerda.top + 1):
        current = marks.get(pos, current)
        multiplier.append(current)

    slot_level = [0] * (pb.sagrada.top + 1)
    for slot in pb.sagrada.slots:
        slot_level[slot.after] = slot.level

    sidewalk = {s.id: s for s in side.sidewalk}
    modernisme_index = {t.id: i for i, t in enumerate(tiles.modernisme)}
    building: dict[str, BuildingType] = {b.id: b for b in tiles.building}

    return Tables(
        components=components,
        data_dir=data_dir,
        space_wide=tuple(streets[board.STREETS[board.SPACE_STREET[s]]].width == "wide" for s in range(44)),
        space_benefit=tuple(_nonempty(spaces[name].benefit) for name in board.SPACES),
        crossing_cost=tuple(crossings[name].cost for name in board.CROSSINGS),
        row_bonus_vp=tuple(next(b.vp for b in city.building_bonus if b.row == r) for r in range(4)),
        action_tiles=tuple(kind_index[t.kind] for t in acts.tile),
        printed_actions=tuple(
            kind_index[next(p.kind for p in acts.printed if p.street == st)] for st in board.STREETS
        ),
        track_values=tuple(track_values),
        track_section=tuple(track_section),
        track_triggers=tuple(track_triggers),
        track_prefill=tuple(track_prefill),
        citizen_counts=(tracks.citizens["W"], tracks.citizens["M"], tracks.citizens["U"]),
        cerda_top=tracks.cerda.top,
        cerda_start=tracks.cerda.start,
        cerda_multiplier=tuple(multiplier),
        sagrada_top=pb.sagrada.top,
        sagrada_slot_level=tuple(slot_level),
        intersection_cost=tuple(i.coin for i in pb.intersection),
        intersection_benefit=tuple(i.benefit for i in pb.intersection),
        passenger_cost=tuple((p.coin, p.cloth) for p in pb.passenger),
        passenger_vp=tuple(pb.passenger_vp),
        warehouse_open=pb.warehouse.open_spaces,
        cobblestone_vp=tuple(pb.warehouse.cobblestone_vp),
        start_coin=pb.warehouse.start_coin,
        start_cloth=pb.warehouse.start_cloth,
        modernisme_take=tuple(m.take_cloth for m in pb.modernisme),
        modernisme_improve=tuple(m.improve_cloth for m in pb.modernisme),
        modernisme_bottom=tuple(m.bottom for m in pb.modernisme),
        modernisme_top=tuple(m.top for m in pb.modernisme),
        narrow_stacks=tuple(pb.narrow_stacks),
        wide_stacks=tuple(pb.wide_stacks),
        narrow_stack_cerda=pb.narrow_stack_cerda,
        wide_stack_cerda=pb.wide_stack_cerda,
        marker_stacks=tuple(pb.marker_stacks),
        marker_stack_cerda=pb.marker_stack_cerda,
        sidewalk_benefit=tuple(_nonempty(sidewalk[name].benefit) for name in board.SIDEWALK),
        sidewalk_start=next(board.SIDEWALK_INDEX[s.id] for s in side.sidewalk if s.start),
        service_ids=tuple(s.id for s in side.service),
        service_names=tuple(s.name for s in side.service),
        service_effect=tuple(SERVICE_EFFECTS.index(s.effect) for s in side.service),
        service_costs=tuple(tuple(s.costs) for s in side.service),
        service_vp=tuple(tuple(s.vp) for s in side.service),
        service_cerda=tuple(s.cerda for s in side.service),
        services_in_play=side.services_in_play,
        modernisme_offer=side.modernisme_offer,
        condition_text={c.id: c.text for c in tiles.condition},
        cerda_ids=tuple(t.id for t in tiles.cerda),
        cerda_condition=tuple(t.condition for t in tiles.cerda),
        cerda_vp=tuple(t.vp for t in tiles.cerda),
        cerda_cap=tuple(t.cap for t in tiles.cerda),
        cerda_twin=tuple(modernisme_index[t.twin] for t in tiles.cerda),
        modernisme_ids=tuple(t.id for t in tiles.modernisme),
        modernisme_condition=tuple(t.condition for t in tiles.modernisme),
        modernisme_vp=tuple(t.vp for t in tiles.modernisme),
        modernisme_cap=tuple(t.cap for t in tiles.modernisme),
        sagrada_ids=tuple(t.id for t in tiles.sagrada),
        sagrada_level=tuple(t.level for t in tiles.sagrada),
        sagrada_benefit=tuple(t.benefit for t in tiles.sagrada),
        building_count=tuple(building[t].count for t in BUILDING_TYPES),
        building_citizens=tuple(building[t].citizens for t in BUILDING_TYPES),
        building_requires=tuple(
            (
                building[t].requires.get("W", 0),
                building[t].requires.get("M", 0),
                building[t].requires.get("U", 0),
            )
            for t in BUILDING_TYPES
        ),
        building_cerda=tuple(building[t].cerda for t in BUILDING_TYPES),
        building_sagrada=tuple(building[t].sagrada for t in BUILDING_TYPES),
        building_vp=tuple(building[t].vp for t in BUILDING_TYPES),
        building_over=tuple(tuple(BUILDING_TYPES.index(o) for o in building[t].over) for t in BUILDING_TYPES),
        solo=compile_solo(components.solo),
    )


@cache
def tables_for(data_dir: str | None) -> Tables:
    """Tables of the bundled data (None) or of a data folder, loaded and validated once."""
    folder = Path(data_dir) if data_dir else None
    return compile_tables(load_components(folder), data_dir)
