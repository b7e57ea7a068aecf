"""Ratings in the browser (issue 35): a signed-in player plays a rated game against a bot level
to its end in the game page; both ratings change, and the game appears on both profiles, with
the rating history drawn, and on the leaderboard. The profile and leaderboard pages pass axe on a
laptop and a phone."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest

from tests.server.browser import (
    LAPTOP,
    PHONE,
    assert_no_serious_axe_violations,
    catalog,
    click_a_random_target,
    create_table,
    new_tab,
    open_lobby,
    screenshot,
    set_seat,
    tab,
)
from tests.server.harness import ServerProcess
from tests.server.signin import PASSWORD, unique_name

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def ratings_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("ratings-browser"), bot_delay=0.0).start()
    yield process
    process.stop()


def test_a_rated_game_changes_both_ratings_and_appears_on_both_profiles(
    browser: Any, ratings_server: ServerProcess
) -> None:
    page = new_tab(browser, **LAPTOP)
    try:
        name = unique_name("ana")
        signed_up = page.context.request.post(f"{ratings_server.url}/api/account/signup",
                                         data={"name": name, "password": PASSWORD})
        assert signed_up.status == 201, signed_up.text()
        account = signed_up.json()
        with ratings_server.client() as client:
            bot_before = client.get("/api/players/bot:beginner").json()

        # signed in, the lobby's first seat is the player's own; the second, the beginner bot
        open_lobby(page, ratings_server.url, "tictactoe")
        assert page.locator(".seat-row[data-seat='0'] .seat-kind").input_value() == "me"
        set_seat(page, 1, "bot", level="beginner")
        assert page.locator("#rated").is_checked()
        game_id = create_table(page)
        page.click("a.play-link[data-seat='0']")
        page.wait_for_selector("body[data-move-number]")
        assert page.url.split("#")[0].rsplit("/", 1)[1] == game_id
        draw = random.Random(5)
        while click_a_random_target(page, draw):  # free squares, until the game is over
            pass
        page.wait_for_selector("body[data-ratings='2'] #rating-changes:not([hidden])")
        changes = page.locator("#rating-changes li")
        assert changes.nth(0).locator("a").get_attribute("href") == f"/players/{name}"
        assert changes.nth(1).locator("a").get_attribute("href") == "/players/bot:beginner"
        assert "1000 →" in changes.nth(0).inner_text()
        screenshot(page, "game-end-ratings.png")
        assert_no_serious_axe_violations(page)

        page.goto(f"{ratings_server.url}/")  # the account menu leads to the profile
        page.locator(".account-menu summary").click()
        page.locator(".account-menu a.profile-link").click()
        page.wait_for_selector("body[data-player]")
        assert page.url == f"{ratings_server.url}/players/{quote(name)}"
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
        assert not page.problems, page.problems
    finally:
        page.context.close()


@pytest.mark.parametrize("width,height", [(1280, 800), (390, 844)], ids=["1280", "390"])
@pytest.mark.parametrize("page_name", ["profile", "leaderboard"])
def test_no_serious_axe_violations(
    browser: Any, ratings_server: ServerProcess, page_name: str, width: int, height: int
) -> None:
    url, ready = {
        "profile": (f"{ratings_server.url}/players/bot:beginner", "body[data-player]"),
        "leaderboard": (f"{ratings_server.url}/leaderboard?game=tictactoe", "body[data-board]"),
    }[page_name]
    with tab(browser, width, height) as page:
        page.goto(url)
        page.wait_for_selector(ready, state="attached")
        page.wait_for_timeout(200)
        assert_no_serious_axe_violations(page)
        assert page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("lang", ["en", "fr", "de", "ja", "cs"])
def test_the_profile_and_the_leaderboard_in_five_languages_on_a_phone(
    browser: Any, ratings_server: ServerProcess, lang: str
) -> None:
    words = catalog(lang)
    with tab(browser, **PHONE, console=False) as page:
        page.goto(f"{ratings_server.url}/players/bot:strong?lang={lang}")
        page.wait_for_selector("body[data-player]")
        level = words["lobby"]["levels"]["strong"]
        assert page.locator("#title").inner_text() == words["profile"]["botName"].replace("{{level}}", level)
        assert page.locator("#ratings-heading").inner_text() == words["profile"]["ratings"]
        assert page.locator("#recent-heading").inner_text() == words["profile"]["recent"]
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.goto(f"{ratings_server.url}/leaderboard?game=barcelona&players=3&lang={lang}")
        page.wait_for_selector("body[data-board='barcelona:3']")
        assert page.locator("#title").inner_text() == words["leaderboard"]["title"]
        assert page.locator("#board-empty").inner_text() == words["leaderboard"]["empty"]
        options = page.locator("#board-players option").all_inner_texts()
        assert [re.sub(r"\D", "", option) for option in options] == ["2", "3", "4"]
        assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_lobby_creates_an_unrated_game_and_lists_it_as_such(
    browser: Any, ratings_server: ServerProcess
) -> None:
    with tab(browser, **LAPTOP, console=False) as page:
        open_lobby(page, ratings_server.url, "tictactoe")
        assert page.locator("#rated").is_checked()  # rated unless unticked
        page.locator("#rated").uncheck()
        created = create_table(page)
        game_id = page.evaluate("JSON.parse(localStorage.getItem('eixample.myGames'))[0].game_id")
        assert game_id == created
        with ratings_server.client() as client:
            assert client.get(f"/api/games/{game_id}").json()["rated"] is False
        page.wait_for_selector(f"#game-list li[data-game-id='{game_id}'] .unrated")
        assert page.locator(f"#game-list li[data-game-id='{game_id}'] .unrated").inner_text() == "unrated"
