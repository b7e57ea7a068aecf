"""Golden records: for each rules version of a game, whole games with their final saved state and
scores, replayed by the tests (tests/golden/<game>/*.json). A change of a rule that does not come
with a new rules version changes some final state, and that test fails.

    python -m eixample.core.golden --game barcelona --players 2 --seed 7 [--rules 3] [--stop 120]

writes a new entry for the newest rules (or `--rules`) into tests/golden/<game>/, played by a
seeded random choice among the legal actions (to the end, or `--stop` actions for a game in
progress). An existing entry is never overwritten."""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

from eixample.core.errors import MalformedRecordError
from eixample.core.protocol import Game, JsonDict, State
from eixample.core.registry import get_game
from eixample.core.versions import RULES_OPTION, is_versioned, rules_versions

GOLDEN_DIR = Path(__file__).resolve().parents[3] / "tests" / "golden"
ENTRY_FORMAT = 1


def final_of(state: State) -> JsonDict:
    """What an entry stores of the game's last state: the whole saved state (its log aside, which
    is wording, not rules), scores, winners and whether it is over."""
    saved = {key: value for key, value in state.to_json().items() if key != "log"}
    return {
        "terminal": state.is_terminal(),
        "scores": state.scores(),
        "winners": state.winners(),
        "state": saved,
    }


def make_entry(state: State, note: str) -> JsonDict:
    record = state.record()
    return {
        "format": ENTRY_FORMAT,
        "game": record["game"],
        "rules": record.get("options", {}).get(RULES_OPTION, 1),
        "note": note,
        "record": record,
        "final": final_of(state),
    }


def differences(expected: Any, found: Any, path: str = "") -> list[str]:
    """Where two JSON values differ (at most a few paths)."""
    if isinstance(expected, dict) and isinstance(found, dict):
        out = []
        for key in sorted(set(expected) | set(found), key=str):
            out += differences(expected.get(key), found.get(key), f"{path}.{key}")
        return out[:8]
    if isinstance(expected, list) and isinstance(found, list) and len(expected) == len(found):
        out = []
        for i, (a, b) in enumerate(zip(expected, found, strict=True)):
            out += differences(a, b, f"{path}[{i}]")
        return out[:8]
    return [] if expected == found else [path or "."]


def check_entry(game: Game, entry: JsonDict) -> list[str]:
    """The paths at which replaying the entry's record today differs from its stored final state
    (empty when it replays exactly)."""
    try:
        state = game.replay(entry["record"])
    except MalformedRecordError as error:
        return [f"the record no longer replays: {error}"]
    return differences(json.loads(json.dumps(entry["final"])), json.loads(json.dumps(final_of(state))))


def play(game: Game, players: int, seed: int, rules: int | None, stop: int | None) -> State:
    options = {RULES_OPTION: rules} if rules is not None and is_versioned(game) else {}
    state = game.new_game(players, seed, **options)
    choose = random.Random(seed)
    made = 0
    while not state.is_terminal() and (stop is None or made < stop):
        state.apply(choose.choice(state.legal_actions()))
        made += 1
    return state


def write_new_entry(game: Game, players: int, seed: int, rules: int | None, stop: int | None,
                    folder: Path) -> Path:
    """Play and store a new entry; refuse to replace an existing file."""
    version = rules if rules is not None else max(rules_versions(game))
    state = play(game, players, seed, version, stop)
    how = "finished" if state.is_terminal() else f"in progress after {stop} actions"
    name = f"rules{version}-p{players}-seed{seed}{'' if stop is None else f'-stop{stop}'}.json"
    path = folder / name
    if path.exists():
        raise FileExistsError(f"{path} exists: golden entries are never overwritten")
    entry = make_entry(state, f"{players} players, seeded random play, {how}")
    folder.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(entry, sort_keys=True) + "\n")
    return path


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Write a new golden record (never overwriting one).")
    parser.add_argument("--game", required=True)
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--rules", type=int, help="rules version (default: the newest)")
    parser.add_argument("--stop", type=int, help="stop after this many actions: a game in progress")
    parser.add_argument("--out", type=Path, help="folder (default: tests/golden/<game>)")
    args = parser.parse_args(argv)

    game = get_game(args.game)
    folder = args.out or GOLDEN_DIR / game.name
    try:
        print(write_new_entry(game, args.players, args.seed, args.rules, args.stop, folder))
    except FileExistsError as error:
        parser.exit(1, f"{error}\n")


if __name__ == "__main__":
    main()
