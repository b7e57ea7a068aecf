"""The games as OpenSpiel Python games: OpenSpiel's own checks, its bots, and agreement with the
engine at every step."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from eixample.interop import openspiel
from eixample.interop.encoding import Observer
from eixample.interop.table import research_games, utility, view_text
from tests.interop.helpers import first_setup_per_game


def load(name: str, players: int, seed: int = 0) -> Any:
    return pyspiel.load_game(openspiel.short_name(name), {"players": players, "seed": seed})


def test_every_research_game_is_registered() -> None:
    registered = set(pyspiel.registered_names())
    assert {openspiel.short_name(name) for name in research_games()} <= registered
    assert "eixample_barcelona" in registered


def test_barcelona_game_type_and_info() -> None:
    game = load("barcelona", 3)
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert game.num_players() == 3
    assert game.num_distinct_actions() == len(openspiel.GameTable.build("barcelona", 3).actions)
    size = Observer.of(openspiel.GameTable.build("barcelona", 3)).size
    assert game.observation_tensor_shape() == [size]
    assert game.information_state_tensor_shape() == [size + game.num_distinct_actions()]
    with pytest.raises(ValueError, match="1 to 4 players"):
        pyspiel.load_game("eixample_barcelona", {"players": 5})


@pytest.mark.parametrize(("name", "players", "options"), first_setup_per_game())
def test_random_sim_test(name: str, players: int, options: dict[str, Any]) -> None:
    # serialize=False: OpenSpiel serializes a sampled-stochastic game with its generator's state,
    # which Python games cannot provide (GetRNGState); replay the engine record instead.
    pyspiel.random_sim_test(load(name, players), num_sims=1, serialize=False, verbose=False)


def test_random_sim_test_solo() -> None:
    pyspiel.random_sim_test(load("barcelona", 1, seed=4), num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize(("name", "players", "options"), first_setup_per_game())
def test_a_whole_game_agrees_with_the_engine(name: str, players: int, options: dict[str, Any]) -> None:
    game = load(name, players, seed=11)
    state = game.new_initial_state()
    pick = random.Random(3)
    own: list[list[str]] = [[] for _ in range(game.num_players())]
    observer = Observer.of(state.table)
    while not state.is_terminal():
        engine = state.engine
        seat = engine.current_player()
        assert state.current_player() == seat
        assert [state.action_to_string(seat, a) for a in state.legal_actions()] == sorted(
            engine.legal_actions(), key=state.table.index.__getitem__)
        for player in range(game.num_players()):
            view = engine.view(player)
            assert state.observation_string(player) == view_text(view)
            observation = observer.observe(engine, player)
            assert np.array_equal(state.observation_tensor(player), observation)
            known = {**view, "own_actions": own[player]}
            assert state.information_state_string(player) == view_text(known, history=True)
            counts = np.zeros(game.num_distinct_actions(), np.float32)
            for text in own[player]:
                counts[state.table.index[text]] += 1
            infostate = state.information_state_tensor(player)
            assert np.array_equal(infostate, np.concatenate([observation, counts]))
        action = pick.choice(state.legal_actions())
        own[seat].append(state.action_to_string(seat, action))
        state.apply_action(action)
    assert state.returns() == pytest.approx(utility(state.engine))
    best = max(state.engine.scores())
    for seat, value in enumerate(state.returns()):
        assert (value > 0) == (state.engine.scores()[seat] == best and state.engine.scores().count(best) == 1)


def test_resample_from_infostate_keeps_the_information_state() -> None:
    state = load("barcelona", 3, seed=5).new_initial_state()
    pick = random.Random(5)
    for _ in range(30):
        state.apply_action(pick.choice(state.legal_actions()))
    seat = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    hands = set()
    for _ in range(8):
        other = state.resample_from_infostate(seat, sampler)
        assert other.information_state_string(seat) == state.information_state_string(seat)
        assert other.legal_actions() == state.legal_actions()
        hands.add(str(other.engine.to_json()["state"]["hands"]))
    assert len(hands) > 1  # the hidden hands were drawn afresh


def test_openspiel_ismcts_bot_plays_a_whole_game() -> None:
    game = load("barcelona", 2, seed=2)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bots = [ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=3,
                             random_state=np.random.RandomState(seat)) for seat in range(2)]
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    assert len(state.returns()) == 2 and state.engine.is_terminal()


def test_openspiel_mcts_bot_plays_a_whole_game() -> None:
    game = load("barcelona", 2, seed=3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(2))
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=3, evaluator=evaluator,
                       random_state=np.random.RandomState(3))
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bot.step(state))
    assert state.engine.is_terminal()


def test_openspiel_observers_write_the_named_parts() -> None:
    from open_spiel.python.observation import make_observation

    game = load("barcelona", 2, seed=4)
    state = game.new_initial_state()
    for action in state.legal_actions()[:1]:
        state.apply_action(action)
    observation = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    observation.set_from(state, 1)
    assert np.array_equal(observation.tensor, state.observation_tensor(1))
    spec = Observer.of(state.table).spec
    assert list(observation.dict) == spec.names()
    assert observation.dict["seat"].tolist() == [0, 1]
    assert observation.dict["own_hand"].shape == spec.part("own_hand").shape
    infostate = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    infostate.set_from(state, 0)
    assert infostate.dict["own_actions"].sum() == 1  # seat 0 took the first action
    assert np.array_equal(infostate.tensor, state.information_state_tensor(0))
