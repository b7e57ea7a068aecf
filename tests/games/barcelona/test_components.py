"""The component data files: the bundled data loads, satisfies the rulebook's worked examples, and
bad files are rejected with a message naming the file, the entry and the problem."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from eixample.core.errors import DataFileError
from eixample.games.barcelona.components import (
    ACTION_KINDS,
    CONDITIONS,
    DATA_DIR,
    Benefit,
    Components,
    TrackSection,
    default_components,
    load_components,
)
from eixample.games.barcelona.validate import adjacent_spaces


@pytest.fixture(scope="module")
def data() -> Components:
    return load_components()


# ----------------------------------------------------------------------------------------------------
# Helpers: reading the data the way the rules do.
def multiplier(data: Components, position: int) -> int:
    """Cerdà multiplier of a marker: the highest mark it has reached."""
    marks = {int(pos): m for pos, m in data.tracks.cerda.marks.items()}
    return max(m for pos, m in marks.items() if pos <= position)


def mark_position(data: Components, wanted: int) -> int:
    return next(int(pos) for pos, m in data.tracks.cerda.marks.items() if m == wanted)


def flat_values(sections: list[TrackSection]) -> list[int]:
    return [v for section in sections for v in section.values]


def lowest_visible(data: Components, filled: dict[str, int]) -> int:
    """Building VP: the lowest value still visible over the three tracks (values rise left to
    right, so on each track it is the first empty space)."""
    return min(flat_values(track.sections)[filled[track.citizen]] for track in data.tracks.track)


def space_benefits(data: Components) -> dict[str, Benefit]:
    return {s.id: s.benefit for s in data.city.space}


# ----------------------------------------------------------------------------------------------------
def test_bundled_data_loads(data: Components) -> None:
    assert default_components() == data
    assert len(data.city.street) == 11
    assert len(data.city.crossing) == 25
    assert len(data.city.space) == 44
    assert len(data.actions.tile) == 11
    assert len(data.tiles.cerda) == 14
    assert len(data.tiles.modernisme) == 18
    assert len(data.tiles.sagrada) == 16
    assert [c.id for c in data.tiles.condition] == list(CONDITIONS)
    assert {t.kind for t in data.actions.tile} == set(ACTION_KINDS)


def test_an_unchanged_copy_loads_from_another_folder(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    shutil.copytree(DATA_DIR, folder)
    assert load_components(str(folder)) == load_components(folder) == default_components()


def test_rulebook_components(data: Components) -> None:
    assert data.tracks.citizens == {"W": 25, "M": 24, "U": 23}
    assert [b.vp for b in sorted(data.city.building_bonus, key=lambda b: b.row)] == [5, 5, 5, 5]
    assert {s.id: s.width for s in data.city.street}["D"] == "wide"
    buildings = {b.id: b for b in data.tiles.building}
    assert {k: (b.count, b.citizens) for k, b in buildings.items()} == {
        "corner": (8, 2),
        "L1": (12, 2),
        "L2": (8, 2),
        "L3": (7, 3),
    }
    assert buildings["L3"].over == ["L1", "L2"] and buildings["L3"].vp == 7
    for service in data.side_board.service:
        printed = (service.costs, service.vp, service.cerda, service.source)
        assert printed == ([3, 2, 1], [10, 6, 3], 2, "rulebook")
    assert len({s.effect for s in data.side_board.service}) == 7
    board = data.player_board
    assert (board.narrow_stacks, board.wide_stacks, board.marker_stacks) == ([4, 6], [5], [2, 2, 2, 1, 1])
    assert (board.warehouse.start_coin, board.warehouse.start_cloth) == (1, 1)
    assert len(board.warehouse.cobblestone_vp) == 7  # six cobblestones


def test_diagonal_crossings_cost_one_coin(data: Components) -> None:
    cost = {x.id: x.cost for x in data.city.crossing}
    assert [cost[f"C{i}{i}"] for i in range(5)] == [1] * 5


def test_street_example(data: Components) -> None:
    """Blue places 2 Narrow tiles, one on a 1-coin space, one on a space without benefit; their
    first stack (4 tiles) is then empty: +1 Cerdà step."""
    width = {s.id: s.width for s in data.city.street}
    narrow = [s for s in data.city.space if width[s.id.split(".")[0]] == "narrow"]
    assert any(s.benefit == Benefit(coin=1) for s in narrow)
    assert any(s.benefit.is_empty() for s in narrow)
    assert data.player_board.narrow_stacks[0] == 4
    assert data.player_board.narrow_stack_cerda == 1


def test_intersection_example(data: Components) -> None:
    """Blue builds their third Intersection for 2 coins on a 1-coin crossing and gains 2 coins and
    2 Cerdà steps; later, with 3 built, they take 1 coin and 2 VP."""
    board = data.player_board
    assert board.intersection[2].coin == 2
    benefits = space_benefits(data)
    crossing = next(x for x in data.city.crossing if x.id == "C13")
    assert crossing.cost == 1
    gained = [benefits[s] for s in adjacent_spaces(crossing.id)]
    assert sum(b.coin for b in gained) == 2
    assert sum(b.cerda for b in gained) == 2
    assert not any(b.cloth or b.vp or b.sagrada or b.resource or b.action for b in gained)
    unlocked = [slot.benefit for slot in board.intersection[:3]]
    assert Benefit(coin=1) in unlocked and Benefit(vp=2) in unlocked


def test_adjacent_spaces_of_a_diagonal_crossing() -> None:
    assert adjacent_spaces("C00") == ("V0.0", "H0.0", "D.0")
    assert set(adjacent_spaces("C22")) == {"V2.1", "V2.2", "H2.1", "H2.2", "D.1", "D.2"}
    assert set(adjacent_spaces("C13")) == {"V3.0", "V3.1", "H1.2", "H1.3"}


def test_modernisme_examples(data: Components) -> None:
    """Improving the middle space costs 2 Cloth; taking a tile into some space costs 1 Cloth."""
    spaces = data.player_board.modernisme
    assert spaces[2].improve_cloth == 2
    assert any(s.take_cloth == 1 for s in spaces)
    assert all(s.top > s.bottom for s in spaces)


def test_tram_example(data: Components) -> None:
    """Blue pays 1 Cloth for their leftmost Passenger and takes the street's Gain 2 Coins action."""
    first = data.player_board.passenger[0]
    assert (first.coin, first.cloth) == (0, 1)
    assert "cloth_or_coins" in {a.kind for a in data.actions.printed}


