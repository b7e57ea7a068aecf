"""Component data of Barcelona: the printed values of boards and tiles, read from TOML files.

Every printed value lives in `data/*.toml`, each entry with its provenance (`rulebook`, `public`
or `reconstruction`). Files are validated when they load: counts, references and ranges. A bad
file raises DataFileError naming the file, the entry and the problem. A user who owns the
physical game can point the engine at a corrected data folder (`new_game(..., data_dir=...)`).

Geometry (ids used everywhere, also in action text):
- Crossing `C{r}{c}`: row r (0 top .. 4 bottom), column c (0 left .. 4 right).
- Vertical street `V{c}`, its spaces `V{c}.{r}` between crossings C{r}{c} and C{r+1}{c}.
- Horizontal street `H{r}`, its spaces `H{r}.{c}` between C{r}{c} and C{r}{c+1}.
- Diagonal street `D`, its spaces `D.{i}` between C{i}{i} and C{i+1}{i+1}.
- Block `B{r}{c}` (r, c in 0..3) has corners C{r}{c}, C{r}{c+1}, C{r+1}{c}, C{r+1}{c+1}.
  Blocks B00, B11, B22, B33 are cut by the diagonal into two Corner Building spaces:
  `B{i}{i}U` (upper-right: C{i}{i}, C{i}{i+1}, C{i+1}{i+1}) and `B{i}{i}L` (lower-left:
  C{i}{i}, C{i+1}{i}, C{i+1}{i+1}).
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from eixample.core.errors import DataFileError

DATA_DIR = Path(__file__).parent / "data"

Source = Literal["rulebook", "public", "reconstruction"]
NonNeg = Annotated[int, Field(ge=0)]

ActionKind = Literal[
    "cloth_or_coins",
    "cobblestone",
    "streets",
    "intersection",
    "improve_modernisme",
    "take_modernisme",
    "public_service",
    "tram",
]
ACTION_KINDS: tuple[str, ...] = get_args(ActionKind)

ServiceEffect = Literal["market", "tram", "intersection", "streets", "cobblestone", "sagrada", "modernisme"]
SERVICE_EFFECTS: tuple[str, ...] = get_args(ServiceEffect)

Condition = Literal[
    "longest_block_line",
    "cloth_in_warehouse",
    "coins_in_warehouse",
    "longest_narrow_line",
    "intersections_near_3_buildings",
    "cerda_multiplier",
    "longest_wide_line",
    "public_services",
    "narrow_tiles",
    "passengers_near_2_buildings",
    "wide_tiles",
    "modernisme_markers_top",
    "passengers",
    "cobblestones",
    "intersections",
    "empty_marker_stacks",
    "corner_buildings_different_blocks",
    "modernisme_tiles",
    "bottom_markers_non_corner",
]
CONDITIONS: tuple[str, ...] = get_args(Condition)


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Benefit(Model):
    """What a printed benefit gives. `resource` is N resources in any mix of coins and cloth
    chosen by the player; `action` performs one action of that kind (sidewalk spaces)."""

    coin: NonNeg = 0
    cloth: NonNeg = 0
    vp: NonNeg = 0
    cerda: NonNeg = 0
    sagrada: NonNeg = 0
    resource: NonNeg = 0
    action: ActionKind | None = None

    def is_empty(self) -> bool:
        return not (
            self.coin or self.cloth or self.vp or self.cerda or self.sagrada or self.resource or self.action
        )


# ----------------------------------------------------------------------------- city.toml
class Street(Model):
    id: str  # V0..V4, H0..H4, D
    width: Literal["wide", "narrow"]
    source: Source
    note: str = ""


class Crossing(Model):
    id: str  # C00..C44
    cost: NonNeg  # printed coin cost to place citizens (and to build an Intersection there)
    source: Source
    note: str = ""


class StreetSpace(Model):
    id: str  # V2.1, H0.3, D.2
    benefit: Benefit = Benefit()
    source: Source
    note: str = ""


class BuildingBonus(Model):
    row: Annotated[int, Field(ge=0, le=3)]
    vp: NonNeg
    source: Source


class CityFile(Model):
    street: list[Street]
    crossing: list[Crossing]
    space: list[StreetSpace]
    building_bonus: list[BuildingBonus]


# ----------------------------------------------------------------------------- actions.toml
class ActionTile(Model):
    id: str
    kind: ActionKind
    source: Source
    note: str = ""


class PrintedAction(Model):
    street: str
    kind: ActionKind
    source: Source


class ActionsFile(Model):
    tile: list[ActionTile]  # the 11 action tiles (shuffled onto the 11 street ends)
    printed: list[PrintedAction]  # the printed first-game map: street -> action


# ----------------------------------------------------------------------------- tracks.toml
class TrackSection(Model):
    values: list[Annotated[int, Field(ge=1, le=20)]]  # printed VP of each space, left to right
    trigger: NonNeg  # index (in this section) of the marked Cerdà Scoring space
    prefill: list[Literal[0, 2, 3]]  # 3: filled with 3 or 2 players; 2: only with 2 players
    source: Source
    note: str = ""

    @model_validator(mode="after")
    def _check(self) -> TrackSection:
        if len(self.prefill) != len(self.values):
            raise ValueError("prefill must have one mark per space")
        if self.trigger >= len(self.values):
            raise ValueError("trigger index outside the section")
        return self


class CitizenTrack(Model):
    citizen: Literal["W", "M", "U"]
    sections: list[TrackSection]


class CerdaTrack(Model):
    top: Annotated[int, Field(ge=4)]  # positions 0 (bottom) .. top
    start: NonNeg
    marks: dict[str, Annotated[int, Field(ge=0, le=4)]]  # position (as text) -> multiplier
    source: Source
    note: str = ""


class TracksFile(Model):
    citizens: dict[str, NonNeg]  # W/M/U -> count
    track: list[CitizenTrack]
    cerda: CerdaTrack


# ----------------------------------------------------------------------------- player_board.toml
class SagradaSlot(Model):
    after: Annotated[int, Field(ge=1)]  # crossed when the marker moves onto space `after`
    level: Annotated[int, Field(ge=1)]


class SagradaTrack(Model):
    top: Annotated[int, Field(ge=1)]  # spaces 0 .. top
    slots: list[SagradaSlot]
    source: Source
    note: str = ""


class IntersectionSlot(Model):
    coin: NonNeg  # cost paid when this Intersection is built
    benefit: Benefit  # offered when citizens are placed on your Intersections, once built
    source: Source


class PassengerSlot(Model):
    coin: NonNeg
    cloth: NonNeg
    source: Source


class ModernismeSpace(Model):
    take_cloth: NonNeg  # cost to put a Modernisme tile here
    improve_cloth: NonNeg  # cost to move this marker to its top position
    bottom: Annotated[int, Field(ge=0, le=4)]
    top: Annotated[int, Field(ge=1, le=6)]
    source: Source

    @model_validator(mode="after")
    def _top_higher(self) -> ModernismeSpace:
        if self.top <= self.bottom:
            raise ValueError("the top multiplier must be higher than the bottom one")
        return self


class Warehouse(Model):
    open_spaces: Annotated[int, Field(ge=2)]  # spaces free of cobblestones at setup
    cobblestone_vp: list[NonNeg]  # VP shown with 0, 1, ... 6 cobblestones removed
    start_coin: NonNeg
    start_cloth: NonNeg
    source: Source
    note: str = ""


class PlayerBoardFile(Model):
    sagrada: SagradaTrack
    intersection: list[IntersectionSlot]
    passenger: list[PassengerSlot]
    passenger_vp: list[NonNeg]  # VP shown with 0, 1, ... 5 passengers placed
    passenger_source: Source
    warehouse: Warehouse
    modernisme: list[ModernismeSpace]
    narrow_stacks: list[Annotated[int, Field(ge=1)]]  # [4, 6]
    wide_stacks: list[Annotated[int, Field(ge=1)]]  # [5]
    narrow_stack_cerda: NonNeg
    wide_stack_cerda: NonNeg
    marker_stacks: list[Annotated[int, Field(ge=1)]]  # [2, 2, 2, 1, 1]
    marker_stack_cerda: NonNeg
    stacks_source: Source


# ----------------------------------------------------------------------------- side_board.toml
class SidewalkSpace(Model):
    id: str  # S{r}{c}, r and c in 0..4
    benefit: Benefit = Benefit()
    start: bool = False  # the printed starting cobblestone
    source: Source


class PublicService(Model):
    id: str
    name: str
    effect: ServiceEffect
    costs: list[NonNeg]  # coin cost of the tiles, top of the stack first: [3, 2, 1]
    vp: list[NonNeg]  # VP of the same tiles: [10, 6, 3]
    cerda: NonNeg
    source: Source


class SideBoardFile(Model):
    sidewalk: list[SidewalkSpace]
    service: list[PublicService]
    services_in_play: NonNeg
    modernisme_offer: NonNeg


# ----------------------------------------------------------------------------- tiles.toml
class ConditionText(Model):
    id: Condition
    text: str


class ScoringTile(Model):
    id: str
    condition: Condition
    vp: NonNeg  # VP per unit counted by the condition
    cap: NonNeg = 0  # at most this many units (0: no cap)
    twin: str = ""  # Cerdà tiles: the Modernisme tile removed at setup
    source: Source
    note: str = ""


class SagradaTile(Model):
    id: str
    level: Annotated[int, Field(ge=1)]
    benefit: Benefit
    source: Source


class BuildingType(Model):
    id: Literal["corner", "L1", "L2", "L3"]
    count: NonNeg
    citizens: Annotated[int, Field(ge=1, le=4)]  # citizens removed to build it
    requires: dict[str, NonNeg] = {}  # W/M/U -> at least this many among them
    cerda: int = 0  # steps (negative: back)
    sagrada: NonNeg = 0
    vp: NonNeg = 0
    over: list[str] = []  # building types it may be built on
    source: Source


class TilesFile(Model):
    condition: list[ConditionText]
    cerda: list[ScoringTile]
    modernisme: list[ScoringTile]
    sagrada: list[SagradaTile]
    building: list[BuildingType]


# ----------------------------------------------------------------------------- solo.toml
DIRECTIONS = ("north", "east", "south", "west")
Direction = Literal["north", "east", "south", "west"]
MEEPLE_PRIORITIES = ("building", "own_intersection", "no_player_intersection", "open_spaces")
MeeplePriority = Literal["building", "own_intersection", "no_player_intersection", "open_spaces"]
DIFFICULTIES = ("easy", "normal", "hard")


class SoloCard(Model):
    """One of the 8 solo cards: the action Gaudí's Assistant performs and its direction arrow."""

    number: Annotated[int, Field(ge=1, le=8)]
    action: ActionKind  # "tram": the Assistant places a Passenger, never the Tram
    direction: Direction
    gain: Literal["cloth", "coins"] = "cloth"  # for cloth_or_coins: which half it takes
    fallback_vp: NonNeg = 0  # VP instead, when the action cannot be performed at all
    source: Source
    note: str = ""


