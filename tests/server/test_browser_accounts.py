"""Accounts in a real browser (Debian's chromium, Playwright): a signed-in browser plays as a
guest does, its pages sending the session's CSRF token with every change."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.harness import ServerProcess
from tests.server.signin import PASSWORD, unique_name

pytestmark = pytest.mark.browser


def test_a_signed_in_browser_creates_and_plays_a_game(page: Any, server: ServerProcess) -> None:
    answer = page.request.post(f"{server.url}/api/account/signup",
                               data={"name": unique_name(), "password": PASSWORD})
    assert answer.status == 201
    csrf = answer.json()["csrf"]
    sent: list[tuple[str, str | None]] = []
    page.on("request", lambda request: sent.append((request.method, request.headers.get("x-csrf-token"))))
    page.goto(f"{server.url}/?game=tictactoe")
    page.locator("#game-select option[value='tictactoe']").wait_for(state="attached")
    page.locator(".seat-row[data-seat='0'] .seat-kind").select_option("person")
    page.locator(".seat-row[data-seat='1'] .seat-kind").select_option("bot")
    page.locator(".seat-row[data-seat='1'] .seat-level").select_option("custom")
    page.locator(".seat-row[data-seat='1'] .seat-bot").fill("random")
    page.click("#create")
    page.wait_for_selector("#invitations:not([hidden])")
    page.click("a.play-link[data-seat='0']")
    page.wait_for_selector("body[data-your-turn='true'][data-busy='false']")
    page.locator("svg#board .target").first.click()
    page.wait_for_selector("body:not([data-move-number='0'])")
    changes = [token for method, token in sent if method == "POST"]
    assert changes and changes[-1] == csrf  # the move (or claim) went with the token
    assert not page.problems, page.problems