def test_level_2_building_example(data: Components) -> None:
    """A Level-2 building needs 1 Middle-class citizen, gives +1 Sagrada and -1 Cerdà, and scores
    the 7 VP visible on the tracks at some mid-game moment."""
    l2 = next(b for b in data.tiles.building if b.id == "L2")
    assert (l2.citizens, l2.requires, l2.sagrada, l2.cerda) == (2, {"M": 1}, 1, -1)
    first_scoring = len(data.tracks.track[0].sections[0].values)
    sections = data.tracks.track[0].sections
    game_end = len(sections[0].values) + len(sections[1].values) + sections[2].trigger
    scores = {n: lowest_visible(data, dict.fromkeys("WMU", n)) for n in range(first_scoring, game_end)}
    assert 7 in scores.values()


def test_building_vp_rise_with_the_tracks(data: Components) -> None:
    for track in data.tracks.track:
        values = flat_values(track.sections)
        assert values == sorted(values)
        assert {5, 7} <= set(values)


def test_cerda_scoring_example(data: Components) -> None:
    """First Cerdà tile: 3 VP per Corner Building on different blocks. Blue (past x3, not yet x4)
    has corners on 2 blocks: 18 VP; Purple (exactly x2) none: 0; Orange (on the start, between x1
    and x2) one: 3 VP."""
    tile = next(t for t in data.tiles.cerda if t.condition == "corner_buildings_different_blocks")
    assert tile.vp == 3
    x3, x4 = mark_position(data, 3), mark_position(data, 4)
    blue = x3 + 1
    assert blue < x4
    purple = mark_position(data, 2)
    orange = data.tracks.cerda.start
    assert (multiplier(data, blue), multiplier(data, purple), multiplier(data, orange)) == (3, 2, 1)
    assert tile.vp * 2 * multiplier(data, blue) == 18
    assert tile.vp * 0 * multiplier(data, purple) == 0
    assert tile.vp * 1 * multiplier(data, orange) == 3


