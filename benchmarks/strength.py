"""Win rates with 95% confidence intervals from simulated matches.

    eixample simulate --games 200 --players 2 --bots greedy,random --out out/greedy-random.jsonl
    eixample simulate --games 100 --players 2 --bots "mcts:seconds=1:depth=0:norm=sigmoid,greedy" \
        --out out/mcts-greedy.jsonl
    python benchmarks/strength.py out/greedy-random.jsonl out/mcts-greedy.jsonl

`simulate` rotates the seats, so each bot plays first in half of the games. A shared victory
counts as half a win here (it is rare). The interval is Wilson's score interval. With more than
two players (`--bots greedy,random,random --players 3`) the first bot listed is compared with the
others: its wins, and its margin over the best of them.
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

from eixample.ai.stats import wilson_interval


def matchup(path: Path) -> str:
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    a, *others = lines[0]["bots"]  # game 0 seats the bots in command-line order
    if a in others:
        raise SystemExit(f"{path}: {a} sits in more than one seat: not a match-up")
    wins = 0.0
    margins: list[int] = []
    scores_a: list[int] = []
    for line in lines:
        seat_a = line["bots"].index(a)
        winners = line["winners"]
        if seat_a in winners:
            wins += 1.0 / len(winners)
        scores = line["scores"]
        scores_a.append(scores[seat_a])
        margins.append(scores[seat_a] - max(v for seat, v in enumerate(scores) if seat != seat_a))
    games = len(lines)
    low, high = wilson_interval(wins, games)
    return (
        f"| {a} | {', '.join(others)} | {games} | {wins:g} | {wins / games:.1%} | {low:.1%}-{high:.1%} | "
        f"{statistics.mean(scores_a):.1f} | {statistics.mean(margins):+.1f} |"
    )


def main(argv: list[str]) -> None:
    if not argv:
        print(__doc__)
        raise SystemExit(2)
    print("| bot | against | games | wins | win rate | 95% interval | mean VP | mean margin |")
    print("|---|---|---|---|---|---|---|---|")
    for name in argv:
        print(matchup(Path(name)))


if __name__ == "__main__":
    main(sys.argv[1:])
