"""How often a game of Barcelona ends idle: a whole round in which nobody placed citizens or built.

    python benchmarks/idle_end.py random 4 3000 500000
    python benchmarks/idle_end.py greedy 4 300 100000

Arguments: the bot spec every seat plays, the player count, the number of games and the seed of
the first game (game g uses seed + g). Prints one JSON line: the idle ends, their rate with a 95%
Wilson interval, how many Cerdà Scorings had been done before the idle end, how many idle ends
came with an empty bag, and their mean round.
"""

from __future__ import annotations

import json
import sys

from eixample.ai.match import derive_seed, play_out
from eixample.ai.specs import make_bot
from eixample.ai.stats import wilson_interval
from eixample.games import barcelona

IDLE_LINE = "Nobody can place citizens or build"


def main(argv: list[str]) -> None:
    if len(argv) != 4:
        print(__doc__)
        raise SystemExit(2)
    spec, players, games, seed0 = argv[0], int(argv[1]), int(argv[2]), int(argv[3])
    idle = 0
    scorings_before = [0, 0, 0, 0]
    bag_empty = 0
    rounds: list[int] = []
    for g in range(games):
        seed = seed0 + g
        state = barcelona.new_game(players, seed)
        play_out(state, [make_bot(spec, derive_seed(seed, seat)) for seat in range(players)])
        log = state.log()
        marks = [i for i, line in enumerate(log) if line.startswith(IDLE_LINE)]
        if not marks:
            continue
        idle += 1
        scorings_before[sum(1 for line in log[: marks[0]] if line.startswith("Cerdà Scoring"))] += 1
        bag_empty += sum(state.bag) == 0
        rounds.append(state.turns // players)
    low, high = wilson_interval(idle, games)
    print(json.dumps({
        "bot": spec, "players": players, "games": games, "idle_ends": idle,
        "rate": round(idle / games, 4), "interval_95": [round(low, 4), round(high, 4)],
        "cerda_scorings_before_idle_end": scorings_before, "with_empty_bag": bag_empty,
        "mean_round": round(sum(rounds) / len(rounds), 1) if rounds else None,
    }))


if __name__ == "__main__":
    main(sys.argv[1:])
