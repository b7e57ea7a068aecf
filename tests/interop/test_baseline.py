"""The baseline agents: a numpy policy network trained by policy gradient, and the shipped ones."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from eixample.ai.match import play_out
from eixample.ai.random_bot import RandomBot
from eixample.interop import baseline
from eixample.interop.baseline import FEATURES, PolicyBot, PolicyNetwork, Settings, Step, evaluate, train
from eixample.interop.table import GameTable


def test_a_small_training_learns_measurably() -> None:
    """The CI-sized configuration: 1200 games of tic-tac-toe against the random bot. Its network
    (most likely action) must beat the random bot clearly more often than the same network before
    training: the 95% Wilson intervals of the two win rates over 300 games must not overlap."""
    settings = Settings(game="tictactoe", games=1200, seed=0)
    trained, curve = train(settings, every=200)
    untrained = PolicyNetwork.initial(FEATURES, settings.hidden, 9, settings.seed)
    after = evaluate(trained, "tictactoe", 2, "random", 300, seed=5000)
    before = evaluate(untrained, "tictactoe", 2, "random", 300, seed=5000)
    assert after.interval[0] > before.interval[1], (before, after)
    assert len(curve) == 6 and curve[-1][1] > curve[0][1]  # the learning curve rose too


def test_training_is_reproducible() -> None:
    settings = Settings(game="tictactoe", games=40, batch=8, seed=3)
    first, _ = train(settings, every=20)
    second, curve = train(settings, every=20)
    for name in PolicyNetwork.PARAMETERS:
        assert np.array_equal(getattr(first, name), getattr(second, name))
    assert [games for games, _ in curve] == [20, 40]


def test_the_gradients_match_finite_differences() -> None:
    rng = np.random.default_rng(4)
    network = PolicyNetwork.initial(6, 5, 4, seed=1)
    network.w2 = rng.standard_normal(network.w2.shape).astype(np.float32)
    network.wv = rng.standard_normal(network.wv.shape).astype(np.float32)
    mask = np.array([True, False, True, True])
    games = [([Step(rng.standard_normal(6).astype(np.float32), mask, 2),
               Step(rng.standard_normal(6).astype(np.float32), mask, 0)], 0.7),
             ([Step(rng.standard_normal(6).astype(np.float32), mask, 3)], -0.4)]
    gradients = baseline._gradients(network, games, entropy=0.05)
    steps = [(step, value) for game, value in games for step in game]
    advantages = [value - float(network.forward(step.x[None, :])[2][0]) for step, value in steps]

    def loss() -> float:
        total = 0.0
        for (step, value), advantage in zip(steps, advantages, strict=True):  # advantages held constant
            _, logits, values = network.forward(step.x[None, :].astype(np.float64))
            p = baseline.masked_softmax(logits[0].astype(np.float64), step.mask).astype(np.float64)
            entropy = -sum(q * np.log(q) for q in p if q > 0)
            total += -advantage * np.log(p[step.action]) + (values[0] - value) ** 2 / 2 - 0.05 * entropy
        return float(total) / len(steps)

    for name in ("w1", "w2", "b2"):
        parameter = getattr(network, name)
        largest = int(np.argmax(np.abs(gradients[name])))
        index = tuple(int(i) for i in np.unravel_index(largest, parameter.shape))
        saved = float(parameter[index])
        parameter[index] = saved + 1e-2
        up = loss()
        parameter[index] = saved - 1e-2
        down = loss()
        parameter[index] = saved
        assert gradients[name][index] == pytest.approx((up - down) / 2e-2, rel=0.05, abs=1e-4), name


def test_save_and_load(tmp_path: Path) -> None:
    network = PolicyNetwork.initial(FEATURES, 8, 9, seed=2)
    network.meta = {"game": "tictactoe"}
    network.save(tmp_path / "net.npz")
    back = PolicyNetwork.load(tmp_path / "net.npz")
    assert back.meta == {"game": "tictactoe"} and back.w1.dtype == np.float32
    assert np.allclose(back.w1, network.w1, atol=1e-3)


@pytest.mark.parametrize("game", ["tictactoe", "barcelona", "rose-of-fire"])
def test_the_shipped_agents_load_and_play_legal_games(game: str) -> None:
    network = baseline.shipped(game)
    assert network.meta["game"] == game and network.meta["curve"]
    players = int(network.meta["players"])
    table = GameTable.build(game, players)
    assert network.w2.shape[1] == len(table.actions)
    state = table.new_state(random.Random(game).randrange(1000))
    bots = [PolicyBot(network, table, 0), *(RandomBot("random", seat) for seat in range(1, players))]
    assert play_out(state, bots).is_terminal()


def test_no_agent_is_shipped_for_an_unknown_game() -> None:
    with pytest.raises(ValueError, match="no baseline agent"):
        baseline.shipped("chess")


def test_a_game_with_a_structured_observation_is_read_through_it() -> None:
    table = GameTable.build("barcelona", 2)
    reading = baseline.Features.best(table)
    assert reading.kind == baseline.STRUCTURED and reading.size == table.game.observation_spec(2).size
    older = PolicyNetwork.initial(FEATURES, 4, len(table.actions), seed=0)  # saved before: no "features"
    assert baseline.network_features(older, table).kind == FEATURES
    state = table.new_state(3)
    expected = np.empty(reading.size, np.float32)
    state.write_observation(0, expected)
    assert np.array_equal(reading.of_state(state, 0), np.sign(expected) * np.log1p(np.abs(expected)))
    with pytest.raises(ValueError, match="features"):
        baseline.Features(table, "pixels")


def test_several_opponents_take_turns_game_by_game() -> None:
    assert baseline.opponent_specs("random; greedy") == ["random", "greedy"]
    with pytest.raises(ValueError, match="opponents"):
        baseline.opponent_specs(" ; ")
    settings = Settings(game="tictactoe", games=4, batch=2, opponents="random;greedy", seed=1)
    _, curve = train(settings, every=4)
    assert len(curve) == 1


def test_the_report_prints_win_rates_with_intervals(tmp_path: Path) -> None:
    out = tmp_path / "baselines.md"
    baseline.main(["report", "--games", "tictactoe", "--opponents", "random@6;greedy@4", "--out", str(out)])
    text = out.read_text()
    assert "| random | `random` | 6 |" in text and "| random, untrained | `random` | 6 |" in text
    assert "| greedy | `greedy` | 4 |" in text and "Learning curve" in text
    assert f"baseline report --games tictactoe --opponents 'random@6;greedy@4' --out {out}`" in text
