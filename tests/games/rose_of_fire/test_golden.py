"""What The Rose of Fire's golden records (tests/golden/rose-of-fire/, replayed by
tests/core/test_golden.py) must hold: `rules1-*` were played by the engine as it was before
version 2 existed (their records and final states are that engine's, with `"rules": 1` added to
the options); the version-2 records use that version's new decisions."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from eixample.games import rose_of_fire
from eixample.games.rose_of_fire.state import PLAY

GOLDEN = Path(__file__).parents[2] / "golden" / "rose-of-fire"
FILES = sorted(GOLDEN.glob("*.json"))


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def as_json(value: Any) -> Any:
    return json.loads(json.dumps(value))


@pytest.mark.parametrize("path", [p for p in FILES if p.stem.startswith("rules1-")], ids=lambda p: p.stem)
def test_a_state_saved_before_versions_loads_as_version_1(path: Path) -> None:
    saved = rose_of_fire.replay(load(path)["record"]).to_json()
    del saved["options"]["rules"]
    state = rose_of_fire.from_json(saved)
    assert state.rules_version == 1 and state.scores() == load(path)["final"]["scores"]


def test_version_2_records_use_its_new_decisions() -> None:
    """The newest records buy before a card and choose when an ability resolves, so that
    replaying them tests those readings."""
    kinds: set[str] = set()
    for path in FILES:
        record = load(path)["record"]
        if record["options"]["rules"] != 2:
            continue
        state = rose_of_fire.new_game(record["players"], record["seed"], **record["options"])
        for action in record["actions"]:
            if state.decision_kind() == "buy" and state.stack[-2][0] == PLAY and action != "done":
                kinds.add("buy before the card")
            kinds.add(state.decision_kind())
            state.apply(action)
    assert {"buy before the card", "ability"} <= kinds