def test_cerda_track_marks(data: Components) -> None:
    cerda = data.tracks.cerda
    positions = [mark_position(data, m) for m in range(5)]
    assert positions == sorted(positions) and positions[0] == 0 and positions[-1] <= cerda.top
    assert positions[1] < cerda.start < positions[2]
    # a Level-3 building from the start keeps the x1 multiplier, a second one drops to x0
    assert multiplier(data, cerda.start - 2) == 1
    assert multiplier(data, cerda.start - 4) == 0


def test_final_scoring_example(data: Components) -> None:
    """154 VP + 7 (cobblestones) + 16 (4 passengers) + 2 VP x 3 Wide tiles x 4 = 201."""
    board = data.player_board
    assert 7 in board.warehouse.cobblestone_vp and max(board.warehouse.cobblestone_vp) == 16
    assert 16 in board.passenger_vp and max(board.passenger_vp) == 23
    tile = next(t for t in data.tiles.modernisme if t.condition == "wide_tiles")
    rightmost = board.modernisme[-1]
    assert rightmost.top == 4
    modernisme = tile.vp * 3 * rightmost.top
    assert modernisme == 24
    assert 154 + 7 + 16 + modernisme == 201


def test_prefilled_citizens_fit_the_supply(data: Components) -> None:
    for track in data.tracks.track:
        two_players = sum(1 for s in track.sections for m in s.prefill if m)
        three_players = sum(1 for s in track.sections for m in s.prefill if m == 3)
        assert 0 < three_players < two_players <= data.tracks.citizens[track.citizen]


def test_cerda_and_modernisme_twins(data: Components) -> None:
    modernisme = {t.id: t for t in data.tiles.modernisme}
    twins = [t.twin for t in data.tiles.cerda]
    assert len(set(twins)) == 14 and set(twins) <= set(modernisme)
    different = [t for t in data.tiles.cerda if modernisme[t.twin].condition != t.condition]
    assert len(different) == 1
    used = {t.condition for t in (*data.tiles.cerda, *data.tiles.modernisme)}
    assert used == set(CONDITIONS)


def test_sagrada_tiles_serve_four_players(data: Components) -> None:
    levels = [slot.level for slot in data.player_board.sagrada.slots]
    for level in levels:
        assert sum(1 for t in data.tiles.sagrada if t.level == level) >= 4


def test_printed_action_map_never_repeats_an_action_at_a_crossing(data: Components) -> None:
    kind = {a.street: a.kind for a in data.actions.printed}
    for r in range(5):
        for c in range(5):
            streets = [f"V{c}", f"H{r}"] + (["D"] if r == c else [])
            kinds = [kind[s] for s in streets]
            assert len(set(kinds)) == len(kinds), f"C{r}{c}: {kinds}"


def test_sidewalk_start_is_the_centre(data: Components) -> None:
    assert [s.id for s in data.side_board.sidewalk if s.start] == ["S22"]


# ----------------------------------------------------------------------------------------------------
# Bad files.
@pytest.fixture
def folder(tmp_path: Path) -> Path:
    copy = tmp_path / "data"
    shutil.copytree(DATA_DIR, copy)
    return copy


def corrupt(folder: Path, file: str, old: str, new: str) -> None:
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} must occur once in {file}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def remove_line(folder: Path, file: str, start: str) -> None:
    text = (folder / file).read_text(encoding="utf-8")
    line = next(li for li in text.splitlines() if li.startswith(start))
    corrupt(folder, file, line + "\n", "")


def problem(folder: Path) -> str:
    with pytest.raises(DataFileError) as error:
        load_components(folder)
    return str(error.value)


def test_wrong_count_of_action_tiles(folder: Path) -> None:
    corrupt(folder, "actions.toml", '[[tile]]\nid = "A11"\nkind = "tram"\nsource = "reconstruction"\n', "")
    message = problem(folder)
    assert "actions.toml: tile: 10 Action tiles, expected 11" in message
    assert "actions.toml: printed: the printed map must show the same actions as the tiles" in message


