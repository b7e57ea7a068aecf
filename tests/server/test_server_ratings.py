"""Ratings through the API (docs/ratings.md): a game played to its end between signed-in players
and bot levels changes their ratings, shown on their profiles and the leaderboard; resigning is a
loss; unrated games and games with a guest change nothing."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from eixample.cli.main import app as cli
from tests.server.harness import ServerProcess, create_game, seat_headers
from tests.server.signin import SignedInClient, sign_up


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("ratings-data"), bot_delay=0.0).start()
    yield process
    process.stop()


def own_seat(db_path: Path, game_id: str, seat: int, account: SignedInClient) -> None:
    """Give the seat to the account (as a signed-in player's seat is its account's)."""
    give_seat(db_path, game_id, seat, str(account.account["id"]))


def give_seat(db_path: Path, game_id: str, seat: int, account_id: str) -> None:
    with sqlite3.connect(db_path, timeout=30) as connection:
        connection.execute("UPDATE seats SET account_id = ? WHERE game_id = ? AND seat = ?",
                           (account_id, game_id, seat))
    connection.close()


def play_out(
    client: httpx.Client, game_id: str, tokens: dict[int, str], timeout: float = 60
) -> dict[str, Any]:
    """Play the people's seats (first legal action each time) until the game is over; bots and
    stand-ins play theirs."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = client.get(f"/api/games/{game_id}/state").json()
        if state["status"] == "finished":
            return state
        seat = state["current_player"]
        if seat in tokens:
            mine = client.get(f"/api/games/{game_id}/state", headers=seat_headers(tokens[seat])).json()
            if mine["your_turn"] and mine["legal_actions"]:
                client.post(f"/api/games/{game_id}/moves", headers=seat_headers(tokens[seat]),
                            json={"action": mine["legal_actions"][0], "expected_move": mine["move_number"]})
                continue
        time.sleep(0.05)
    raise AssertionError(f"game {game_id} did not end")


def profile(client: httpx.Client, name: str) -> dict[str, Any]:
    answer = client.get(f"/api/players/{name}")
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def rating_of(found: dict[str, Any], game: str = "tictactoe", players: int = 2) -> dict[str, Any] | None:
    return next((r for r in found["ratings"] if r["game"] == game and r["players"] == players), None)


def test_a_game_against_a_bot_level_rates_both_and_shows_on_both_profiles(server: ServerProcess) -> None:
    with server.client() as client, sign_up(server) as ana:
        bot_before = rating_of(profile(client, "bot:beginner"))
        created = create_game(client, "tictactoe", [{"kind": "person", "name": ana.name},
                                                     {"kind": "bot", "bot": "beginner"}])
        game_id = created["game_id"]
        own_seat(server.db_path, game_id, 0, ana)
        final = play_out(client, game_id, {0: created["seats"][0]["token"]})
        won = 0 in final["result"]["winners"]

        mine = profile(client, ana.name)
        assert mine["kind"] == "account" and mine["name"] == ana.name
        rating = rating_of(mine)
        assert rating is not None and rating["games"] == 1 and rating["wins"] == int(won)
        assert [point["game_id"] for point in rating["history"]] == [game_id]
        if len(final["result"]["winners"]) == 1:  # a win raises mu, a loss lowers it
            assert (rating["mu"] > 25) == won
        assert mine["games"] == [{"game": "tictactoe", "title": "Tic-tac-toe", "played": 1, "won": int(won)}]
        [recent] = mine["recent"]
        assert recent["game_id"] == game_id and recent["rated"] and recent["replay"] == f"/replay/{game_id}"
        assert recent["rating_before"] == 1000 and recent["rating"] == rating["rating"]

        bot = rating_of(profile(client, "bot:beginner"))
        assert bot is not None
        assert bot["games"] == (bot_before["games"] if bot_before else 0) + 1
        assert bot["history"][-1]["game_id"] == game_id

        board = client.get("/api/leaderboard", params={"game": "tictactoe", "players": 2}).json()
        names = {(entry["name"], entry["kind"]) for entry in board["entries"]}
        assert {(ana.name, "account"), ("beginner", "bot")} <= names
        assert 2 in board["player_counts"]
        ratings = [entry["rating"] for entry in board["entries"]]
        assert ratings == sorted(ratings, reverse=True)


