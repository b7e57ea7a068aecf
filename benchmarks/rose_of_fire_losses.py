"""Why a bot loses games of The Rose of Fire, and what a kept conviction would have paid.

    eixample simulate --game rose-of-fire --games 100 --players 3 --bots greedy,random,random \\
        --seed 7000 --out out/rof-greedy-random.jsonl
    python benchmarks/rose_of_fire_losses.py out/rof-greedy-random.jsonl [bot]

For the games the bot (default: greedy) did not win: the mean VP by source of the bot and of the
winner, and how often Anarchy came. In the games it won and in those it lost: its prestige less
the best other seat's at the end of each phase but the last (the Prestige race). For every
player of every game: the conviction spent or kept, and the end bonus it would have scored if
kept (+2 VP per influence card of its symbol held at the end, nothing under Anarchy): an upper
bound of what spending it gave up.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

from eixample.games import rose_of_fire
from eixample.games.rose_of_fire import RoseState


def replayed_with_leads(record: dict, seat: int) -> tuple[RoseState, list[int]]:
    """The game replayed, and the seat's prestige less the best other seat's as each phase ends
    (before the next begins)."""
    state = rose_of_fire.new_game(record["players"], record["seed"], **record.get("options", {}))
    leads = []
    phase = state.phase
    for action in record["actions"]:
        state.apply(action)
        if state.phase != phase:
            phase = state.phase
            leads.append(state.prestige[seat] - max(v for p, v in enumerate(state.prestige) if p != seat))
    return state, leads


def mean_leads(rows: list[list[int]]) -> str:
    phases = max((len(row) for row in rows), default=0)
    means = [sum(row[k] for row in rows if len(row) > k) / sum(1 for row in rows if len(row) > k)
             for k in range(phases)]
    return " ".join(f"{m:+.1f}" for m in means)


def report(path: Path, bot: str) -> str:
    games = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    lost: list[tuple[dict[str, int], dict[str, int]]] = []
    anarchy_lost = anarchy_all = 0
    kept = spent = 0
    forgone: Counter[int] = Counter()
    leads: dict[bool, list[list[int]]] = {True: [], False: []}
    for game in games:
        me = game["bots"].index(bot)
        state, phase_leads = replayed_with_leads(game["record"], me)
        t = state.t
        anarchy_all += state.anarchy
        breakdown = state.score_breakdown()
        leads[me in game["winners"]].append(phase_leads)
        if me not in game["winners"]:
            anarchy_lost += state.anarchy
            lost.append((breakdown[me], breakdown[game["winners"][0]]))
        for p in range(state.n):
            symbol = state.conviction_shown[p]
            if state.conviction[p] >= 0 or symbol < 0:
                kept += 1
                continue
            spent += 1
            same = sum(
                1 for k, o in enumerate(state.influence_owner) if o == p and t.influence_symbol[k] == symbol
            )
            forgone[0 if state.anarchy else 2 * same] += 1
    lines = [
        f"{path}: {len(games)} games, {bot} lost {len(lost)}; Anarchy in {anarchy_all} games "
        f"({anarchy_lost} of the lost)"
    ]
    if lost:
        sources = sorted({k for mine, best in lost for k in (*mine, *best)})
        lines.append("VP by source in the lost games (bot / winner):")
        for source in sources:
            mine = sum(m.get(source, 0) for m, _ in lost) / len(lost)
            best = sum(b.get(source, 0) for _, b in lost) / len(lost)
            lines.append(f"  {source:14} {mine:6.1f} / {best:6.1f}")
    lines.append(f"prestige less the best other's at the end of phases 1-4: in the {len(leads[True])} won "
                 f"{mean_leads(leads[True])}, in the {len(leads[False])} lost {mean_leads(leads[False])}")
    lines.append(
        f"convictions spent {spent}, kept to the end {kept}; end bonus a spent one would have "
        f"scored: " + ", ".join(f"{vp} VP x{n}" for vp, n in sorted(forgone.items()))
    )
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(Path(sys.argv[1]), sys.argv[2] if len(sys.argv) > 2 else "greedy"))
