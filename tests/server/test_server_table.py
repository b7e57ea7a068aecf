"""Around the table over the API: chat, resign, leave and take back, the turn clock, rematches."""

from __future__ import annotations

from typing import Any

import httpx

from tests.server.harness import ServerProcess, create_claimed_game, seat_headers, wait_for

PEOPLE = [{"kind": "person", "name": "Ana"}, {"kind": "person", "name": "Biel"}]


def table_of(api: httpx.Client, game_id: str) -> dict[str, Any]:
    response = api.get(f"/api/games/{game_id}/table")
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def say(api: httpx.Client, game_id: str, token: str | None, text: Any) -> httpx.Response:
    headers = seat_headers(token) if token else {}
    return api.post(f"/api/games/{game_id}/chat", json={"text": text}, headers=headers)


def post(api: httpx.Client, game_id: str, what: str, token: str) -> httpx.Response:
    return api.post(f"/api/games/{game_id}/{what}", headers=seat_headers(token))


def test_chat_is_stored_with_the_seat_name_and_kept_as_sent(api: httpx.Client) -> None:
    created = create_claimed_game(api, "tictactoe", PEOPLE)
    game_id, ana = created["game_id"], created["seats"][0]["token"]
    response = say(api, game_id, ana, "<b>hola</b> & bon joc")
    assert response.status_code == 201, response.text
    line = response.json()
    assert (line["name"], line["letter"], line["kind"]) == ("Ana", "A", "chat")
    lines = table_of(api, game_id)["lines"]
    assert [entry["text"] for entry in lines] == ["<b>hola</b> & bon joc"]


def test_chat_limits_length_type_spectators_and_rate(api: httpx.Client) -> None:
    created = create_claimed_game(api, "tictactoe", PEOPLE)
    game_id, biel = created["game_id"], created["seats"][1]["token"]
    assert say(api, game_id, biel, "x" * 501).status_code == 422
    assert say(api, game_id, biel, "").status_code == 422
    assert say(api, game_id, biel, 5).status_code == 422
    assert say(api, game_id, biel, "   ").status_code == 422
    assert say(api, game_id, None, "I only watch").status_code == 401
    assert say(api, game_id, "not-a-token", "hi").status_code == 403
    big = api.post(f"/api/games/{game_id}/chat", content=b"x" * 70_000, headers=seat_headers(biel))
    assert big.status_code == 413
    statuses = [say(api, game_id, biel, f"line {n}").status_code for n in range(21)]
    assert statuses[:20] == [201] * 20 and statuses[20] == 429
    assert len(table_of(api, game_id)["lines"]) == 20


def test_chat_over_the_websocket_reaches_spectators_who_cannot_speak(
    api: httpx.Client, server: ServerProcess
) -> None:
    created = create_claimed_game(api, "tictactoe", PEOPLE)
    game_id, ana = created["game_id"], created["seats"][0]["token"]
    with server.ws(game_id, ana) as player, server.ws(game_id) as spectator:
        spectator.state()
        player.state()
        player.send({"type": "chat", "text": "bon dia", "request_id": "c1"})
        heard = spectator.recv_until(lambda m: m["type"] == "chat")
        assert heard["lines"][0]["text"] == "bon dia" and heard["lines"][0]["name"] == "Ana"
        assert player.recv_until(lambda m: m["type"] == "ack")["request_id"] == "c1"
        spectator.send({"type": "chat", "text": "me too", "request_id": "c2"})
        error = spectator.recv_until(lambda m: m["type"] == "error")
        assert error["status"] == 401
        player.send({"type": "chat", "text": "y" * 501})
        assert player.recv_until(lambda m: m["type"] == "error")["status"] == 422
    assert [line["text"] for line in table_of(api, game_id)["lines"]] == ["bon dia"]
    with server.ws(game_id) as late:  # someone arriving is greeted with the table's lines
        late.state()
        greeting = late.recv_until(lambda m: m["type"] == "table")
        assert [line["text"] for line in greeting["lines"]] == ["bon dia"] and not greeting["change"]


