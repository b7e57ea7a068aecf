"""`bot_match.py` with each bot's CPU time per decision measured and reported.

    python benchmarks/cpu_match.py --bot expert:cpu=0.05 --against mcts:cpu=0.05 \\
        --games 200 --seed 90000 --out out/expert-mcts-cpu.jsonl --minutes 60
    python benchmarks/cpu_match.py --report out/expert-mcts-cpu.jsonl

Seats, seeds, the file (one game per line, appended as each game ends, so a stopped run
continues) and the win-rate table are those of `bot_match.py`. Each line also holds, per seat,
the CPU seconds (time.process_time) its bot spent choosing, the number of decisions it made
with more than one legal action and the search iterations it spent on them; the report adds each
side's mean CPU milliseconds and iterations per such decision, which shows whether the two bots
really had the same time, and what each made of it.
"""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path

from bot_match import match_main, report

from eixample.ai.match import MatchTask, new_state
from eixample.ai.specs import make_bot
from eixample.core.registry import get_game


def play_timed(task: MatchTask) -> dict:
    """One game; the JSON line of bot_match.py plus each seat's CPU seconds and decisions."""
    game = get_game(task.game)
    bots = [make_bot(spec, task.bot_seed(seat)) for seat, spec in enumerate(task.bots)]
    state = new_state(game, task)
    cpu = [0.0] * len(bots)
    decisions = [0] * len(bots)
    iterations = [0] * len(bots)
    while not state.is_terminal():
        seat = state.current_player()
        choices = len(state.legal_actions())
        start = time.process_time()
        action = bots[seat].choose(state, seat)
        if choices > 1:
            cpu[seat] += time.process_time() - start
            decisions[seat] += 1
            iterations[seat] += getattr(bots[seat], "last_iterations", 0)
        state.apply(action)
    return {"record": state.record(), "bots": list(task.bots), "scores": list(state.scores()),
            "winners": list(state.winners()), "cpu": [round(c, 3) for c in cpu], "decisions": decisions,
            "iterations": iterations}


def per_decision(path: Path) -> dict[bool, tuple[float, float, float]]:
    """For the bot (True) and the other bots (False), per decision with a choice: the mean CPU
    milliseconds, the median over games of each game's mean (a game the machine disturbed
    counts once), and the mean search iterations (0 for bots that do not search)."""
    totals = {True: [0.0, 0, 0], False: [0.0, 0, 0]}
    by_game: dict[bool, list[float]] = {True: [], False: []}
    for text in path.read_text().splitlines():
        line = json.loads(text)
        for seat, spec in enumerate(line["bots"]):
            side = spec == line["bot"]
            cpu, decisions = line["cpu"][seat], line["decisions"][seat]
            totals[side][0] += cpu
            totals[side][1] += decisions
            totals[side][2] += line.get("iterations", [0] * len(line["bots"]))[seat]
            by_game[side].append(1000 * cpu / max(1, decisions))
    return {side: (1000 * c / max(1, n), statistics.median(by_game[side]), i / max(1, n))
            for side, (c, n, i) in totals.items()}


def timed_report(path: Path) -> str:
    if not path.exists() or not path.read_text().strip():
        return f"{path}: no games yet"
    figures = per_decision(path)
    (bot_ms, bot_median, bot_it), (other_ms, other_median, other_it) = figures[True], figures[False]
    return (f"{report(path)} per decision: {bot_ms:.1f} ms CPU (median game {bot_median:.1f}), "
            f"{bot_it:.0f} iterations against {other_ms:.1f} ms (median game {other_median:.1f}), "
            f"{other_it:.0f} iterations")


def main() -> None:
    match_main(__doc__, 90000, play_timed, timed_report)


if __name__ == "__main__":
    main()
