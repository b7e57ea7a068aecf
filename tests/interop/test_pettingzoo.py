"""The games as PettingZoo AEC environments."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test

from eixample.interop.encoding import Observer
from eixample.interop.pettingzoo import env, raw_env
from eixample.interop.table import utility
from tests.interop.helpers import setups


@pytest.mark.parametrize(("name", "players", "options"), setups())
def test_api_test(name: str, players: int, options: dict[str, Any]) -> None:
    api_test(env(game=name, players=players, **options), num_cycles=200)


@pytest.mark.parametrize(("name", "players", "options"), setups())
def test_a_whole_game_agrees_with_the_engine(name: str, players: int, options: dict[str, Any]) -> None:
    aec = raw_env(name, players, **options)
    aec.reset(seed=9)
    pick = random.Random(9)
    rewards = dict.fromkeys(aec.possible_agents, 0.0)
    for agent in aec.agent_iter(max_iter=20_000):
        observation, reward, termination, truncation, _ = aec.last()
        rewards[agent] += reward
        state = aec.state
        seat = aec.possible_agents.index(agent)
        assert np.array_equal(observation["observation"], Observer.of(aec.table).observe(state, seat))
        assert aec.observation_space(agent).contains(observation)
        if termination or truncation:
            assert state.is_terminal()
            aec.step(None)
            continue
        assert state.current_player() == seat
        legal = [aec.table.actions[i] for i in np.flatnonzero(observation["action_mask"])]
        assert sorted(legal) == sorted(state.legal_actions())
        aec.step(pick.choice(np.flatnonzero(observation["action_mask"])))
    assert aec.state.is_terminal() and not aec.agents
    assert list(rewards.values()) == pytest.approx(utility(aec.state)[:players])


def test_an_illegal_action_ends_the_game_with_a_penalty(caplog: pytest.LogCaptureFixture) -> None:
    aec = env(game="barcelona", players=2)
    aec.reset(seed=1)
    observation, *_ = aec.last()
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    aec.step(illegal)
    assert "Illegal move" in caplog.text
    assert all(aec.terminations.values())
    assert aec.rewards == {"player_0": -1, "player_1": 0}


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(ValueError, match="1 to 4 players"):
        env(game="barcelona", players=7)
    with pytest.raises(KeyError, match="unknown game"):
        env(game="chess", players=2)
