"""The command line points of issue 13: refused player counts and ports in one line, the real
defaults in `serve --help`, a taken port named with a hint, `eixample --version`, the final score
table printed once, bot-spec errors like every other error, and `make run PORT=...`."""

from __future__ import annotations

import inspect
import os
import socket
import subprocess
import types
from importlib import metadata
from pathlib import Path

import pytest
from typer.testing import CliRunner

from eixample.cli import serve
from tests.cli.helpers import assert_clear_failure, invoke

ROOT = Path(__file__).resolve().parents[2]


def not_started(**options: object) -> None:
    pytest.fail("the server must not start")


def one_error_line(output: str) -> str:
    lines = [line for line in output.splitlines() if line.strip()]
    assert len(lines) == 1, output
    assert lines[0].startswith("error: "), output
    return lines[0]


@pytest.mark.parametrize("command", [("demo",), ("play",), ("play", "--game", "tictactoe")])
@pytest.mark.parametrize("players", ["0", "-1", "9"])
def test_player_counts_out_of_range_are_refused(
    runner: CliRunner, command: tuple[str, ...], players: str
) -> None:
    result = invoke(runner, *command, "--players", players, input="")
    # counts no game takes are refused by the command; a count the game does not take, by the game
    assert_clear_failure(result, f"players, not {players}" if int(players) < 1 else "players")
    one_error_line(result.output)


@pytest.mark.parametrize("port", ["0", "-5", "65536", "70000"])
def test_ports_out_of_range_are_refused(
    runner: CliRunner, monkeypatch: pytest.MonkeyPatch, port: str
) -> None:
    monkeypatch.setattr(serve, "load_server", lambda: not_started)
    result = invoke(runner, "serve", "--port", port)
    assert_clear_failure(result, f"--port {port} is out of range: use 1 to 65535")
    one_error_line(result.output)


def test_serve_help_shows_the_defaults_the_server_uses(runner: CliRunner) -> None:
    result = invoke(runner, "serve", "--help")
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    for value in (serve.DEFAULT_HOST, str(serve.DEFAULT_PORT), serve.DEFAULT_DATA_DIR):
        assert f"[default: ({value})]" in text, text
    # and they are the server's own defaults (so `eixample serve` and `run()` agree)
    from eixample.server.app import run

    defaults = {name: p.default for name, p in inspect.signature(run).parameters.items()}
    assert (defaults["host"], defaults["port"], str(defaults["data_dir"])) == (
        serve.DEFAULT_HOST,
        serve.DEFAULT_PORT,
        serve.DEFAULT_DATA_DIR,
    )


def test_a_taken_port_is_named_with_a_hint(runner: CliRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(serve, "load_server", lambda: not_started)
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = invoke(runner, "serve", "--host", "127.0.0.1", "--port", str(port))
    assert_clear_failure(result, f"port {port} on 127.0.0.1 is already in use", "--port")
    one_error_line(result.output)


def test_serve_starts_the_server_with_its_options(runner: CliRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[dict[str, object]] = []
    module = types.ModuleType("fake_server")
    module.run = lambda **options: calls.append(options)  # type: ignore[attr-defined]
    monkeypatch.setattr(serve.importlib, "import_module", lambda name: module)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        free = probe.getsockname()[1]
    assert invoke(runner, "serve", "--port", str(free), "--data-dir", "elsewhere").exit_code == 0
    assert invoke(runner, "serve", "--port", str(free), "--allowed-host", "games.example").exit_code == 0
    started = [(call["settings"].host, call["settings"].port, call["settings"].data_dir,  # type: ignore[attr-defined]
                call["settings"].allowed_hosts) for call in calls]  # type: ignore[attr-defined]
    assert started == [
        ("127.0.0.1", free, "elsewhere", []),
        ("127.0.0.1", free, "data", ["games.example"]),
    ]


def test_version(runner: CliRunner) -> None:
    result = invoke(runner, "--version")
    assert result.exit_code == 0
    assert result.output.strip() == f"eixample {metadata.version('eixample')}"


def test_demo_prints_the_final_scores_once(runner: CliRunner) -> None:
    result = invoke(runner, "demo", "--bots", "random,random", "--seed", "2")
    assert result.exit_code == 0, result.output[-2000:]
    assert result.output.count("Final scores by source") == 1
    assert "Points by source" not in result.output


def test_play_prints_the_final_scores_once(runner: CliRunner) -> None:
    moves = "".join(f"{line}\n" for line in ("mark 4", "mark 0", "mark 1", "mark 3", "mark 7"))
    result = invoke(runner, "play", "--game", "tictactoe", "--seat", "2=human", "--seed", "3", input=moves)
    assert result.exit_code == 0, result.output
    assert result.output.count("Final scores by source") == 1


@pytest.mark.parametrize(
    "args",
    [
        ("demo", "--bots", "nonsense"),
        ("demo", "--bots", "greedy:samples=0"),
        ("demo", "--bots", "greedy,"),
        ("play", "--opponent", "mcts:foo=1"),
        ("play", "--seat", "2=nonsense"),
    ],
)
def test_bot_spec_errors_read_like_other_errors(runner: CliRunner, args: tuple[str, ...]) -> None:
    result = invoke(runner, *args, input="")
    assert_clear_failure(result)
    assert "bot" in one_error_line(result.output)


def _make_run_line(*args: str) -> str:
    """The command `make run` would start (dry run), whether or not the tests run under make."""
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")}
    shown = subprocess.run(
        ["make", "--no-print-directory", "-n", "run", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
        env=env,
    )
    assert shown.returncode == 0, shown.stderr
    return [line for line in shown.stdout.splitlines() if "eixample serve" in line][-1]


def test_make_run_passes_the_port() -> None:
    assert "eixample serve --port 8123" in _make_run_line("PORT=8123")
    assert _make_run_line().endswith("eixample serve")
