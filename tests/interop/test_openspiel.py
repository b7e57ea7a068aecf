"""The games as OpenSpiel Python games: OpenSpiel's own checks, its algorithms and bots, and
agreement with the engine at every step."""

from __future__ import annotations

import pickle
import random
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts, minimax, outcome_sampling_mccfr

from eixample.core.registry import get_game
from eixample.interop import openspiel
from eixample.interop.encoding import Observer
from eixample.interop.table import (
    MAX_DECISIONS,
    research_games,
    utility,
    view_text,
)
from tests.interop.helpers import first_setup_per_game, random_walk

Type = pyspiel.GameType


def load(name: str, players: int) -> Any:
    return pyspiel.load_game(openspiel.short_name(name), {"players": players})


def dealt(name: str, players: int, seed: int) -> Any:
    return openspiel.dealt_state(load(name, players), seed)


def test_every_research_game_is_registered() -> None:
    registered = set(pyspiel.registered_names())
    assert {openspiel.short_name(name) for name in research_games()} <= registered
    assert "eixample_barcelona" in registered


def test_tictactoe_is_perfect_information_deterministic_and_zero_sum() -> None:
    game = load("tictactoe", 2)
    kind = game.get_type()
    assert kind.information == Type.Information.PERFECT_INFORMATION
    assert kind.chance_mode == Type.ChanceMode.DETERMINISTIC
    assert kind.utility == Type.Utility.ZERO_SUM and game.utility_sum() == 0.0
    assert game.max_game_length() == 9 and game.max_chance_outcomes() == 0
    assert not game.new_initial_state().is_chance_node()


def test_alpha_beta_search_solves_tictactoe_as_a_draw() -> None:
    value, action = minimax.alpha_beta_search(load("tictactoe", 2))
    assert value == 0.0 and action in range(9)


@pytest.mark.parametrize(("name", "players", "utility_kind"), [
    ("barcelona", 1, Type.Utility.ZERO_SUM),  # the player and the automa
    ("barcelona", 2, Type.Utility.ZERO_SUM),
    ("barcelona", 3, Type.Utility.GENERAL_SUM),
    ("barcelona", 4, Type.Utility.GENERAL_SUM),
    ("rose-of-fire", 2, Type.Utility.ZERO_SUM),
    ("rose-of-fire", 4, Type.Utility.GENERAL_SUM),
])
def test_the_card_games_are_declared_per_player_count(name: str, players: int, utility_kind: Any) -> None:
    game = load(name, players)
    kind = game.get_type()
    assert kind.information == Type.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == Type.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.utility == utility_kind
    assert (game.utility_sum() == 0.0) == (utility_kind == Type.Utility.ZERO_SUM)
    assert game.max_game_length() == MAX_DECISIONS[name][players]
    state = game.new_initial_state()  # the seed's first byte: 0..127 (seeds are below 2**63), then any
    assert state.is_chance_node() and state.chance_outcomes() == [(b, 1 / 128) for b in range(128)]
    state.apply_action(127)
    assert state.is_chance_node() and state.chance_outcomes() == [(b, 1 / 256) for b in range(256)]
    with pytest.raises(ValueError):
        game.new_initial_state().apply_action(128)


@pytest.mark.parametrize(("name", "iterations"), [("tictactoe", 20), ("barcelona", 1)])
def test_outcome_sampling_mccfr_runs(name: str, iterations: int) -> None:
    """The CFR family through the explicit chance nodes (a sampling member: the card games deal
    2**64 seeds, too many to enumerate)."""
    np.random.seed(0)  # outcome sampling draws from numpy's global generator
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(load(name, 2))
    for _ in range(iterations):
        solver.iteration()
    policy = solver.average_policy()
    state = dealt(name, 2, 0)
    probabilities = policy.action_probabilities(state)
    assert set(probabilities) == set(state.legal_actions())
    assert sum(probabilities.values()) == pytest.approx(1.0)


@pytest.mark.parametrize(("name", "players"), [("barcelona", p) for p in (1, 2, 3, 4)] +
                         [("rose-of-fire", p) for p in (2, 3, 4)])
def test_random_games_stay_within_the_declared_length(name: str, players: int) -> None:
    bound = MAX_DECISIONS[name][players]
    table = openspiel.GameTable.build(name, players)
    for seed in range(3):
        decisions = sum(1 for _ in random_walk(table, 100 + seed)) - 1
        assert decisions <= bound // 2  # far from the bound, or the bound is too tight


def test_the_seed_outcomes_deal_the_engine_game_of_that_seed() -> None:
    for name, players, seed in [("barcelona", 3, 7), ("rose-of-fire", 2, 2**63 - 1)]:
        state = dealt(name, players, seed)
        assert not state.is_chance_node()
        assert state.engine.to_json() == get_game(name).new_game(players, seed).to_json()
    assert dealt("tictactoe", 2, 5).engine.view(None) == get_game("tictactoe").new_game(2, 5).view(None)
    assert openspiel.seed_outcomes(258) == [0, 0, 0, 0, 0, 0, 1, 2]
    with pytest.raises(ValueError, match="seed"):
        openspiel.seed_outcomes(-1)
    with pytest.raises(ValueError, match="seed"):
        openspiel.seed_outcomes(2**63)


