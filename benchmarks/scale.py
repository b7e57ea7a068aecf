"""Speed-up of simulations from 1 to 2 local workers, and games per core-hour.

    python benchmarks/scale.py --games 200 --players 2 --bots greedy,random [--ray]

Plays the same games (same seeds) with one worker, then with two worker processes (and, with
--ray, as Ray tasks on a local instance with 2 CPUs), checks that every run gives identical
records, and prints games per second, the speed-up against the one-worker run of the same
invocation, the share of the cores the workers got, games per CPU-hour (what one core does per
hour when it is not shared), and the load average of the machine before and after: on a shared
machine the wall-clock speed-up can only be read together with them.
"""

from __future__ import annotations

import argparse
import os
import time

from eixample.ai.match import MatchTask, lineup
from eixample.cli.runner import connect_ray, run_matches


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the worker processes)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def timed(tasks: list[MatchTask], workers: int, use_ray: bool = False) -> tuple[float, float, list[str]]:
    """Wall-clock seconds, CPU seconds (of this process and its worker processes; Ray's workers are
    not ours, so 0 there) and the records."""
    cpu, start = cpu_seconds(), time.perf_counter()
    records = [str(result.record) for result in run_matches(tasks, len(tasks), workers, use_ray)]
    return time.perf_counter() - start, 0.0 if use_ray else cpu_seconds() - cpu, records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--bots", default="greedy,random")
    parser.add_argument("--game", default="barcelona")
    parser.add_argument("--ray", action="store_true", help="also time Ray tasks on a local 2-CPU instance")
    args = parser.parse_args()
    specs = args.bots.split(",")
    tasks = [MatchTask(args.game, index, lineup(specs, args.players, index)) for index in range(args.games)]
    print(f"{args.games} games of {args.game}, {args.players} players, bots {args.bots}")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    runs = [("1 worker", 1, False), ("2 workers (processes)", 2, False)]
    if args.ray:
        runs.append(("2 CPUs (Ray, local)", 2, True))
    reference: tuple[float, list[str]] | None = None
    for label, workers, use_ray in runs:
        if use_ray:  # started after the local runs, whose CPU it would take
            start = time.perf_counter()
            connect_ray(2)
            print(f"Ray start-up (not counted below): {time.perf_counter() - start:.1f} s")
        seconds, cpu, records = timed(tasks, workers, use_ray)
        if reference is None:
            reference = (seconds, records)
        assert records == reference[1], f"{label}: records differ from the one-worker run"
        line = (f"{label:24} {seconds:7.2f} s {args.games / seconds:7.2f} games/s  "
                f"speed-up {reference[0] / seconds:5.2f}x")
        if cpu:  # what the workers did with the CPU they got, whatever else runs on the machine
            line += (f"  CPU got {cpu / (seconds * workers):4.0%} of {workers} core(s)  "
                     f"{args.games / cpu * 3600:7.0f} games per CPU-hour")
        print(line)
    print(f"load average after:  {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
