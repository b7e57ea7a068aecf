"""A move on its way when the server restarts is sent again once the page is back.

A restarting server answers the moves it has read, then closes every socket with 1012 ("service
restart"); a move still on its way is never read. Through Playwright's WebSocket routing the test
plays that server: the page's first socket takes the move and closes with 1012 without passing it
on. The page must reconnect and send the move again, for the move number it was made for, and the
game must go on from it; a move the server did make before closing is not sent twice.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from tests.server.browser import BOARD, READY, open_seat
from tests.server.harness import ServerProcess, create_game, seat_headers

pytestmark = pytest.mark.browser

PEOPLE = [{"kind": "person"}, {"kind": "person"}]


def _route_closing_at_the_first_move(page: Any, answer_first: bool) -> list[list[dict[str, Any]]]:
    """Per socket the page opens, what the page sent on it. The first socket closes with 1012 when
    the page sends a move: at once (the move never reaches the server) or, with `answer_first`,
    once the server has answered it (as a restart that drains its moves in flight)."""
    sockets: list[list[dict[str, Any]]] = []

    def route(ws: Any) -> None:
        upstream = ws.connect_to_server()
        sent: list[dict[str, Any]] = []
        first = not sockets
        sockets.append(sent)

        def page_says(text: str | bytes) -> None:
            message = json.loads(text)
            sent.append(message)
            if first and message["type"] == "move" and not answer_first:
                ws.close(code=1012, reason="service restart")
                upstream.close()
                return
            upstream.send(text)

        def server_says(text: str | bytes) -> None:
            ws.send(text)
            if first and answer_first and json.loads(text)["type"] == "ack":
                ws.close(code=1012, reason="service restart")  # the server's socket closes with the page's

        ws.on_message(page_says)
        upstream.on_message(server_says)

    page.route_web_socket("**/ws/games/**", route)
    return sockets


def _moves(sent: list[dict[str, Any]]) -> list[tuple[str, int]]:
    return [(m["action"], m["expected_move"]) for m in sent if m["type"] == "move"]


def _play_the_first_target(page: Any) -> str:
    page.wait_for_selector(READY)
    target = page.locator(f"{BOARD} .target").first
    action: str = target.get_attribute("data-action")
    target.click()
    return action


def test_a_move_the_restarting_server_never_read_is_sent_again_after_reconnecting(
    page: Any, server: ServerProcess
) -> None:
    sockets = _route_closing_at_the_first_move(page, answer_first=False)
    with httpx.Client(base_url=server.url, timeout=10) as api:
        created = create_game(api, "tictactoe", PEOPLE)
        open_seat(page, created)
        action = _play_the_first_target(page)
        page.wait_for_selector("body[data-move-number='1']")
        state = api.get(f"/api/games/{created['game_id']}/state").json()
    assert len(sockets) == 2
    assert _moves(sockets[0]) == [(action, 0)]  # taken by the closing socket, never passed on
    assert _moves(sockets[1]) == [(action, 0)]  # the same move, for the same move number
    assert state["move_number"] == 1 and state["current_player"] == 1
    assert not page.problems


def test_a_move_the_server_made_before_restarting_is_not_sent_again(page: Any, server: ServerProcess) -> None:
    sockets = _route_closing_at_the_first_move(page, answer_first=True)
    with httpx.Client(base_url=server.url, timeout=10) as api:
        created = create_game(api, "tictactoe", PEOPLE)
        open_seat(page, created)
        action = _play_the_first_target(page)
        for _ in range(150):  # Playwright's own wait: the sync API runs the route's handlers meanwhile
            if len(sockets) == 2 and any(m["type"] == "hello" for m in sockets[1]):
                break
            page.wait_for_timeout(100)
        assert len(sockets) == 2, "the page did not reconnect"
        # the other seat moves: once the page shows that move, a move sent again on reconnecting
        # (right after the whole state, before this) would be among what the page sent
        gid, other = created["game_id"], seat_headers(created["seats"][1]["token"])
        legal = api.get(f"/api/games/{gid}/state", headers=other).json()["legal_actions"]
        answer = api.post(f"/api/games/{gid}/moves", json={"action": legal[0], "expected_move": 1},
                          headers=other)
        assert answer.status_code == 200, answer.text
        page.wait_for_selector("body[data-move-number='2']")
    assert _moves(sockets[0]) == [(action, 0)]
    assert _moves(sockets[1]) == []
    assert not page.problems
