"""The games as PettingZoo AEC environments."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test
from pettingzoo.test.state_test import test_state as state_test
from pettingzoo.test.state_test import test_state_space as state_space_test

from eixample.core.registry import get_game
from eixample.interop.encoding import Observer
from eixample.interop.pettingzoo import env, raw_env
from eixample.interop.table import utility
from tests.interop.helpers import first_setup_per_game, setups

DICT_NOTICES = ("Observation space for each agent probably should be gymnasium.spaces.box",
                "Observation is not a NumPy array")
"""api_test's two notices for any dict observation of an environment outside its own lists (its own
board games: chess, go, connect four, tic-tac-toe, the poker games, whose observations are dicts with
an action mask, like these). Every other warning fails the test."""


@pytest.mark.parametrize(("name", "players", "options"), setups())
def test_api_test(name: str, players: int, options: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for notice in DICT_NOTICES:
            warnings.filterwarnings("ignore", message=notice)
        api_test(env(game=name, players=players, **options), num_cycles=200)


@pytest.mark.parametrize(("name", "players", "options"), first_setup_per_game())
def test_state_and_state_space(name: str, players: int, options: dict[str, Any]) -> None:
    aec = env(game=name, players=players, **options)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        state_space_test(aec)
        state_test(aec, num_cycles=10)
    aec.reset(seed=4)
    observer, state = aec.unwrapped.observer, aec.unwrapped.game_state
    every_seat = np.concatenate([observer.observe(state, seat) for seat in range(players)])
    assert np.array_equal(aec.state(), every_seat)
    assert aec.state_space.contains(aec.state())


def test_one_seed_deals_one_game() -> None:
    aec = raw_env("barcelona", 3)
    aec.reset(seed=41)
    assert aec.game_state.to_json() == get_game("barcelona").new_game(3, 41).to_json()
    aec.reset()
    assert aec.game_state.to_json() == get_game("barcelona").new_game(3, 42).to_json()
    with pytest.raises(ValueError, match="seed"):
        aec.reset(seed=-1)


def test_the_final_infos_hold_the_scores() -> None:
    aec = env(game="tictactoe", players=2)
    aec.reset(seed=1)
    for cell in (0, 3, 1, 4, 2):  # X completes the top row
        aec.step(cell)
    state = aec.unwrapped.game_state
    assert state.is_terminal()
    for agent in aec.possible_agents:
        assert aec.infos[agent] == {"scores": [1, 0], "winners": [0]}


@pytest.mark.parametrize(("name", "players", "options"), setups())
def test_a_whole_game_agrees_with_the_engine(name: str, players: int, options: dict[str, Any]) -> None:
    aec = raw_env(name, players, **options)
    aec.reset(seed=9)
    pick = random.Random(9)
    rewards = dict.fromkeys(aec.possible_agents, 0.0)
    for agent in aec.agent_iter(max_iter=20_000):
        observation, reward, termination, truncation, _ = aec.last()
        rewards[agent] += reward
        state = aec.game_state
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
    assert aec.game_state.is_terminal() and not aec.agents
    assert list(rewards.values()) == pytest.approx(utility(aec.game_state)[:players])


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
