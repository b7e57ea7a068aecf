"""The games as single-agent Gymnasium environments against the platform's bots."""

from __future__ import annotations

import random
import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from eixample.core.errors import IllegalActionError
from eixample.core.registry import get_game
from eixample.interop import gymnasium as eixample_gym
from eixample.interop.encoding import Observer
from eixample.interop.table import max_decisions, research_games, utility
from tests.interop.helpers import setups


def test_every_research_game_is_registered() -> None:
    assert "eixample/Barcelona-v0" in gymnasium.registry
    assert eixample_gym.env_id("rose-of-fire") == "eixample/RoseOfFire-v0"
    for name in research_games():
        assert eixample_gym.env_id(name) in gymnasium.registry


@pytest.mark.parametrize(("name", "players", "options"), setups())
def test_check_env(name: str, players: int, options: dict[str, Any]) -> None:
    env = gymnasium.make(eixample_gym.env_id(name), players=players, opponents="random", **options)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped, skip_render_check=True)
    assert np.isfinite(env.observation_space.low).all() and np.isfinite(env.observation_space.high).all()
    assert (env.observation_space.low == env.unwrapped.observer.low).all()


def test_the_time_limit_is_the_games_bound_on_decisions() -> None:
    for name in research_games():
        env = gymnasium.make(eixample_gym.env_id(name))
        assert env.spec is not None and env.spec.max_episode_steps == max_decisions(name)
    env = gymnasium.make("eixample/Tictactoe-v0", opponents="random")
    env.reset(seed=1)
    truncated, steps = False, 0
    while not truncated:  # an agent that only tries illegal moves is cut off
        *_, terminated, truncated, info = env.step(9)  # beyond the cells: refused
        steps += 1
        assert not terminated and info["illegal_action"]
    assert steps == 9


def test_one_seed_deals_one_game() -> None:
    env = eixample_gym.EixampleEnv("barcelona", 3, opponents="random")
    env.reset(seed=41)  # the learner, seat 0, moves first: no bot has played yet
    assert env.state.to_json() == get_game("barcelona").new_game(3, 41).to_json()
    env.reset()
    assert env.state.to_json() == get_game("barcelona").new_game(3, 42).to_json()
    with pytest.raises(ValueError, match="seed"):
        env.reset(seed=2**64)


def test_make_with_greedy_opponents_as_documented() -> None:
    env = gymnasium.make("eixample/Barcelona-v0", players=2, opponents="greedy")
    observation, info = env.reset(seed=7)
    assert observation.shape == env.observation_space.shape
    assert info["action_mask"].dtype == np.int8 and info["action_mask"].any()


@pytest.mark.parametrize(("name", "players", "options"), setups())
def test_a_whole_game_agrees_with_the_engine(name: str, players: int, options: dict[str, Any]) -> None:
    seat = players - 1
    env = eixample_gym.EixampleEnv(name, players, opponents="greedy", seat=seat, **options)
    observation, info = env.reset(seed=3)
    pick = random.Random(3)
    terminated, reward, steps = False, 0.0, 0
    while not terminated:
        state = env.state
        assert state.current_player() == seat
        assert np.array_equal(observation, Observer.of(env.unwrapped.table).observe(state, seat))
        assert env.observation_space.contains(observation)
        legal = [env.table.actions[i] for i in np.flatnonzero(info["action_mask"])]
        assert sorted(legal) == sorted(state.legal_actions())
        action = pick.choice(np.flatnonzero(info["action_mask"]))
        observation, reward, terminated, truncated, info = env.step(action)
        assert reward == 0.0 or terminated
        assert not truncated
        steps += 1
    assert env.state.is_terminal() and steps > 0
    assert reward == pytest.approx(utility(env.state)[seat])
    assert info["scores"] == env.state.scores() and not info["action_mask"].any()


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    env = eixample_gym.EixampleEnv("barcelona", 2, opponents="random")
    observation, info = env.reset(seed=5)
    before = env.state.to_json()
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    after, reward, terminated, truncated, info = env.step(illegal)
    assert info["illegal_action"] and reward == 0.0 and not terminated and not truncated
    assert env.state.to_json() == before and np.array_equal(after, observation)


@pytest.mark.parametrize("action", [1.5, np.float32(2.0), True, "3", None, np.array([1, 2])])
def test_an_action_that_is_not_an_integer_is_refused(action: Any) -> None:
    env = eixample_gym.EixampleEnv("tictactoe", 2, opponents="random")
    env.reset(seed=5)
    before = env.state.to_json()
    with pytest.raises(ValueError, match="an action is an integer"):
        env.step(action)
    assert env.state.to_json() == before


