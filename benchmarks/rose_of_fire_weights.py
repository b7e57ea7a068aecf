"""Two weights files of The Rose of Fire's evaluation against each other, with the same bot.

    python benchmarks/rose_of_fire_weights.py --ones out/ones.json
    python benchmarks/rose_of_fire_weights.py --against out/ones.json --bot greedy:plan=3 \\
        --games 300 --seed 710000
    git show 4826998:src/eixample/games/rose_of_fire/data/evaluation_weights.json > out/before.json
    python benchmarks/rose_of_fire_weights.py --against out/before.json --missing-zero \\
        --step-leader --bot greedy:plan=3 --games 300 --seed 720000

`--weights` is the shipped file by default. Game g (seed + g) puts the bot judging by `--weights`
in seat g mod the player count and the same bot judging by `--against` in the others; each bot's
decisions are made with its own weights (both in this process). `--ones FILE` writes a weights
file with every weight 1: the hand-set evaluation. `--missing-zero` reads a file written before
parts were added, the missing parts weighing 0 (they add nothing); `--step-leader` judges the
`--against` side with the leader part of that time: the Prestige cards to come all to the
highest prestige (split when tied). The two together give the evaluation before "Cards by what
they carry, and a smoother Prestige race" (docs/rose-of-fire/strength.md). Prints the first
file's wins with a 95% Wilson interval.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path

from eixample.ai.specs import make_bot
from eixample.ai.stats import wilson_interval
from eixample.games import rose_of_fire
from eixample.games.rose_of_fire import evaluation
from eixample.games.rose_of_fire.evaluation import PARTS, parse_weights, weighing


def ones() -> dict:
    row = [1.0] * len(PARTS)
    return {"source": "hand-set", "how": "every weight 1", "parts": list(PARTS),
            "weights": {str(n): {str(phase): list(row) for phase in range(1, 6)} for n in (2, 3, 4)}}


def with_missing_parts(data: dict) -> dict:
    """A weights file from before some parts were added, those parts weighing 0."""
    listed = list(data.get("parts", []))
    weights = {players: {phase: [dict(zip(listed, row, strict=True)).get(part, 0.0) for part in PARTS]
                         for phase, row in phases.items()}
               for players, phases in data.get("weights", {}).items()}
    return {**data, "parts": list(PARTS), "weights": weights}


def step_leader_shares(prestige: Sequence[int]) -> list[float]:
    """The leader part before the smoother one: all to the highest prestige, split when tied."""
    top = max(prestige)
    leaders = sum(1 for points in prestige if points == top)
    return [1 / leaders if points == top else 0.0 for points in prestige]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--weights", type=Path, default=evaluation.WEIGHTS_FILE)
    parser.add_argument("--against", type=Path)
    parser.add_argument("--bot", default="greedy:plan=3")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=710000)
    parser.add_argument("--ones", type=Path, help="write the all-ones weights file here and stop")
    parser.add_argument("--missing-zero", action="store_true",
                        help="parts the --against file does not list weigh 0")
    parser.add_argument("--step-leader", action="store_true",
                        help="the --against side judges with the earlier step leader part")
    args = parser.parse_args()
    if args.ones:
        args.ones.write_text(json.dumps(ones(), indent=1) + "\n")
        return
    mine = parse_weights(json.loads(args.weights.read_text()), str(args.weights))
    against = json.loads(args.against.read_text())
    theirs = parse_weights(with_missing_parts(against) if args.missing_zero else against, str(args.against))
    smooth = evaluation.leader_shares
    wins = 0
    for game in range(args.games):
        state = rose_of_fire.new_game(args.players, args.seed + game)
        seat = game % args.players
        bots = [make_bot(args.bot, args.seed * 3 + game * 7 + p) for p in range(args.players)]
        while not state.is_terminal():
            player = state.current_player()
            if args.step_leader:
                evaluation.leader_shares = smooth if player == seat else step_leader_shares
            with weighing(mine if player == seat else theirs):
                action = bots[player].choose(state, player)
            state.apply(action)
        wins += seat in state.winners()
    low, high = wilson_interval(wins, args.games)
    print(f"{args.weights} against {args.against}, {args.bot}, {args.players} players: "
          f"{wins} of {args.games} ({100 * wins / args.games:.1f}%, {100 * low:.1f}%-{100 * high:.1f}%)")


if __name__ == "__main__":
    main()
