"""`bot_match.py` with each bot's CPU time per decision measured and reported.

    python benchmarks/cpu_match.py --bot expert:cpu=0.05 --against mcts:cpu=0.05 \\
        --games 200 --seed 90000 --out out/expert-mcts-cpu.jsonl --minutes 60
    python benchmarks/cpu_match.py --report out/expert-mcts-cpu.jsonl

Seats, seeds, the file (one game per line, appended as each game ends, so a stopped run
continues) and the win-rate table are those of `bot_match.py`. Each line also holds, per seat,
the CPU seconds (time.process_time) its bot spent choosing, those of its helper processes (a bot
searching with `workers`), the wall-clock seconds, the number of decisions it made with more than
one legal action and the search iterations it spent on them (all processes; in all, and each
decision's); the report adds each side's mean CPU milliseconds and iterations per such decision
(and the median decision's iterations), which shows whether the two bots really had the same
time, and what each made of it.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot_match import match_main, report

from eixample.ai.match import MatchTask, new_state
from eixample.ai.specs import make_bot
from eixample.core.registry import get_game


def play_timed(task: MatchTask, make: Callable[[str, int], Any] = make_bot) -> dict:
    """One game; the JSON line of bot_match.py plus each seat's CPU seconds and decisions.
    `make` builds each seat's bot from its spec and seed (anything with `choose(state, seat)`)."""
    game = get_game(task.game)
    bots = [make(spec, task.bot_seed(seat)) for seat, spec in enumerate(task.bots)]
    state = new_state(game, task)
    cpu = [0.0] * len(bots)
    helper_cpu = [0.0] * len(bots)
    wall = [0.0] * len(bots)
    decisions = [0] * len(bots)
    iterations = [0] * len(bots)
    each: list[list[int]] = [[] for _ in bots]
    while not state.is_terminal():
        seat = state.current_player()
        choices = len(state.legal_actions())
        start, wall_start = time.process_time(), time.perf_counter()
        action = bots[seat].choose(state, seat)
        if choices > 1:
            cpu[seat] += time.process_time() - start
            wall[seat] += time.perf_counter() - wall_start
            helper_cpu[seat] += getattr(bots[seat], "last_helper_cpu", 0.0)
            decisions[seat] += 1
            iterations[seat] += getattr(bots[seat], "last_iterations", 0)
            each[seat].append(getattr(bots[seat], "last_iterations", 0))
        state.apply(action)
    return {"record": state.record(), "bots": list(task.bots), "scores": list(state.scores()),
            "winners": list(state.winners()), "cpu": [round(c, 3) for c in cpu], "decisions": decisions,
            "helper_cpu": [round(c, 3) for c in helper_cpu], "wall": [round(w, 3) for w in wall],
            "iterations": iterations, "decision_iterations": each}


@dataclass
class Side:
    """One side's totals over the decisions with a choice."""

    cpu: float = 0.0
    helper_cpu: float = 0.0
    wall: float = 0.0
    decisions: int = 0
    iterations: int = 0
    by_game: list[float] = field(default_factory=list)
    """Each game's mean CPU milliseconds per decision."""
    each: list[int] = field(default_factory=list)
    """The iterations of every decision, where the file records them."""

    def per_decision(self, total: float) -> float:
        return total / max(1, self.decisions)


def sides(path: Path) -> dict[bool, Side]:
    """The bot (True) and the other bots (False), summed over every game of the file."""
    found = {True: Side(), False: Side()}
    for text in path.read_text().splitlines():
        line = json.loads(text)
        none = [0] * len(line["bots"])
        for seat, spec in enumerate(line["bots"]):
            side = found[spec == line["bot"]]
            side.cpu += line["cpu"][seat]
            side.helper_cpu += line.get("helper_cpu", none)[seat]
            side.wall += line.get("wall", none)[seat]
            side.decisions += line["decisions"][seat]
            side.iterations += line.get("iterations", none)[seat]
            side.each += line.get("decision_iterations", [[]] * len(line["bots"]))[seat]
            side.by_game.append(1000 * line["cpu"][seat] / max(1, line["decisions"][seat]))
    return found


def described(side: Side) -> str:
    """Per decision with a choice: mean CPU milliseconds (the median over games of each game's
    mean: a game the machine disturbed counts once), the helpers' CPU, the wall clock and the
    mean search iterations (0 for bots that do not search) with, where the file has each
    decision's, the median decision's: the last decisions of a game, with short rollouts, make
    many more iterations and weigh heavily in the mean."""
    text = (f"{1000 * side.per_decision(side.cpu):.1f} ms CPU (median game "
            f"{statistics.median(side.by_game):.1f})")
    if side.helper_cpu:
        text += f" + {1000 * side.per_decision(side.helper_cpu):.1f} ms in helper processes"
    if side.wall:
        text += f", {1000 * side.per_decision(side.wall):.1f} ms wall clock"
    text += f", {side.per_decision(side.iterations):.0f} iterations"
    if side.iterations and len(side.each) == side.decisions:
        text += f" (median decision {statistics.median(side.each):.0f})"
    return text


def timed_report(path: Path) -> str:
    if not path.exists() or not path.read_text().strip():
        return f"{path}: no games yet"
    found = sides(path)
    return f"{report(path)} per decision: {described(found[True])} against {described(found[False])}"


def main() -> None:
    match_main(__doc__, 90000, play_timed, timed_report)


if __name__ == "__main__":
    main()
