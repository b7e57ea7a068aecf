"""Many games in one Gymnasium vector environment."""

from __future__ import annotations

import numpy as np
import pytest

from eixample.interop.vector import EixampleVectorEnv


def test_a_vector_of_games_steps_each_one_and_starts_the_next_at_the_end() -> None:
    envs = EixampleVectorEnv(num_envs=3, game="tictactoe", players=2, opponents="random")
    observations, infos = envs.reset(seed=4)
    assert observations.shape == (3, envs.observer.size) and envs.observation_space.contains(observations)
    pick = np.random.default_rng(4)
    finished = 0
    for _ in range(40):
        for i, env in enumerate(envs.envs):
            assert np.array_equal(observations[i], envs.observer.observe(env.state, 0))
            assert np.flatnonzero(infos["action_mask"][i]).tolist() == envs.table.legal_ids(env.state)
        actions = [int(pick.choice(np.flatnonzero(mask))) for mask in infos["action_mask"]]
        observations, rewards, terminations, truncations, infos = envs.step(actions)
        assert not truncations.any()
        for i in np.flatnonzero(terminations):
            finished += 1
            assert infos["_final_obs"][i] and infos["final_obs"][i][20] == 1  # the game is over
            assert rewards[i] == pytest.approx(
                {(1, 0): 0.0997, (0, 1): -0.0997, (0, 0): 0.0, (1, 1): 0.0}[tuple(infos["final_scores"][i])],
                abs=1e-3,
            )
            assert not envs.envs[i].state.is_terminal()  # the next game has begun
    assert finished >= 5


def test_a_refused_action_changes_nothing_and_is_flagged() -> None:
    envs = EixampleVectorEnv(num_envs=2, game="barcelona", players=2, opponents="random", copy=False)
    observations, infos = envs.reset(seed=1)
    before = observations.copy()
    illegal = int(np.flatnonzero(infos["action_mask"][0] == 0)[0])
    legal = int(np.flatnonzero(infos["action_mask"][1])[0])
    observations, _, _, _, infos = envs.step([illegal, legal])
    assert infos["illegal_action"].tolist() == [True, False]
    assert np.array_equal(observations[0], before[0]) and not np.array_equal(observations[1], before[1])
    with pytest.raises(ValueError, match="expected 2 actions"):
        envs.step([legal])


def test_a_finished_game_is_followed_by_the_next_seed_and_a_number_not_an_action_is_refused() -> None:
    envs = EixampleVectorEnv(num_envs=2, game="tictactoe", players=2, opponents="random")
    _, infos = envs.reset(seed=10)
    pick = np.random.default_rng(1)
    while True:
        actions = [int(pick.choice(np.flatnonzero(mask))) for mask in infos["action_mask"]]
        _, _, terminations, _, infos = envs.step(actions)
        if terminations[0]:
            break
    assert envs.envs[0].game_seed == 11 and not envs.envs[0].state.is_terminal()
    before = infos["action_mask"].copy()
    _, _, _, _, infos = envs.step([-1, 2.5])
    assert infos["illegal_action"].tolist() == [True, True]
    assert np.array_equal(infos["action_mask"], before)


@pytest.mark.parametrize("game", ["barcelona", "rose-of-fire"])
def test_the_batch_of_observations_is_each_game_observed_alone(game: str) -> None:
    envs = EixampleVectorEnv(num_envs=5, game=game, players=3, opponents="random")
    observations, infos = envs.reset(seed=3)
    pick = np.random.default_rng(3)
    for _ in range(25):
        for i, env in enumerate(envs.envs):
            assert np.array_equal(observations[i], envs.observer.observe(env.state, 0))
        actions = [int(pick.choice(np.flatnonzero(mask))) for mask in infos["action_mask"]]
        observations, _, _, _, infos = envs.step(actions)