class SoloMeeple(Model):
    start: str  # crossing id
    priorities: list[MeeplePriority]  # most important first; the card's direction breaks ties
    source: Source
    note: str = ""


class SoloBuilding(Model):
    order: list[Literal["corner", "L1", "L2", "L3"]]  # preferred Building types, best first
    source: Source
    note: str = ""


class SoloConversion(Model):
    coin: NonNeg  # VP per coin gained
    cloth: NonNeg  # VP per cloth gained
    resource: NonNeg  # VP per resource of a free mix of coins and cloth
    source: Source
    note: str = ""


class SoloDifficulty(Model):
    id: Literal["easy", "normal", "hard"]
    percent: Annotated[int, Field(ge=1, le=1000)]  # the Assistant's final VP x percent / 100
    source: Source
    note: str = ""


class SoloSetup(Model):
    prefill: list[Literal[2, 3]]  # Citizen-track marks covered at setup
    source: Source
    note: str = ""


class SoloFile(Model):
    card: list[SoloCard]
    meeple: SoloMeeple
    building: SoloBuilding
    conversion: SoloConversion
    difficulty: list[SoloDifficulty]
    setup: SoloSetup


FILES: dict[str, type[Model]] = {
    "city": CityFile,
    "actions": ActionsFile,
    "tracks": TracksFile,
    "player_board": PlayerBoardFile,
    "side_board": SideBoardFile,
    "tiles": TilesFile,
    "solo": SoloFile,
}


