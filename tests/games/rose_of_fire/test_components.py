"""The component data files: the rulebook's facts hold, every entry has its provenance, and a
bad file is refused with an error naming the file, the entry and the problem."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from eixample.core.errors import DataFileError
from eixample.games import rose_of_fire
from eixample.games.rose_of_fire.components import DATA_DIR, load_tables


def test_rulebook_facts() -> None:
    t = load_tables()
    assert len(t.space_names) == 118 and len(t.district_ids) == 3
    assert sorted(t.start_colour.count(c) for c in range(3)) == [3, 3, 3]  # 3 per colour
    for d in range(3):  # each district: one starting space of each colour
        assert sorted(
            t.start_colour[x] for x in range(118) if t.space_district[x] == d and t.start_colour[x] >= 0
        ) == [0, 1, 2]
    assert [t.card_kind.count(k) for k in range(4)] == [36, 39, 6, 1]
    assert len(t.immigration) == 7 and 6 in t.immigration
    assert sum(t.tokens_per_symbol) == 36 and len(t.influence_ids) == 9
    assert t.unused_token_vp[3] == 1 and t.unused_token_vp[5] == 2 and t.unused_token_vp[6] == 3
    assert t.hand_limit == {2: 5, 3: 4, 4: 4} and t.raval_limit == {2: 6, 3: 5, 4: 5}
    assert set(t.bomb_start) == {2, 3, 4} and t.soldiers == 16 and t.obelisks == 10
    assert list(t.block_vp) == sorted(t.block_vp, reverse=True)  # higher class scores more
    assert t.strike_vp == 2 and t.strike_vp_negative == 4 and t.prestige_card_vp == 4


def test_every_entry_has_a_source_and_reconstructions_a_reason() -> None:
    import tomllib

    for path in DATA_DIR.glob("*.toml"):
        data = tomllib.loads(path.read_text())
        for key, value in data.items():
            entries = value if isinstance(value, list) else [value]
            for entry in entries:
                assert entry.get("source") in ("rulebook", "public", "reconstruction"), (path.name, key)
                if entry["source"] == "reconstruction":
                    assert entry.get("reason"), (path.name, key)


def test_no_dead_card() -> None:
    """Every Popularity and Prestige card can be played normally in a fresh game (it shows a
    colour and a house type) and every event has an effect."""
    t = load_tables()
    for c in range(len(t.card_names)):
        if t.card_kind[c] in (1, 2):
            assert t.card_houses[c] and (t.card_ability[c] or t.card_event[c])


@pytest.mark.parametrize(
    ("file", "old", "new", "message"),
    [
        (
            "cards.toml",
            'id = "c02"\ncolour = "yellow"',
            'id = "c02"\ncolour = "blue"',
            "cards.toml: city card c02: 'colour'",
        ),
        ("tracks.toml", "tokens = [2, 3, 3, 4, 4, 5, 6]", "tokens = [2, 3]", "tracks.toml: [immigration]"),
        ("influence.toml", "vp = 7", 'vp = "seven"', "influence.toml: card K3: 'vp'"),
        (
            "board.toml",
            '  "#######.",\n  "########",',
            '  "########",\n  "########",',
            "board.toml: [[district]]: 119",
        ),
    ],
)
def test_bad_files_are_refused_naming_file_entry_and_problem(
    tmp_path: Path, file: str, old: str, new: str, message: str
) -> None:
    folder = tmp_path / "data"
    shutil.copytree(DATA_DIR, folder)
    text = (folder / file).read_text()
    assert old in text
    (folder / file).write_text(text.replace(old, new, 1))
    with pytest.raises(DataFileError) as error:
        rose_of_fire.new_game(3, 1, data_dir=str(folder))
    assert message in str(error.value)


def test_a_corrected_copy_is_used_with_data_dir(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    shutil.copytree(DATA_DIR, folder)
    text = (folder / "tracks.toml").read_text()
    (folder / "tracks.toml").write_text(text.replace("prestige_card_vp = 4", "prestige_card_vp = 5"))
    state = rose_of_fire.new_game(3, 1, data_dir=str(folder))
    assert state.t.prestige_card_vp == 5
