"""The printed parts of Barcelona views are built once per set of tables, stay those of the game's
own data folder, and each view has its own copy of them."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import orjson

from eixample.games import barcelona
from eixample.games.barcelona import views
from eixample.games.barcelona.components import DATA_DIR


def _changed_folder(tmp_path: Path) -> Path:
    """A data folder whose Modernisme tile MT02 gives 4 VP per cloth, and SF01 3 resources."""
    folder = tmp_path / "data"
    shutil.copytree(DATA_DIR, folder)
    path = folder / "tiles.toml"
    text = path.read_text(encoding="utf-8")
    for old, new in (
        (
            'id = "MT02", condition = "cloth_in_warehouse", vp = 2',
            'id = "MT02", condition = "cloth_in_warehouse", vp = 4',
        ),
        (
            'id = "SF01", level = 1, benefit = { resource = 2 }',
            'id = "SF01", level = 1, benefit = { resource = 3 }',
        ),
    ):
        assert text.count(old) == 1
        text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")
    return folder


def _wreck(value: Any) -> None:
    """Change every object and array inside a view, as careless code might."""
    if isinstance(value, dict):
        for item in value.values():
            _wreck(item)
        value.clear()
        value["wrecked"] = True
    elif isinstance(value, list):
        for item in value:
            _wreck(item)
        value.clear()
        value.append("wrecked")


def test_a_view_shares_nothing_with_other_views() -> None:
    """The printed parts are built once per set of tables, yet each view has its own copies:
    changing one view changes no other view, of the same state or another."""
    one, two = barcelona.new_game(2, 1), barcelona.new_game(3, 2)
    assert one.t is two.t
    expected = [orjson.dumps(one.view(None)), orjson.dumps(two.view(0)), orjson.dumps(one.view(1))]
    for state, seat in ((one, None), (two, 0), (one, 1), (one, None)):
        _wreck(state.view(seat))
    assert [orjson.dumps(one.view(None)), orjson.dumps(two.view(0)), orjson.dumps(one.view(1))] == expected
    assert one.view(None)["tiles"] == orjson.loads(views.Printed.of(one.t).catalogue)


def test_the_catalogue_is_that_of_the_games_data_folder(tmp_path: Path) -> None:
    bundled = barcelona.new_game(2, 1).view(None)["tiles"]
    changed = barcelona.new_game(2, 1, data_dir=str(_changed_folder(tmp_path))).view(None)["tiles"]
    assert bundled["modernisme"]["MT02"]["vp"] == 2
    assert changed["modernisme"]["MT02"]["vp"] == 4
    assert changed["modernisme"]["MT02"]["text"].startswith("4 VP: ")
    assert bundled["sagrada"]["SF01"]["benefit"] == {"resource": 2}
    assert changed["sagrada"]["SF01"]["benefit"] == {"resource": 3}
    # and the bundled game's views are unchanged by the other folder's
    assert barcelona.new_game(2, 1).view(None)["tiles"]["modernisme"]["MT02"]["vp"] == 2


def test_state_parts_of_a_view_follow_the_state() -> None:
    """Street spaces share their printed facts, but each view has its own owners."""
    state = barcelona.new_game(2, 5)
    before = state.view(None)
    while not any(space["tile"] is not None for space in state.view(None)["city"]["spaces"]):
        state.apply(state.legal_actions()[0])
    after = state.view(None)
    assert [s["tile"] for s in before["city"]["spaces"]] != [s["tile"] for s in after["city"]["spaces"]]
    assert all(s["tile"] is None for s in before["city"]["spaces"])
    assert [s["benefit"] for s in before["city"]["spaces"]] == [s["benefit"] for s in after["city"]["spaces"]]