def test_resigning_is_a_loss_whatever_the_stand_in_scores(server: ServerProcess) -> None:
    with server.client() as client, sign_up(server) as ana, sign_up(server) as biel:
        created = create_game(client, "tictactoe", [{"kind": "person", "name": ana.name},
                                                     {"kind": "person", "name": biel.name}])
        game_id = created["game_id"]
        own_seat(server.db_path, game_id, 0, ana)
        own_seat(server.db_path, game_id, 1, biel)
        tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
        resigned = client.post(f"/api/games/{game_id}/resign", headers=seat_headers(tokens[0]))
        assert resigned.status_code == 200, resigned.text
        final = play_out(client, game_id, {1: tokens[1]})
        assert 0 not in final["result"]["winners"]

        loser, winner = rating_of(profile(client, ana.name)), rating_of(profile(client, biel.name))
        assert loser is not None and winner is not None
        assert loser["history"][0]["place"] == 2 and not loser["history"][0]["won"]
        assert winner["history"][0]["place"] == 1 and winner["history"][0]["won"]
        assert winner["mu"] > 25 > loser["mu"]


def test_an_unrated_game_and_a_game_with_a_guest_change_no_rating(server: ServerProcess) -> None:
    with server.client() as client, sign_up(server) as ana, sign_up(server) as biel:
        friendly = create_game(client, "tictactoe", [{"kind": "person"}, {"kind": "person"}], rated=False)
        with_guest = create_game(client, "tictactoe", [{"kind": "person"}, {"kind": "person"}])
        own_seat(server.db_path, friendly["game_id"], 0, ana)
        own_seat(server.db_path, friendly["game_id"], 1, biel)
        own_seat(server.db_path, with_guest["game_id"], 0, ana)  # seat B: a guest
        for created in (friendly, with_guest):
            play_out(client, created["game_id"], {seat["seat"]: seat["token"] for seat in created["seats"]})
        assert client.get(f"/api/games/{friendly['game_id']}").json()["rated"] is False
        rematch = client.post(f"/api/games/{friendly['game_id']}/rematch",
                              headers=seat_headers(friendly["seats"][0]["token"]))
        assert rematch.status_code == 200, rematch.text
        assert client.get(f"/api/games/{rematch.json()['game_id']}").json()["rated"] is False  # kept
        assert client.get(f"/api/games/{with_guest['game_id']}").json()["rated"] is True

        mine = profile(client, ana.name)
        assert mine["ratings"] == []
        assert {game["game_id"] for game in mine["recent"]} == {friendly["game_id"], with_guest["game_id"]}
        assert not any(game["rated"] for game in mine["recent"])
        assert mine["games"][0]["played"] == 2
        assert profile(client, biel.name)["ratings"] == []


def test_unknown_players_and_games_are_refused(server: ServerProcess) -> None:
    with server.client() as client:
        assert client.get("/api/players/nobody-here").status_code == 404
        assert client.get("/api/players/bot:grandmaster").status_code == 404
        assert client.get("/api/players/" + "x" * 81).status_code == 422
        assert client.get("/api/leaderboard", params={"game": "chess"}).status_code == 422
        assert client.get("/api/leaderboard", params={"game": "tictactoe", "players": 99}).status_code == 422
        body = {"game": "tictactoe", "seats": [{}, {}], "rated": "no"}
        assert client.post("/api/games", json=body).status_code == 422


def rating_tables(db_path: Path) -> list[list[tuple[Any, ...]]]:
    with sqlite3.connect(db_path, timeout=30) as connection:
        found = [sorted(connection.execute(f"SELECT * FROM {name}").fetchall())
                 for name in ("ratings", "rating_history")]
    connection.close()
    return found


def test_recompute_gives_what_the_games_gave_as_they_ended(server: ServerProcess) -> None:
    """Last in this file: it recomputes the ratings of the games the tests above played."""
    with server.client() as client, sign_up(server) as ana:
        created = create_game(client, "tictactoe", [{"kind": "bot", "bot": "beginner"},
                                                     {"kind": "person", "name": ana.name}])
        own_seat(server.db_path, created["game_id"], 1, ana)
        play_out(client, created["game_id"], {1: created["seats"][1]["token"]})
    live = rating_tables(server.db_path)
    assert live[1]
    server.stop()
    try:
        answer = CliRunner().invoke(cli, ["ratings", "recompute", "--data-dir", str(server.data_dir)])
        assert answer.exit_code == 0, answer.output
        assert rating_tables(server.db_path) == live
    finally:
        server.start()
