"""Balance figures of The Rose of Fire from simulated games (docs/rose-of-fire/balance.md).

    eixample simulate --game rose-of-fire --games 300 --players 3 --bots greedy --out out/rof-3.jsonl
    python benchmarks/rose_of_fire_balance.py out/rof-2.jsonl out/rof-3.jsonl out/rof-4.jsonl

Each record is replayed to read what the summary line lacks: the game's length, how cards were
played (normally, for their event, discarded), which house types were built, Anarchy and the
events of the social-conflict track, the bomb's last space, and the VP by source.
"""

from __future__ import annotations

import json
import statistics
import sys
from collections import Counter
from pathlib import Path

from eixample.games import rose_of_fire


def summarise(path: Path) -> str:
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    states = [rose_of_fire.replay(line["record"]) for line in lines]
    n = states[0].n
    games = len(states)
    winners = [max(s.scores()) for s in states]
    every = [v for s in states for v in s.scores()]
    margins = [sorted(s.scores())[-1] - sorted(s.scores())[-2] for s in states]
    decisions = [len(s.actions()) for s in states]
    plays: Counter[str] = Counter()
    titles: Counter[str] = Counter()
    houses: Counter[str] = Counter()
    t = states[0].t
    for s in states:
        for action in s.actions():
            word, _, rest = action.partition(" ")
            if word in ("card", "event", "both", "discard"):
                kind = rest[0] if rest != "strike" else "strike"
                plays[f"{word} {kind}"] += 1
                if rest.startswith("p"):
                    titles[f"{t.card_title[t.card_index[rest]]} ({word})"] += 1
            elif word == "house":
                houses[rest] += 1
    seat_wins = Counter(w for s in states for w in s.winners())
    sources: Counter[str] = Counter()
    for s in states:
        for line in s.score_breakdown():
            sources.update(line)
    anarchy = sum(s.anarchy for s in states)
    fired = [sum(s.fired[k] for s in states) for k in range(3)]
    out = [f"### {n} players ({games} games, {path.name})", ""]
    out.append("| measure | value |")
    out.append("|---|---|")
    out.append(
        f"| winner's VP, mean (min-max) | {statistics.mean(winners):.1f} ({min(winners)}-{max(winners)}) |"
    )
    out.append(
        f"| every player's VP, mean (sd) | {statistics.mean(every):.1f} ({statistics.pstdev(every):.1f}) |"
    )
    out.append(f"| winning margin, mean | {statistics.mean(margins):.1f} |")
    out.append(f"| decisions per game, mean | {statistics.mean(decisions):.0f} |")
    out.append(f"| Anarchy | {anarchy} games ({100 * anarchy / games:.1f}%) |")
    out.append(
        f"| events fired (Crown / Colonies / Personalities) | "
        f"{' / '.join(f'{100 * f / games:.0f}%' for f in fired)} |"
    )
    out.append(f"| bomb's last space, mean | {statistics.mean(s.bomb for s in states):.1f} |")
    out.append(
        f"| seat win rates (P1..P{n}) | {', '.join(f'{100 * seat_wins[p] / games:.1f}%' for p in range(n))} |"
    )
    out.append("")
    out.append(
        "Cards played per game: "
        + ", ".join(f"{key} {count / games:.2f}" for key, count in sorted(plays.items()))
        + "."
    )
    out.append(
        "Popularity cards per game, by title and how played: "
        + ", ".join(f"{key} {count / games:.2f}" for key, count in sorted(titles.items()))
        + "."
    )
    total_houses = sum(houses.values()) or 1
    out.append(
        "House types built: " + ", ".join(f"{h} {100 * houses[h] / total_houses:.0f}%" for h in "UMWL") + "."
    )
    out.append(
        "VP by source per player: "
        + ", ".join(f"{key} {value / (games * n):.1f}" for key, value in sources.items())
        + "."
    )
    out.append("")
    return "\n".join(out)


if __name__ == "__main__":
    print("\n".join(summarise(Path(arg)) for arg in sys.argv[1:]))