class Components(Model):
    city: CityFile
    actions: ActionsFile
    tracks: TracksFile
    player_board: PlayerBoardFile
    side_board: SideBoardFile
    tiles: TilesFile
    solo: SoloFile


def _read(path: Path, model: type[Model]) -> Any:
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataFileError(f"{path}: file not found") from None
    except tomllib.TOMLDecodeError as error:
        raise DataFileError(f"{path}: not valid TOML: {error}") from None
    try:
        return model.model_validate(raw)
    except ValidationError as error:
        problems = []
        for item in error.errors():
            where = _describe_location(raw, item["loc"])
            problems.append(f"{path.name}: {where}: {item['msg']}")
        raise DataFileError("; ".join(problems)) from None


def _describe_location(raw: Any, loc: tuple[Any, ...]) -> str:
    """'street[3] (id V2).width' style: the entry by index and by id when it has one."""
    parts: list[str] = []
    node = raw
    for key in loc:
        if isinstance(key, int):
            label = f"[{key}]"
            if (
                isinstance(node, list)
                and key < len(node)
                and isinstance(node[key], dict)
                and "id" in node[key]
            ):
                label += f" (id {node[key]['id']})"
            parts.append(label)
        else:
            parts.append(("." if parts else "") + str(key))
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            node = None
    return "".join(parts) or "file"


def load_components(data_dir: Path | str | None = None) -> Components:
    """Read and validate every data file of `data_dir` (default: the bundled data)."""
    folder = Path(data_dir) if data_dir is not None else DATA_DIR
    parts = {name: _read(folder / f"{name}.toml", model) for name, model in FILES.items()}
    components = Components.model_construct(**parts)
    from eixample.games.barcelona.validate import validate_components

    validate_components(components, folder)
    return components


@cache
def default_components() -> Components:
    return load_components(None)
