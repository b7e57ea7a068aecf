"""Training the learned win estimate (`win_model.py`) from self-play games.

    python -m eixample.games.barcelona.training --players 2 --games 300 --seed 1 \\
        --spec mcts:iterations=60 --out src/eixample/games/barcelona/data/win_model.json

Bots of one spec play `--games` games (game k has seed `seed + k`; bots with an iteration
budget are deterministic, so the same command gives the same weights). Every `--every`-th
position of a game that is not over gives one example per seat: the seat's features and whether
it won. A logistic regression (scikit-learn, `pip install eixample[train]`) is fitted per player
count; the weights file keeps the models of the other player counts already in it, and records
how each was made.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from eixample.ai.match import MatchTask, sampled_positions
from eixample.games.barcelona.win_model import FEATURES, WEIGHTS_FILE, parse_models, position_features

MAX_GAMES = 100_000


def self_play(players: int, games: int, seed: int, spec: str,
              every: int) -> tuple[list[list[float]], list[int]]:
    """Features and outcomes (1: the seat won, alone or shared) of self-play positions."""
    features: list[list[float]] = []
    won: list[int] = []
    for index in range(games):
        positions, winners = _one_game(MatchTask("barcelona", seed + index, (spec,) * players), every)
        for seats in positions:
            for seat, row in enumerate(seats):
                features.append(row)
                won.append(int(seat in winners))
    return features, won


def _one_game(task: MatchTask, every: int) -> tuple[list[list[list[float]]], list[int]]:
    """The features of every `every`-th position of one game, and its winners."""
    positions, final = sampled_positions(task, position_features, every, first=every - 1)  # type: ignore[arg-type]
    return positions, final.winners()


def fit(features: Sequence[Sequence[float]], won: Sequence[int], players: int) -> dict[str, Any]:
    """Logistic regression weights; without an intercept for 2 players, where a seat's features
    are the opposite of its opponent's and the two estimates then sum to 1."""
    from sklearn.linear_model import LogisticRegression

    model = LogisticRegression(fit_intercept=players > 2, max_iter=5000)
    model.fit(features, won)
    accuracy = float(model.score(features, won))
    return {"weights": [round(float(w), 6) for w in model.coef_[0]],
            "intercept": round(float(model.intercept_[0]), 6) if players > 2 else 0.0,
            "examples": len(won), "training_accuracy": round(accuracy, 4)}


def train(players: int, games: int, seed: int, spec: str, every: int, out: Path,
          examples: Path | None = None) -> dict[str, Any]:
    """Play, fit, and write the model for `players` into `out` (keeping the others there);
    the examples also go to `examples` (JSON) when given."""
    features, won = self_play(players, games, seed, spec, every)
    if examples is not None:
        examples.write_text(json.dumps({"features": features, "won": won}), encoding="utf-8")
    model = fit(features, won, players)
    model["provenance"] = (f"python -m eixample.games.barcelona.training --players {players} "
                           f"--games {games} --seed {seed} --spec {spec} --every {every}")
    data: dict[str, Any] = {"features": list(FEATURES), "models": {}}
    if out.exists():
        data = json.loads(out.read_text(encoding="utf-8"))
        parse_models(data)
    data["models"][str(players)] = model
    data["models"] = dict(sorted(data["models"].items()))
    parse_models(data)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return model


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--spec", default="mcts:iterations=60", help="the bot playing every seat")
    parser.add_argument("--every", type=int, default=4, help="keep every N-th position of a game")
    parser.add_argument("--out", type=Path, default=WEIGHTS_FILE)
    parser.add_argument("--examples", type=Path, help="also write the examples to this JSON file")
    args = parser.parse_args(argv)
    if not 1 <= args.games <= MAX_GAMES or args.every < 1:
        parser.error(f"--games must be 1..{MAX_GAMES} and --every at least 1")
    model = train(args.players, args.games, args.seed, args.spec, args.every, args.out, args.examples)
    print(f"{args.players} players: {model['examples']} examples, training accuracy "
          f"{model['training_accuracy']:.3f}, written to {args.out}")


if __name__ == "__main__":
    main()
