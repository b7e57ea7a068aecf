"""Rules versions on the server: a game stored before versions comes back under the rules it was
played under (lobby, play and replays alike) and keeps them; a new game takes the newest rules,
which no request chooses. The stored games are the records of tests/games/barcelona/before_versions/,
made by the first release's code."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from eixample.games import barcelona
from eixample.games.barcelona.versions import LATEST_RULES
from eixample.server.db import GameData, SeatData, now
from eixample.server.manager import GameManager
from tests.server.harness import create_game
from tests.server.test_server_store import make_app

BEFORE_VERSIONS = Path(__file__).parents[1] / "games" / "barcelona" / "before_versions"
PEOPLE = [{"kind": "person", "name": "Ana"}, {"kind": "person", "name": "Biel"}]


@pytest.fixture()
def app(tmp_path: Path) -> Iterator[tuple[TestClient, GameManager]]:
    application = make_app(tmp_path)
    with TestClient(application, base_url="http://127.0.0.1") as client:
        yield client, application.state.manager


def store_as_before_versions(manager: GameManager, name: str) -> tuple[str, dict[str, Any]]:
    """Store a fixture game as a release before versions did: its options without `rules`, each
    action with the seat that made it, and its result."""
    fixture = json.loads((BEFORE_VERSIONS / name).read_text())
    record = fixture["record"]
    version = int(name.split("-")[0].removeprefix("rules"))
    state = barcelona.new_game(record["players"], record["seed"], **{**record["options"], "rules": version})
    actions = []  # (seat, action, seat to move after it)
    for action in record["actions"]:
        seat = state.current_player()
        state.apply(action)
        actions.append((seat, action, state.current_player()))
    players = record["players"]
    seats = [SeatData(i, "person", f"P{i + 1}", None, None, True) for i in range(players)]
    if players == 1:
        seats.append(SeatData(1, "automa", "Gaudí's Assistant", None, None, True))
    finished = fixture["terminal"]
    result = {"scores": fixture["scores"], "winners": fixture["winners"]} if finished else None
    stamp = now()
    game_id = name.removesuffix(".json")[:32]
    first = barcelona.new_game(players, record["seed"], **{**record["options"], "rules": version})
    manager.store.create_game(GameData(
        id=game_id, game="barcelona", players=players, seed=record["seed"], options={},
        status="running", move_count=0, to_move=first.current_player(), result=None,
        created_at=stamp, updated_at=stamp, seats=seats,
    ))
    for idx, (seat, action, to_move) in enumerate(actions):
        last = idx == len(actions) - 1
        status = "finished" if last and finished else "running"
        manager.store.append_action_later(
            game_id, idx, seat, action, status=status, to_move=to_move, result=result if last else None
        ).result()
    return game_id, fixture


@pytest.mark.parametrize(
    "name",
    ["rules1-p1-end-illegal.json", "rules1-p1-end-scores.json", "rules1-p3-end-scores.json",
     "rules1-p4-end-illegal.json"],
)
def test_a_finished_game_stored_before_versions_shows_its_own_result(
    app: tuple[TestClient, GameManager], name: str
) -> None:
    """Today's rules refuse one of its actions (it used to answer 503), or give other scores."""
    client, manager = app
    game_id, fixture = store_as_before_versions(manager, name)
    assert client.get(f"/api/games/{game_id}/state").status_code == 200
    record = client.get(f"/api/games/{game_id}/record").json()
    assert record["options"]["rules"] == 1
    assert record["result"]["scores"] == fixture["scores"]
    replay = client.get(f"/api/games/{game_id}/replay").json()
    assert replay["result"]["scores"] == fixture["scores"]
    assert replay["score_history"][-1] is not None
    lobby = {g["game_id"]: g for g in client.get("/api/games").json()["games"]}
    assert lobby[game_id]["result"]["scores"] == fixture["scores"]
    assert manager.store.load_game(game_id).options == {"rules": 1}  # type: ignore[union-attr]


def test_a_running_game_stored_before_versions_goes_on_under_its_own_rules(
    app: tuple[TestClient, GameManager],
) -> None:
    client, manager = app
    game_id, fixture = store_as_before_versions(manager, "rules1-p4-open-illegal.json")
    assert client.get(f"/api/games/{game_id}/state").status_code == 200
    live = manager.games[game_id]
    assert live.state.record()["options"]["rules"] == 1
    saved = barcelona.from_json(fixture["saved_state"])
    assert live.state.to_json()["state"] == saved.to_json()["state"]
    assert manager.store.load_game(game_id).options == {"rules": 1}  # type: ignore[union-attr]
    manager._evict(live)  # back from the database: the kept version, no matching again
    client.get(f"/api/games/{game_id}/state")
    assert manager.games[game_id].state.record()["options"]["rules"] == 1


def test_a_new_game_takes_the_newest_rules_and_no_request_chooses_them(
    app: tuple[TestClient, GameManager],
) -> None:
    client, manager = app
    catalog = {g["name"]: g for g in client.get("/api/catalog").json()["games"]}
    assert all("rules" not in g["options"] for g in catalog.values())
    created = client.post("/api/games", json={"game": "barcelona", "seats": PEOPLE})
    assert created.status_code == 201
    game_id = created.json()["game_id"]
    assert manager.store.load_game(game_id).options["rules"] == LATEST_RULES  # type: ignore[union-attr]
    refused = client.post("/api/games", json={"game": "barcelona", "seats": PEOPLE, "options": {"rules": 1}})
    assert refused.status_code == 422, refused.text
    assert "unknown option(s) for barcelona: rules" in refused.text
    ttt = create_game(client, "tictactoe", PEOPLE)  # type: ignore[arg-type]
    assert manager.store.load_game(ttt["game_id"]).options == {}  # type: ignore[union-attr]

