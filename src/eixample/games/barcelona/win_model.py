"""A learned estimate of each seat's chance to win a Barcelona position.

The parts that `evaluation.evaluate` sums (VP, pending decisions, resources, tracks, end-game
and Cerdà scorings to come) are taken apart per seat; a seat's features are its parts minus
those of its strongest opponent (by evaluation), each also multiplied by the game's progress so
that a part can weigh differently early and late. (Not whether the seat is the one deciding:
in self-play that predicts a win a little, but a search would then prefer actions that keep its
turn going to those that end it.)
A logistic regression on positions of self-play games (`training.py`, weights in
`data/win_model.json` with how they were made) turns the features into a probability to win: a
dot product per seat, cheap enough to judge every leaf of a search.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from eixample.games.barcelona.evaluation import PARTS, game_progress, seat_parts

if TYPE_CHECKING:
    from eixample.games.barcelona.state import BarcelonaState

WEIGHTS_FILE = Path(__file__).parent / "data" / "win_model.json"

FEATURES = (*PARTS, *(f"{part}*progress" for part in PARTS))
MAX_WEIGHT = 1e3
"""Weights in a weights file must be finite and at most this in size."""


def position_features(s: BarcelonaState) -> list[list[float]]:
    """Per seat, the features (FEATURES order) of an unfinished multi-player position."""
    parts = seat_parts(s)
    totals = [sum(seat) for seat in parts]
    progress = game_progress(s)
    rows = []
    for p in range(s.n):
        rival = max((q for q in range(s.n) if q != p), key=lambda q: totals[q])
        diffs = [mine - theirs for mine, theirs in zip(parts[p], parts[rival], strict=True)]
        rows.append([*diffs, *(d * progress for d in diffs)])
    return rows


@dataclass(frozen=True)
class WinModel:
    """Logistic regression weights for one player count."""

    weights: tuple[float, ...]
    intercept: float

    def probability(self, features: list[float]) -> float:
        x = self.intercept + sum(w * f for w, f in zip(self.weights, features, strict=True))
        if x < -60:
            return 0.0
        return 1.0 / (1.0 + math.exp(-x))


def parse_models(data: Any) -> dict[int, WinModel]:
    """The models of a weights file's JSON, by player count; ValueError if malformed."""
    if not isinstance(data, dict) or data.get("features") != list(FEATURES):
        raise ValueError("win model: 'features' must list exactly " + ", ".join(FEATURES))
    models = data.get("models")
    if not isinstance(models, dict):
        raise ValueError("win model: 'models' must map a player count to weights")
    parsed = {}
    for players, model in models.items():
        if players not in ("2", "3", "4") or not isinstance(model, dict):
            raise ValueError(f"win model: unexpected player count '{players}'")
        weights, intercept = model.get("weights"), model.get("intercept")
        numbers = [*weights, intercept] if isinstance(weights, list) else []
        if len(numbers) != len(FEATURES) + 1 or not all(
                isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
                and abs(v) <= MAX_WEIGHT for v in numbers):
            raise ValueError(f"win model for {players} players: {len(FEATURES)} finite weights "
                             f"and an intercept expected")
        parsed[int(players)] = WinModel(tuple(float(w) for w in numbers[:-1]), float(numbers[-1]))
    return parsed


@cache
def shipped_models() -> dict[int, WinModel]:
    """The models of the bundled weights file, by player count."""
    return parse_models(json.loads(WEIGHTS_FILE.read_text(encoding="utf-8")))


def win_estimate(s: BarcelonaState) -> list[float] | None:
    """Each seat's estimated chance to win; None where no model applies (solo games, a player
    count without shipped weights). A finished game is not estimated: its winners are known."""
    if s.solo or s.ended:
        return None
    model = shipped_models().get(s.n)
    if model is None:
        return None
    return [model.probability(row) for row in position_features(s)]
