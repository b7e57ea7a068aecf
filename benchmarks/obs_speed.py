"""Speed of play with observations, through every research interface, against OpenSpiel's
pure-Python tic-tac-toe measured in the same run.

Each line plays random games (uniform over the legal actions) and reads the acting player's
observation at every decision, for about `--seconds` of CPU time, and prints decisions per
CPU-second (`time.process_time`) against the target of 10,000:

- engine only: the engine without observations (for scale);
- native: the engine, `state.write_observation` into one preallocated vector;
- openspiel: `state.observation_tensor(player)`, `legal_actions()`, `apply_action()`;
- pettingzoo: `env(...)` with its usual wrappers, `last()` then `step()`; pettingzoo raw: the
  same through `raw_env(...)`, without the wrappers;
- gymnasium: `gymnasium.make("eixample/<Game>-v0", opponents="random")`; the other seats are
  random bots, whose decisions count too (the learner observes its own); the learner's own steps
  per CPU-second are printed apart;
- vector: `EixampleVectorEnv` with `--envs` games in one process (a line per count given), random
  bots as above, the learner's actions drawn for all the games at once from the batch of masks; a
  last table sets its decisions per CPU-second against the single environment's (`faster` when
  above 1);
- `+net`: the same two, the learner's actions chosen by a network of the baseline agents' shape
  (the greedy legal action of an untrained one): one row per call in the single environment, the
  whole batch in one call in the vector one, as a learner's rollouts do.

    python benchmarks/obs_speed.py [--seconds S] [--rounds R] [--games barcelona,rose-of-fire]
                                   [--players 2,4] [--envs 4,16,64] [--interfaces gymnasium,vector]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

for _threads in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    # before numpy starts: one thread of matrix products, so that CPU time is one core's work
    os.environ.setdefault(_threads, "1")

TARGET = 10_000
"""Decisions per CPU-second each interface is held to (observation read at every decision)."""


Rate = tuple[float, float | None]
"""Decisions per CPU-second, and the learner's steps per CPU-second (Gymnasium only)."""


def _cpu_rate(run: Callable[[float], int | tuple[int, int]], seconds: float) -> Rate:
    """Decisions (and learner steps) per CPU-second of `run(deadline)`, which plays until process
    time passes the deadline and returns its decisions (and the learner's steps)."""
    start = time.process_time()
    counted = run(start + seconds)
    spent = time.process_time() - start
    decisions, steps = counted if isinstance(counted, tuple) else (counted, None)
    return decisions / spent, None if steps is None else steps / spent


def native(name: str, players: int, seconds: float, observe: bool = True) -> Rate:
    import numpy as np

    from eixample.core.registry import get_game

    game = get_game(name)
    spec = game.observation_spec(players)
    out = np.zeros(spec.size, np.float32)
    pick = random.Random(1)

    def run(deadline: float) -> int:
        decisions, seed = 0, 0
        while time.process_time() < deadline:
            state = game.new_game(players, seed)
            seed += 1
            while not state.is_terminal():
                if observe:
                    state.write_observation(state.current_player(), out)
                state.apply(pick.choice(state.legal_actions()))
                decisions += 1
        return decisions

    return _cpu_rate(run, seconds)


def openspiel(short_name: str, params: dict[str, int], seconds: float, observe: bool = True) -> Rate:
    import pyspiel

    import eixample.interop.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game(short_name, params)
    pick = random.Random(1)

    def run(deadline: float) -> int:
        decisions = 0
        while time.process_time() < deadline:
            state = game.new_initial_state()
            while state.is_chance_node():  # the deal (the card games' seed), not a decision
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[pick.randrange(len(outcomes))][0])
            while not state.is_terminal():
                if observe:
                    state.observation_tensor(state.current_player())
                state.apply_action(pick.choice(state.legal_actions()))
                decisions += 1
        return decisions

    return _cpu_rate(run, seconds)


