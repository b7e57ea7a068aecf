"""Playing many games between bots on every core, with a progress bar."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterator, Sequence

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from eixample.ai.match import MatchResult, MatchTask, play_match


def default_workers() -> int:
    return os.cpu_count() or 1


def run_matches(tasks: Sequence[MatchTask], workers: int) -> Iterator[MatchResult]:
    """Results in the order of `tasks` (so the same seeds give the same output however many
    workers play them). One worker plays in this process."""
    workers = max(1, min(workers, len(tasks)))
    if workers == 1:
        yield from map(play_match, tasks)
        return
    with multiprocessing.get_context().Pool(workers) as pool:
        yield from pool.imap(play_match, tasks, chunksize=1)


def run_with_progress(tasks: Sequence[MatchTask], workers: int, label: str,
                      display: Console | None) -> list[MatchResult]:
    """All results; a progress bar on `display` (none if None)."""
    if display is None:
        return list(run_matches(tasks, workers))
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    results: list[MatchResult] = []
    with Progress(*columns, console=display, transient=True) as progress:
        bar = progress.add_task(label, total=len(tasks))
        for result in run_matches(tasks, workers):
            results.append(result)
            progress.advance(bar)
    return results
