"""Solo mode benchmark: a bot against Gaudí's Assistant at each difficulty.

For each difficulty, plays `--games` solo games (seeds `--seed`, `--seed`+1, ...: the same seeds
at every difficulty, so the difficulties are compared on the same deals) and prints the bot's win
rate with a 95% Wilson interval, and the mean margin (bot VP minus the Assistant's VP after the
multiplier) with a 95% interval, as a Markdown table.

    python benchmarks/solo_benchmark.py [--games 200] [--bot greedy] [--jobs 4]
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

try:
    from eixample.ai import make_bot
except ModuleNotFoundError:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
    from eixample.ai import make_bot
from eixample.ai.match import derive_seed, play_out
from eixample.ai.stats import wilson_interval
from eixample.games import barcelona
from eixample.games.barcelona.components import DIFFICULTIES

Z95 = 1.959964


def play_one(task: tuple[str, str, int]) -> dict[str, Any]:
    """One solo game: the bot (seat 0) against the Assistant."""
    bot_spec, difficulty, seed = task
    state = barcelona.new_game(players=1, seed=seed, difficulty=difficulty)
    play_out(state, [make_bot(bot_spec, derive_seed(seed, 0))])
    player, automa = state.scores()
    return {
        "difficulty": difficulty,
        "seed": seed,
        "player": player,
        "automa": automa,
        "automa_raw": state.vp[1],
        "winners": state.winners(),
        "rounds": state.turns // 2,
    }



def mean_interval(values: list[float]) -> tuple[float, float, float]:
    mean = statistics.fmean(values)
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return (mean, mean - half, mean + half)


def summarise(bot: str, results: list[dict[str, Any]]) -> list[str]:
    lines = [
        f"| Difficulty | Games | {bot} wins | Ties | Win rate (95% CI) "
        "| Mean margin (95% CI) | Mean VP: bot / Assistant | Rounds |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for difficulty in DIFFICULTIES:
        games = [r for r in results if r["difficulty"] == difficulty]
        if not games:
            continue
        n = len(games)
        wins = sum(1 for r in games if r["winners"] == [0])
        ties = sum(1 for r in games if len(r["winners"]) > 1)
        low, high = wilson_interval(wins, n, Z95)
        margin, m_low, m_high = mean_interval([float(r["player"] - r["automa"]) for r in games])
        bot_vp = statistics.fmean(r["player"] for r in games)
        automa_vp = statistics.fmean(r["automa"] for r in games)
        rounds = statistics.fmean(r["rounds"] for r in games)
        lines.append(
            f"| {difficulty} | {n} | {wins} | {ties} | {wins / n:.0%} ({low:.0%}-{high:.0%}) "
            f"| {margin:+.1f} ({m_low:+.1f} to {m_high:+.1f}) "
            f"| {bot_vp:.0f} / {automa_vp:.0f} | {rounds:.1f} |"
        )
    return lines


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200, help="games per difficulty (default 200)")
    parser.add_argument("--bot", default="greedy", help="bot spec (default greedy)")
    parser.add_argument("--seed", type=int, default=1, help="first game seed (default 1)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument(
        "--difficulty", action="append", choices=DIFFICULTIES, help="only these difficulties (repeatable)"
    )
    args = parser.parse_args(argv)
    difficulties = args.difficulty or list(DIFFICULTIES)
    tasks = [(args.bot, d, args.seed + i) for d in difficulties for i in range(args.games)]
    started = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            results = list(pool.map(play_one, tasks, chunksize=8))
    else:
        results = [play_one(task) for task in tasks]
    elapsed = time.perf_counter() - started
    print("\n".join(summarise(args.bot, results)))
    last = args.seed + args.games - 1
    print(f"\n{len(results)} games in {elapsed:.0f} s (bot '{args.bot}', seeds {args.seed}..{last})")


if __name__ == "__main__":
    main(sys.argv[1:])