def pettingzoo(name: str, players: int, seconds: float, wrapped: bool = True) -> Rate:

    from eixample.interop.pettingzoo import env, raw_env

    aec = env(game=name, players=players) if wrapped else raw_env(name, players)
    pick = random.Random(1)

    def run(deadline: float) -> int:
        decisions, seed = 0, 0
        while time.process_time() < deadline:
            aec.reset(seed=seed)
            seed += 1
            for _agent in aec.agent_iter():
                observation, _, termination, truncation, _ = aec.last()
                if termination or truncation:
                    aec.step(None)
                    continue
                legal = observation["action_mask"].nonzero()[0]
                aec.step(int(legal[pick.randrange(len(legal))]))
                decisions += 1
        return decisions

    return _cpu_rate(run, seconds)


Policy = Callable[[Any, Any], Any]


def network_policy(size: int, actions: int) -> Policy:
    """A network of the baseline agents' shape (`interop.baseline`: one hidden layer of 64 ReLU
    units over the squashed observation), untrained: per row of observations, its most likely
    legal action."""
    import numpy as np

    from eixample.interop.baseline import PolicyNetwork, squash

    network = PolicyNetwork.initial(size, 64, actions, seed=0)

    def act(observations: Any, masks: Any) -> Any:
        _, logits, _ = network.forward(squash(observations))
        return np.where(masks != 0, logits, -np.inf).argmax(axis=1)

    return act


def gymnasium_env(name: str, players: int, seconds: float, network: bool = False) -> Rate:
    import gymnasium

    from eixample.interop.gymnasium import env_id

    env = gymnasium.make(env_id(name), players=players, opponents="random")
    pick = random.Random(1)
    shape = env.observation_space.shape
    policy = network_policy(shape[0], int(env.action_space.n)) if network and shape else None

    def run(deadline: float) -> tuple[int, int]:
        seed = steps = 0
        while time.process_time() < deadline:
            observation, info = env.reset(seed=seed)
            seed += 1
            terminated = False
            while not terminated:
                if policy is None:
                    legal = info["action_mask"].nonzero()[0]
                    action = int(legal[pick.randrange(len(legal))])
                else:
                    action = int(policy(observation[None], info["action_mask"][None])[0])
                observation, _, terminated, _, info = env.step(action)
                steps += 1
        return int(env.unwrapped.decisions), steps  # type: ignore[attr-defined]

    return _cpu_rate(run, seconds)


def vector_env(name: str, players: int, seconds: float, envs: int, network: bool = False) -> Rate:
    import numpy as np

    from eixample.interop.vector import EixampleVectorEnv

    vector = EixampleVectorEnv(num_envs=envs, game=name, players=players, opponents="random", copy=False)
    pick = np.random.default_rng(1)
    policy = network_policy(vector.observer.size, len(vector.table.actions)) if network else None

    def uniform(masks: Any) -> Any:
        """A uniform legal action per game."""
        games, legal = masks.nonzero()  # row by row, ascending
        counts = np.bincount(games, minlength=envs)
        first = np.cumsum(counts) - counts
        return legal[first + (pick.random(envs) * counts).astype(np.intp)]

    def run(deadline: float) -> tuple[int, int]:
        observations, infos = vector.reset(seed=0)
        steps = 0
        while time.process_time() < deadline:
            steps += envs
            masks = infos["action_mask"]
            actions = uniform(masks) if policy is None else policy(observations, masks)
            observations, _, _, _, infos = vector.step(actions)
        return sum(env.decisions for env in vector.envs), steps

    return _cpu_rate(run, seconds)


