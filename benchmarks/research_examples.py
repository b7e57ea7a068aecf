"""The worked examples of docs/research.md: one per research interface, each printing its figures.

    python benchmarks/research_examples.py openspiel --games 6 --simulations 100
    python benchmarks/research_examples.py pettingzoo --games 20
    python benchmarks/research_examples.py gymnasium --games 20
    python benchmarks/research_examples.py encoding
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Callable

import numpy as np


def openspiel_example(games: int, simulations: int) -> None:
    """OpenSpiel's IS-MCTS (leaves judged by the engine's evaluation) against the greedy bot."""
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    import eixample.interop.openspiel  # registers the games
    from eixample.ai.specs import make_bot
    from eixample.interop.table import UTILITY_SCALE

    class EngineEvaluator(mcts.Evaluator):
        """A leaf's value: tanh of each seat's estimated VP margin (the engine's `evaluation()`)."""

        def evaluate(self, state: pyspiel.State) -> np.ndarray:
            if state.is_terminal():
                return np.array(state.returns())
            values = state.engine.evaluation()
            return np.array([math.tanh((v - max(w for q, w in enumerate(values) if q != p)) / UTILITY_SCALE)
                             for p, v in enumerate(values)])

        def prior(self, state: pyspiel.State) -> list[tuple[int, float]]:
            legal = state.legal_actions()
            return [(action, 1.0 / len(legal)) for action in legal]

    game = pyspiel.load_game("eixample_barcelona", {"players": 2})
    wins, margins, seconds = 0.0, [], 0.0
    for index in range(games):
        ismcts_seat = index % 2  # seats alternate
        bot = ismcts.ISMCTSBot(game, EngineEvaluator(), uct_c=2.0, max_simulations=simulations,
                               random_state=np.random.RandomState(index))
        bot.set_resampler(eixample.interop.openspiel.resampler(np.random.RandomState(index)))
        greedy = make_bot("greedy", index)
        state = eixample.interop.openspiel.dealt_state(game, index)
        start = time.perf_counter()
        while not state.is_terminal():
            seat = state.current_player()
            if seat == ismcts_seat:
                state.apply_action(bot.step(state))
            else:
                state.apply_action(state.table.index[greedy.choose(state.engine, seat)])
        seconds += time.perf_counter() - start
        scores, winners = state.engine.scores(), state.engine.winners()
        wins += 1.0 / len(winners) if ismcts_seat in winners else 0.0
        margins.append(scores[ismcts_seat] - scores[1 - ismcts_seat])
        print(f"game {index + 1}: IS-MCTS seat {ismcts_seat}, scores {scores}, winners {winners}")
    print(f"IS-MCTS ({simulations} simulations) vs greedy, {games} games of 2-player Barcelona: "
          f"IS-MCTS won {wins:g} ({wins / games:.0%}), mean VP margin {statistics.fmean(margins):+.1f}, "
          f"{seconds / games:.1f} s per game")


def pettingzoo_example(games: int) -> None:
    """Random masked policies in the AEC environment: game length, returns, throughput."""
    from eixample.interop.pettingzoo import env

    aec = env(game="barcelona", players=3)
    pick = random.Random(0)
    lengths: list[int] = []
    returns: dict[str, list[float]] = {agent: [] for agent in aec.possible_agents}
    start = time.perf_counter()
    for index in range(games):
        aec.reset(seed=index)
        total = dict.fromkeys(aec.possible_agents, 0.0)
        steps = 0
        for agent in aec.agent_iter():
            observation, reward, termination, truncation, _ = aec.last()
            total[agent] += reward
            if termination or truncation:
                aec.step(None)
                continue
            aec.step(int(pick.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
        lengths.append(steps)
        for agent, value in total.items():
            returns[agent].append(value)
    seconds = time.perf_counter() - start
    print(f"{games} games of 3-player Barcelona, random masked policies: "
          f"{statistics.fmean(lengths):.0f} decisions per game, {sum(lengths) / seconds:.0f} steps/s")
    for agent, values in returns.items():
        print(f"  {agent}: mean return {statistics.fmean(values):+.3f}")


def gymnasium_example(games: int) -> None:
    """Two fixed policies for the learning seat against the greedy bot: mean reward, win rate."""
    import gymnasium

    import eixample.interop.gymnasium  # noqa: F401 - registers the environments

    env = gymnasium.make("eixample/Barcelona-v0", players=2, opponents="greedy")
    pick = random.Random(0)
    policies: dict[str, Callable[[np.ndarray], int]] = {
        "random legal action": lambda mask: int(pick.choice(np.flatnonzero(mask))),
        "first legal action": lambda mask: int(np.flatnonzero(mask)[0]),
    }
    for name, policy in policies.items():
        rewards: list[float] = []
        wins = 0
        for index in range(games):
            _, info = env.reset(seed=index)
            terminated = False
            while not terminated:
                _, reward, terminated, _, info = env.step(policy(info["action_mask"]))
            rewards.append(float(reward))
            wins += float(reward) > 0
        print(f"{name:20} vs greedy, {games} games: mean reward {statistics.fmean(rewards):+.3f}, "
              f"won {wins} ({wins / games:.0%})")


def encoding_figures(sizes: tuple[int, ...] = (8192, 32768)) -> None:
    """How many features of Barcelona views change during play, and how many of them share a
    hashed slot with another changing one (random games, 2 to 4 players)."""
    from collections import Counter, defaultdict

    from eixample.games import barcelona
    from eixample.interop.table import LEFT_OUT, _collect, _json_leaf, _slot

    values: dict[str, set[float]] = defaultdict(set)
    present: Counter[str] = Counter()
    views = 0
    for players in (2, 3, 4):
        for seed in range(4):
            state, pick = barcelona.new_game(players, seed), random.Random(seed)
            while not state.is_terminal():
                leaves: list[tuple[str, object]] = []
                for key, value in state.view(0).items():
                    if key not in LEFT_OUT:
                        _collect(value, key, leaves)
                views += 1
                for path, value in leaves:
                    number = type(value) in (int, float)
                    feature = path if number else f"{path}={_json_leaf(value)}"
                    values[feature].add(float(value) if number else 1.0)  # type: ignore[arg-type]
                    present[feature] += 1
                state.apply(pick.choice(state.legal_actions()))
    changing = [f for f in values if len(values[f]) > 1 or present[f] < views]
    print(f"{views} views of 12 random games: {len(values)} features, {len(changing)} change during play")
    for size in sizes:
        slots = Counter(_slot(feature, size) for feature in changing)
        shared = sum(count for count in slots.values() if count > 1)
        print(f"  size {size}: {shared} changing features ({shared / len(changing):.0%}) share a slot")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("interface", choices=("openspiel", "pettingzoo", "gymnasium", "encoding"))
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--simulations", type=int, default=100)
    args = parser.parse_args()
    if args.interface == "openspiel":
        openspiel_example(args.games, args.simulations)
    elif args.interface == "encoding":
        encoding_figures()
    elif args.interface == "pettingzoo":
        pettingzoo_example(args.games)
    else:
        gymnasium_example(args.games)


if __name__ == "__main__":
    main()