def test_wrong_count_of_cerda_tiles(folder: Path) -> None:
    remove_line(folder, "tiles.toml", '  { id = "CS14",')
    assert "tiles.toml: cerda: 13 Cerdà Scoring tiles, expected 14" in problem(folder)


def test_unknown_street_space_id(folder: Path) -> None:
    corrupt(folder, "city.toml", '{ id = "V2.1",', '{ id = "V2.9",')
    message = problem(folder)
    assert "city.toml: space V2.9: unknown street space id" in message
    assert "city.toml: space V2.1: missing" in message


def test_duplicate_crossing_id(folder: Path) -> None:
    corrupt(folder, "city.toml", '{ id = "C12",', '{ id = "C13",')
    message = problem(folder)
    assert "city.toml: crossing C13: duplicate id" in message
    assert "city.toml: crossing C12: missing" in message


def test_out_of_range_crossing_cost(folder: Path) -> None:
    corrupt(folder, "city.toml", '{ id = "C12", cost = 0,', '{ id = "C12", cost = 9,')
    assert "city.toml: crossing C12: cost 9 out of range 0..3" in problem(folder)


def test_out_of_range_track_value(folder: Path) -> None:
    corrupt(folder, "tracks.toml", "[11, 12, 13, 15, 17, 19, 20]", "[11, 12, 13, 15, 17, 19, 25]")
    message = problem(folder)
    assert "tracks.toml: track[2].sections[2].values[6]: Input should be less than or equal to 20" in message


def test_invalid_toml(folder: Path) -> None:
    (folder / "side_board.toml").write_text("services_in_play = [5\n", encoding="utf-8")
    message = problem(folder)
    assert "side_board.toml" in message and "not valid TOML" in message


def test_missing_file(folder: Path) -> None:
    (folder / "tiles.toml").unlink()
    message = problem(folder)
    assert "tiles.toml" in message and "file not found" in message


def test_unknown_twin(folder: Path) -> None:
    corrupt(folder, "tiles.toml", 'twin = "MT03"', 'twin = "MT99"')
    assert "tiles.toml: cerda CS05: twin MT99 is not a Modernisme tile" in problem(folder)


def test_shared_twin(folder: Path) -> None:
    corrupt(folder, "tiles.toml", 'twin = "MT03"', 'twin = "MT01"')
    message = problem(folder)
    assert "tiles.toml: cerda CS05: twin MT01 is also the twin of another Cerdà tile" in message


def test_missing_condition(folder: Path) -> None:
    remove_line(folder, "tiles.toml", '  { id = "cerda_multiplier", text =')
    assert "tiles.toml: condition cerda_multiplier: missing" in problem(folder)


def test_prefill_not_from_the_left(folder: Path) -> None:
    corrupt(
        folder,
        "tracks.toml",
        "values = [2, 3, 3, 4, 4, 5, 5]\ntrigger = 6\nprefill = [3, 2, 0, 0, 0, 0, 0]",
        "values = [2, 3, 3, 4, 4, 5, 5]\ntrigger = 6\nprefill = [2, 3, 0, 0, 0, 0, 0]",
    )
    expected = "tracks.toml: track W section 1: prefill marks must fill the section from the left"
    assert expected in problem(folder)


def test_prefilled_trigger(folder: Path) -> None:
    corrupt(
        folder,
        "tracks.toml",
        "values = [3, 3, 4, 4, 5, 5, 6]\ntrigger = 6\n",
        "values = [3, 3, 4, 4, 5, 5, 6]\ntrigger = 1\n",
    )
    assert "tracks.toml: track U section 1: the trigger space is prefilled" in problem(folder)


def test_wrong_citizen_count(folder: Path) -> None:
    corrupt(folder, "tracks.toml", "W = 25", "W = 26")
    assert "tracks.toml: citizens W: 26 citizens, the rulebook says 25" in problem(folder)


def test_cerda_start_on_a_mark(folder: Path) -> None:
    corrupt(folder, "tracks.toml", "start = 4", "start = 6")
    expected = "tracks.toml: cerda start: the start 6 must lie strictly between the x1 mark (2)"
    assert expected in problem(folder)