def reference(seconds: float, observe: bool) -> Rate:
    from open_spiel.python.games import tic_tac_toe  # noqa: F401  (registers python_tic_tac_toe)

    return openspiel("python_tic_tac_toe", {}, seconds, observe)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="decisions per CPU-second with an observation at each")
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per line and round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds over all lines; the best counts")
    parser.add_argument("--games", default="barcelona,rose-of-fire", help="comma-separated game names")
    parser.add_argument("--players", default="2,4", help="comma-separated player counts")
    parser.add_argument("--envs", default="4,16,64", help="comma-separated games per vector environment")
    parser.add_argument("--interfaces", default="", help="comma-separated interfaces to measure (all when "
                        "empty): native, openspiel, pettingzoo, gymnasium, vector...")
    args = parser.parse_args(argv)
    try:
        import eixample  # noqa: F401
    except ModuleNotFoundError:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
    seconds, counts = args.seconds, [int(n) for n in args.envs.split(",")]
    lines: dict[tuple[str, str, str], Callable[[], Rate]] = {
        ("python_tic_tac_toe", "2", "openspiel"): lambda: reference(seconds, observe=True),
        ("python_tic_tac_toe", "2", "no observation"): lambda: reference(seconds, observe=False),
    }
    for name in args.games.split(","):
        short = "eixample_" + name.replace("-", "_")
        for players in (int(p) for p in args.players.split(",")):
            row = (name, str(players))
            lines[(*row, "engine only")] = partial(native, name, players, seconds, observe=False)
            lines[(*row, "native")] = partial(native, name, players, seconds)
            lines[(*row, "openspiel")] = partial(openspiel, short, {"players": players}, seconds)
            lines[(*row, "pettingzoo")] = partial(pettingzoo, name, players, seconds)
            lines[(*row, "pettingzoo raw")] = partial(pettingzoo, name, players, seconds, wrapped=False)
            lines[(*row, "gymnasium")] = partial(gymnasium_env, name, players, seconds)
            for envs in counts:
                lines[(*row, f"vector x{envs}")] = partial(vector_env, name, players, seconds, envs)
            lines[(*row, "gymnasium+net")] = partial(gymnasium_env, name, players, seconds, network=True)
            for envs in counts:
                lines[(*row, f"vector x{envs}+net")] = partial(
                    vector_env, name, players, seconds, envs, network=True)
    if args.interfaces:
        wanted = args.interfaces.split(",")
        lines = {line: measure for line, measure in lines.items()
                 if line[0] == "python_tic_tac_toe" or any(line[2].startswith(w) for w in wanted)}
    best: dict[tuple[str, str, str], Rate] = {}
    for _ in range(args.rounds):  # rounds spread a busy machine's slow spells over every line
        for line, measure in lines.items():
            measured = measure()
            if line not in best or measured[0] > best[line][0]:
                best[line] = measured
    ttt = best[("python_tic_tac_toe", "2", "openspiel")][0]
    print("Decisions per CPU-second, random play, the acting player's observation read at every decision")
    print(f"(best of {args.rounds} rounds of {seconds:g} CPU-s); target {TARGET:,};")
    print("x ttt: against OpenSpiel's python_tic_tac_toe reading observation_tensor at every move,")
    print("in the same run. Gymnasium: every seat's decisions count (the bots' too); the learner's")
    print("own steps per CPU-second are in the last column.")
    print()
    print(f"{'game':<19}{'players':>7}  {'interface':<15}{'decisions/CPU-s':>15}{'x ttt':>7}  "
          f"{'target':<7}{'learner steps/CPU-s':>20}")
    for (game, seats, interface), (rate, steps) in best.items():
        held = game != "python_tic_tac_toe" and interface != "engine only"
        verdict = ("met" if rate >= TARGET else "MISSED") if held else ""
        learner = "" if steps is None else f"{steps:,.0f}"
        print(f"{game:<19}{seats:>7}  {interface:<15}{rate:>15,.0f}{rate / ttt:>7.2f}  "
              f"{verdict:<7}{learner:>20}")
    print()
    print("The vector environment against the single one (gymnasium), decisions per CPU-second:")
    print()
    print(f"{'game':<19}{'players':>7}  {'interface':<15}{'decisions/CPU-s':>15}{'x single':>9}  verdict")
    for (game, seats, interface), (rate, _) in best.items():
        if interface.startswith("vector"):
            alone = "gymnasium+net" if interface.endswith("+net") else "gymnasium"
            if (game, seats, alone) not in best:
                continue
            single = best[(game, seats, alone)][0]
            verdict = "faster" if rate > single else "SLOWER"
            print(f"{game:<19}{seats:>7}  {interface:<15}{rate:>15,.0f}{rate / single:>9.2f}  {verdict}")


if __name__ == "__main__":
    main()
