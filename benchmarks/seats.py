"""Seat fairness: how often each seat wins when every seat plays the same bot.

    python benchmarks/seats.py play 3 400 700000 out/seats-3.jsonl "mcts:iterations=100"
    python benchmarks/seats.py play 3 400 700000 out/house-3.jsonl greedy '{"first_player_vp": 6}'
    python benchmarks/seats.py report out/seats-2.jsonl out/seats-3.jsonl out/seats-4.jsonl
    python benchmarks/seats.py compare out/seats-4.jsonl out/house-4.jsonl
    python benchmarks/seats.py table out/seats-2.jsonl out/house-2.jsonl out/house-3.jsonl

`play` plays games one after another (seed, seed + 1, ...) and appends each result to the JSON Lines
file at once, so a long run can be stopped at any time and resumed (games already in the file are
skipped). The first player is seat 0.

`report` prints Markdown: per seat the wins (a shared victory counts as a share), the win rate and
its 95% Wilson interval against the fair share; then what the first turn is worth per seat, which
is where the rules put the first player behind (on the first turn of the game no other citizens
are on the board, so the first player cannot construct a Building), the first player's win
rate if that first-turn deficit were given back in VP, the Buildings each seat constructs and what
they score, and the VP each seat gains in the last round. Then, from one replay of each game: the
VP by source per seat; each seat's Buildings against the track VP of their round (a seat later in
the round builds on fuller tracks) and who would have won had every Building scored its round's
mean; who leads by the engine's position estimate at the start of the last rounds against who
wins; tie-breaks; who triggers the Cerdà Scorings and the end, and what that does to the others.

`table` prints one Markdown row per run: its house rules, games, each seat's win rate with its 95%
Wilson interval, and how far the farthest seat is from a fair share.

`compare` sets two runs on the same seeds side by side (e.g. the printed rules and a house rule):
per seat the win rates over the games both files hold, and in how many games the winner changed.
"""

from __future__ import annotations

import json
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from eixample.ai.match import MatchTask, play_match
from eixample.ai.stats import wilson_interval
from eixample.games import barcelona
from eixample.games.barcelona.setup import HOUSE_RULE_LIMITS
from eixample.games.barcelona.tables import BUILDING_TYPES


def play(
    players: int, games: int, seed: int, out: Path, spec: str, options: dict[str, Any] | None = None
) -> None:
    done = len(load(out)) if out.exists() else 0
    with out.open("a") as stream:
        for g in range(done, games):
            result = play_match(MatchTask("barcelona", seed + g, (spec,) * players, options or {}))
            stream.write(json.dumps(result.line()) + "\n")
            stream.flush()


def load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def first_turns(record: dict[str, Any]) -> tuple[list[int], list[int], list[bool]]:
    """Per seat, in its first turn: the VP gained, the VP of its Building (track value, Building
    Bonus and the building's own VP), and whether it constructed one."""
    state = barcelona.new_game(record["players"], record["seed"], **record.get("options", {}))
    n = state.num_players
    gained, building, built = [0] * n, [0] * n, [False] * n
    for action in record["actions"]:
        if state.turns >= n:
            break
        seat = state.turn_player
        before = state.score_breakdown()[seat]
        state.apply(action)
        after = state.score_breakdown()[seat]
        built[seat] = built[seat] or action.startswith("build ")
        gained[seat] += sum(after.values()) - sum(before.values())
        building[seat] += sum(after[k] - before[k] for k in ("buildings", "building_bonus"))
    return gained, building, built


END_SOURCES = ("cobblestones", "passengers", "modernisme")


def last_round(record: dict[str, Any]) -> list[int]:
    """VP each seat gained in the last round of play (the final scoring left out)."""
    state = barcelona.new_game(record["players"], record["seed"], **record.get("options", {}))
    n = state.num_players
    at_turn = [state.vp[:]]
    for action in record["actions"]:
        turns = state.turns
        state.apply(action)
        if state.turns != turns:
            at_turn.append(state.vp[:])
    final = state.score_breakdown()
    in_play = [state.vp[p] - sum(final[p][k] for k in END_SOURCES) for p in range(n)]
    start = at_turn[max(0, len(at_turn) - 1 - n)]
    return [in_play[p] - start[p] for p in range(n)]