def test_cerda_marks_out_of_order(folder: Path) -> None:
    corrupt(folder, "tracks.toml", '"9" = 3\n"12" = 4', '"9" = 4\n"12" = 3')
    assert "tracks.toml: cerda marks: the multipliers must rise with the position" in problem(folder)


def test_passenger_vp_without_16(folder: Path) -> None:
    corrupt(folder, "player_board.toml", "[0, 3, 7, 11, 16, 23]", "[0, 3, 7, 11, 17, 23]")
    assert "player_board.toml: passenger_vp: the value 16 must occur" in problem(folder)


def test_cobblestone_vp_decreasing(folder: Path) -> None:
    corrupt(folder, "player_board.toml", "[0, 1, 3, 5, 7, 11, 16]", "[0, 1, 3, 5, 7, 16, 11]")
    assert "player_board.toml: warehouse cobblestone_vp: values must not decrease" in problem(folder)


def test_third_intersection_cost(folder: Path) -> None:
    third = "benefit = { cloth = 1 }"
    corrupt(folder, "player_board.toml", f"coin = 2\n{third}", f"coin = 3\n{third}")
    assert "player_board.toml: intersection 3: costs 3 coins, expected 2" in problem(folder)


def test_intersection_example_broken(folder: Path) -> None:
    corrupt(folder, "city.toml", 'id = "H1.3", benefit = { cerda = 1 }', 'id = "H1.3", benefit = { vp = 1 }')
    expected = "city.toml: crossing: no 1-coin crossing whose adjacent street spaces show exactly 2 coins"
    assert expected in problem(folder)


def test_narrow_diagonal(folder: Path) -> None:
    corrupt(folder, "city.toml", '{ id = "D", width = "wide"', '{ id = "D", width = "narrow"')
    assert "city.toml: street D: the diagonal must be wide" in problem(folder)


def test_printed_map_street_twice(folder: Path) -> None:
    corrupt(folder, "actions.toml", 'street = "D"', 'street = "V0"')
    message = problem(folder)
    assert "actions.toml: printed V0: duplicate id" in message
    assert "actions.toml: printed D: missing" in message


def test_two_sidewalk_starts(folder: Path) -> None:
    corrupt(folder, "side_board.toml", '{ id = "S23", benefit = { coin = 1 },', '{ id = "S23", start = true,')
    expected = "side_board.toml: sidewalk: 2 starting cobblestone spaces ['S22', 'S23'], expected exactly one"
    assert expected in problem(folder)


def test_public_service_cost(folder: Path) -> None:
    market = 'effect = "market"'
    corrupt(folder, "side_board.toml", f"{market}\ncosts = [3, 2, 1]", f"{market}\ncosts = [3, 2, 2]")
    assert "side_board.toml: service market: costs [3, 2, 2], the rulebook says [3, 2, 1]" in problem(folder)


def test_building_requirement(folder: Path) -> None:
    corrupt(folder, "tiles.toml", "requires = { M = 1 }", "requires = { U = 1 }")
    assert "tiles.toml: building L2: requires {'U': 1}, the rulebook says {'M': 1}" in problem(folder)


def test_too_few_sagrada_tiles_of_a_level(folder: Path) -> None:
    corrupt(folder, "tiles.toml", '{ id = "SF04", level = 1,', '{ id = "SF04", level = 2,')
    assert "tiles.toml: sagrada level 1: 3 tiles, 4 players need 4" in problem(folder)


def test_unknown_action_in_a_benefit(folder: Path) -> None:
    corrupt(folder, "side_board.toml", 'benefit = { action = "tram" }', 'benefit = { action = "fly" }')
    message = problem(folder)
    assert "side_board.toml: sidewalk[4] (id S04).benefit.action: Input should be" in message


def test_every_problem_is_reported_at_once(folder: Path) -> None:
    corrupt(folder, "city.toml", '{ id = "C12", cost = 0,', '{ id = "C12", cost = 9,')
    corrupt(folder, "side_board.toml", "modernisme_offer = 4", "modernisme_offer = 3")
    message = problem(folder)
    assert "city.toml: crossing C12: cost 9" in message
    assert "side_board.toml: modernisme_offer: 3, the rulebook says 4" in message
    assert str(folder) in message
