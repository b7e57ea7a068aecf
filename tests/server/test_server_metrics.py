"""Prometheus metrics at /metrics (server/metrics.py, docs/deploy.md "Metrics"): what a game, a
WebSocket, a refusal and the database add to them, and who may read them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.server.harness import ServerProcess, create_game, seat_headers, wait_for

PEOPLE = [{"kind": "person", "name": "Ana"}, {"kind": "person", "name": "Biel"}]


def scrape(client: httpx.Client) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    response = client.get("/metrics")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain")
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(response.text)
        for sample in family.samples
    }


@pytest.fixture()
def metered(tmp_path: Path) -> Iterator[ServerProcess]:
    server = ServerProcess(tmp_path, run_options={"settings": {"hint_seconds": 0.05}}).start()
    yield server
    server.stop()


def test_moves_sockets_refusals_and_the_database_are_counted(metered: ServerProcess) -> None:
    with metered.client() as client:
        before = scrape(client)
        created = create_game(client, "tictactoe", PEOPLE)
        gid = created["game_id"]
        tokens = [seat["token"] for seat in created["seats"]]
        for number, (seat, cell) in enumerate([(0, 4), (1, 0), (0, 8)]):
            response = client.post(f"/api/games/{gid}/moves", headers=seat_headers(tokens[seat]),
                                   json={"action": f"mark {cell}", "expected_move": number})
            assert response.status_code == 200, response.text
        assert client.get("/api/games/no-such-game").status_code == 404
        assert client.post(f"/api/games/{gid}/moves", json={"action": "mark 1", "expected_move": 3},
                           headers=seat_headers("wrong")).status_code == 403
        with metered.ws(gid, tokens[1]) as socket:
            socket.state()
            sockets = ("eixample_websocket_connections", ())
            wait_for(lambda: scrape(client)[sockets] == 1, what="the socket counted")
            socket.send({"type": "move", "action": "mark 2", "expected_move": 3, "request_id": "m"})
            assert socket.recv_until(lambda m: m["type"] in ("ack", "error"))["type"] == "ack"
        after = scrape(client)
    game = (("game", "tictactoe"),)
    for name in ("eixample_moves_total", "eixample_move_seconds_count"):
        assert after[(name, game)] - before.get((name, game), 0) == 4, name
    assert after[("eixample_move_seconds_bucket", (*game, ("le", "+Inf")))] >= 4
    assert after[("eixample_refusals_total", (("status", "404"),))] >= 1
    assert after[("eixample_refusals_total", (("status", "403"),))] >= 1
    assert after[("eixample_db_seconds_count", ())] > before[("eixample_db_seconds_count", ())]
    assert after[("eixample_games_in_memory", ())] >= 1
    assert after[("eixample_bot_queue", (("kind", "search"),))] == 0
    for name in ("eixample_hints_computed_total", "eixample_curves_computed_total", "eixample_bot_searching"):
        assert (name, ()) in after, name


def test_hints_and_bot_decisions_are_counted(metered: ServerProcess) -> None:
    with metered.client() as client:
        before = scrape(client)
        created = create_game(client, "tictactoe", [PEOPLE[0], {"kind": "bot", "bot": "mcts:iterations=20"}],
                              hints_allowed=True)
        gid, token = created["game_id"], created["seats"][0]["token"]
        hint = client.post(f"/api/games/{gid}/hint", json={"expected_move": 0}, headers=seat_headers(token))
        assert hint.status_code == 200, hint.text
        assert client.post(f"/api/games/{gid}/moves", json={"action": "mark 4", "expected_move": 0},
                           headers=seat_headers(token)).status_code == 200
        search = ("eixample_bot_decision_seconds_count", (("kind", "search"),))
        wait_for(lambda: scrape(client).get(search, 0) > before.get(search, 0), what="a bot decision")
        after = scrape(client)
    assert after[("eixample_hints_computed_total", ())] == before[("eixample_hints_computed_total", ())] + 1


def test_metrics_are_open_to_the_allowed_addresses_or_the_token(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, run_options={"settings": {
        "metrics_from": ["10.0.0.0/8"], "metrics_token": "scrape-me-please"}}).start()
    try:
        with server.client() as client:
            refused = client.get("/metrics")
            assert refused.status_code == 403 and refused.json()["code"] == "forbidden"
            assert client.get("/metrics", headers={"Authorization": "Bearer wrong"}).status_code == 403
            opened = client.get("/metrics", headers={"Authorization": "Bearer scrape-me-please"})
            assert opened.status_code == 200 and "eixample_games_in_memory" in opened.text
    finally:
        server.stop()
