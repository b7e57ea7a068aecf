"""One bot against another, seats rotated, each finished game appended to a JSON Lines file.

    python benchmarks/bot_match.py --bot expert:iterations=300 --against mcts:iterations=300 \
        --players 2 --games 200 --seed 7000 --out out/expert-mcts.jsonl --minutes 60
    python benchmarks/bot_match.py --report out/expert-mcts.jsonl

The bot sits in one seat and the other seats play `--against`; game g puts the bot in seat
g mod players, so it plays every seat equally often. The file grows game by game, so a run
stopped by `--minutes` (checked between games) or by hand still counts, and a second run with
the same file continues where the first one stopped (game numbers, seeds and seats follow on).
The report gives the bot's win rate (a shared victory counts as a share) with a 95% Wilson
interval, and what an equal bot would score (1 / players).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from eixample.ai.match import MatchTask, lineup, play_match
from eixample.ai.stats import wilson_interval


def seats(bot: str, against: str, players: int, game_index: int) -> tuple[str, ...]:
    """The bot in seat game_index mod players, `against` everywhere else."""
    return lineup([bot] + [against] * (players - 1), players, -game_index % players)


def play_one(task: MatchTask) -> dict:
    """One game of the match, as its line of the file."""
    return play_match(task).line()


def play_games(
    args: argparse.Namespace, play_game: Callable[[MatchTask], dict], report_file: Callable[[Path], str]
) -> None:
    """Play the games the file does not hold yet (within --minutes), appending each line as its game
    ends, then print the file's table."""
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    done = len(_lines(out)) if out.exists() else 0
    stop = time.monotonic() + args.minutes * 60
    for index in range(done, args.games):
        if time.monotonic() > stop:
            break
        task = MatchTask(args.game, args.seed + index, seats(args.bot, args.against, args.players, index))
        started = time.monotonic()
        line = play_game(task) | {"bot": args.bot, "seconds": round(time.monotonic() - started, 1)}
        with out.open("a", encoding="utf-8") as stream:
            stream.write(json.dumps(line) + "\n")
    print(HEADER)
    print(report_file(out))


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def report(path: Path) -> str:
    lines = _lines(path) if path.exists() else []
    if not lines:
        return f"{path}: no games yet"
    bot = lines[0]["bot"]
    against = next(spec for spec in lines[0]["bots"] if spec != bot)
    players = len(lines[0]["bots"])
    wins = 0.0
    margins = []
    for line in lines:
        seat = line["bots"].index(bot)
        if seat in line["winners"]:
            wins += 1.0 / len(line["winners"])
        scores = line["scores"]
        margins.append(scores[seat] - max(s for other, s in enumerate(scores) if other != seat))
    games = len(lines)
    low, high = wilson_interval(wins, games)
    return (f"| {bot} | {against} | {players} | {games} | {wins:g} | {wins / games:.1%} | "
            f"{low:.1%}-{high:.1%} | {1 / players:.0%} | {statistics.mean(margins):+.1f} |")


HEADER = ("| bot | against | players | games | wins | win rate | 95% interval | equal bots | mean margin |\n"
          "|---|---|---|---|---|---|---|---|---|")


def match_arguments(description: str | None, seed: int) -> argparse.ArgumentParser:
    """The command line of a match benchmark (this one and cpu_match.py)."""
    parser = argparse.ArgumentParser(description=description,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bot")
    parser.add_argument("--against")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=seed)
    parser.add_argument("--game", default="barcelona")
    parser.add_argument("--out")
    parser.add_argument("--minutes", type=float, default=math.inf)
    parser.add_argument("--report", nargs="+", metavar="FILE", help="only print the table of these files")
    return parser


def match_main(
    description: str | None,
    seed: int,
    play_game: Callable[[MatchTask], dict],
    report_file: Callable[[Path], str],
) -> None:
    """A match benchmark's command: `--report FILE...` prints their table, otherwise it plays."""
    parser = match_arguments(description, seed)
    args = parser.parse_args()
    if args.report:
        print(HEADER)
        for name in args.report:
            print(report_file(Path(name)))
        return
    if not (args.bot and args.against and args.out):
        parser.error("--bot, --against and --out are needed to play")
    play_games(args, play_game, report_file)


def main() -> None:
    match_main(__doc__, 7000, play_one, report)


if __name__ == "__main__":
    main()
