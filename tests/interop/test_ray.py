"""`--ray`: the same batches as Ray tasks on a local instance with 2 CPUs (started once for the
module: Ray is slow to start), results identical to a local run, lazily fed, retried."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
import ray
from typer.testing import CliRunner

from eixample.ai.match import MatchResult, MatchTask
from eixample.cli import runner as runner_module
from eixample.cli.runner import play_batch, ray_requested, run_matches
from tests.cli.helpers import assert_clear_failure, invoke

SIMULATE = ("simulate", "--game", "tictactoe", "--games", "40", "--seed", "3", "--bots", "greedy,random",
            "--json")
TOURNAMENT = ("tournament", "--game", "tictactoe", "--bots", "random,greedy,mcts:iterations=10",
              "--games-per-pair", "4")


@pytest.fixture(scope="module", autouse=True)
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             object_store_memory=runner_module.RAY_LOCAL_STORE)
    yield
    ray.shutdown()


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def test_simulate_on_ray_gives_the_local_results(runner: CliRunner, tmp_path: Path) -> None:
    local = invoke(runner, *SIMULATE, "--workers", "1", "--out", str(tmp_path / "local.jsonl"))
    on_ray = invoke(runner, *SIMULATE, "--ray", "--out", str(tmp_path / "ray.jsonl"))
    assert local.exit_code == on_ray.exit_code == 0, on_ray.output
    assert json.loads(on_ray.stdout) == json.loads(local.stdout)
    assert (tmp_path / "ray.jsonl").read_text() == (tmp_path / "local.jsonl").read_text()
    assert len((tmp_path / "ray.jsonl").read_text().splitlines()) == 40


def test_tournament_on_ray_gives_the_local_results(runner: CliRunner) -> None:
    local = invoke(runner, *TOURNAMENT, "--workers", "2")
    on_ray = invoke(runner, *TOURNAMENT, "--ray")
    assert local.exit_code == on_ray.exit_code == 0, on_ray.output
    assert on_ray.stdout == local.stdout
    assert "12 games" in on_ray.stdout


def test_ray_address_alone_asks_for_ray(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    assert not ray_requested(False) and ray_requested(True)
    monkeypatch.setenv("RAY_ADDRESS", "127.0.0.1:6379")
    assert ray_requested(False)


def _tasks(count: int) -> list[MatchTask]:
    return [MatchTask("tictactoe", seed, ("random", "greedy")) for seed in range(count)]


def test_a_batch_whose_worker_dies_is_retried(tmp_path: Path) -> None:
    marker = str(tmp_path / "died")

    def dies_once(batch: Sequence[MatchTask]) -> list[MatchResult]:
        if batch[0].seed == 0 and not os.path.exists(marker):
            Path(marker).write_text("died once")
            os._exit(1)  # the worker process dies, as on a lost node
        return play_batch(batch)

    tasks = _tasks(16)
    results = list(run_matches(tasks, len(tasks), workers=2, use_ray=True, play=dies_once))
    assert Path(marker).exists()  # it did die
    assert [r.record for r in results] == [r.record for r in run_matches(tasks, len(tasks), workers=1)]


def test_batches_are_fed_lazily_with_a_bounded_window() -> None:
    taken: list[int] = []

    def groups() -> Iterator[list[MatchTask]]:
        for index, task in enumerate(_tasks(30)):
            taken.append(index)
            yield [task]

    stream = runner_module._ray_batches(groups(), window=4, play=play_batch)
    first = next(stream)
    assert first[0].record["seed"] == 0
    assert len(taken) <= 5  # the window, plus the one submitted after the first result
    assert [batch[0].record["seed"] for batch in stream] == list(range(1, 30))


def test_local_processes_are_fed_lazily_with_a_bounded_window() -> None:
    import multiprocessing

    taken: list[int] = []

    def groups() -> Iterator[list[MatchTask]]:
        for index, task in enumerate(_tasks(12)):
            taken.append(index)
            yield [task]

    with multiprocessing.get_context().Pool(2) as pool:
        stream = runner_module._pool_batches(pool, groups(), window=3, play=play_batch)
        assert next(stream)[0].record["seed"] == 0
        assert len(taken) <= 4
        assert [batch[0].record["seed"] for batch in stream] == list(range(1, 12))


def test_without_ray_installed_the_commands_say_so(runner: CliRunner,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails
    assert_clear_failure(invoke(runner, *SIMULATE, "--ray"), "Ray is not installed", "eixample[ray]")
    assert_clear_failure(invoke(runner, *TOURNAMENT, "--ray"), "Ray is not installed")


def test_an_unreachable_cluster_is_named(runner: CliRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(**_: object) -> None:
        raise ConnectionError("no cluster there")

    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", refuse)
    monkeypatch.setenv("RAY_ADDRESS", "127.0.0.1:1")
    result = invoke(runner, *SIMULATE)
    assert_clear_failure(result, "cannot start or reach the Ray cluster at 127.0.0.1:1", "no cluster there")


def test_a_local_instance_is_new_and_its_messages_stay_off_stdout(monkeypatch: pytest.MonkeyPatch,
                                                                 capfd: pytest.CaptureFixture[str]) -> None:
    calls: list[dict[str, object]] = []

    def noisy_init(**options: object) -> None:
        calls.append(options)
        print("Ray says hello")  # as Ray and the processes it starts may
        os.write(1, b"raylet says hello\n")

    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", noisy_init)
    monkeypatch.setattr(ray, "cluster_resources", lambda: {"CPU": 2.0})
    capfd.readouterr()
    assert runner_module.connect_ray(2) == 2
    print("the command's own output")
    out, err = capfd.readouterr()
    assert out == "the command's own output\n"
    assert "Ray says hello" in err and "raylet says hello" in err
    assert calls[0]["address"] == "local"  # never a cluster found in a leftover cluster file


def test_ray_json_run_despite_a_stale_cluster_file() -> None:
    """A real run in a process of its own: a cluster file names a Ray that is gone (a port where
    nothing listens), and standard output holds the JSON alone."""
    # a short folder: Ray's socket paths under it must fit in 107 bytes
    with tempfile.TemporaryDirectory(prefix="eixray", dir="/tmp", ignore_cleanup_errors=True) as folder:
        done = _simulate_on_ray_with_stale_cluster_file(Path(folder))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["games"] == 4


def _simulate_on_ray_with_stale_cluster_file(folder: Path) -> subprocess.CompletedProcess[str]:
    (folder / "ray").mkdir()
    (folder / "ray" / "ray_current_cluster").write_text("127.0.0.1:18899\n")
    env = {key: value for key, value in os.environ.items() if key != "RAY_ADDRESS"}
    env.update(RAY_TMPDIR=str(folder), PYTHONPATH=os.pathsep.join(sys.path))
    return subprocess.run([sys.executable, "-m", "eixample.cli.main", "simulate", "--game", "tictactoe",
                           "--games", "4", "--ray", "--workers", "1", "--json"],
                          capture_output=True, text=True, env=env, timeout=300, check=False)
