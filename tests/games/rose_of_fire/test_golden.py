"""Golden records of The Rose of Fire (tests/golden/rose-of-fire/): whole games of greedy bots,
each stored with its final saved state and scores. Every record replays, under the rules version
it names, to exactly that state: a later release may add readings, never change a game already
played. `rules1-*` were played by the engine as it was before version 2 existed; their records
and final states are that engine's, with `"rules": 1` added to the options (nothing else differs).

Regenerate the newest version's records (only when adding a version) with
`PYTHONPATH=src python -m tests.games.rose_of_fire.test_golden`."""

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


def test_there_are_golden_records_of_each_version_and_player_count() -> None:
    found = {(load(p)["record"]["options"]["rules"], load(p)["record"]["players"]) for p in FILES}
    wanted = {(rules, players) for rules in rose_of_fire.GAME.rules_versions() for players in (2, 3, 4)}
    assert found >= wanted


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_a_golden_record_replays_to_its_final_state(path: Path) -> None:
    golden = load(path)
    state = rose_of_fire.replay(golden["record"])
    assert state.rules_version == golden["record"]["options"]["rules"]
    assert state.is_terminal() and state.scores() == golden["scores"]
    assert as_json(state.to_json()) == golden["final_state"]
    assert as_json(rose_of_fire.from_json(golden["final_state"]).to_json()) == golden["final_state"]


@pytest.mark.parametrize("path", [p for p in FILES if p.stem.startswith("rules1-")], ids=lambda p: p.stem)
def test_a_state_saved_before_versions_loads_as_version_1(path: Path) -> None:
    saved = load(path)["final_state"]
    del saved["options"]["rules"]
    state = rose_of_fire.from_json(saved)
    assert state.rules_version == 1 and state.scores() == load(path)["scores"]


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


def record_game(players: int, seed: int) -> dict[str, Any]:
    from eixample.ai.greedy import GreedyBot
    from eixample.ai.match import play_out

    state = rose_of_fire.new_game(players, seed)
    play_out(state, [GreedyBot("greedy", seed * 10 + seat) for seat in range(players)])
    return {"record": state.record(), "final_state": state.to_json(), "scores": state.scores()}


if __name__ == "__main__":
    for players, seed in ((2, 21), (3, 22), (4, 23)):
        golden = record_game(players, seed)
        name = f"rules{golden['record']['options']['rules']}-{players}p-seed{seed}.json"
        (GOLDEN / name).write_text(json.dumps(golden, separators=(",", ":")))
