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

DICT_NOTICES = {"Observation space for each agent probably should be gymnasium.spaces.box or "
                "gymnasium.spaces.discrete", "Observation is not a NumPy array"}
"""What api_test says of a dict observation of any environment whose name is not in its own lists."""


@pytest.mark.parametrize(("name", "players", "options"), setups())
def test_api_test_passes_with_no_warning(name: str, players: int, options: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        api_test(env(game=name, players=players, action_mask="info", **options), num_cycles=200)


@pytest.mark.parametrize(("name", "players", "options"), first_setup_per_game())
def test_api_test_on_dict_observations_warns_only_by_name(
    name: str, players: int, options: dict[str, Any]
) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(game=name, players=players, **options), num_cycles=50)
    assert {str(warning.message) for warning in caught} == DICT_NOTICES
    aec = env(game=name, players=players, **options)
    aec.unwrapped.metadata = {**aec.unwrapped.metadata, "name": "chess_v6"}  # one of its own names
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        api_test(aec, num_cycles=50)


def test_the_mask_in_infos_is_the_acting_agents() -> None:
    aec = env(game="barcelona", players=3, action_mask="info")
    aec.reset(seed=5)
    observation, _, _, _, info = aec.last()
    assert isinstance(observation, np.ndarray)
    assert aec.observation_space(aec.agent_selection).contains(observation)
    legal = sorted(aec.unwrapped.table.index[a] for a in aec.unwrapped.game_state.legal_actions())
    assert info["action_mask"].nonzero()[0].tolist() == legal
    for agent in aec.agents:
        if agent != aec.agent_selection:
            assert not aec.infos[agent]["action_mask"].any()
    with pytest.raises(ValueError, match="action_mask"):
        raw_env("barcelona", 2, action_mask="both")


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


def test_an_illegal_action_ends_the_game_with_a_penalty_with_the_mask_in_infos() -> None:
    aec = env(game="rose-of-fire", players=2, action_mask="info")
    aec.reset(seed=1)
    for _ in range(3):  # legal actions first: the game goes on
        *_, info = aec.last()
        aec.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert not any(aec.terminations.values())
    agent = aec.agent_selection
    *_, info = aec.last()
    aec.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
    assert all(aec.terminations.values())
    assert aec.rewards[agent] == -1


def test_the_agent_iterator_still_enforces_the_order() -> None:
    aec = env(game="rose-of-fire", players=2)
    with pytest.raises(AssertionError, match="reset"):
        aec.agent_iter()
    aec.reset(seed=2)
    agents = iter(aec.agent_iter(max_iter=3))
    assert next(agents) == aec.agent_selection
    with pytest.raises(AssertionError, match="need to call step"):
        next(agents)
    observation, *_ = aec.last()
    aec.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert next(agents) == aec.agent_selection
    aec.step(int(np.flatnonzero(aec.last()[0]["action_mask"])[0]))
    with pytest.raises(StopIteration):
        next(agents)  # max_iter reached


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(ValueError, match="1 to 4 players"):
        env(game="barcelona", players=7)
    with pytest.raises(KeyError, match="unknown game"):
        env(game="chess", players=2)
