"""Fitting the weights of The Rose of Fire's evaluation (`evaluation.py`) on self-play games.

    python -m eixample.games.rose_of_fire.training --games 600 --seed 600000 --spec greedy \\
        --out src/eixample/games/rose_of_fire/data/evaluation_weights.json

For each player count (2, 3 and 4), bots of one spec play `--games` games (game k has seed
`seed + k`), judging with the hand-set evaluation (every weight 1, whatever weights are shipped
at the time; greedy bots are deterministic, so the same command gives the same weights). Every
`--every`-th position of a game that is not over gives one example per seat: the seat's parts
(`evaluation.seat_parts`) and the VP it went on to gain from there. A linear regression with
non-negative weights (scikit-learn, `pip install eixample[train]`) is fitted per player count
and phase: each weight says what a part's hand-set estimate has been worth at the end (at most
MAX_WEIGHT, which only a fit on a handful of games reaches). A part never seen in a phase keeps
its hand-set estimate (weight 1).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from eixample.ai.match import MatchTask, sampled_positions
from eixample.ai.specs import make_bot
from eixample.core.protocol import State
from eixample.games.rose_of_fire.evaluation import (
    HAND_SET,
    MAX_WEIGHT,
    PARTS,
    WEIGHTS_FILE,
    seat_parts,
    weighing,
)
from eixample.games.rose_of_fire.state import RoseState

MAX_GAMES = 100_000
PHASES = range(1, 6)
Examples = dict[int, tuple[list[list[float]], list[float]]]
"""By phase: the seats' parts and the VP each went on to gain."""


Position = tuple[int, list[int], list[list[float]]]
"""A position's phase, each seat's VP and each seat's parts."""


def self_play(players: int, games: int, seed: int, spec: str, every: int) -> Examples:
    examples: Examples = {phase: ([], []) for phase in PHASES}
    for index in range(games):
        with weighing(HAND_SET):  # the games do not depend on the weights shipped when they are played
            positions, final = _one_game(MatchTask("rose-of-fire", seed + index, (spec,) * players), every)
        for phase, vp, parts in positions:
            rows, gains = examples[phase]
            for seat in range(players):
                rows.append(parts[seat])
                gains.append(float(final[seat] - vp[seat]))
    return examples


def _one_game(task: MatchTask, every: int) -> tuple[list[Position], list[int]]:
    """One position in `every` of one game (the first included), and the final scores."""
    positions, final = sampled_positions(task, _position, every)
    return positions, final.scores()


def _position(state: State) -> Position:
    assert isinstance(state, RoseState)
    return state.phase, list(state.vp), seat_parts(state)


def fit(examples: Examples) -> dict[str, list[float]]:
    """Non-negative weights per phase; 1 for a part that never varied in that phase."""
    from sklearn.linear_model import LinearRegression

    weights: dict[str, list[float]] = {}
    for phase, (rows, gains) in examples.items():
        seen = [k for k in range(len(PARTS)) if len({row[k] for row in rows}) > 1]
        model = LinearRegression(positive=True).fit([[row[k] for k in seen] for row in rows], gains)
        found = [1.0] * len(PARTS)
        for k, weight in zip(seen, model.coef_, strict=True):
            found[k] = round(min(float(weight), MAX_WEIGHT), 4)
        weights[str(phase)] = found
    return weights


def train(games: int, seed: int, spec: str, every: int) -> dict[str, Any]:
    return {
        "source": "fitted",
        "how": (f"python -m eixample.games.rose_of_fire.training --games {games} --seed {seed} "
                f"--spec {spec} --every {every}"),
        "parts": list(PARTS),
        "weights": {str(players): fit(self_play(players, games, seed, spec, every)) for players in (2, 3, 4)},
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=600, help="games per player count")
    parser.add_argument("--seed", type=int, default=600000)
    parser.add_argument("--spec", default="greedy", help="the bot spec of every seat")
    parser.add_argument("--every", type=int, default=2, help="one position in this many")
    parser.add_argument("--out", type=Path, default=WEIGHTS_FILE)
    args = parser.parse_args(argv)
    if not 1 <= args.games <= MAX_GAMES or args.every < 1:
        parser.error(f"--games must be 1 to {MAX_GAMES} and --every at least 1")
    make_bot(args.spec, 0)  # a bad spec fails before any game is played
    args.out.write_text(json.dumps(train(args.games, args.seed, args.spec, args.every), indent=1) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
