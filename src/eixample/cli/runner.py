"""Playing many games between bots: on every local core (processes), or as Ray tasks on a
cluster, with a progress bar.

Games go out in batches. Whatever runs them, results come back in the order of the tasks, so
the same seeds give the same output with any number of workers, locally or on Ray. At most
`window` batches are out (running or finished and waiting for an earlier one), so memory stays
bounded however many games a study plays: the tasks are read lazily, and the caller can write
each result away as it arrives.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from itertools import islice
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from eixample.ai.match import MatchResult, MatchTask, play_match
from eixample.core.errors import EixampleError

MAX_BATCH = 64
"""Games per batch at most: a batch is the unit of work sent to a process or a Ray task."""

BATCHES_PER_WORKER = 4
"""Batches per worker at least (when there are games enough), so that workers finish together."""

WINDOW_PER_WORKER = 2
"""Batches out per worker at most (running, or done and waiting for an earlier one)."""

TEARDOWN_SECONDS = 10.0
"""How long stopping a local pool may take before its worker processes are killed."""

RAY_RETRIES = 3
"""How often Ray runs a batch again whose worker or node died."""

RAY_LOCAL_STORE = 256 * 1024 * 1024
"""Object store of a Ray instance started here (bytes); results are small."""

RAY_HELP = ("Play the games as Ray tasks: on the cluster named by RAY_ADDRESS (setting it is enough), "
            "else on a local Ray instance with --workers CPUs. Needs the 'ray' extra.")

PlayBatch = Callable[[Sequence[MatchTask]], list[MatchResult]]


class RayUnavailable(EixampleError):
    """Ray is not installed, or the cluster cannot be reached."""


def default_workers() -> int:
    return os.cpu_count() or 1


def ray_requested(flag: bool) -> bool:
    """`--ray` given, or RAY_ADDRESS set (a cluster to use)."""
    return flag or bool(os.environ.get("RAY_ADDRESS"))


def play_batch(batch: Sequence[MatchTask]) -> list[MatchResult]:
    """Play a batch of games, in order. Runs in worker processes and in Ray tasks."""
    return [play_match(task) for task in batch]


def batch_size(total: int, workers: int) -> int:
    return max(1, min(MAX_BATCH, math.ceil(total / (workers * BATCHES_PER_WORKER))))


def batches(tasks: Iterable[MatchTask], size: int) -> Iterator[list[MatchTask]]:
    it = iter(tasks)
    while batch := list(islice(it, size)):
        yield batch


def run_matches(tasks: Iterable[MatchTask], total: int, workers: int, use_ray: bool = False,
                play: PlayBatch = play_batch) -> Iterator[MatchResult]:
    """Results in the order of `tasks` (`total` of them). One local worker plays in this
    process; `use_ray` sends the batches to Ray (the cluster at RAY_ADDRESS, else a local
    instance with `workers` CPUs)."""
    if use_ray:
        parallelism = connect_ray(workers)  # before the first result is asked for, it fails early
        groups = batches(tasks, batch_size(total, parallelism))
        for batch in _ray_batches(groups, parallelism * WINDOW_PER_WORKER, play):
            yield from batch
        return
    workers = max(1, min(workers, total))
    if workers == 1:
        yield from map(play_match, tasks)
        return
    groups = batches(tasks, batch_size(total, workers))
    with local_pool(workers) as pool:
        for batch in _pool_batches(pool, groups, workers * WINDOW_PER_WORKER, play):
            yield from batch


@contextmanager
def local_pool(workers: int) -> Iterator[Any]:
    """A process pool that is stopped in bounded time however its use ends. `Pool.terminate`
    has been seen to block for minutes after a game failed in a worker; past TEARDOWN_SECONDS
    the pool's processes are killed instead, and the failure goes on to the caller."""
    others = set(multiprocessing.active_children())
    pool = multiprocessing.get_context().Pool(workers)
    try:
        yield pool
    finally:
        stopper = threading.Thread(target=pool.terminate, name="pool-teardown", daemon=True)
        stopper.start()
        stopper.join(TEARDOWN_SECONDS)
        if stopper.is_alive():
            stuck = [process for process in multiprocessing.active_children() if process not in others]
            for process in stuck:
                process.kill()
            for process in stuck:
                process.join(TEARDOWN_SECONDS)


