"""Iterations per CPU-second of MCTS specs on The Rose of Fire, for turning "1 s" into an
iteration budget (docs/rose-of-fire/strength.md).

    python benchmarks/rose_of_fire_calibration.py expert:iterations=1500 \
        expert:iterations=1500:fpu=0.1:finish=3

Each position is a 2-player game after 40-130 random moves (seeds 20-31, then forced moves
played), one decision searched by every spec with its fixed budget; the CPU time is that of this
process (time.process_time), so other work on the machine hardly changes it. Prints each spec's
iterations per CPU-second per position, their mean and median, and each spec's median over the
first spec's (measured on the same positions in the same run).
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from eixample.ai.mcts import MctsBot
from eixample.ai.specs import make_bot
from eixample.ai.view import PlayerView
from eixample.core.protocol import State
from eixample.core.registry import get_game

SEEDS = range(20, 32)


def position(seed: int) -> State:
    state = get_game("rose-of-fire").new_game(2, seed)
    moves = random.Random(seed)
    for _ in range(40 + (7 * seed) % 91):
        state.apply(moves.choice(state.legal_actions()))
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    return state


def rate(spec: str, state: State) -> float:
    bot = make_bot(spec, 1)
    assert isinstance(bot, MctsBot), f"{spec} is not an MCTS bot"
    started = time.process_time()
    bot.decide(PlayerView(state, state.current_player()))
    return bot.last_iterations / (time.process_time() - started)


def main(specs: list[str]) -> None:
    if not specs:
        print(__doc__)
        raise SystemExit(2)
    rates: dict[str, list[float]] = {spec: [] for spec in specs}
    for seed in SEEDS:
        state = position(seed)
        row = [rate(spec, state) for spec in specs]
        for spec, value in zip(specs, row, strict=True):
            rates[spec].append(value)
        print(seed, len(state.legal_actions()), " ".join(f"{value:7.0f}" for value in row), flush=True)
    reference = statistics.median(rates[specs[0]])
    for spec, values in rates.items():
        print(f"{spec}: mean {statistics.mean(values):.0f}, median {statistics.median(values):.0f} "
              f"iterations per CPU-second, {statistics.median(values) / reference:.2f} of the first")


if __name__ == "__main__":
    main(sys.argv[1:])