def buildings(record: dict[str, Any]) -> tuple[list[int], list[int]]:
    """Per seat: Buildings constructed, and the VP they scored from the tracks and their own VP."""
    state = barcelona.new_game(record["players"], record["seed"], **record.get("options", {}))
    n = state.num_players
    count, vp = [0] * n, [0] * n
    for action in record["actions"]:
        seat = state.current_player()
        before = state.score_breakdown()[seat]["buildings"] if action.startswith("use ") else 0
        state.apply(action)
        if action.startswith("use "):
            count[seat] += 1
            vp[seat] += state.score_breakdown()[seat]["buildings"] - before
    return count, vp


@dataclass
class GameFacts:
    """What one replay of a record shows about the seats (see `game_facts`)."""

    winners: list[int]
    scores: list[int]
    sources: list[dict[str, int]]
    # per Building: (round, seat, the VP it scored from the tracks)
    track_vp: list[tuple[int, int, int]] = field(default_factory=list)
    # per seat: citizens on the tracks before it builds (summed) and the Buildings it constructed
    track_citizens: list[int] = field(default_factory=list)
    builds: list[int] = field(default_factory=list)
    # the seat whose turn scored Cerdà tile 1, 2, 3 (the third is the end; -1: the idle end)
    triggers: list[int] = field(default_factory=list)
    # the engine's position estimate at the start of every round
    round_estimates: list[list[float]] = field(default_factory=list)
    # per seat: its last turn began after the end was triggered
    knew_final_turn: list[bool] = field(default_factory=list)
    turns: int = 0
    actions: list[int] = field(default_factory=list)  # per seat: crossing actions taken ("act ...")
    coins_placing: list[int] = field(default_factory=list)  # per seat: coins held when placing (summed)
    last_turn: int = -1  # the seat that took the game's last turn
    rotated: bool = False  # the house rule rotate_first_player: the turn order changes every round