def test_a_bad_chance_outcome_is_refused() -> None:
    state = load("barcelona", 2).new_initial_state()
    with pytest.raises(ValueError, match="byte of the seed"):
        state.apply_action(256)
    assert state.history() == []


def test_barcelona_game_info() -> None:
    game = load("barcelona", 3)
    assert game.num_players() == 3
    assert game.num_distinct_actions() == len(openspiel.GameTable.build("barcelona", 3).actions)
    size = Observer.of(openspiel.GameTable.build("barcelona", 3)).size
    assert game.observation_tensor_shape() == [size]
    assert game.information_state_tensor_shape() == [size + game.num_distinct_actions()]
    with pytest.raises(ValueError, match="1 to 4 players"):
        pyspiel.load_game("eixample_barcelona", {"players": 5})


@pytest.mark.parametrize(("name", "players", "options"), first_setup_per_game())
def test_random_sim_test(name: str, players: int, options: dict[str, Any]) -> None:
    pyspiel.random_sim_test(load(name, players), num_sims=1, serialize=True, verbose=False)


def test_random_sim_test_solo() -> None:
    pyspiel.random_sim_test(load("barcelona", 1), num_sims=1, serialize=True, verbose=False)


def _midgame(name: str, players: int, seed: int, decisions: int) -> Any:
    state = dealt(name, players, seed)
    pick = random.Random(seed)
    for _ in range(decisions):
        state.apply_action(pick.choice(state.legal_actions()))
    return state


def _finish(state: Any, seed: int) -> list[float]:
    pick = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(pick.choice(state.legal_actions()))
    return [*state.returns(), *state.engine.scores()]


@pytest.mark.parametrize("name", ["barcelona", "rose-of-fire"])
def test_serialize_and_pickle_round_trip(name: str) -> None:
    state = _midgame(name, 3, seed=12, decisions=25)
    game = state.get_game()
    text = pyspiel.serialize_game_and_state(game, state)
    game_back, state_back = pyspiel.deserialize_game_and_state(text)
    pickled = pickle.loads(pickle.dumps(state))
    assert str(pickle.loads(pickle.dumps(game))) == str(game_back) == str(game)
    for copy in (state_back, pickled):
        assert copy.history() == state.history() and str(copy) == str(state)
        assert copy.information_state_string(1) == state.information_state_string(1)
        assert _finish(copy, 4) == _finish(state.clone(), 4)  # the hidden draws came along too


def test_an_undealt_state_serializes_too() -> None:
    state = load("barcelona", 2).new_initial_state()
    state.apply_action(3)
    _, back = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(state.get_game(), state))
    assert back.is_chance_node() and back.history() == [3]


@pytest.mark.parametrize(("name", "players", "options"), first_setup_per_game())
def test_a_whole_game_agrees_with_the_engine(name: str, players: int, options: dict[str, Any]) -> None:
    game = load(name, players)
    state = openspiel.dealt_state(game, 11)
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
    state = dealt("barcelona", 3, 5)
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


def _ismcts_game(seed: int, simulations: int) -> list[int]:
    game = load("barcelona", 2)
    bots = []
    for seat in range(2):
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(10 + seat))
        bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=simulations,
                               random_state=np.random.RandomState(seat))
        bot.set_resampler(openspiel.resampler(np.random.RandomState(20 + seat)))
        bots.append(bot)
    state = openspiel.dealt_state(game, seed)
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    assert len(state.returns()) == 2 and state.engine.is_terminal()
    return state.history()


def test_openspiel_ismcts_bot_with_fixed_seeds_repeats_its_moves() -> None:
    assert _ismcts_game(2, simulations=4) == _ismcts_game(2, simulations=4)


def test_openspiel_mcts_bot_plays_a_whole_game() -> None:
    game = load("barcelona", 2)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(2))
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=3, evaluator=evaluator,
                       random_state=np.random.RandomState(3))
    state = openspiel.dealt_state(game, 3)
    while not state.is_terminal():
        state.apply_action(bot.step(state))
    assert state.engine.is_terminal()


def test_openspiel_observers_write_the_named_parts() -> None:
    from open_spiel.python.observation import make_observation

    game = load("barcelona", 2)
    state = openspiel.dealt_state(game, 4)
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


@pytest.mark.parametrize("name", research_games())
def test_legal_actions_answered_in_python_agree_with_pyspiels_own(name: str) -> None:
    state = load(name, 2).new_initial_state()
    pick = random.Random(3)
    while True:  # the deal's chance nodes, every decision, the end
        for player in (None, 0, 1):
            asked = () if player is None else (player,)
            assert state.legal_actions(*asked) == pyspiel.State.legal_actions(state, *asked)
        if state.is_terminal():
            break
        state.apply_action(pick.choice(state.legal_actions()))
