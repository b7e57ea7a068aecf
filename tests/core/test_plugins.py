"""A game from another package plugs in through the `eixample.games` entry points: the tiny Nim
package of tests/plugin_game is installed into a folder of its own, and the command line and the
web server then play it without any change to Eixample."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.harness import ServerProcess, create_claimed_game, seat_headers

PLUGIN = Path(__file__).resolve().parents[1] / "plugin_game"


@pytest.fixture(scope="module")
def plugin_path(tmp_path_factory: pytest.TempPathFactory) -> str:
    """PYTHONPATH under which the Nim package is installed (pip, from its own source tree)."""
    work = tmp_path_factory.mktemp("plugin")
    source, site = work / "source", work / "site"
    shutil.copytree(PLUGIN, source)  # the build leaves its files beside the sources
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
         "--no-index", "--target", str(site), str(source)],
        check=True, capture_output=True, timeout=300,
    )
    return os.pathsep.join([str(site), *filter(None, [os.environ.get("PYTHONPATH")])])


def eixample(plugin_path: str, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "eixample.cli.main", *args], input=stdin, capture_output=True, text=True,
        timeout=120, env={**os.environ, "PYTHONPATH": plugin_path, "COLUMNS": "100"},
    )


def test_an_installed_plugin_game_is_listed_and_played_at_the_command_line(plugin_path: str) -> None:
    moves = "take 3\ntake 3\ntake 1\n"
    played = eixample(plugin_path, "play", "--game", "nim", "--opponent", "greedy", stdin=moves)
    assert played.returncode == 0, played.stderr
    assert "Nim: game over" in played.stdout
    simulated = eixample(plugin_path, "simulate", "--game", "nim", "--games", "4", "--players", "2",
                         "--bots", "random,greedy", "--json")
    assert simulated.returncode == 0, simulated.stderr
    assert json.loads(simulated.stdout)["games"] == 4


def test_without_the_plugin_the_game_is_unknown() -> None:
    without = subprocess.run([sys.executable, "-m", "eixample.cli.main", "simulate", "--game", "nim",
                              "--games", "1"], capture_output=True, text=True, timeout=120)
    assert without.returncode != 0
    assert "nim" in without.stdout + without.stderr


@pytest.fixture
def plugin_server(
    plugin_path: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[ServerProcess]:
    monkeypatch.setenv("PYTHONPATH", plugin_path)
    server = ServerProcess(tmp_path).start()
    yield server
    server.stop()


def test_an_installed_plugin_game_is_played_through_the_server(plugin_server: ServerProcess) -> None:
    with plugin_server.client() as client:
        catalog = client.get("/api/catalog").json()
        assert "nim" in {game["name"] for game in catalog["games"]}
        seats = [{"kind": "person", "name": "Ana"}, {"kind": "person", "name": "Biel"}]
        created = create_claimed_game(client, "nim", seats)
        game_id = created["game_id"]
        tokens = [seat["token"] for seat in created["seats"]]
        for move, (seat, action) in enumerate([(0, "take 3"), (1, "take 1"), (0, "take 3")]):
            body = {"action": action, "expected_move": move}
            answer = client.post(f"/api/games/{game_id}/moves", json=body, headers=seat_headers(tokens[seat]))
            assert answer.status_code == 200, answer.text
        record = client.get(f"/api/games/{game_id}/record").json()
        assert record["game"] == "nim" and record["actions"] == ["take 3", "take 1", "take 3"]
