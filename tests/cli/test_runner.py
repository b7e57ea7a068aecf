"""Games on local processes: a failure in a worker reaches the caller, and the pool is gone
after it, in bounded time even when stopping the pool blocks."""

from __future__ import annotations

import multiprocessing
import multiprocessing.pool
import threading
from collections.abc import Sequence

import pytest

from eixample.ai.match import MatchResult, MatchTask
from eixample.cli import runner
from eixample.cli.runner import play_batch, run_matches


class GameFailed(Exception):
    pass


def fails_on_seed_3(batch: Sequence[MatchTask]) -> list[MatchResult]:
    """Plays a batch in a worker process, failing the one holding seed 3."""
    if any(task.seed == 3 for task in batch):
        raise GameFailed("seed 3 failed")
    return play_batch(batch)


def _tasks(count: int) -> list[MatchTask]:
    return [MatchTask("tictactoe", seed, ("random", "greedy")) for seed in range(count)]


def _pool_workers() -> list[multiprocessing.process.BaseProcess]:
    return [p for p in multiprocessing.active_children() if "PoolWorker" in p.name]


def test_a_game_failing_in_a_worker_fails_the_run_and_stops_the_pool() -> None:
    tasks = _tasks(8)
    with pytest.raises(GameFailed, match="seed 3 failed"):
        list(run_matches(tasks, len(tasks), workers=2, play=fails_on_seed_3))
    assert _pool_workers() == []


def test_a_pool_whose_stopping_blocks_is_killed_after_the_teardown_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    blocked, released = threading.Event(), threading.Event()

    def stuck_while_stopping(*args: object) -> None:
        """Where `Pool.terminate` waits for its task queue, with the workers still running."""
        blocked.set()
        released.wait()

    monkeypatch.setattr(multiprocessing.pool.Pool, "_help_stuff_finish", staticmethod(stuck_while_stopping))
    monkeypatch.setattr(runner, "TEARDOWN_SECONDS", 0.2)
    tasks = _tasks(8)
    try:
        with pytest.raises(GameFailed, match="seed 3 failed"):
            list(run_matches(tasks, len(tasks), workers=2, play=fails_on_seed_3))
        assert blocked.is_set()
        assert _pool_workers() == []
    finally:
        released.set()  # the stopping thread may end now that its pool is gone
