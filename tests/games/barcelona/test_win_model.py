"""The learned win estimate: its features, the shipped weights and the training command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from eixample.ai import make_bot
from eixample.ai.mcts import MctsBot
from eixample.ai.view import player_view
from eixample.games import barcelona
from eixample.games.barcelona import training, win_model
from eixample.games.barcelona.evaluation import (
    CLOTH,
    COIN,
    INTERSECTION_PER_OPPONENT,
    MODERNISME_GROWTH,
    evaluate,
)
from eixample.games.barcelona.state import BarcelonaState


def _midgame(seed: int = 11, actions: int = 120) -> BarcelonaState:
    state = barcelona.new_game(2, seed)
    bots = [make_bot("greedy", 1), make_bot("greedy", 2)]
    for _ in range(actions):
        state.apply(bots[state.current_player()].choose(state, state.current_player()))
    assert isinstance(state, BarcelonaState)
    return state


def test_the_parts_are_those_the_evaluation_sums() -> None:
    state = _midgame()
    for p, parts in enumerate(win_model.seat_parts(state)):
        coins, cloth, intersections, growth = parts[2], parts[3], parts[5], parts[9]
        valued = (sum(parts) + (COIN - 1) * coins + (CLOTH - 1) * cloth
                  + (INTERSECTION_PER_OPPONENT - 1) * intersections + (MODERNISME_GROWTH - 1) * growth)
        assert valued == pytest.approx(evaluate(state)[p])


def test_two_player_features_are_opposite_and_estimates_sum_to_one() -> None:
    state = _midgame()
    first, second = win_model.position_features(state)
    assert len(first) == len(win_model.FEATURES)
    assert first == pytest.approx([-value for value in second])
    estimate = state.win_estimate()
    assert estimate is not None
    assert sum(estimate) == pytest.approx(1.0)
    assert all(0.0 < value < 1.0 for value in estimate)


def test_the_shipped_weights_load_with_their_provenance() -> None:
    models = win_model.shipped_models()
    assert 2 in models
    data = json.loads(win_model.WEIGHTS_FILE.read_text(encoding="utf-8"))
    assert data["models"]["2"]["provenance"].startswith("python -m eixample.games.barcelona.training")


def test_a_clear_lead_is_estimated_as_likely_to_win() -> None:
    state = _midgame()
    leader = max(range(2), key=lambda p: evaluate(state)[p])
    state.vp[leader] += 40
    estimate = state.win_estimate()
    assert estimate is not None and estimate[leader] > 0.9


def test_no_estimate_where_no_model_applies() -> None:
    solo = barcelona.new_game(1, 5)
    assert isinstance(solo, BarcelonaState) and solo.win_estimate() is None


@pytest.mark.parametrize("bad", [
    {"features": ["vp"], "models": {}},
    {"features": list(win_model.FEATURES), "models": {"5": {}}},
    {"features": list(win_model.FEATURES), "models": {"2": {"weights": [1.0], "intercept": 0}}},
    {"features": list(win_model.FEATURES),
     "models": {"2": {"weights": [float("nan")] * len(win_model.FEATURES), "intercept": 0}}},
    {"features": list(win_model.FEATURES),
     "models": {"2": {"weights": [1e9] * len(win_model.FEATURES), "intercept": 0}}},
])
def test_a_malformed_weights_file_is_refused(bad: dict) -> None:
    with pytest.raises(ValueError, match="win model"):
        win_model.parse_models(bad)


def test_the_training_command_writes_loadable_weights_at_small_size(tmp_path: Path) -> None:
    out = tmp_path / "weights.json"
    training.main(["--players", "2", "--games", "2", "--seed", "3", "--spec", "greedy", "--every", "5",
                   "--out", str(out)])
    first = out.read_text(encoding="utf-8")
    models = win_model.parse_models(json.loads(first))
    assert list(models) == [2] and any(weight != 0 for weight in models[2].weights)
    out.unlink()
    training.main(["--players", "2", "--games", "2", "--seed", "3", "--spec", "greedy", "--every", "5",
                   "--out", str(out)])
    assert out.read_text(encoding="utf-8") == first  # the same seed gives the same weights


def test_the_search_judges_leaves_by_the_learned_estimate() -> None:
    state = _midgame()
    bot = make_bot("mcts:iterations=1:leaf=learned", 7)
    assert isinstance(bot, MctsBot)
    assert bot.reward(state) == state.win_estimate()
    plain = make_bot("mcts:iterations=1", 7)
    assert isinstance(plain, MctsBot) and plain.reward(state) != state.win_estimate()
    with player_view(state, state.current_player()) as view:
        assert bot.decide(view) in state.legal_actions()
