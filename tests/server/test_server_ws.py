"""WebSocket pushes against a real server process: own views, reconnects, races, errors, bots."""

from __future__ import annotations

import json

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.server.harness import ServerProcess, create_game, seat_headers

PEOPLE = [{"kind": "person", "name": "Ana"}, {"kind": "person", "name": "Biel"}]


def test_every_change_reaches_every_seat_as_its_own_view(api: httpx.Client, server: ServerProcess) -> None:
    created = create_game(
        api, "hiddencards", [*PEOPLE, {"kind": "person", "name": "Cesc"}], seed=7, seed_shown=True
    )
    gid = created["game_id"]
    tokens = [seat["token"] for seat in created["seats"]]
    clients = [server.ws(gid, token) for token in tokens]
    spectator = server.ws(gid)
    try:
        first = [client.state() for client in clients]
        assert [message["seat"] for message in first] == [0, 1, 2]
        assert first[0]["your_turn"] and first[0]["legal_actions"]
        assert not first[1]["your_turn"] and first[1]["legal_actions"] == []
        assert all("hand" in message["view"] for message in first)
        watched = spectator.state()
        assert watched["seat"] is None and "hand" not in watched["view"] and watched["legal_actions"] == []

        card = first[0]["view"]["hand"][0]
        clients[0].send({"type": "move", "action": f"play {card}", "expected_move": 0, "request_id": "m1"})
        ack = clients[0].recv_until(lambda m: m["type"] in ("ack", "error"))
        assert ack == {"type": "ack", "request_id": "m1", "move_number": 1}
        for seat, client in enumerate(clients):
            pushed = client.recv_until(lambda m: m["type"] == "state" and m["move_number"] == 1)
            assert pushed["view"]["played"][0] == [card] and pushed["seat"] == seat
            assert pushed["view"]["viewer"] == seat
        pushed = spectator.recv_until(lambda m: m["type"] == "state" and m["move_number"] == 1)
        assert pushed["view"]["played"][0] == [card] and "hand" not in pushed["view"]
    finally:
        for client in [*clients, spectator]:
            client.close()


def test_reconnect_gets_the_full_current_view(api: httpx.Client, server: ServerProcess) -> None:
    created = create_game(api, "tictactoe", PEOPLE)
    gid = created["game_id"]
    ana, biel = (seat["token"] for seat in created["seats"])
    with server.ws(gid, ana) as client:
        state = client.state()
        client.send({"type": "move", "action": "mark 4", "expected_move": state["move_number"]})
        client.recv_until(lambda m: m["type"] == "ack")
    reply = {"action": "mark 0", "expected_move": 1}
    assert api.post(f"/api/games/{gid}/moves", json=reply, headers=seat_headers(biel)).status_code == 200
    with server.ws(gid, ana) as client:
        state = client.state()
        assert state["move_number"] == 2 and state["your_turn"]
        assert state["view"]["board"][:5] == ["O", ".", ".", ".", "X"]
        assert state["view"]["log"] == [
            {"key": "ttt.marks", "args": {"mark": "X", "cell": 4}},
            {"key": "ttt.marks", "args": {"mark": "O", "cell": 0}},
        ]
        assert "mark 4" not in state["legal_actions"] and len(state["legal_actions"]) == 7


def test_two_connections_racing_for_one_decision(api: httpx.Client, server: ServerProcess) -> None:
    created = create_game(api, "tictactoe", PEOPLE)
    gid, ana = created["game_id"], created["seats"][0]["token"]
    with server.ws(gid, ana) as one, server.ws(gid, ana) as two:
        one.state()
        two.state()
        one.send({"type": "move", "action": "mark 0", "expected_move": 0, "request_id": "one"})
        two.send({"type": "move", "action": "mark 8", "expected_move": 0, "request_id": "two"})
        answers = [
            one.recv_until(lambda m: m["type"] in ("ack", "error")),
            two.recv_until(lambda m: m["type"] in ("ack", "error")),
        ]
    kinds = sorted(answer["type"] for answer in answers)
    assert kinds == ["ack", "error"], answers
    error = next(answer for answer in answers if answer["type"] == "error")
    assert error["status"] == 409 and "stale move" in error["error"]
    board = api.get(f"/api/games/{gid}/state").json()["view"]["board"]
    assert board.count("X") == 1


