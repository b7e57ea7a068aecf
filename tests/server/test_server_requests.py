"""Hostile requests against a real server process: sizes, types, host names, origins, rates.

Each refusal is JSON with a clear message, quotes at most a short prefix of the input, and
changes nothing in the database."""

from __future__ import annotations

import json
import socket
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from tests.server.harness import ServerProcess, create_game, seat_headers

PEOPLE = [{"kind": "person", "name": "Ana"}, {"kind": "person", "name": "Biel"}]


def assert_error(response: httpx.Response, status: int, *words: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body: dict[str, Any] = response.json()
    assert set(body) == {"error", "code", "args"}, body
    for word in words:
        assert word in body["error"], body["error"]
    return body


# -- 3. sizes -------------------------------------------------------------------------------------


def _read_answer(sock: socket.socket) -> str:
    """One whole HTTP answer: its head, then as many body bytes as its Content-Length says."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(4096)
        if not chunk:
            break
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n"):
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    while len(body) < length:
        chunk = sock.recv(4096)
        if not chunk:
            break
        body += chunk
    return (head + b"\r\n\r\n" + body).decode()


def test_a_large_body_is_refused_with_413_before_it_is_read(server: ServerProcess) -> None:
    # headers announce 50 MB and no byte of the body follows: the answer comes at once
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(
            b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: 50000000\r\n\r\n"
        )
        answer = _read_answer(sock)
    head, _, body = answer.partition("\r\n\r\n")
    assert head.startswith("HTTP/1.1 413"), head
    assert "larger than 65536 bytes" in json.loads(body)["error"]


def test_a_streamed_body_is_cut_off_at_the_limit(api: httpx.Client, server: ServerProcess) -> None:
    before = server.db_dump()

    def chunks() -> Any:
        yield b'{"game": "tictactoe", "seats": [{}, {}], "options": {"x": "'
        for _ in range(100):
            yield b"a" * 1024
        yield b'"}}'

    response = api.post("/api/games", content=chunks(), headers={"content-type": "application/json"})
    assert "content-length" not in response.request.headers
    assert_error(response, 413, "larger than")
    padded = {"game": "tictactoe", "seats": PEOPLE, "options": {"x": "a" * 70_000}}
    assert_error(api.post("/api/games", json=padded), 413)
    assert server.db_dump() == before


def test_a_large_websocket_message_gets_an_error_and_a_clean_close(
    api: httpx.Client, server: ServerProcess
) -> None:
    created = create_game(api, "tictactoe", PEOPLE)
    gid, token = created["game_id"], created["seats"][0]["token"]
    with server.ws(gid, token) as client:
        client.state()
        client.send({"type": "move", "action": "x" * 70_000, "expected_move": 0})
        error = client.recv_until(lambda m: m["type"] == "error")
        assert error["status"] == 413 and "at most 65536 bytes" in error["error"]
        with pytest.raises(ConnectionClosed) as closed:
            client.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    # an oversized hello is refused the same way
    with connect(f"{server.ws_url}/ws/games/{gid}", open_timeout=10) as connection:
        connection.send(json.dumps({"type": "hello", "token": "t" * 70_000}))
        assert json.loads(connection.recv(timeout=10))["status"] == 413
        with pytest.raises(ConnectionClosed):
            connection.recv(timeout=10)


def test_texts_are_length_checked_and_errors_quote_a_short_prefix(
    api: httpx.Client, server: ServerProcess
) -> None:
    created = create_game(api, "tictactoe", PEOPLE)
    gid, token = created["game_id"], created["seats"][0]["token"]
    before = server.db_dump()
    long_action = "mark " + "9" * 450
    body = assert_error(
        api.post(f"/api/games/{gid}/moves", json={"action": long_action, "expected_move": 0},
                 headers=seat_headers(token)),
        422, "illegal action",
    )
    assert long_action not in body["error"] and len(body["error"]) < 300
    too_long = {"action": "m" * 501, "expected_move": 0}
    refused = api.post(f"/api/games/{gid}/moves", json=too_long, headers=seat_headers(token))
    assert_error(refused, 422, "action")
    assert_error(api.post("/api/games", json={"game": "tictactoe", "seats": [{"name": "N" * 41}, {}]}),
                 422, "seats.0.name")
    path = "/api/" + "p" * 2000
    assert len(assert_error(api.get(path), 404, "not found")["error"]) < 200
    bad_option = {"game": "tictactoe", "seats": PEOPLE, "options": {"o" * 300: 1}}
    assert len(assert_error(api.post("/api/games", json=bad_option), 422, "unknown option")["error"]) < 300
    assert server.db_dump() == before


# -- 4. strict types ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"action": "mark 0", "expected_move": "0"}, ["expected_move", "integer"]),
        ({"action": "mark 0", "expected_move": 0.0}, ["expected_move", "integer"]),
        ({"action": "mark 0", "expected_move": False}, ["expected_move", "integer"]),
        ({"action": 0, "expected_move": 0}, ["action", "string"]),
        ({"action": "mark 0", "expected_move": 0, "comment": "hi"}, ["comment", "Extra inputs"]),
    ],
)
def test_move_bodies_are_never_coerced(
    api: httpx.Client, server: ServerProcess, body: dict[str, Any], words: list[str]
) -> None:
    created = create_game(api, "tictactoe", PEOPLE)
    gid, token = created["game_id"], created["seats"][0]["token"]
    before = server.db_dump()
    assert_error(api.post(f"/api/games/{gid}/moves", json=body, headers=seat_headers(token)), 422, *words)
    undo = {key: value for key, value in body.items() if key != "action"}
    if undo != {"expected_move": 0}:
        assert_error(api.post(f"/api/games/{gid}/undo", json=undo, headers=seat_headers(token)), 422)
    assert server.db_dump() == before


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ({"seed": "42", "seed_shown": True}, ["seed", "integer"]),
        ({"seed": 4.0, "seed_shown": True}, ["seed", "integer"]),
        ({"seed": True, "seed_shown": True}, ["seed", "integer"]),
        ({"seed_shown": "yes"}, ["seed_shown", "boolean"]),
        ({"seats": [{"kind": "person", "colour": "red"}, {}]}, ["seats.0.colour", "Extra inputs"]),
        ({"seats": [{"kind": "person", "name": 7}, {}]}, ["seats.0.name", "string"]),
    ],
)
def test_create_bodies_are_never_coerced(
    api: httpx.Client, server: ServerProcess, extra: dict[str, Any], words: list[str]
) -> None:
    before = server.db_dump()
    body = {"game": "tictactoe", "seats": PEOPLE, **extra}
    assert_error(api.post("/api/games", json=body), 422, *words)
    assert server.db_dump() == before


def test_websocket_messages_are_never_coerced(api: httpx.Client, server: ServerProcess) -> None:
    created = create_game(api, "tictactoe", PEOPLE)
    gid, token = created["game_id"], created["seats"][0]["token"]
    with server.ws(gid, token) as client:
        client.state()
        client.send({"type": "move", "action": "mark 0", "expected_move": "0"})
        error = client.recv_until(lambda m: m["type"] == "error")
        assert error["status"] == 422 and "expected_move" in error["error"]
        client.send({"type": "ping", "request_id": 5})
        assert client.recv_until(lambda m: m["type"] == "error")["status"] == 422
    assert api.get(f"/api/games/{gid}/state").json()["move_number"] == 0


# -- 5. host names and origins ----------------------------------------------------------------------


def test_only_the_servers_own_host_names_are_answered(server: ServerProcess) -> None:
    with httpx.Client(base_url=server.url, timeout=10) as client:
        for host in (f"localhost:{server.port}", f"127.0.0.1:{server.port}", "localhost"):
            assert client.get("/api/health", headers={"host": host}).status_code == 200
        refused = client.get("/api/games", headers={"host": f"rebound.example:{server.port}"})
        assert_error(refused, 400, "does not answer for the host 'rebound.example")
        assert client.get("/", headers={"host": "rebound.example"}).status_code == 400


def test_allowed_host_adds_a_name(new_server: Callable[..., ServerProcess]) -> None:
    server = new_server(allowed_hosts=("games.example",)).start()
    with httpx.Client(base_url=server.url, timeout=10) as client:
        assert client.get("/api/health", headers={"host": "games.example"}).json() == {"ok": True}
        assert client.get("/api/health", headers={"host": "other.example"}).status_code == 400


def test_foreign_origins_cannot_drive_the_server(api: httpx.Client, server: ServerProcess) -> None:
    created = create_game(api, "tictactoe", PEOPLE)
    gid, token = created["game_id"], created["seats"][0]["token"]
    url = f"{server.ws_url}/ws/games/{gid}"
    with pytest.raises(InvalidStatus) as refused:
        connect(url, open_timeout=10, origin="http://rebound.example:8000")  # type: ignore[arg-type]
    assert refused.value.response.status_code == 403
    # the page's own origin is welcome, and so is a client that sends none
    with connect(url, open_timeout=10, origin=server.url) as connection:  # type: ignore[arg-type]
        connection.send(json.dumps({"type": "hello", "token": token}))
        assert json.loads(connection.recv(timeout=10))["type"] == "state"
    before = server.db_dump()
    foreign = {"origin": "http://rebound.example"}
    move = {"action": "mark 0", "expected_move": 0}
    assert_error(api.post(f"/api/games/{gid}/moves", json=move, headers={**seat_headers(token), **foreign}),
                 403, "origin")
    assert_error(api.post("/api/games", json={"game": "tictactoe", "seats": PEOPLE}, headers=foreign), 403)
    assert server.db_dump() == before
    assert api.get(f"/api/games/{gid}/state", headers=foreign).status_code == 200  # reading is harmless


# -- 6. rate limits -------------------------------------------------------------------------------


def assert_too_many(response: httpx.Response, *words: str) -> int:
    assert_error(response, 429, *words)
    retry_after = int(response.headers["retry-after"])
    assert 1 <= retry_after <= 60
    return retry_after


def test_three_hundred_wrong_tokens_meet_a_429(new_server: Callable[..., ServerProcess]) -> None:
    server = new_server(limits={}).start()  # the real limits
    with server.client() as api:
        created = create_game(api, "tictactoe", PEOPLE)
        gid, token = created["game_id"], created["seats"][0]["token"]
        codes = []
        for attempt in range(300):
            response = api.get(f"/api/games/{gid}/state", headers=seat_headers(f"guess-{attempt}"))
            codes.append(response.status_code)
            if response.status_code == 429:
                assert_too_many(response, "too many wrong tokens")
        first = codes.index(429)
        assert set(codes[:first]) == {403} and 20 <= first <= 21  # 20 a minute, refilled as time passes
        assert set(codes[first:]) == {429}
        # the address is refused token requests for now, the right token included ...
        assert_too_many(api.get(f"/api/games/{gid}/state", headers=seat_headers(token)))
        with server.ws(gid, "one-more-guess") as client:
            assert client.recv_until(lambda m: m["type"] == "error")["status"] == 429
        # ... while watching needs no token
        assert api.get(f"/api/games/{gid}/state").status_code == 200


def test_game_creation_and_moves_are_rate_limited(new_server: Callable[..., ServerProcess]) -> None:
    server = new_server(limits={"moves_per_minute": 6}).start()
    with server.client() as api:
        games = [create_game(api, "tictactoe", PEOPLE) for _ in range(10)]
        before = server.db_dump()
        assert_too_many(api.post("/api/games", json={"game": "tictactoe", "seats": PEOPLE}), "games created")
        assert server.db_dump() == before
        gid, ana, biel = games[0]["game_id"], games[0]["seats"][0]["token"], games[0]["seats"][1]["token"]
        for number, cell in enumerate((0, 4, 8, 1, 7)):
            body = {"action": f"mark {cell}", "expected_move": number}
            token = ana if number % 2 == 0 else biel
            played = api.post(f"/api/games/{gid}/moves", json=body, headers=seat_headers(token))
            assert played.status_code == 200, played.text
        with server.ws(gid, biel) as client:
            client.state()
            client.send({"type": "move", "action": "mark 2", "expected_move": 5, "request_id": "sixth"})
            assert client.recv_until(lambda m: m["type"] == "ack")["move_number"] == 6
            client.send({"type": "move", "action": "mark 3", "expected_move": 6, "request_id": "seventh"})
            error = client.recv_until(lambda m: m["type"] == "error")
            assert error["status"] == 429 and error["request_id"] == "seventh"
        body = {"action": "mark 3", "expected_move": 6}
        assert_too_many(api.post(f"/api/games/{gid}/moves", json=body, headers=seat_headers(ana)), "moves")
        assert api.get(f"/api/games/{gid}/state").json()["move_number"] == 6


def test_errors_carry_a_stable_code_and_its_arguments(api: httpx.Client) -> None:
    bad = api.post("/api/games", json={"game": "tictactoe", "seats": PEOPLE, "seed": -1})
    body = assert_error(bad, 422, "seed", "greater than or equal to 0")
    assert body["code"] == "invalid_request"
    assert body["args"] == {"problems": [{"field": "seed", "rule": "greater_than_equal", "ge": 0}]}
    one, other = create_game(api, "tictactoe", PEOPLE), create_game(api, "tictactoe", PEOPLE)
    token = one["seats"][0]["token"]
    wrong = api.get(f"/api/games/{other['game_id']}/state", headers=seat_headers(token))
    body = assert_error(wrong, 403, "does not belong to this game")
    assert body["code"] in ("seat_token_other_game", "invitation_other_game") and body["args"] == {}
    missing = api.get("/api/games/nothere")
    assert assert_error(missing, 404)["code"] == "no_game"
