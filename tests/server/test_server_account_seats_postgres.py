"""Seats that follow the player on PostgreSQL, with two server processes on one database: a seat
given to an account through one process acts for the account through the other, even when that
other one held the game in memory before; "my games", the lobby's filters and the hand-over of a
guest's seats run the same there."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.harness import ServerProcess, create_game, seat_headers
from tests.server.postgres import PostgresCluster
from tests.server.signin import sign_in, sign_up

pytestmark = pytest.mark.postgres


@pytest.fixture()
def two_servers(tmp_path: Path, postgres: PostgresCluster) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    database = PostgresCluster.new_database(postgres)
    made = []
    for index in range(2):
        folder = tmp_path / f"server{index}"
        folder.mkdir()
        made.append(ServerProcess(folder, database_url=database).start())
    yield made[0], made[1]
    for process in made:
        process.stop()


def test_a_seat_given_through_one_server_acts_for_its_account_through_the_other(
    two_servers: tuple[ServerProcess, ServerProcess],
) -> None:
    one, two = two_servers
    with sign_up(one) as ana, sign_up(one) as biel, one.client() as guest_one, two.client() as guest_two:
        people = [{"kind": "person", "name": "Ana"}, {"kind": "person", "name": "Biel"}]
        created = create_game(guest_one, "tictactoe", people, invitations=True, clock_seconds=90)
        gid = created["game_id"]
        assert guest_two.get(f"/api/games/{gid}/state").json()["seat"] is None  # held by both now
        claimed = ana.post(f"/api/games/{gid}/claim", headers=seat_headers(created["seats"][0]["token"]))
        assert claimed.status_code == 200, claimed.text
        with sign_in(two, ana.name) as ana_two:
            assert ana_two.get(f"/api/games/{gid}/state").json()["seat"] == 0
            played = ana_two.post(f"/api/games/{gid}/moves", json={"action": "mark 4", "expected_move": 0})
            assert played.status_code == 200, played.text
            named = ana_two.post("/api/games", json={
                "game": "tictactoe", "seats": [{"account": biel.name}, {"account": ana.name}]})
            assert named.status_code == 201, named.text
            listed = ana_two.get("/api/me/games").json()["games"]
            games = [(game["game_id"], game["your_turn"]) for game in listed]
            assert games == [(named.json()["game_id"], False), (gid, False)]
        assert biel.get("/api/me/games").json()["games"][0]["your_turn"]  # through the first server
        timed = {game["game_id"] for game in guest_two.get("/api/games?speed=90&players=2").json()["games"]}
        assert timed == {gid}
        # a guest's seat handed over through the second server
        solo = create_game(guest_one, "tictactoe", [{"kind": "person"}, {"kind": "bot", "bot": "random"}])
        with sign_up(two) as cesc:
            proof = {"game_id": solo["game_id"], "token": solo["seats"][0]["token"]}
            given = cesc.post("/api/me/seats", json={"seats": [proof, proof]}).json()
            assert given["given"] == [{"game_id": solo["game_id"], "seat": 0}] * 2
            with sign_in(one, cesc.name) as cesc_one:
                assert cesc_one.get(f"/api/games/{solo['game_id']}/state").json()["seat"] == 0
