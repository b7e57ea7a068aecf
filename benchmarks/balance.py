"""Balance report from simulated games: winner VP, VP by source, game length, what gets used.

    eixample simulate --games 1000 --players 4 --bots greedy --out out/balance-4.jsonl
    python benchmarks/balance.py out/balance-2.jsonl out/balance-3.jsonl out/balance-4.jsonl

Prints a Markdown report (the body of docs/barcelona/balance.md) to standard output. Each input file holds
one JSON record per line, as written by `eixample simulate --out`.
"""

from __future__ import annotations

import json
import statistics
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from eixample.games import barcelona
from eixample.games.barcelona.components import ACTION_KINDS
from eixample.games.barcelona.state import SOURCES

SERVICES_TITLE = "Public Services built (per game, over all games; 5 of the 7 are in play in a game):"


def load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def usage(actions: list[str]) -> tuple[Counter[str], Counter[str], Counter[str]]:
    """Actions performed (crossing and passenger actions), building types, public services."""
    acts: Counter[str] = Counter()
    buildings: Counter[str] = Counter()
    services: Counter[str] = Counter()
    for action in actions:
        words = action.split()
        if words[0] == "act":
            acts[words[2]] += 1
        elif words[0] == "build":
            buildings[words[1]] += 1
        elif words[0] == "service":
            services[words[1]] += 1
    return acts, buildings, services


def histogram(values: list[int], width: int = 20) -> list[str]:
    low, high = min(values) // width * width, max(values) // width * width
    counts = Counter(v // width * width for v in values)
    peak = max(counts.values())
    return [
        f"| {start}-{start + width - 1} | {count} | {'#' * round(30 * count / peak)} |"
        for start in range(low, high + width, width)
        for count in (counts.get(start, 0),)
    ]


def report(path: Path) -> list[str]:
    games = load(path)
    players = games[0]["record"]["players"]
    winner_vp: list[int] = []
    rounds: list[float] = []
    sources: Counter[str] = Counter()
    acts: Counter[str] = Counter()
    buildings: Counter[str] = Counter()
    services: Counter[str] = Counter()
    first_wins = 0
    for game in games:
        state = barcelona.replay(game["record"])
        winner_vp.append(max(state.scores()))
        rounds.append(state.turns / state.n)
        first_wins += state.first_player in state.winners()
        for row in state.score_breakdown():
            sources.update(row)
        a, b, s = usage(game["record"]["actions"])
        acts.update(a)
        buildings.update(b)
        services.update(s)
    n = len(games)
    bots = sorted({spec for game in games for spec in game["bots"]})
    lines = [
        f"## {players} players ({n} games, bots: {', '.join(bots)})",
        "",
        f"- Winner VP: mean {statistics.mean(winner_vp):.1f}, median {statistics.median(winner_vp):.0f}, "
        f"standard deviation {statistics.pstdev(winner_vp):.1f}, range {min(winner_vp)}-{max(winner_vp)}",
        f"- Game length: {statistics.mean(rounds):.2f} rounds on average "
        f"(range {min(rounds):.1f}-{max(rounds):.1f})",
        f"- The first player won {first_wins / n:.1%} of the games (a fair share is {1 / players:.1%})",
        "",
        "Winner VP distribution:",
        "",
        "| VP | games | |",
        "|---|---|---|",
        *histogram(winner_vp),
        "",
        "VP by source (mean per player per game):",
        "",
        "| source | VP | share |",
        "|---|---|---|",
    ]
    total = sum(sources.values())
    lines += [f"| {k} | {sources[k] / (n * players):.1f} | {sources[k] / total:.1%} |" for k in SOURCES]
    lines += ["", "Actions taken (per game):", "", "| action | per game |", "|---|---|"]
    lines += [f"| {k} | {acts[k] / n:.2f} |" for k in ACTION_KINDS]
    lines += ["", "Buildings constructed (per game):", "", "| type | per game |", "|---|---|"]
    lines += [f"| {k} | {buildings[k] / n:.2f} |" for k in ("corner", "L1", "L2", "L3")]
    lines += [
        "",
        SERVICES_TITLE,
        "",
        "| service | built |",
        "|---|---|",
    ]
    lines += [f"| {k} | {v / n:.2f} |" for k, v in sorted(services.items())]
    return [*lines, ""]


def main(argv: list[str]) -> None:
    if not argv:
        print(__doc__)
        raise SystemExit(2)
    for name in argv:
        print("\n".join(report(Path(name))))


if __name__ == "__main__":
    main(sys.argv[1:])