def test_resign_hands_the_seat_to_a_bot_for_good(api: httpx.Client) -> None:
    created = create_claimed_game(api, "tictactoe", PEOPLE)
    game_id, ana, biel = created["game_id"], created["seats"][0]["token"], created["seats"][1]["token"]
    response = post(api, game_id, "resign", ana)
    assert response.status_code == 200, response.text
    assert response.json()["stand_ins"] == [{"seat": 0, "why": "resigned"}]
    # the stand-in plays Ana's turn; Biel plays on
    wait_for(lambda: api.get(f"/api/games/{game_id}").json()["move_number"] == 1, what="the stand-in's move")
    assert post(api, game_id, "resign", ana).status_code == 409
    assert post(api, game_id, "take-back", ana).status_code == 409
    moved = api.post(
        f"/api/games/{game_id}/moves",
        json={"action": "mark 1", "expected_move": 1},
        headers=seat_headers(ana),
    )
    assert moved.status_code == 409 and "take it back" in moved.json()["error"]
    events = [(line["kind"], line["text"], line["seat"]) for line in table_of(api, game_id)["lines"]]
    assert events == [("event", "resigned", 0)]
    assert post(api, game_id, "resign", "nobody").status_code == 403
    assert api.post(f"/api/games/{game_id}/resign").status_code == 401
    assert biel


def test_a_resigned_seat_never_wins_even_when_its_stand_in_scores_most(new_server: Any) -> None:
    server = new_server().start()
    with server.client() as api:
        created = create_claimed_game(api, "tictactoe", PEOPLE)
        game_id = created["game_id"]
        tokens = [seat["token"] for seat in created["seats"]]
        # X: 0 2 5 7, O: 1 3 4 6; then X's only cell, 8, wins (2-5-8) for whoever plays it
        for move, cell in enumerate([0, 1, 2, 3, 5, 4, 7, 6]):
            moved = api.post(
                f"/api/games/{game_id}/moves",
                json={"action": f"mark {cell}", "expected_move": move},
                headers=seat_headers(tokens[move % 2]),
            )
            assert moved.status_code == 200, moved.text
        assert post(api, game_id, "resign", tokens[0]).status_code == 200
        wait_for(
            lambda: api.get(f"/api/games/{game_id}").json()["status"] == "finished", what="the stand-in's win"
        )

        def winners_shown() -> list[list[int]]:
            listed = [game for game in api.get("/api/games").json()["games"] if game["game_id"] == game_id]
            return [
                listed[0]["result"]["winners"],
                api.get(f"/api/games/{game_id}").json()["result"]["winners"],
                api.get(f"/api/games/{game_id}/state").json()["result"]["winners"],
                api.get(f"/api/games/{game_id}/record").json()["result"]["winners"],
                api.get(f"/api/games/{game_id}/replay", params={"step": 9}).json()["result"]["winners"],
            ]

        assert api.get(f"/api/games/{game_id}").json()["result"]["scores"] == [1, 0]
        assert winners_shown() == [[1]] * 5
        # what is stored stays as the game ended; the rule is applied when it is read
        stored = [row for row in server.db_dump()["games"] if game_id in row]
        assert len(stored) == 1 and '"winners": [0]' in repr(stored[0]).replace("'", "")
        server.kill9()
        server.start()
        assert winners_shown() == [[1]] * 5


def test_leave_and_take_back(api: httpx.Client) -> None:
    created = create_claimed_game(api, "tictactoe", PEOPLE)
    game_id, ana = created["game_id"], created["seats"][0]["token"]
    assert post(api, game_id, "take-back", ana).status_code == 409
    assert post(api, game_id, "leave", ana).status_code == 200
    assert post(api, game_id, "leave", ana).status_code == 409
    wait_for(lambda: api.get(f"/api/games/{game_id}").json()["move_number"] == 1, what="the stand-in's move")
    back = post(api, game_id, "take-back", ana)
    assert back.status_code == 200 and back.json()["stand_ins"] == []
    texts = [line["text"] for line in table_of(api, game_id)["lines"]]
    assert texts == ["left", "back"]