def game_facts(line: dict[str, Any]) -> GameFacts:
    """Replay one game and collect, per seat: the VP by source, each Building's track VP with its
    round and how full the tracks were, which turn triggered each Cerdà Scoring, the engine's
    position estimate at the start of every round (all seats have then played the same number of
    turns) and whether the seat's last turn began after the end was triggered."""
    record = line["record"]
    state = barcelona.new_game(record["players"], record["seed"], **record.get("options", {}))
    n = state.num_players
    facts = GameFacts(list(line["winners"]), list(line["scores"]), [])
    facts.track_citizens, facts.builds, facts.triggers = [0] * n, [0] * n, [-1, -1, -1]
    facts.knew_final_turn = [False] * n
    facts.actions = [0] * n
    facts.coins_placing = [0] * n
    facts.round_estimates = [state.evaluation()]
    kind = 0
    for action in record["actions"]:
        seat, mover = state.current_player(), state.turn_player
        turns, scored = state.turns, state.cerda_scored[:]
        if action.startswith("build "):
            kind = BUILDING_TYPES.index(action.split()[1])
        facts.actions[seat] += action.startswith("act ")
        if action.startswith("place "):
            facts.coins_placing[seat] += state.coins[seat]
        before = state.score_breakdown()[seat]["buildings"]
        citizens = sum(sum(track) for track in state.track)
        facts.knew_final_turn[mover] = state.end_triggered
        state.apply(action)
        if action.startswith("use "):
            gained = state.score_breakdown()[seat]["buildings"] - before - state.t.building_vp[kind]
            facts.track_vp.append((turns // n, seat, gained))
            facts.track_citizens[seat] += citizens
            facts.builds[seat] += 1
        idle_end = state.ended and not state.end_triggered
        for section in range(3):
            if state.cerda_scored[section] and not scored[section]:
                facts.triggers[section] = -1 if idle_end else mover
        if state.turns != turns and not state.ended and state.turn_player == state.first_player:
            facts.round_estimates.append(state.evaluation())
    facts.last_turn = mover
    facts.rotated = bool(record.get("options", {}).get("rotate_first_player"))
    facts.sources = state.score_breakdown()
    facts.turns = state.turns
    return facts


def shared_wins(scores: list[float]) -> list[float]:
    """Each seat's share of the victory by VP alone (a tie shares it)."""
    best = max(scores)
    top = [seat for seat, score in enumerate(scores) if score == best]
    return [1.0 / len(top) if seat in top else 0.0 for seat in range(len(scores))]


def rate(wins: float, games: int) -> str:
    low, high = wilson_interval(wins, games)
    return f"{wins / games:.1%} ({low:.1%}-{high:.1%})"


def sources_table(facts: list[GameFacts], n: int) -> list[str]:
    games = len(facts)
    names = [name for name in facts[0].sources[0] if any(f.sources[p][name] for f in facts for p in range(n))]
    out = [
        "VP by source (mean per game):",
        "",
        "| source | " + " | ".join(f"seat {p + 1}" for p in range(n)) + " |",
    ]
    out.append("|---|" + "---|" * n)
    for name in names:
        means = [sum(f.sources[p][name] for f in facts) / games for p in range(n)]
        out.append(f"| {name} | " + " | ".join(f"{m:.1f}" for m in means) + " |")
    totals = [sum(f.scores[p] for f in facts) / games for p in range(n)]
    out.append("| total | " + " | ".join(f"{m:.1f}" for m in totals) + " |")
    turns = sum(f.turns for f in facts) / n
    per_turn = [sum(f.actions[p] for f in facts) / turns for p in range(n)]
    coins = [sum(f.coins_placing[p] for f in facts) / turns for p in range(n)]
    out += [
        "",
        "Crossing actions taken per turn: "
        + ", ".join(f"seat {p + 1} {a:.2f}" for p, a in enumerate(per_turn))
        + "; coins held when placing citizens: "
        + ", ".join(f"seat {p + 1} {c:.2f}" for p, c in enumerate(coins))
        + ".",
    ]
    return out


def timing_lines(facts: list[GameFacts], n: int) -> list[str]:
    """Buildings scored later in a round find fuller tracks; scored instead at the mean track VP of
    their round, which seats would have won (an estimate on finished games, not a replay)."""
    games = len(facts)
    builds = [sum(f.builds[p] for f in facts) for p in range(n)]
    citizens = [sum(f.track_citizens[p] for f in facts) for p in range(n)]
    track_vp = [0] * n
    above_mean = [0.0] * n
    neutral_wins = [0.0] * n
    for f in facts:
        by_round: dict[int, list[int]] = {}
        for round_, _, vp in f.track_vp:
            by_round.setdefault(round_, []).append(vp)
        adjusted = [float(score) for score in f.scores]
        for round_, seat, vp in f.track_vp:
            track_vp[seat] += vp
            above_mean[seat] += vp - statistics.mean(by_round[round_])
            adjusted[seat] += statistics.mean(by_round[round_]) - vp
        for seat, share in enumerate(shared_wins(adjusted)):
            neutral_wins[seat] += share
    return [
        "| seat | Buildings per game | citizens on the tracks when it builds | track VP per Building "
        "| track VP per game | of which above its round's mean | wins if each Building scored its "
        "round's mean track VP |",
        "|---|---|---|---|---|---|---|",
        *(
            f"| {p + 1} | {builds[p] / games:.2f} | {citizens[p] / max(1, builds[p]):.1f} "
            f"| {track_vp[p] / max(1, builds[p]):.2f} | {track_vp[p] / games:.1f} "
            f"| {above_mean[p] / games:+.1f} | {rate(neutral_wins[p], games)} |"
            for p in range(n)
        ),
    ]


def final_round_lines(facts: list[GameFacts], n: int, wins: list[float]) -> list[str]:
    """Who leads by the engine's position estimate at the start of the last rounds (every seat has
    then played the same number of turns), against who wins; who triggers the Cerdà Scorings."""
    games = len(facts)
    back = 4
    leads = [[0.0] * n for _ in range(back)]
    counted = [0] * back
    lead_won, lead_final = [0.0] * n, [0.0] * n
    for f in facts:
        for k in range(back):
            if len(f.round_estimates) > k:
                shares = shared_wins(f.round_estimates[-1 - k])
                counted[k] += 1
                for seat in range(n):
                    leads[k][seat] += shares[seat]
        shares = shared_wins(f.round_estimates[-1])
        for seat in range(n):
            lead_final[seat] += shares[seat]
            if seat in f.winners:
                lead_won[seat] += shares[seat] / len(f.winners)
    out = [
        "| leads by the position estimate at the start of | "
        + " | ".join(f"seat {p + 1}" for p in range(n))
        + " |",
        "|---|" + "---|" * n,
    ]
    for k in reversed(range(back)):
        label = "the final round" if k == 0 else f"the round {k} before the final one"
        out.append(
            f"| {label} ({counted[k]} games) | "
            + " | ".join(f"{v / max(1, counted[k]):.1%}" for v in leads[k])
            + " |"
        )
    out.append("| won the game | " + " | ".join(f"{w / games:.1%}" for w in wins) + " |")
    out.append(
        "| won, having led at the start of the final round | "
        + " | ".join(f"{lead_won[p] / max(1e-9, lead_final[p]):.0%}" for p in range(n))
        + " |"
    )
    out.append(
        "| won, not having led at the start of the final round | "
        + " | ".join(f"{(wins[p] - lead_won[p]) / max(1e-9, games - lead_final[p]):.0%}" for p in range(n))
        + " |"
    )
    tie_broken = [
        sum(1 for f in facts if f.winners == [p] and sorted(f.scores)[-2] == f.scores[p]) for p in range(n)
    ]
    out.append(
        "| won on a tie-break (equal VP) | " + " | ".join(f"{t / games:.1%}" for t in tie_broken) + " |"
    )
    narrow, alone = [0] * n, [0] * n
    for f in facts:
        if len(f.winners) == 1:
            seat = f.winners[0]
            alone[seat] += 1
            narrow[seat] += f.scores[seat] - max(v for q, v in enumerate(f.scores) if q != seat) <= 5
    out.append(
        "| of its wins, won by 5 VP or less | "
        + " | ".join(f"{narrow[p] / max(1, alone[p]):.0%}" for p in range(n))
        + " |"
    )
    knew = [sum(f.knew_final_turn[p] for f in facts) for p in range(n)]
    out.append(
        "| knew its last turn was the last (the end was triggered before it) | "
        + " | ".join(f"{k / games:.0%}" for k in knew)
        + " |"
    )
    for section in range(3):
        seats = [sum(f.triggers[section] == p for f in facts) for p in range(n)]
        label = "the end" if section == 2 else f"Cerdà Scoring {section + 1}"
        out.append(f"| triggered {label} | " + " | ".join(f"{c / games:.0%}" for c in seats) + " |")
    last = [sum(1 for f in facts if f.last_turn == p) for p in range(n)]
    out.append("| took the game's last turn | " + " | ".join(f"{c / games:.0%}" for c in last) + " |")
    equal = sum(1 for f in facts if f.turns % n == 0)
    last_won = sum(1.0 / len(f.winners) for f in facts if f.last_turn in f.winners)
    summary = [
        "",
        f"Every seat played the same number of turns in {equal} of {games} games. The seat that took"
        f" the game's last turn won {rate(last_won, games)} of them (a fair share is {1 / n:.1%}).",
    ]
    if any(f.rotated for f in facts):  # the rows below assume the printed, fixed turn order
        return [*out, *summary]
    # A Cerdà Scoring comes at the end of the triggering turn: the seats after it in the round
    # are scored with a turn fewer, and the next seat is the first to pick from the new Modernisme offer.
    mid = [f.triggers[section] for f in facts for section in (0, 1) if f.triggers[section] >= 0]
    fewer = [sum(1 for t in mid if p > t) for p in range(n)]
    first_pick = [sum(1 for t in mid if (t + 1) % n == p) for p in range(n)]
    out.append(
        "| scored with a turn fewer than the first player (Cerdà Scorings 1 and 2) | "
        + " | ".join(f"{c / max(1, len(mid)):.0%}" for c in fewer)
        + " |"
    )
    out.append(
        "| first to play after Cerdà Scorings 1 and 2 (first pick of the new Modernisme offer) | "
        + " | ".join(f"{c / max(1, len(mid)):.0%}" for c in first_pick)
        + " |"
    )
    return [*out, *summary]


def report(path: Path) -> str:
    lines = load(path)
    n = len(lines[0]["scores"])
    games = len(lines)
    wins = [0.0] * n
    for line in lines:
        for seat in line["winners"]:
            wins[seat] += 1.0 / len(line["winners"])
    options = lines[0]["record"].get("options", {})
    house_rule = "".join(f", {name}={options[name]}" for name in HOUSE_RULE_LIMITS if options.get(name))
    house_rule += ", rotate_first_player" if options.get("rotate_first_player") else ""
    out = [f"### {n} players ({games} games, every seat {lines[0]['bots'][0]}{house_rule})", ""]
    out += ["| seat | wins | win rate | 95% interval | fair share |", "|---|---|---|---|---|"]
    for seat in range(n):
        low, high = wilson_interval(wins[seat], games)
        out.append(
            f"| {seat + 1} | {wins[seat]:g} | {wins[seat] / games:.1%} | {low:.1%}-{high:.1%} | {1 / n:.1%} |"
        )
    turn_vp = [[0] * games for _ in range(n)]
    building_vp = [0] * n
    builds = [0] * n
    for g, line in enumerate(lines):
        gained, building, built = first_turns(line["record"])
        for seat in range(n):
            turn_vp[seat][g] = gained[seat]
            building_vp[seat] += building[seat]
            builds[seat] += built[seat]
    mean_vp = [statistics.mean(turn_vp[seat]) for seat in range(n)]
    final_round = [0.0] * n
    built_count, built_vp = [0] * n, [0] * n
    for line in lines:
        for seat, vp in enumerate(last_round(line["record"])):
            final_round[seat] += vp / games
        count, vp_built = buildings(line["record"])
        for seat in range(n):
            built_count[seat] += count[seat]
            built_vp[seat] += vp_built[seat]
    deficit = statistics.mean(mean_vp[1:]) - mean_vp[0]
    given_back = 0.0
    for line in lines:
        scores = list(line["scores"])
        scores[0] += round(deficit)
        best = max(scores)
        top = [seat for seat in range(n) if scores[seat] == best]
        given_back += (1.0 / len(top)) if 0 in top else 0.0
    low, high = wilson_interval(given_back, games)
    out += [
        "",
        "| seat | built on its first turn | VP in its first turn | of which its Building |",
        "|---|---|---|---|",
        *(
            f"| {seat + 1} | {builds[seat] / games:.0%} | {mean_vp[seat]:.1f} "
            f"| {building_vp[seat] / games:.1f} |"
            for seat in range(n)
        ),
        "",
        f"First-turn deficit of seat 1: {deficit:.1f} VP. With {round(deficit)} VP added to seat 1's final"
        f" score it would have won {given_back / games:.1%} ({low:.1%}-{high:.1%}) instead of"
        f" {wins[0] / games:.1%}.",
        "",
        "Buildings per game: "
        + ", ".join(f"seat {seat + 1} {built_count[seat] / games:.2f}" for seat in range(n))
        + "; VP per Building (track value and the Building's own VP): "
        + ", ".join(f"seat {seat + 1} {built_vp[seat] / max(1, built_count[seat]):.2f}" for seat in range(n))
        + ".",
        "",
        "VP gained in the last round of play (the final scoring left out): "
        + ", ".join(f"seat {seat + 1} {final_round[seat]:.1f}" for seat in range(n))
        + ".",
        "",
    ]
    facts = [game_facts(line) for line in lines]
    out += [*sources_table(facts, n), ""]
    out += [*timing_lines(facts, n), ""]
    out += [*final_round_lines(facts, n, wins), ""]
    return "\n".join(out)


def compare(before: Path, after: Path) -> str:
    """Two runs of the same seeds: per seat the win rate in each, and how many winners changed."""
    first, second = load(before), load(after)
    by_seed = {line["record"]["seed"]: line for line in first}
    pairs = [(by_seed[line["record"]["seed"]], line) for line in second if line["record"]["seed"] in by_seed]
    if not pairs:
        raise SystemExit(f"{before} and {after} share no seed")
    n = len(pairs[0][0]["scores"])
    games = len(pairs)
    wins = [[0.0] * n, [0.0] * n]
    for pair in pairs:
        for run, line in enumerate(pair):
            for seat in line["winners"]:
                wins[run][seat] += 1.0 / len(line["winners"])
    changed = sum(1 for a, b in pairs if a["winners"] != b["winners"])
    same_moves = sum(1 for a, b in pairs if a["record"]["actions"] == b["record"]["actions"])
    label = [json.dumps(line["record"].get("options", {}), sort_keys=True) for line in pairs[0]]
    out = [
        f"{n} players, {games} games on the same seeds: {before.name} ({label[0]})"
        f" against {after.name} ({label[1]})",
        "",
        f"| seat | {before.name} | {after.name} | fair share |",
        "|---|---|---|---|",
        *(
            f"| {p + 1} | {rate(wins[0][p], games)} | {rate(wins[1][p], games)} | {1 / n:.1%} |"
            for p in range(n)
        ),
        "",
        f"The winner changed in {changed} of {games} games; {same_moves} were played move for move the same.",
        "",
    ]
    return "\n".join(out)


HOUSE_RULE_OPTIONS = ("first_player_vp", "turn_order_vp", "rotate_first_player", "seat_vp")


def house_rule_label(options: dict[str, Any]) -> str:
    shown = [f"{name}={json.dumps(options[name])}" for name in HOUSE_RULE_OPTIONS if name in options]
    return ", ".join(shown) or "printed rules"


def runs_table(paths: list[Path]) -> str:
    """One Markdown row per run: its house rules, games, each seat's win rate with its 95% Wilson
    interval, and the largest distance of a seat's rate from the fair share."""
    lines = [load(path) for path in paths]
    n = max(len(run[0]["scores"]) for run in lines)
    out = [
        "| players | house rule | seeds | games | " + " | ".join(f"seat {p + 1}" for p in range(n))
        + " | farthest from a fair share |",
        "|---|---|---|---|" + "---|" * n + "---|",
    ]
    for run in lines:
        players, games = len(run[0]["scores"]), len(run)
        wins = [0.0] * players
        for line in run:
            for seat in line["winners"]:
                wins[seat] += 1.0 / len(line["winners"])
        cells = [rate(wins[p], games) for p in range(players)] + [""] * (n - players)
        farthest = max(abs(wins[p] / games - 1 / players) for p in range(players))
        seeds = [line["record"]["seed"] for line in run]
        out.append(
            f"| {players} | {house_rule_label(run[0]['record'].get('options', {}))} | "
            f"{min(seeds)}.. | {games} | " + " | ".join(cells) + f" | {farthest:.1%} |"
        )
    return "\n".join(out)


def main(argv: list[str]) -> None:
    if len(argv) == 6 and argv[0] == "play":
        play(int(argv[1]), int(argv[2]), int(argv[3]), Path(argv[4]), argv[5])
    elif len(argv) == 7 and argv[0] == "play":  # game options as JSON, e.g. '{"first_player_vp": 6}'
        play(int(argv[1]), int(argv[2]), int(argv[3]), Path(argv[4]), argv[5], json.loads(argv[6]))
    elif len(argv) == 3 and argv[0] == "compare":
        print(compare(Path(argv[1]), Path(argv[2])))
    elif len(argv) >= 2 and argv[0] == "table":
        print(runs_table([Path(name) for name in argv[1:]]))
    elif len(argv) >= 2 and argv[0] == "report":
        print("\n".join(report(Path(name)) for name in argv[1:]))
    else:
        print(__doc__)
        raise SystemExit(2)


if __name__ == "__main__":
    main(sys.argv[1:])
