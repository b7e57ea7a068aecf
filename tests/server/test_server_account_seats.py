"""Seats that follow the player (server/seats.py): a signed-in player's seats belong to the
account, and its session acts for them on any device; a guest who signs in keeps the seats its
browser held; "my games"; seats named for accounts at creation; the lobby's filters."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from tests.server.harness import GENEROUS_LIMITS, ServerProcess, WsClient, create_game, seat_headers
from tests.server.signin import SignedInClient, sign_in, sign_up

COOKIE = "eixample_session"
BOT = {"kind": "bot", "bot": "random"}


@pytest.fixture()
def ana(server: ServerProcess) -> Iterator[SignedInClient]:
    with sign_up(server, None) as client:
        yield client


@pytest.fixture()
def biel(server: ServerProcess) -> Iterator[SignedInClient]:
    with sign_up(server, None) as client:
        yield client


def duel(creator: httpx.Client, first: str, second: str, **extra: Any) -> dict[str, Any]:
    """A tic-tac-toe game whose two seats belong to the accounts `first` and `second`."""
    seats = [{"kind": "person", "account": first}, {"kind": "person", "account": second}]
    answer = creator.post("/api/games", json={"game": "tictactoe", "seats": seats, **extra})
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def seat_of(client: httpx.Client, gid: str, token: str | None = None) -> int | None:
    answer = client.get(f"/api/games/{gid}/state", headers=seat_headers(token) if token else {})
    assert answer.status_code == 200, answer.text
    seat: int | None = answer.json()["seat"]
    return seat


def move(
    client: httpx.Client, gid: str, action: str, expected: int, token: str | None = None
) -> httpx.Response:
    body = {"action": action, "expected_move": expected}
    return client.post(f"/api/games/{gid}/moves", json=body, headers=seat_headers(token) if token else {})


def first_seat_wins(gid: str, first: httpx.Client, second: httpx.Client) -> None:
    """Play a tic-tac-toe game to its end, seat A winning on the top row."""
    for number, (player, action) in enumerate(
        [(first, "mark 0"), (second, "mark 3"), (first, "mark 1"), (second, "mark 4"), (first, "mark 2")]
    ):
        assert move(player, gid, action, number).status_code == 200


def owner_ids(server: ServerProcess, gid: str) -> list[str | None]:
    seats = [row for row in server.db_dump()["seats"] if row[0] == gid]
    columns = _seat_columns(server)
    return [row[columns.index("account_id")] for row in sorted(seats, key=lambda row: row[1])]


def _seat_columns(server: ServerProcess) -> list[str]:
    import sqlite3

    with sqlite3.connect(server.db_path) as db:
        return [row[1] for row in db.execute("PRAGMA table_info(seats)")]


def ws_signed_in(server: ServerProcess, gid: str, client: SignedInClient) -> WsClient:
    cookie = {"Cookie": f"{COOKIE}={client.session_id}"}
    return WsClient(f"{server.ws_url}/ws/games/{gid}", None, headers=cookie)


# -- seats named for accounts, played from any device ------------------------------------------


def test_a_seat_named_for_an_account_is_played_by_its_session_on_any_device(
    server: ServerProcess, ana: SignedInClient, biel: SignedInClient
) -> None:
    created = duel(ana, ana.name, biel.name)
    gid = created["game_id"]
    assert [seat["token"] for seat in created["seats"]] == [None, None]  # no invitation to leak
    assert [seat["link"] for seat in created["seats"]] == [None, None]
    assert [seat["name"] for seat in created["seats"]] == [ana.name, biel.name]
    assert owner_ids(server, gid) == [ana.account["id"], biel.account["id"]]

    with sign_in(server, ana.name) as phone, server.client() as guest:
        assert seat_of(ana, gid) == 0 and seat_of(phone, gid) == 0 and seat_of(biel, gid) == 1
        assert seat_of(guest, gid) is None  # a spectator
        refused = move(guest, gid, "mark 4", 0)
        assert refused.status_code == 401
        assert move(biel, gid, "mark 4", 0).status_code == 409  # not Biel's turn
        with ws_signed_in(server, gid, ana) as laptop:
            first = laptop.state()
            assert first["seat"] == 0 and first["your_turn"]
            played = move(phone, gid, "mark 4", 0)  # the phone plays; the laptop sees it
            assert played.status_code == 200, played.text
            assert played.json()["seat"] == 0 and played.json()["move_number"] == 1
            seen = laptop.recv_until(lambda m: m["type"] in ("state", "patch") and m.get("version", 0) > 0)
            assert seen["type"] in ("state", "patch")
        with ws_signed_in(server, gid, biel) as table:
            assert table.state()["seat"] == 1
            table.send({"type": "move", "action": "mark 0", "expected_move": 1, "request_id": "b1"})
            assert table.recv_until(lambda m: m.get("request_id") == "b1")["type"] == "ack"
        assert guest.get(f"/api/games/{gid}").json()["move_number"] == 2


def test_two_devices_racing_for_one_decision_apply_exactly_one_move(
    server: ServerProcess, ana: SignedInClient, biel: SignedInClient
) -> None:
    with sign_in(server, ana.name) as phone:
        for _ in range(5):
            gid = duel(ana, ana.name, biel.name)["game_id"]
            answers: list[int] = []
            start = threading.Barrier(2)

            def play(
                device: httpx.Client, action: str, gid: str = gid, start: threading.Barrier = start,
                answers: list[int] = answers,
            ) -> None:
                start.wait()
                answers.append(move(device, gid, action, 0).status_code)

            threads = [threading.Thread(target=play, args=(device, action))
                       for device, action in ((ana, "mark 4"), (phone, "mark 0"))]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert sorted(answers) == [200, 409]
            actions = [row for row in server.db_dump()["actions"] if row[0] == gid]
            assert len(actions) == 1
            assert ana.get(f"/api/games/{gid}").json()["move_number"] == 1


def test_claiming_or_joining_signed_in_gives_the_seat_to_the_account(
    server: ServerProcess, api: httpx.Client, ana: SignedInClient, biel: SignedInClient
) -> None:
    seats = [{"kind": "person", "name": "Ana"}, {"kind": "person", "name": "Biel", "open": True}]
    created = create_game(api, "tictactoe", seats, invitations=True)
    gid, invitation = created["game_id"], created["seats"][0]["token"]
    claimed = ana.post(f"/api/games/{gid}/claim", headers=seat_headers(invitation))
    assert claimed.status_code == 200, claimed.text
    joined = biel.post(f"/api/games/{gid}/seats/1/join")
    assert joined.status_code == 200, joined.text
    assert owner_ids(server, gid) == [ana.account["id"], biel.account["id"]]
    with sign_in(server, ana.name) as phone:
        assert seat_of(phone, gid) == 0  # another device, no token
        assert move(phone, gid, "mark 4", 0).status_code == 200
    # the private tokens keep working as for a guest
    assert move(api, gid, "mark 0", 1, joined.json()["token"]).status_code == 200
    assert seat_of(api, gid, claimed.json()["token"]) == 0


def test_a_guest_seat_stays_a_guests_and_a_token_wins_over_the_session(
    server: ServerProcess, api: httpx.Client, ana: SignedInClient
) -> None:
    created = create_game(api, "tictactoe", [{"kind": "person"}, {"kind": "person"}])
    gid, token = created["game_id"], created["seats"][1]["token"]
    assert owner_ids(server, gid) == [None, None]
    assert seat_of(ana, gid) is None  # a stranger's session acts for no seat
    assert move(ana, gid, "mark 4", 0).status_code == 401
    assert seat_of(ana, gid, token) == 1  # a token sent is used as before


# -- a guest who signs in keeps the browser's seats ---------------------------------------------


def test_a_guest_who_signs_up_keeps_the_seats_its_browser_held(
    server: ServerProcess, api: httpx.Client, biel: SignedInClient
) -> None:
    two = create_game(api, "tictactoe", [{"kind": "person"}, {"kind": "person"}])
    solo = create_game(api, "tictactoe", [{"kind": "person"}, BOT])
    pending = create_game(api, "tictactoe", [{"kind": "person"}, {"kind": "person"}], invitations=True)
    held = [
        {"game_id": two["game_id"], "token": two["seats"][1]["token"]},  # a claimed seat's private token
        {"game_id": solo["game_id"], "token": solo["seats"][0]["token"]},  # the only person's seat
        {"game_id": pending["game_id"], "token": pending["seats"][0]["token"]},  # an unclaimed invitation
        {"game_id": two["game_id"], "token": "forged"},
        {"game_id": "nosuchgame", "token": "forged"},
    ]
    with sign_up(server) as newcomer:
        answer = newcomer.post("/api/me/seats", json={"seats": held})
        assert answer.status_code == 200, answer.text
        given = answer.json()
        kept = [{"game_id": two["game_id"], "seat": 1}, {"game_id": solo["game_id"], "seat": 0}]
        assert given["given"] == kept
        assert [entry["reason"] for entry in given["refused"]] == ["token", "token", "token"]
        assert owner_ids(server, two["game_id"]) == [None, newcomer.account["id"]]
        assert owner_ids(server, pending["game_id"]) == [None, None]
        with sign_in(server, newcomer.name) as phone:
            assert seat_of(phone, two["game_id"]) == 1
        # the same again: nothing changes; another account cannot take them
        again = newcomer.post("/api/me/seats", json={"seats": held[:1]}).json()
        assert again["given"] == [{"game_id": two["game_id"], "seat": 1}]
        stolen = biel.post("/api/me/seats", json={"seats": held[:2]}).json()
        assert stolen["given"] == []
        assert [entry["reason"] for entry in stolen["refused"]] == ["owned", "owned"]
        # an account holds one seat of a game
        other = {"game_id": two["game_id"], "token": two["seats"][0]["token"]}
        second = newcomer.post("/api/me/seats", json={"seats": [other]}).json()
        assert second["refused"][0]["reason"] == "owned"
        too_many = newcomer.post("/api/me/seats", json={"seats": held[:1] * 51})
        assert too_many.status_code == 422
    assert api.post("/api/me/seats", json={"seats": held[:1]}).status_code == 401  # a guest


# -- my games -------------------------------------------------------------------------------------


def test_my_games_lists_your_turn_first_then_running_then_finished(
    server: ServerProcess, ana: SignedInClient, biel: SignedInClient
) -> None:
    finished = duel(ana, ana.name, biel.name)["game_id"]
    first_seat_wins(finished, ana, biel)
    mine = duel(ana, ana.name, biel.name)["game_id"]  # Ana's turn
    theirs = duel(ana, biel.name, ana.name)["game_id"]  # Biel's turn
    listed = ana.get("/api/me/games")
    assert listed.status_code == 200, listed.text
    body = listed.json()
    assert body["account"] == ana.name
    games = {game["game_id"]: game for game in body["games"]}
    assert [game["game_id"] for game in body["games"]] == [mine, theirs, finished]
    assert games[mine]["your_turn"] and games[mine]["seat"] == 0
    assert not games[theirs]["your_turn"] and games[theirs]["seat"] == 1
    assert games[finished]["status"] == "finished" and games[finished]["result"]["winners"] == [0]
    assert games[finished]["links"] == {
        "watch": f"/play/{finished}", "replay": f"/replay/{finished}", "play": f"/play/{finished}"}
    biel_games = [game["game_id"] for game in biel.get("/api/me/games").json()["games"]]
    assert biel_games == [theirs, mine, finished]
    with httpx.Client(base_url=server.url) as guest:
        assert guest.get("/api/me/games").status_code == 401
    assert ana.get("/api/me/games?limit=1").json()["games"][0]["game_id"] == mine


# -- naming accounts at creation ----------------------------------------------------------------


def test_naming_an_unknown_or_a_doubled_account_is_refused_and_changes_nothing(
    server: ServerProcess, api: httpx.Client, ana: SignedInClient
) -> None:
    before = server.settled_dump()
    seats = [{"account": ana.name}, {"account": "nobody has this name"}]
    unknown = ana.post("/api/games", json={"game": "tictactoe", "seats": seats})
    assert unknown.status_code == 422
    assert unknown.json()["code"] == "account_unknown"
    assert unknown.json()["args"] == {"name": "nobody has this name"}
    seats = [{"account": ana.name}, {"account": ana.name.upper()}]
    twice = ana.post("/api/games", json={"game": "tictactoe", "seats": seats})
    assert twice.status_code == 422 and twice.json()["code"] == "account_twice"
    guest = api.post("/api/games", json={"game": "tictactoe", "seats": [{"account": ana.name}, BOT]})
    assert guest.status_code == 401 and guest.json()["code"] == "not_signed_in"
    for seat in ({"kind": "bot", "bot": "random", "account": ana.name}, {"account": ana.name, "open": True}):
        assert ana.post("/api/games", json={"game": "tictactoe", "seats": [seat, BOT]}).status_code == 422
    assert server.db_dump() == before


def test_unknown_names_are_throttled_like_failed_sign_ins(new_server: Callable[..., ServerProcess]) -> None:
    limits = {**GENEROUS_LIMITS, "signin_failures_per_address_minute": 2}
    server = new_server(limits=limits).start()
    with sign_up(server) as ana, sign_up(server) as biel:
        def create(name: str) -> httpx.Response:
            seats = [{"account": ana.name}, {"account": name}]
            return ana.post("/api/games", json={"game": "tictactoe", "seats": seats})

        assert create(biel.name).status_code == 201  # known names cost nothing
        assert [create(f"ghost{n}").status_code for n in range(2)] == [422, 422]
        throttled = create(biel.name)
        assert throttled.status_code == 429 and int(throttled.headers["Retry-After"]) >= 1
        assert create("ghost9").status_code == 429


# -- the lobby's filters --------------------------------------------------------------------------


def test_the_lobby_filters_games_by_game_players_and_speed(api: httpx.Client) -> None:
    people = [{"kind": "person"}, {"kind": "person"}]
    # an hour's clock: it never runs out on the shared test server
    timed = create_game(api, "tictactoe", people, invitations=True, clock_seconds=3600)["game_id"]
    untimed = create_game(api, "tictactoe", people, invitations=True)["game_id"]

    def listed(query: str) -> set[str]:
        answer = api.get(f"/api/games?status=open&{query}")
        assert answer.status_code == 200, answer.text
        return {game["game_id"] for game in answer.json()["games"]}

    assert {timed, untimed} <= listed("game=tictactoe&players=2")
    assert not {timed, untimed} & listed("game=barcelona")
    assert not {timed, untimed} & listed("game=tictactoe&players=3")
    assert timed in listed("speed=3600") and untimed not in listed("speed=3600")
    assert timed in listed("speed=clock") and untimed not in listed("speed=clock")
    assert untimed in listed("speed=none") and timed not in listed("speed=none")
    untimed_games = api.get("/api/games?status=open&speed=none").json()["games"]
    assert all(game["status"] == "open" for game in untimed_games)
    assert api.get("/api/games?speed=fast").status_code == 422
    assert api.get("/api/games?players=0").status_code == 422


def test_a_rematch_keeps_the_seats_accounts(
    server: ServerProcess, ana: SignedInClient, biel: SignedInClient
) -> None:
    gid = duel(ana, ana.name, biel.name)["game_id"]
    first_seat_wins(gid, ana, biel)
    rematch = biel.post(f"/api/games/{gid}/rematch")  # by the account's session, no token
    assert rematch.status_code == 200, rematch.text
    new = rematch.json()["game_id"]
    assert owner_ids(server, new) == [ana.account["id"], biel.account["id"]]
    assert new in {game["game_id"] for game in ana.get("/api/me/games").json()["games"]}
    with sign_in(server, ana.name) as phone:
        assert seat_of(phone, new) == 0


def _rate(server: ServerProcess, account_id: str, game: str, players: int, shown: int) -> None:
    """Give an account a rating, as finished rated games would have (written to the file)."""
    connection = sqlite3.connect(server.db_path)
    try:
        with connection:
            connection.execute(
                "INSERT INTO ratings (player, game, players, mu, sigma, shown, games, wins, updated_at) "
                "VALUES (?, ?, ?, 30.0, 4.0, ?, 5, 3, '2026-01-01 00:00:00')",
                (f"account:{account_id}", game, players, shown),
            )
    finally:
        connection.close()


def test_the_lobby_filters_open_games_by_the_table_rating(
    server: ServerProcess, api: httpx.Client, ana: SignedInClient, biel: SignedInClient
) -> None:
    def seats(owner: str | None) -> list[dict[str, Any]]:
        first = {"kind": "person", "account": owner} if owner else {"kind": "person"}
        return [first, {"kind": "person", "open": True}]

    _rate(server, ana.account["id"], "tictactoe", 2, 1460)
    rated = ana.post("/api/games", json={"game": "tictactoe", "seats": seats(ana.name)})
    newcomer = biel.post("/api/games", json={"game": "tictactoe", "seats": seats(biel.name)})
    guests = api.post("/api/games", json={"game": "tictactoe", "seats": seats(None)})
    assert {rated.status_code, newcomer.status_code, guests.status_code} == {201}, rated.text
    ids = [answer.json()["game_id"] for answer in (rated, newcomer, guests)]

    def listed(query: str) -> list[str]:
        answer = api.get(f"/api/games?status=open&game=tictactoe&{query}")
        assert answer.status_code == 200, answer.text
        return [gid for gid in ids if gid in {game["game_id"] for game in answer.json()["games"]}]

    assert listed("players=2") == ids
    assert listed("min_rating=1400") == ids[:1]
    assert listed("min_rating=900&max_rating=1100") == ids[1:2]  # a newcomer counts as 1000
    assert listed("max_rating=1500") == ids[:2]  # a table without accounts has no rating
    assert listed("min_rating=1461") == []
    assert api.get("/api/games?min_rating=-1").status_code == 422
    assert api.get("/api/games?max_rating=10001").status_code == 422