def test_integer_actions_of_numpy_are_taken() -> None:
    env = eixample_gym.EixampleEnv("tictactoe", 2, opponents="random")
    env.reset(seed=5)
    env.step(np.array(4))
    env.step(np.int64(int(np.flatnonzero(env.action_masks())[0])))
    assert len(env.state.record()["actions"]) == 4


def test_action_masks_are_the_legal_actions() -> None:
    env = eixample_gym.EixampleEnv("barcelona", 2, opponents="random")
    _, info = env.reset(seed=8)
    masks = env.action_masks()
    assert masks.dtype == bool and np.array_equal(masks, info["action_mask"].astype(bool))


@pytest.mark.parametrize(("policy", "reward", "terminated"), [("refuse", 0.0, False), ("lose", -1.0, True)])
def test_the_illegal_action_policy(policy: str, reward: float, terminated: bool) -> None:
    env = eixample_gym.EixampleEnv("barcelona", 2, opponents="random", illegal_action=policy)
    _, info = env.reset(seed=5)
    before = env.state.to_json()
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, got, ended, truncated, info = env.step(illegal)
    assert (got, ended, truncated, info["illegal_action"]) == (reward, terminated, False, True)
    assert env.state.to_json() == before
    assert env.step(len(env.table.actions))[4]["illegal_action"]  # out of range: the same policy


def test_the_illegal_action_policy_raise() -> None:
    env = eixample_gym.EixampleEnv("barcelona", 2, opponents="random", illegal_action="raise")
    _, info = env.reset(seed=5)
    before = env.state.to_json()
    with pytest.raises(IllegalActionError):
        env.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
    assert env.state.to_json() == before


def _play_randomly(env: eixample_gym.EixampleEnv, seed: int) -> list[float]:
    _, info = env.reset(seed=seed)
    pick, rewards, terminated = random.Random(seed), [], False
    while not terminated:
        _, reward, terminated, _, info = env.step(pick.choice(np.flatnonzero(info["action_mask"])))
        rewards.append(float(reward))
    return rewards


def test_the_rewards() -> None:
    def make(reward: str) -> eixample_gym.EixampleEnv:
        return eixample_gym.EixampleEnv("barcelona", 3, opponents="greedy", seat=1, reward=reward)

    runs = {kind: (_play_randomly(env := make(kind), 6), env.state) for kind in eixample_gym.REWARDS}
    scores = runs["utility"][1].scores()
    margin = (scores[1] - max(scores[0], scores[2])) / 10
    assert all(run[1].scores() == scores for run in runs.values())  # one game, whatever the reward
    assert runs["utility"][0][-1] == pytest.approx(np.tanh(margin)) and not any(runs["utility"][0][:-1])
    assert runs["margin"][0][-1] == pytest.approx(margin) and not any(runs["margin"][0][:-1])
    assert runs["win"][0][-1] == (1.0 if runs["win"][1].winners() == [1] else -1.0 if 1 not in
                                  runs["win"][1].winners() else 0.0)
    assert sum(runs["score"][0]) == pytest.approx(margin) and sum(1 for r in runs["score"][0] if r) > 3


def test_bad_reward_and_policy_names_are_refused() -> None:
    with pytest.raises(ValueError, match="reward must be one of"):
        eixample_gym.EixampleEnv("tictactoe", 2, reward="elo")
    with pytest.raises(ValueError, match="illegal_action must be one of"):
        eixample_gym.EixampleEnv("tictactoe", 2, illegal_action="ignore")


def test_one_bot_spec_per_other_seat() -> None:
    env = eixample_gym.EixampleEnv("barcelona", 3, opponents="random,greedy:samples=2", seat=1)
    assert env.opponent_specs == {0: "random", 2: "greedy:samples=2"}
    env.reset(seed=1)
    assert env.state.current_player() == 1


@pytest.mark.parametrize(("kwargs", "phrase"), [
    ({"opponents": "alphazero"}, "unknown bot"),
    ({"opponents": "random,random,random"}, "3 bot specs for 1 other seats"),
    ({"seat": 2}, "seat must be 0..1"),
    ({"players": 9}, "1 to 4 players"),
])
def test_bad_parameters_are_refused(kwargs: dict[str, Any], phrase: str) -> None:
    with pytest.raises(ValueError, match=phrase):
        eixample_gym.EixampleEnv(**{"game": "barcelona", "players": 2, **kwargs})