def test_clock_runs_out_and_survives_a_restart(new_server: Any) -> None:
    server = new_server().start()
    with server.client() as api:
        created = create_claimed_game(api, "tictactoe", PEOPLE, clock_seconds=3)
        game_id, ana = created["game_id"], created["seats"][0]["token"]
        table = table_of(api, game_id)
        assert table["clock_seconds"] == 3 and table["deadline"] is not None
        server.kill9()
        server.start()
        wait_for(
            lambda: table_of(api, game_id)["stand_ins"] == [{"seat": 0, "why": "clock"}],
            timeout=10,
            what="the clock to run out after the restart",
        )
        wait_for(
            lambda: api.get(f"/api/games/{game_id}").json()["move_number"] >= 1, what="the stand-in's move"
        )
        assert [line["text"] for line in table_of(api, game_id)["lines"]] == ["clock"]
        assert post(api, game_id, "take-back", ana).status_code == 200
        bad = api.post("/api/games", json={"game": "tictactoe", "seats": PEOPLE, "clock_seconds": 0})
        assert bad.status_code == 422
        bad = api.post("/api/games", json={"game": "tictactoe", "seats": PEOPLE, "clock_seconds": "60"})
        assert bad.status_code == 422


def test_rematch_keeps_seats_and_claims_them(api: httpx.Client) -> None:
    seats = [{"kind": "person", "name": "Ana"}, {"kind": "bot", "bot": "random", "name": "Robot"}]
    created = create_claimed_game(api, "tictactoe", seats)
    game_id, ana = created["game_id"], created["seats"][0]["token"]
    assert post(api, game_id, "rematch", ana).status_code == 409
    expected = 0
    while api.get(f"/api/games/{game_id}").json()["status"] != "finished":
        state = api.get(f"/api/games/{game_id}/state", headers=seat_headers(ana)).json()
        if state["your_turn"]:
            api.post(
                f"/api/games/{game_id}/moves",
                json={"action": state["legal_actions"][0], "expected_move": state["move_number"]},
                headers=seat_headers(ana),
            )
        expected += 1
        assert expected < 400
    first = post(api, game_id, "rematch", ana)
    assert first.status_code == 200, first.text
    again = post(api, game_id, "rematch", ana).json()
    assert again == first.json()
    new = first.json()
    summary = api.get(f"/api/games/{new['game_id']}").json()
    assert [(s["kind"], s["name"], s["claimed"]) for s in summary["seats"]] == [
        ("person", "Ana", True),
        ("bot", "Robot", False),
    ]
    state = api.get(f"/api/games/{new['game_id']}/state", headers=seat_headers(new["token"]))
    assert state.status_code == 200 and state.json()["seat"] == 0
    assert table_of(api, game_id)["rematch"] == new["game_id"]
    assert post(api, game_id, "rematch", "nobody").status_code == 403


def test_chat_per_address_rate_and_a_full_chat(new_server: Any) -> None:
    limits = {"chat_per_address_minute": 3, "chat_lines_per_game": 2, "games_per_minute": 100}
    server = new_server(limits=limits).start()
    with server.client() as api:
        first = create_claimed_game(api, "tictactoe", PEOPLE)
        second = create_claimed_game(api, "tictactoe", PEOPLE)
        ana = first["seats"][0]["token"]
        assert say(api, first["game_id"], ana, "one").status_code == 201
        assert say(api, first["game_id"], ana, "two").status_code == 201
        full = say(api, first["game_id"], ana, "three")
        assert full.status_code == 409 and "full" in full.json()["error"]
        other = second["seats"][1]["token"]
        assert say(api, second["game_id"], other, "hello").status_code == 201
        limited = say(api, second["game_id"], other, "again")
        assert limited.status_code == 429 and int(limited.headers["Retry-After"]) >= 1
        assert [line["text"] for line in table_of(api, second["game_id"])["lines"]] == ["hello"]
