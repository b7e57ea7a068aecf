from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from eixample.ai import make_bot
from eixample.ai.match import MatchTask, derive_seed, lineup, play_match, play_out
from eixample.ai.mcts import MctsBot
from eixample.ai.stats import summarise
from eixample.core.protocol import Action, State
from eixample.core.registry import get_game
from tests.ai.games import deal

SPECS = ["random", "greedy", "greedy:samples=2", "mcts:iterations=30", "mcts:iterations=20:depth=1:norm=rank",
         "mcts:iterations=20:depth=0:norm=sigmoid", "expert:iterations=30",
         "expert:iterations=30:fpu=0.1:scale=30"]


def _checking(seen: list[int]) -> Callable[[State, int, Action], None]:
    def observe(state: State, seat: int, action: Action) -> None:
        assert seat == state.current_player()
        assert action in state.legal_actions()
        seen.append(seat)

    return observe


@pytest.mark.parametrize("spec", SPECS)
def test_every_chosen_action_is_legal(spec: str) -> None:
    game = get_game("tictactoe")
    for index in range(12):
        seen: list[int] = []
        bots = [make_bot(spec, derive_seed(index, seat)) for seat in range(2)]
        versus = [bots[0], make_bot("random", index)] if index % 2 else bots
        state = play_out(game.new_game(2, index), versus, _checking(seen))
        assert state.is_terminal()
        assert len(seen) == len(state.record()["actions"])


@pytest.mark.parametrize("spec", SPECS)
def test_every_chosen_action_is_legal_with_hidden_hands(spec: str) -> None:
    for index in range(10):
        seen: list[int] = []
        state = play_out(deal(index), [make_bot(spec, index), make_bot(spec, index + 1)], _checking(seen))
        assert state.is_terminal()
        assert len(seen) == 6


@pytest.mark.parametrize("specs", [("random", "random"), ("greedy", "random"),
                                   ("mcts:iterations=40", "greedy")])
def test_same_seed_same_game(specs: tuple[str, str]) -> None:
    first = [play_match(MatchTask("tictactoe", seed, specs)).record for seed in range(6)]
    again = [play_match(MatchTask("tictactoe", seed, specs)).record for seed in range(6)]
    assert first == again


def test_different_seeds_play_different_games() -> None:
    records = {tuple(play_match(MatchTask("tictactoe", seed, ("random", "random"))).record["actions"])
               for seed in range(10)}
    assert len(records) > 5


def test_mcts_beats_random_most_of_the_time() -> None:
    specs = ["mcts:iterations=100", "random"]
    tasks = [MatchTask("tictactoe", 100 + index, lineup(specs, 2, index)) for index in range(20)]
    results = [play_match(task) for task in tasks]
    summary = summarise(results, specs)
    mcts, random = summary.bots["mcts:iterations=100"], summary.bots["random"]
    assert mcts.games == random.games == 20
    assert mcts.wins >= 15
    assert random.wins <= 3


def _position(*cells: int) -> State:
    state = get_game("tictactoe").new_game(2, 0)
    for cell in cells:
        state.apply(f"mark {cell}")
    return state


@pytest.mark.parametrize("spec", ["greedy", "mcts:iterations=200"])
def test_bots_take_an_immediate_win(spec: str) -> None:
    state = _position(0, 3, 1, 4)  # X holds 0 and 1: 2 wins
    assert all(make_bot(spec, seed).choose(state, 0) == "mark 2" for seed in range(5))


def test_mcts_blocks_an_immediate_loss() -> None:
    state = _position(4, 0, 8, 2)  # X to move: O threatens 1 (0-1-2)
    assert all(make_bot("mcts:iterations=300", seed).choose(state, 0) == "mark 1" for seed in range(5))


def test_mcts_counts_its_iterations() -> None:
    bot = make_bot("mcts:iterations=37", 1)
    assert isinstance(bot, MctsBot)
    bot.choose(_position(4), 1)
    assert bot.last_iterations == 37
    assert bot.choose(_position(0, 1, 2, 3, 5, 4, 6, 8), 0) == "mark 7"
    assert bot.last_iterations == 0


def test_mcts_with_a_time_budget_still_plays_legally() -> None:
    bot = make_bot("mcts:seconds=0.02", 1)
    assert isinstance(bot, MctsBot)
    state = _position(4)
    assert bot.choose(state, 1) in state.legal_actions()
    assert bot.last_iterations >= 1


def test_mcts_with_a_cpu_budget_stops_near_it_and_plays_legally() -> None:
    """`cpu=S`: the decision takes about S seconds of the process's CPU time."""
    bot = make_bot("mcts:cpu=0.05", 1)
    assert isinstance(bot, MctsBot) and bot.settings.cpu == 0.05
    state = _position(4)
    start = time.process_time()
    assert bot.choose(state, 1) in state.legal_actions()
    used = time.process_time() - start
    assert bot.last_iterations > 1
    assert 0.05 <= used < 2.0  # it stops: the budget, not a speed figure
