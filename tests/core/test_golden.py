"""The golden records (tests/golden/<game>/*.json): each replays to its stored final state and
scores under today's code, so a rule changed without a new rules version fails here. A game's
folder holds at least one record per rules version and number of players.

New entries: `python -m eixample.core.golden --game NAME --players N --seed S` (never overwrites)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from eixample.core.golden import GOLDEN_DIR, check_entry, differences, write_new_entry
from eixample.core.registry import get_game
from eixample.core.versions import rules_versions
from eixample.games.barcelona.frames import GAIN
from eixample.games.barcelona.state import BarcelonaState

ENTRIES = sorted(GOLDEN_DIR.glob("*/*.json"))


def load(path: Path) -> dict[str, Any]:
    entry: dict[str, Any] = json.loads(path.read_text())
    return entry


def test_the_golden_folder_is_where_the_tests_are() -> None:
    assert Path(__file__).resolve().parents[1] / "golden" == GOLDEN_DIR
    assert (GOLDEN_DIR / "barcelona").is_dir()


@pytest.mark.parametrize("path", ENTRIES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_golden_record_replays_to_its_final_state_and_scores(path: Path) -> None:
    entry = load(path)
    game = get_game(path.parent.name)
    assert entry["game"] == game.name
    assert entry["rules"] in rules_versions(game)
    assert entry["record"]["options"].get("rules", 1) == entry["rules"]
    assert check_entry(game, entry) == []


FOLDERS = sorted(p for p in GOLDEN_DIR.iterdir() if p.is_dir())


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: p.name)
def test_every_rules_version_and_number_of_players_has_a_golden_record(folder: Path) -> None:
    game = get_game(folder.name)
    held = {(load(p)["rules"], load(p)["record"]["players"]) for p in folder.glob("*.json")}
    wanted = {(v, n) for v in rules_versions(game) for n in range(game.min_players, game.max_players + 1)}
    assert wanted <= held, f"missing (rules, players): {sorted(wanted - held)}"


def test_changing_a_rule_without_a_new_version_fails_the_golden_records(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Gain Cloth/Coins giving the other resource: every entry with such an action no longer replays
    to its final state."""
    original = BarcelonaState.RESOLVE[GAIN]
    monkeypatch.setitem(BarcelonaState.RESOLVE, GAIN, lambda s, frame, coins: original(s, frame, 1 - coins))
    game = get_game("barcelona")
    entries = [load(p) for p in ENTRIES if p.parent.name == "barcelona"]
    gaining = [e for e in entries if any(a.startswith("gain ") for a in e["record"]["actions"])]
    assert gaining
    assert all(check_entry(game, e) for e in gaining)


def test_a_new_entry_replays_and_is_never_overwritten(tmp_path: Path) -> None:
    game = get_game("barcelona")
    path = write_new_entry(game, 2, 5, None, 40, tmp_path)
    entry = load(path)
    assert entry["rules"] == max(rules_versions(game)) and not entry["final"]["terminal"]
    assert check_entry(game, entry) == []
    before = path.read_text()
    with pytest.raises(FileExistsError):
        write_new_entry(game, 2, 5, None, 40, tmp_path)
    assert path.read_text() == before


def test_differences_name_the_paths() -> None:
    assert differences({"a": [1, 2], "b": 3}, {"a": [1, 5], "b": 3}) == [".a[1]"]
    assert differences([1], [1, 2]) == ["."]