def test_bad_messages_get_errors_and_the_connection_stays(api: httpx.Client, server: ServerProcess) -> None:
    created = create_game(api, "tictactoe", PEOPLE)
    gid, ana, biel = created["game_id"], created["seats"][0]["token"], created["seats"][1]["token"]
    with server.ws(gid, ana) as client:
        client.state()
        client.connection.send("not json")
        error = client.recv_until(lambda m: m["type"] == "error")
        assert error["status"] == 422 and "invalid request" in error["error"]
        client.send({"type": "move", "action": "mark 4"})
        assert "expected_move" in client.recv_until(lambda m: m["type"] == "error")["error"]
        client.send({"type": "move", "action": "mark 9", "expected_move": 0, "request_id": "x"})
        error = client.recv_until(lambda m: m["type"] == "error")
        assert error["status"] == 422 and error["request_id"] == "x" and "illegal action" in error["error"]
        client.send({"type": "undo", "expected_move": 0})
        assert client.recv_until(lambda m: m["type"] == "error")["status"] == 409
        client.send({"type": "ping", "request_id": "p"})
        assert client.recv_until(lambda m: m["type"] == "pong")["request_id"] == "p"
    with server.ws(gid, biel) as client:
        client.state()
        client.send({"type": "move", "action": "mark 4", "expected_move": 0})
        error = client.recv_until(lambda m: m["type"] == "error")
        assert error["status"] == 409 and "not your turn" in error["error"]
    with server.ws(gid) as watcher:
        watcher.state()
        watcher.send({"type": "move", "action": "mark 4", "expected_move": 0})
        error = watcher.recv_until(lambda m: m["type"] == "error")
        assert error["status"] == 401 and "spectators cannot act" in error["error"]
    assert api.get(f"/api/games/{gid}/state").json()["move_number"] == 0


@pytest.mark.parametrize(
    ("path", "hello", "status", "words"),
    [
        ("real", {"type": "hello", "token": "forged"}, 403, "does not belong"),
        ("/ws/games/none", {"type": "hello"}, 404, "no game"),
        ("real", {"type": "move", "action": "mark 0", "expected_move": 0}, 422, "invalid request"),
    ],
)
def test_refused_connections_say_why(
    api: httpx.Client, server: ServerProcess, path: str, hello: dict[str, object], status: int, words: str
) -> None:
    gid = create_game(api, "tictactoe", PEOPLE)["game_id"]
    url = f"{server.ws_url}/ws/games/{gid}" if path == "real" else f"{server.ws_url}{path}"
    with connect(url, open_timeout=10) as connection:
        connection.send(json.dumps(hello))
        message = json.loads(connection.recv(timeout=10))
        assert message["type"] == "error" and message["status"] == status and words in message["error"]
        with pytest.raises(ConnectionClosed):
            connection.recv(timeout=10)


def test_spectator_follows_a_bot_game_to_the_end(api: httpx.Client, server: ServerProcess) -> None:
    created = create_game(api, "tictactoe", [{"kind": "bot", "bot": "random"}] * 2)
    with server.ws(created["game_id"]) as watcher:
        final = watcher.recv_until(lambda m: m["type"] == "state" and m["status"] == "finished")
    assert final["result"]["scores"] in ([1, 0], [0, 1], [0, 0])
    assert len(final["score_history"]) == final["move_number"] + 1
    assert final["seats"][0]["connected"] and final["seats"][0]["kind"] == "bot"


def test_presence_is_pushed(api: httpx.Client, server: ServerProcess) -> None:
    created = create_game(api, "tictactoe", PEOPLE)
    gid = created["game_id"]
    with server.ws(gid, created["seats"][0]["token"]) as ana:
        assert [seat["connected"] for seat in ana.state()["seats"]] == [True, False]
        with server.ws(gid, created["seats"][1]["token"]):
            joined = ana.recv_until(lambda m: m["type"] == "presence" and m["seats"][1]["connected"])
            assert joined["status"] == "running" and set(joined) == {"type", "game_id", "status", "seats"}
        left = ana.recv_until(lambda m: m["type"] == "presence" and not m["seats"][1]["connected"])
        assert left["seats"][1]["joined"]
        # presence is never a full view: nobody's state message was pushed for it
        assert all(json.loads(text)["type"] != "state" for text in ana.received[1:])
