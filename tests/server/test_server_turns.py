"""Turn-based games over the API: days per move (a day lasts a moment here), and a seat whose
time runs out handed to a bot or lost, as the game's creator chose."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.harness import GENEROUS_LIMITS, ServerProcess, create_claimed_game, wait_for

PEOPLE = [{"kind": "person", "name": "Ana"}, {"kind": "person", "name": "Biel"}]
SHORT_DAYS = {**GENEROUS_LIMITS, "turn_day_seconds": 1.5, "turn_scan_seconds": 0.3}
"""A day of a turn-based game lasts 1.5 s in these tests."""


def table_of(api: httpx.Client, game_id: str) -> dict[str, Any]:
    response = api.get(f"/api/games/{game_id}/table")
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def stored_stand_ins(database: str, game_id: str) -> Any:
    import psycopg

    with psycopg.connect(database.replace("postgresql+psycopg://", "postgresql://")) as connection:
        query = "SELECT stand_ins FROM game_tables WHERE game_id = %s"
        row = connection.execute(query, (game_id,)).fetchone()
    return None if row is None else row[0]


def short_days_server(folder: Path, **extra: Any) -> ServerProcess:
    folder.mkdir()
    return ServerProcess(folder, limits={**SHORT_DAYS, **extra}).start()


def test_a_turn_based_game_keeps_its_days_and_a_bot_plays_on_when_time_runs_out(tmp_path: Path) -> None:
    server = short_days_server(tmp_path / "data")
    try:
        with server.client() as api:
            created = create_claimed_game(api, "tictactoe", PEOPLE, turn_days=3)
            game_id = created["game_id"]
            table = table_of(api, game_id)
            assert table["turn_days"] == 3 and table["time_out"] == "bot"
            assert table["clock_seconds"] is None and table["deadline"] is not None
            assert 3.0 < table["seconds_left"] <= 4.5  # 3 short days
            server.kill9()
            server.start()
            wait_for(lambda: table_of(api, game_id)["stand_ins"] == [{"seat": 0, "why": "clock"}],
                     timeout=45, what="the seat's time to run out after the restart")
            # the table's event line is stored and shown with the hand-over itself
            assert [line["text"] for line in table_of(api, game_id)["lines"]] == ["clock"]
            wait_for(lambda: api.get(f"/api/games/{game_id}").json()["move_number"] >= 1,
                     what="the stand-in's move")
    finally:
        server.stop()


def test_a_seat_out_of_time_loses_when_the_game_was_created_so(tmp_path: Path) -> None:
    server = short_days_server(tmp_path / "data")
    try:
        with server.client() as api:
            seats = [{"kind": "person", "name": "Ana"}, {"kind": "bot", "bot": "random"}]
            created = create_claimed_game(api, "tictactoe", seats, turn_days=1, time_out="lose")
            game_id = created["game_id"]
            assert table_of(api, game_id)["time_out"] == "lose"
            wait_for(lambda: table_of(api, game_id)["stand_ins"] == [{"seat": 0, "why": "resigned"}],
                     timeout=45, what="the seat to lose on time")
            assert [line["text"] for line in table_of(api, game_id)["lines"]] == ["timeout"]
            wait_for(lambda: api.get(f"/api/games/{game_id}").json()["status"] == "finished",
                     timeout=60, what="the stand-in and the bot to finish the game")
            result = api.get(f"/api/games/{game_id}").json()["result"]
            assert 0 not in result["winners"]
            taken_back = api.post(f"/api/games/{game_id}/take-back",
                                  headers={"X-Seat-Token": created["seats"][0]["token"]})
            assert taken_back.status_code == 409
    finally:
        server.stop()


def test_turn_based_settings_are_checked(api: httpx.Client) -> None:
    for wrong in (
        {"turn_days": 2},
        {"turn_days": "3"},
        {"turn_days": 3, "clock_seconds": 60},
        {"turn_days": 3, "time_out": "draw"},
        {"time_out": "lose"},  # for a turn-based game only
    ):
        response = api.post("/api/games", json={"game": "tictactoe", "seats": PEOPLE, **wrong})
        assert response.status_code == 422, (wrong, response.text)
    real_time = create_claimed_game(api, "tictactoe", PEOPLE, clock_seconds=3600)  # outlasts the session
    table = table_of(api, real_time["game_id"])
    assert table["turn_days"] is None and table["time_out"] is None and table["clock_seconds"] == 3600


@pytest.mark.postgres
def test_with_two_servers_on_postgresql_a_turn_runs_out_once_even_when_its_server_died(
    tmp_path: Path,
) -> None:
    """The game's server dies: the other, which never held the game, finds the run-out deadline
    in the database; while both run, the seat is handed over once."""
    from tests.server.postgres import PostgresCluster

    cluster = PostgresCluster().start()
    servers: list[ServerProcess] = []
    try:
        database = cluster.new_database()
        for index in range(2):
            folder = tmp_path / f"server{index}"
            folder.mkdir()
            servers.append(ServerProcess(folder, limits={**SHORT_DAYS, "turn_day_seconds": 3.0},
                                         database_url=database).start())
        first, second = servers
        with first.client() as api, second.client() as other:
            both = create_claimed_game(api, "tictactoe", PEOPLE, turn_days=1)
            wait_for(lambda: table_of(other, both["game_id"])["stand_ins"] == [{"seat": 0, "why": "clock"}],
                     timeout=45, what="the time to run out with both servers running")
            for client in (api, other):  # each server hears of the other's table change
                wait_for(lambda client=client: bool(table_of(client, both["game_id"])["lines"]), timeout=30,
                         what="the table event")
            for client in (api, other):  # handed over once, whichever server's clock rang first
                assert [line["text"] for line in table_of(client, both["game_id"])["lines"]] == ["clock"]
            orphan = create_claimed_game(api, "tictactoe", PEOPLE, turn_days=1, time_out="lose")
            first.kill9()
            # read from the database, not through the other server (which would load the game)
            wait_for(lambda: stored_stand_ins(database, orphan["game_id"]) == {"0": "resigned"},
                     timeout=45, what="the other server to find the run-out turn")
            texts = lambda: [line["text"] for line in table_of(other, orphan["game_id"])["lines"]]  # noqa: E731
            wait_for(lambda: texts() == ["timeout"], what="the table event")
    finally:
        for server in servers:
            server.stop()
        cluster.stop()


def test_a_rematch_keeps_the_days_a_move_and_the_time_out(api: httpx.Client) -> None:
    created = create_claimed_game(api, "tictactoe", PEOPLE, turn_days=3, time_out="lose")
    game_id, tokens = created["game_id"], [seat["token"] for seat in created["seats"]]
    for number, (seat, cell) in enumerate([(0, 0), (1, 3), (0, 1), (1, 4), (0, 2)]):
        body = {"action": f"mark {cell}", "expected_move": number}
        response = api.post(f"/api/games/{game_id}/moves", json=body, headers={"X-Seat-Token": tokens[seat]})
        assert response.status_code == 200, response.text
    rematch = api.post(f"/api/games/{game_id}/rematch", headers={"X-Seat-Token": tokens[0]})
    assert rematch.status_code == 200, rematch.text
    table = table_of(api, rematch.json()["game_id"])
    assert (table["turn_days"], table["time_out"], table["clock_seconds"]) == (3, "lose", None)
