"""The game page follows a game through patches, and recovers when it misses one.

A spectator's page asks for patches; the test plays a Barcelona game over REST and, through
Playwright's WebSocket routing, passes the server's messages to the page, except one patch that
it drops. After every move the page must show the version the server is at and the same board as a
page opened afresh at that version; when the patch after the dropped one comes, it must ask for
the whole state again ({"type": "resync"}) and be right once more.
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

import httpx
import pytest

from tests.server.harness import ServerProcess, create_game, seat_headers

pytestmark = pytest.mark.browser

MOVES = 12
DROPPED = 5
"""The 1-based number of the patch that never reaches the page."""


def _move(api: httpx.Client, gid: str, tokens: list[str], rng: random.Random) -> int:
    """One random legal move by the seat whose turn it is; the spectators' version after it."""
    seat = api.get(f"/api/games/{gid}/state").json()["current_player"]
    state = api.get(f"/api/games/{gid}/state", headers=seat_headers(tokens[seat])).json()
    move = {"action": rng.choice(state["legal_actions"]), "expected_move": state["move_number"]}
    answer = api.post(f"/api/games/{gid}/moves", json=move, headers=seat_headers(tokens[seat]))
    assert answer.status_code == 200, answer.text
    version: int = api.get(f"/api/games/{gid}/state").json()["version"]
    return version


def _shown(page: Any) -> dict[str, str]:
    return {
        "board": page.locator("svg#board").inner_html(),
        "decision": page.locator("#decision").inner_text(),
    }


def _same_as_fresh(page: Any, fresh: Any, version: int) -> bool:
    """Both pages at `version`, their boards drawn, showing the same (rendering is asynchronous:
    look again for a while before calling them different)."""
    for where in (page, fresh):
        where.wait_for_selector(f"body[data-version='{version}']", state="attached")
        where.wait_for_selector("svg#board.bcn-board", state="attached")
    deadline = time.monotonic() + 10
    while _shown(page) != _shown(fresh):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def test_a_spectators_board_follows_patches_and_recovers_a_missed_one(
    page: Any, server: ServerProcess
) -> None:
    with httpx.Client(base_url=server.url, timeout=10) as api:
        created = create_game(api, "barcelona", [{"kind": "person"}, {"kind": "person"}])
        gid = created["game_id"]
        tokens = [seat["token"] for seat in created["seats"]]
        for token in tokens:  # both seats taken: no presence message in between
            api.get(f"/api/games/{gid}/state", headers=seat_headers(token))

        from_page: list[dict[str, Any]] = []
        to_page: list[dict[str, Any]] = []
        dropped: list[dict[str, Any]] = []

        def route(ws: Any) -> None:
            upstream = ws.connect_to_server()

            def page_says(text: str | bytes) -> None:
                from_page.append(json.loads(text))
                upstream.send(text)

            def server_says(text: str | bytes) -> None:
                message = json.loads(text)
                if message["type"] == "patch":
                    patches = sum(1 for m in to_page + dropped if m["type"] == "patch")
                    if patches + 1 == DROPPED:
                        dropped.append(message)
                        return
                to_page.append(message)
                ws.send(text)

            ws.on_message(page_says)
            upstream.on_message(server_says)

        page.route_web_socket("**/ws/games/**", route)
        page.goto(f"{server.url}/play/{gid}")
        version = api.get(f"/api/games/{gid}/state").json()["version"]
        page.wait_for_selector(f"body[data-version='{version}']", state="attached")
        assert from_page[0] == {"type": "hello", "token": None, "patches": True}

        fresh = page.context.new_page()
        fresh_errors: list[str] = []
        fresh.on("pageerror", lambda error: fresh_errors.append(str(error)))
        rng = random.Random(11)
        for number in range(1, MOVES + 1):
            version = _move(api, gid, tokens, rng)
            if number == DROPPED:  # nothing reached the page: it cannot know yet
                continue
            fresh.goto(f"{server.url}/play/{gid}")
            assert _same_as_fresh(page, fresh, version), f"board or decision differ after move {number}"
            resynced = any(m["type"] == "resync" for m in from_page)
            assert resynced == (number > DROPPED), f"after move {number}"

    kinds = [m["type"] for m in to_page if m["type"] in ("state", "patch")]
    assert len(dropped) == 1
    # the patch after the dropped one shows the gap; the whole state answers the resync
    assert kinds == ["state"] + ["patch"] * DROPPED + ["state"] + ["patch"] * (MOVES - DROPPED - 1)
    assert [m["type"] for m in from_page] == ["hello", "resync"]
    assert not page.problems and not fresh_errors
