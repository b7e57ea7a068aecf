"""Ratings in the browser (issue 35): a signed-in player plays a rated game against a bot level
to its end in the game page; both ratings change, and the game appears on both profiles, with
the rating history drawn, and on the leaderboard. The profile and leaderboard pages pass axe on a
laptop and a phone."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from tests.server.browser import TIMEOUT_MS, screenshot
from tests.server.harness import ServerProcess, create_game
from tests.server.signin import PASSWORD, unique_name
from tests.server.test_server_ratings import give_seat

pytestmark = pytest.mark.browser
BLOCKING = {"serious", "critical"}
CATALOGS = Path(__file__).resolve().parents[2] / "src" / "eixample" / "web" / "i18n"


@pytest.fixture(scope="module")
def ratings_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("ratings-browser"), bot_delay=0.0).start()
    yield process
    process.stop()


def play_in_page(page: Any) -> None:
    """Click free squares until the game is over."""
    draw = random.Random(5)
    while True:
        page.wait_for_selector("body[data-status='finished'], body[data-your-turn='true'][data-busy='false']")
        if page.locator("body[data-status='finished']").count():
            return
        number = page.locator("body").get_attribute("data-move-number")
        targets = page.locator("svg#board .target")
        targets.nth(draw.randrange(targets.count())).click()
        page.wait_for_selector(f"body:not([data-move-number='{number}'])")


def test_a_rated_game_changes_both_ratings_and_appears_on_both_profiles(
    browser: Any, ratings_server: ServerProcess
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    try:
        name = unique_name("ana")
        signed_up = context.request.post(f"{ratings_server.url}/api/account/signup",
                                         data={"name": name, "password": PASSWORD})
        assert signed_up.status == 201, signed_up.text()
        account = signed_up.json()
        with ratings_server.client() as client:
            bot_before = client.get("/api/players/bot:beginner").json()
            created = create_game(client, "tictactoe", [{"kind": "person", "name": name},
                                                         {"kind": "bot", "bot": "beginner"}])
        game_id = created["game_id"]
        give_seat(ratings_server.db_path, game_id, 0, account["id"])

        page.goto(created["seats"][0]["link"])
        play_in_page(page)

        page.goto(f"{ratings_server.url}/players/{quote(name)}")
        page.wait_for_selector("body[data-player]")
        assert page.locator("#title").inner_text() == name
        row = page.locator("#ratings tr[data-game='tictactoe'][data-players='2']")
        assert row.locator("td").nth(1).inner_text() == "1"  # one rated game
        assert page.locator(f"#recent li[data-game-id='{game_id}'][data-rated='true']").count() == 1
        replay_link = page.locator(f"#recent li[data-game-id='{game_id}'] a").get_attribute("href")
        assert replay_link == f"/replay/{game_id}"
        assert page.locator("#rating-chart circle").count() == 1
        assert "Tic-tac-toe, 2 players" in (page.locator("#rating-chart").get_attribute("aria-label") or "")
        screenshot(page, "profile-account.png")

        page.goto(f"{ratings_server.url}/players/bot:beginner")
        page.wait_for_selector("body[data-player='bot:beginner']")
        assert page.locator("#title").inner_text() == "Bot: Beginner"
        before = next((r["games"] for r in bot_before["ratings"] if r["game"] == "tictactoe"), 0)
        row = page.locator("#ratings tr[data-game='tictactoe'][data-players='2']")
        assert row.locator("td").nth(1).inner_text() == str(before + 1)
        assert page.locator(f"#recent li[data-game-id='{game_id}']").count() == 1

        page.goto(f"{ratings_server.url}/leaderboard?game=tictactoe&players=2")
        page.wait_for_selector("body[data-board='tictactoe:2']")
        links = page.locator("#board tbody th a").all_inner_texts()
        assert name in links and "Bot: Beginner" in links
        screenshot(page, "leaderboard.png")
        page.locator("#board tbody th a", has_text=name).click()
        page.wait_for_selector(f"body[data-player='account:{account['id']}']")
        assert not problems, problems
    finally:
        context.close()


@pytest.mark.parametrize("width,height", [(1280, 800), (390, 844)], ids=["1280", "390"])
@pytest.mark.parametrize("page_name", ["profile", "leaderboard"])
def test_no_serious_axe_violations(
    browser: Any, ratings_server: ServerProcess, page_name: str, width: int, height: int
) -> None:
    from axe_playwright_python.sync_playwright import Axe

    url, ready = {
        "profile": (f"{ratings_server.url}/players/bot:beginner", "body[data-player]"),
        "leaderboard": (f"{ratings_server.url}/leaderboard?game=tictactoe", "body[data-board]"),
    }[page_name]
    context = browser.new_context(viewport={"width": width, "height": height}, locale="en-US")
    context.set_default_timeout(TIMEOUT_MS)
    tab = context.new_page()
    try:
        tab.goto(url)
        tab.wait_for_selector(ready, state="attached")
        tab.wait_for_timeout(200)
        results = Axe().run(tab)
        blocking = [
            f"{v['id']} ({v['impact']}): {v['help']} — {[node['target'] for node in v['nodes'][:4]]}"
            for v in results.response["violations"]
            if v.get("impact") in BLOCKING
        ]
        assert not blocking, "\n".join(blocking)
        assert tab.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        context.close()


def catalog(lang: str) -> dict[str, Any]:
    found: dict[str, Any] = json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))
    return found


@pytest.mark.parametrize("lang", ["en", "fr", "de", "ja", "cs"])
def test_the_profile_and_the_leaderboard_in_five_languages_on_a_phone(
    browser: Any, ratings_server: ServerProcess, lang: str
) -> None:
    words = catalog(lang)
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US")
    context.set_default_timeout(TIMEOUT_MS)
    tab = context.new_page()
    try:
        tab.goto(f"{ratings_server.url}/players/bot:strong?lang={lang}")
        tab.wait_for_selector("body[data-player]")
        level = words["lobby"]["levels"]["strong"]
        assert tab.locator("#title").inner_text() == words["profile"]["botName"].replace("{{level}}", level)
        assert tab.locator("#ratings-heading").inner_text() == words["profile"]["ratings"]
        assert tab.locator("#recent-heading").inner_text() == words["profile"]["recent"]
        assert tab.evaluate("document.documentElement.scrollWidth") <= 390
        tab.goto(f"{ratings_server.url}/leaderboard?game=barcelona&players=3&lang={lang}")
        tab.wait_for_selector("body[data-board='barcelona:3']")
        assert tab.locator("#title").inner_text() == words["leaderboard"]["title"]
        assert tab.locator("#board-empty").inner_text() == words["leaderboard"]["empty"]
        options = tab.locator("#board-players option").all_inner_texts()
        assert [re.sub(r"\D", "", option) for option in options] == ["2", "3", "4"]
        assert tab.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        context.close()


def test_the_lobby_creates_an_unrated_game_and_lists_it_as_such(
    browser: Any, ratings_server: ServerProcess
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    context.set_default_timeout(TIMEOUT_MS)
    tab = context.new_page()
    try:
        tab.goto(f"{ratings_server.url}/?game=tictactoe")
        tab.locator("#game-select option[value='tictactoe']").wait_for(state="attached")
        assert tab.locator("#rated").is_checked()  # rated unless unticked
        tab.locator("#rated").uncheck()
        tab.click("#create")
        tab.wait_for_selector("#invitations:not([hidden])")
        game_id = tab.evaluate("JSON.parse(localStorage.getItem('eixample.myGames'))[0].game_id")
        with ratings_server.client() as client:
            assert client.get(f"/api/games/{game_id}").json()["rated"] is False
        tab.wait_for_selector(f"#game-list li[data-game-id='{game_id}'] .unrated")
        assert tab.locator(f"#game-list li[data-game-id='{game_id}'] .unrated").inner_text() == "unrated"
    finally:
        context.close()
