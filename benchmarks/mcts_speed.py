"""MCTS iterations per CPU second on fixed positions of a seeded game, and `eixample bench`'s
random playouts and clones timed in CPU seconds.

    python benchmarks/mcts_speed.py [--game barcelona] [--players 2] [--spec mcts:iterations=300]
        [--positions 8] [--seed 1] [--playouts SECONDS]

A seeded game is played by the greedy bot; every `--positions`-th part of it gives one position
(a decision with more than one legal action). The bot of `--spec` (an iteration budget) decides
each position once; the CPU time of the process (time.process_time, so other work on a shared
machine counts less than with a wall clock) gives iterations per CPU second over all positions.
The figure depends on the machine: compare runs made on the same machine, or read it with the
`eixample bench` reference of the same session.

With `--playouts S`, it also measures what `eixample bench` measures (random-playout decisions,
clones of a state halfway through a game, and OpenSpiel's Python tic-tac-toe as the reference)
for about S seconds each, but counted per CPU second of the process, which a busy shared machine
disturbs far less than the wall clock `eixample bench` uses.
"""

from __future__ import annotations

import argparse
import time

from eixample.ai.match import play_out
from eixample.ai.mcts import MctsBot
from eixample.ai.specs import make_bot
from eixample.cli.bench import halfway_state, load_reference, random_playout
from eixample.core.protocol import State
from eixample.core.registry import get_game
from eixample.core.rng import Rng


def positions(game_name: str, players: int, count: int, seed: int) -> list[State]:
    """`count` positions spread over a greedy game, each a decision with a choice."""
    game = get_game(game_name)
    seen: list[State] = []
    bots = [make_bot("greedy", seed + seat) for seat in range(players)]

    def keep(state: State, seat: int, action: str) -> None:
        if len(state.legal_actions()) > 1:
            seen.append(state.clone())

    play_out(game.new_game(players, seed), bots, keep)
    step = max(1, len(seen) // count)
    return seen[step // 2 :: step][:count]


def measure(spec: str, states: list[State], seed: int) -> tuple[int, float]:
    """(iterations, CPU seconds) of one decision of the bot at each position."""
    iterations = 0
    cpu = 0.0
    for index, state in enumerate(states):
        bot = make_bot(spec, seed + index)
        assert isinstance(bot, MctsBot), "the spec must name a search bot"
        start = time.process_time()
        bot.choose(state, state.current_player())
        cpu += time.process_time() - start
        iterations += bot.last_iterations
    return iterations, cpu


def playouts_per_cpu_second(game_name: str, players: int, seconds: float) -> dict[str, float]:
    """Random-playout decisions, clones and reference moves, each per CPU second."""
    game = get_game(game_name)
    rng = Rng(0)
    figures: dict[str, float] = {}
    decisions, start = 0, time.process_time()
    games = 0
    while time.process_time() - start < seconds:
        decisions += random_playout(game.new_game(players, games), rng)
        games += 1
    figures["decisions"] = decisions / (time.process_time() - start)
    state = halfway_state(game, players)
    clones, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        for _ in range(1000):
            state.clone()
        clones += 1000
    figures["clones"] = clones / (time.process_time() - start)
    reference = load_reference()
    if reference is not None:
        moves, start = 0, time.process_time()
        while time.process_time() - start < seconds:
            ttt = reference.new_initial_state()
            while not ttt.is_terminal():
                ttt.apply_action(rng.choice(ttt.legal_actions()))
                moves += 1
        figures["reference"] = moves / (time.process_time() - start)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="barcelona")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--spec", default="mcts:iterations=300")
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--playouts", type=float, default=0.0, metavar="SECONDS")
    args = parser.parse_args()
    if args.playouts:
        figures = playouts_per_cpu_second(args.game, args.players, args.playouts)
        line = (f"random playouts: {figures['decisions']:,.0f} decisions per CPU second; "
                f"clones: {figures['clones']:,.0f} per CPU second")
        if "reference" in figures:
            line += (f"; reference {figures['reference']:,.0f} moves per CPU second, "
                     f"ratio {figures['decisions'] / figures['reference']:.2f}")
        print(line)
    states = positions(args.game, args.players, args.positions, args.seed)
    iterations, cpu = measure(args.spec, states, args.seed)
    print(f"{args.spec} on {len(states)} positions of a {args.players}-player {args.game} game: "
          f"{iterations} iterations in {cpu:.2f} s CPU = {iterations / cpu:,.0f} iterations per CPU second")


if __name__ == "__main__":
    main()
