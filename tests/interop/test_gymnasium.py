"""The games as single-agent Gymnasium environments against the platform's bots."""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from eixample.interop import gymnasium as eixample_gym
from eixample.interop.encoding import Observer
from eixample.interop.table import research_games, utility
from tests.interop.helpers import setups


def test_every_research_game_is_registered() -> None:
    assert "eixample/Barcelona-v0" in gymnasium.registry
    assert eixample_gym.env_id("rose-of-fire") == "eixample/RoseOfFire-v0"
    for name in research_games():
        assert eixample_gym.env_id(name) in gymnasium.registry


@pytest.mark.parametrize(("name", "players", "options"), setups())
def test_check_env(name: str, players: int, options: dict[str, Any]) -> None:
    env = gymnasium.make(eixample_gym.env_id(name), players=players, opponents="random", **options)
    check_env(env.unwrapped, skip_render_check=True)


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