def _pool_batches(pool: Any, groups: Iterator[list[MatchTask]], window: int,
                  play: PlayBatch) -> Iterator[list[MatchResult]]:
    out: deque[Any] = deque(pool.apply_async(play, (batch,)) for batch in islice(groups, window))
    while out:
        results = out.popleft().get()
        for batch in islice(groups, 1):
            out.append(pool.apply_async(play, (batch,)))
        yield results


def connect_ray(workers: int) -> int:
    """Join the Ray cluster at RAY_ADDRESS, or start a local instance with `workers` CPUs (or use
    the one this process already joined). Returns the CPUs the cluster offers."""
    try:
        import ray
    except ImportError:
        raise RayUnavailable("Ray is not installed: pip install 'eixample[ray]'") from None
    address = os.environ.get("RAY_ADDRESS")
    if not ray.is_initialized():
        try:
            with _stdout_to_stderr():
                _init_ray(ray, address, workers)
        except (ConnectionError, RuntimeError, ValueError) as error:
            where = f"the Ray cluster at {address}" if address else "a local Ray instance"
            raise RayUnavailable(f"cannot start or reach {where}: {error}") from error
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def _init_ray(ray: Any, address: str | None, workers: int) -> None:
    if address:
        ray.init(log_to_driver=False)
    else:
        # address="local": always a new instance, even where a stale cluster file (of a Ray
        # started earlier and gone) would have ray.init join that cluster instead
        ray.init(address="local", num_cpus=workers, include_dashboard=False, log_to_driver=False,
                 object_store_memory=RAY_LOCAL_STORE)


@contextmanager
def _stdout_to_stderr() -> Iterator[None]:
    """Standard output goes to standard error meanwhile, at the file-descriptor level, so that
    whatever Ray prints, in this process or in the processes it starts now (they keep the
    redirection), never mixes with a command's output (`--json`)."""
    sys.stdout.flush()
    try:
        saved = os.dup(1)
    except OSError:  # no standard output to protect
        yield
        return
    try:
        os.dup2(2, 1)
        previous, sys.stdout = sys.stdout, sys.stderr
        try:
            yield
        finally:
            sys.stdout.flush()
            sys.stdout = previous
    finally:
        os.dup2(saved, 1)
        os.close(saved)


def connect_ray_or_fail(workers: int) -> None:
    """`connect_ray` for a command: a clear message and exit code 2 when Ray is not there."""
    from eixample.cli.common import fail

    try:
        connect_ray(workers)
    except RayUnavailable as error:
        fail(str(error))


def _ray_batches(groups: Iterator[list[MatchTask]], window: int,
                 play: PlayBatch) -> Iterator[list[MatchResult]]:
    """Batches as Ray tasks, at most `window` out; results handed on in order as they finish."""
    import ray

    remote = ray.remote(max_retries=RAY_RETRIES)(play)
    pending: dict[Any, int] = {}
    finished: dict[int, list[MatchResult]] = {}
    submitted = next_out = 0

    def submit() -> None:
        nonlocal submitted
        while len(pending) + len(finished) < window:
            batch = next(groups, None)
            if batch is None:
                return
            pending[remote.remote(batch)] = submitted
            submitted += 1

    submit()
    while pending:
        ready, _ = ray.wait(list(pending), num_returns=1)
        for ref in ready:
            finished[pending.pop(ref)] = ray.get(ref)
        while next_out in finished:
            yield finished.pop(next_out)
            next_out += 1
        submit()


def run_with_progress(tasks: Iterable[MatchTask], total: int, workers: int, label: str,
                      display: Console | None, use_ray: bool = False) -> Iterator[MatchResult]:
    """The results as they come; a progress bar on `display` (none if None)."""
    results = run_matches(tasks, total, workers, use_ray)
    if display is None:
        yield from results
        return
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=display, transient=True) as progress:
        bar = progress.add_task(label, total=total)
        for result in results:
            yield result
            progress.advance(bar)
