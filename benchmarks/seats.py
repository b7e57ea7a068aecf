"""Seat fairness: how often each seat wins when every seat plays the same bot.

    python benchmarks/seats.py play 3 400 700000 out/seats-3.jsonl "mcts:iterations=100"
    python benchmarks/seats.py play 3 400 700000 out/house-3.jsonl greedy '{"first_player_vp": 6}'
    python benchmarks/seats.py report out/seats-2.jsonl out/seats-3.jsonl out/seats-4.jsonl

`play` plays games one after another (seed, seed + 1, ...) and appends each result to the JSON Lines
file at once, so a long run can be stopped at any time and resumed (games already in the file are
skipped). The first player is seat 0.

`report` prints Markdown: per seat the wins (a shared victory counts as a share), the win rate and
its 95% Wilson interval against the fair share; then what the first turn is worth per seat, which
is where the rules put the first player behind (on the first turn of the game no other citizens
are on the board, so the first player cannot construct a Building), the first player's win
rate if that first-turn deficit were given back in VP, the Buildings each seat constructs and what
they score, and the VP each seat gains in the last round.
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path
from typing import Any

from strength import wilson

from eixample.ai.match import MatchTask, play_match
from eixample.games import barcelona


def play(
    players: int, games: int, seed: int, out: Path, spec: str, options: dict[str, Any] | None = None
) -> None:
    done = len(load(out)) if out.exists() else 0
    with out.open("a") as stream:
        for g in range(done, games):
            result = play_match(MatchTask("barcelona", seed + g, (spec,) * players, options or {}))
            stream.write(json.dumps(result.line()) + "\n")
            stream.flush()


def load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def first_turns(record: dict[str, Any]) -> tuple[list[int], list[int], list[bool]]:
    """Per seat, in its first turn: the VP gained, the VP of its Building (track value, Building
    Bonus and the building's own VP), and whether it constructed one."""
    state = barcelona.new_game(record["players"], record["seed"], **record.get("options", {}))
    n = state.num_players
    gained, building, built = [0] * n, [0] * n, [False] * n
    for action in record["actions"]:
        if state.turns >= n:
            break
        seat = state.turn_player
        before = state.score_breakdown()[seat]
        state.apply(action)
        after = state.score_breakdown()[seat]
        built[seat] = built[seat] or action.startswith("build ")
        gained[seat] += sum(after.values()) - sum(before.values())
        building[seat] += sum(after[k] - before[k] for k in ("buildings", "building_bonus"))
    return gained, building, built


END_SOURCES = ("cobblestones", "passengers", "modernisme")


def last_round(record: dict[str, Any]) -> list[int]:
    """VP each seat gained in the last round of play (the final scoring left out)."""
    state = barcelona.new_game(record["players"], record["seed"], **record.get("options", {}))
    n = state.num_players
    at_turn = [state.vp[:]]
    for action in record["actions"]:
        turns = state.turns
        state.apply(action)
        if state.turns != turns:
            at_turn.append(state.vp[:])
    final = state.score_breakdown()
    in_play = [state.vp[p] - sum(final[p][k] for k in END_SOURCES) for p in range(n)]
    start = at_turn[max(0, len(at_turn) - 1 - n)]
    return [in_play[p] - start[p] for p in range(n)]


def buildings(record: dict[str, Any]) -> tuple[list[int], list[int]]:
    """Per seat: Buildings constructed, and the VP they scored from the tracks and their own VP."""
    state = barcelona.new_game(record["players"], record["seed"], **record.get("options", {}))
    n = state.num_players
    count, vp = [0] * n, [0] * n
    for action in record["actions"]:
        seat = state.current_player()
        before = state.score_breakdown()[seat]["buildings"] if action.startswith("use ") else 0
        state.apply(action)
        if action.startswith("use "):
            count[seat] += 1
            vp[seat] += state.score_breakdown()[seat]["buildings"] - before
    return count, vp


def report(path: Path) -> str:
    lines = load(path)
    n = len(lines[0]["scores"])
    games = len(lines)
    wins = [0.0] * n
    for line in lines:
        for seat in line["winners"]:
            wins[seat] += 1.0 / len(line["winners"])
    options = lines[0]["record"].get("options", {})
    house_rule = f", first_player_vp={options['first_player_vp']}" if options.get("first_player_vp") else ""
    out = [f"### {n} players ({games} games, every seat {lines[0]['bots'][0]}{house_rule})", ""]
    out += ["| seat | wins | win rate | 95% interval | fair share |", "|---|---|---|---|---|"]
    for seat in range(n):
        low, high = wilson(wins[seat], games)
        out.append(
            f"| {seat + 1} | {wins[seat]:g} | {wins[seat] / games:.1%} | {low:.1%}-{high:.1%} | {1 / n:.1%} |"
        )
    turn_vp = [[0] * games for _ in range(n)]
    building_vp = [0] * n
    builds = [0] * n
    for g, line in enumerate(lines):
        gained, building, built = first_turns(line["record"])
        for seat in range(n):
            turn_vp[seat][g] = gained[seat]
            building_vp[seat] += building[seat]
            builds[seat] += built[seat]
    mean_vp = [statistics.mean(turn_vp[seat]) for seat in range(n)]
    final_round = [0.0] * n
    built_count, built_vp = [0] * n, [0] * n
    for line in lines:
        for seat, vp in enumerate(last_round(line["record"])):
            final_round[seat] += vp / games
        count, vp_built = buildings(line["record"])
        for seat in range(n):
            built_count[seat] += count[seat]
            built_vp[seat] += vp_built[seat]
    deficit = statistics.mean(mean_vp[1:]) - mean_vp[0]
    given_back = 0.0
    for line in lines:
        scores = list(line["scores"])
        scores[0] += round(deficit)
        best = max(scores)
        top = [seat for seat in range(n) if scores[seat] == best]
        given_back += (1.0 / len(top)) if 0 in top else 0.0
    low, high = wilson(given_back, games)
    out += [
        "",
        "| seat | built on its first turn | VP in its first turn | of which its Building |",
        "|---|---|---|---|",
        *(
            f"| {seat + 1} | {builds[seat] / games:.0%} | {mean_vp[seat]:.1f} "
            f"| {building_vp[seat] / games:.1f} |"
            for seat in range(n)
        ),
        "",
        f"First-turn deficit of seat 1: {deficit:.1f} VP. With {round(deficit)} VP added to seat 1's final"
        f" score it would have won {given_back / games:.1%} ({low:.1%}-{high:.1%}) instead of"
        f" {wins[0] / games:.1%}.",
        "",
        "Buildings per game: "
        + ", ".join(f"seat {seat + 1} {built_count[seat] / games:.2f}" for seat in range(n))
        + "; VP per Building (track value and the Building's own VP): "
        + ", ".join(f"seat {seat + 1} {built_vp[seat] / max(1, built_count[seat]):.2f}" for seat in range(n))
        + ".",
        "",
        "VP gained in the last round of play (the final scoring left out): "
        + ", ".join(f"seat {seat + 1} {final_round[seat]:.1f}" for seat in range(n))
        + ".",
        "",
    ]
    return "\n".join(out)


def main(argv: list[str]) -> None:
    if len(argv) == 6 and argv[0] == "play":
        play(int(argv[1]), int(argv[2]), int(argv[3]), Path(argv[4]), argv[5])
    elif len(argv) == 7 and argv[0] == "play":  # game options as JSON, e.g. '{"first_player_vp": 6}'
        play(int(argv[1]), int(argv[2]), int(argv[3]), Path(argv[4]), argv[5], json.loads(argv[6]))
    elif len(argv) >= 2 and argv[0] == "report":
        print("\n".join(report(Path(name)) for name in argv[1:]))
    else:
        print(__doc__)
        raise SystemExit(2)


if __name__ == "__main__":
    main(sys.argv[1:])
