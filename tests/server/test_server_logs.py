"""The server's log (server/logs.py): one JSON object a line, each request's line carrying the id
that its answer carries (`X-Request-ID`), and never a secret: a whole session (creation, claims,
moves, a wrong token, a WebSocket, chat, an account's sign-up and a wrong password) is played and
its whole log searched for every token, password and session id it used. And the readiness
endpoint, which fails while the database is unreachable."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import httpx

from tests.server.harness import ServerProcess, create_game, seat_headers, wait_for
from tests.server.postgres import PostgresCluster
from tests.server.signin import sign_up

PEOPLE = [{"kind": "person", "name": "Ana"}, {"kind": "person", "name": "Biel"}]


def events(server: ServerProcess) -> list[dict[str, object]]:
    lines = [line for line in server.log().splitlines() if line.startswith("{")]
    return [json.loads(line) for line in lines]


def test_a_whole_session_leaves_no_secret_in_the_log(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, run_options={"settings": {"log_level": "debug",
                                                               "metrics_token": "metrics-token-x9"}})
    server.start()
    secrets: list[str] = ["metrics-token-x9"]
    try:
        with server.client() as client:
            created = create_game(client, "tictactoe", PEOPLE, invitations=True)
            gid = created["game_id"]
            secrets.append(created["creator_token"])
            private = []
            for seat in created["seats"]:
                secrets.append(seat["token"])
                claimed = client.post(f"/api/games/{gid}/claim", headers=seat_headers(seat["token"]))
                assert claimed.status_code == 200, claimed.text
                private.append(claimed.json()["token"])
            secrets.extend(private)
            assert client.post(f"/api/games/{gid}/moves", json={"action": "mark 4", "expected_move": 0},
                               headers=seat_headers(private[0])).status_code == 200
            wrong = client.post(f"/api/games/{gid}/moves", json={"action": "mark 0", "expected_move": 1},
                                headers=seat_headers(secrets[1]))  # the used invitation: refused
            assert wrong.status_code == 403
            secrets.append("not-a-token-at-all-7f3")
            assert client.get(f"/api/games/{gid}/state",
                              headers=seat_headers("not-a-token-at-all-7f3")).status_code == 403
            scraped = client.get("/metrics", headers={"Authorization": "Bearer metrics-token-x9"})
            assert scraped.status_code == 200
            with server.ws(gid, private[1]) as socket:
                socket.state()
                socket.send({"type": "chat", "text": "bona partida", "request_id": "c"})
                socket.send({"type": "move", "action": "mark 0", "expected_move": 1, "request_id": "m"})
                assert socket.recv_until(lambda m: m.get("request_id") == "m")["type"] == "ack"
            with server.ws(gid, "a-wrong-socket-token-5e1") as socket:
                secrets.append("a-wrong-socket-token-5e1")
                assert socket.recv_until(lambda m: m["type"] == "error")["status"] == 403
            with sign_up(server, password="a-secret-password-4u") as player:
                secrets.extend([player.password, player.session_id, player.csrf])
                assert player.get("/api/account").status_code == 200
            guess = {"name": player.name, "password": "wrong-pass-9z1"}
            wrong = client.post("/api/account/signin", json=guess)
            assert wrong.status_code == 401
            secrets.append("wrong-pass-9z1")
            wait_for(lambda: "/ws/games/" in server.log(), what="the WebSocket's log line")
    finally:
        server.stop()
    log = server.log()
    assert "POST /api/games/" in log and "/claim" in log
    for secret in secrets:
        assert secret not in log, f"a secret reached the log: {secret[:6]}..."
    logged = events(server)
    assert logged and all({"time", "level", "logger", "message"} <= set(line) for line in logged)
    assert any(line.get("path") == f"/ws/games/{gid}" for line in logged)
    refused = [line for line in logged if line.get("status") == 403 and line.get("event") == "request"]
    assert refused and all(line.get("request_id") for line in refused)


def test_an_error_answer_carries_the_request_id_its_log_line_has(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, run_options={"settings": {"log_level": "info"}}).start()
    try:
        with server.client() as client:
            answer = client.get("/api/games/no-such-game/state")
            ok = client.get("/api/health")
    finally:
        server.stop()
    assert answer.status_code == 404
    rid = answer.headers["x-request-id"]
    assert rid and rid != ok.headers["x-request-id"]
    line = next(line for line in events(server) if line.get("request_id") == rid)
    assert line["status"] == 404 and line["path"] == "/api/games/no-such-game/state"


def test_ready_fails_while_the_database_is_unreachable(tmp_path: Path) -> None:
    cluster = PostgresCluster().start()
    server = ServerProcess(tmp_path, database_url=cluster.url)
    try:
        server.start()
        with httpx.Client(base_url=server.url, timeout=15) as client:
            assert client.get("/api/ready").status_code == 200
            cluster.stop()
            down = client.get("/api/ready")
            assert down.status_code == 503, down.text
            assert down.json()["code"] == "unavailable" and "database" in down.json()["error"]
            assert client.get("/api/health").status_code == 200  # alive, not ready
    finally:
        server.stop()
        with contextlib.suppress(RuntimeError):  # stopped already, unless the test failed before
            cluster.stop()
