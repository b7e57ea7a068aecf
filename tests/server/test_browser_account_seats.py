"""Seats that follow the player, in real browsers (Debian's chromium, Playwright): a player signs
up, creates a game against a friend named by user name; the friend signs in on a phone and plays
from "My games"; the first player continues the same game signed in on another device. A guest's
seats become the account's once its browser signs in. The new parts of the lobby read in the five
languages, and have no serious axe violation on a phone and a laptop."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.browser import (
    LAPTOP,
    PHONE,
    Viewport,
    assert_no_serious_axe_violations,
    catalog,
    create_table,
    new_tab,
    open_lobby,
    set_seat,
)
from tests.server.harness import ServerProcess
from tests.server.signin import PASSWORD, unique_name

pytestmark = pytest.mark.browser

YOUR_TURN = "body[data-your-turn='true'][data-busy='false']"


@pytest.fixture(scope="module")
def seats_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("account-seats-data")).start()
    yield process
    process.stop()


@pytest.fixture()
def devices(browser: Any) -> Iterator[Any]:
    """Makes browser contexts (devices), each with a tab that records page errors; closes them."""
    made: list[Any] = []

    def device(viewport: Viewport = LAPTOP, locale: str = "en-US") -> Any:
        tab = new_tab(browser, viewport["width"], viewport["height"], locale)
        made.append(tab.context)
        return tab

    yield device
    for context in made:
        context.close()


def account(tab: Any, server: ServerProcess, name: str, *, new: bool) -> None:
    """Sign up or in from this device (the session cookie lands in its context)."""
    path = "signup" if new else "signin"
    answer = tab.request.post(f"{server.url}/api/account/{path}", data={"name": name, "password": PASSWORD})
    assert answer.status == (201 if new else 200), answer.text()


def catalog_text(lang: str, key: str) -> str:
    node: Any = catalog(lang)
    for part in key.split("."):
        node = node[part]
    assert isinstance(node, str)
    return node


def play_first_target(tab: Any) -> int:
    tab.wait_for_selector(YOUR_TURN)
    before = int(tab.locator("body").get_attribute("data-move-number"))
    tab.locator("svg#board .target").first.click()
    tab.wait_for_selector(f"body:not([data-move-number='{before}'])")
    return before + 1


def test_a_friend_invited_by_name_plays_and_the_game_follows_its_player_to_another_device(
    devices: Any, seats_server: ServerProcess
) -> None:
    ana_name, biel_name = unique_name("Ana"), unique_name("Biel")
    laptop = devices()
    account(laptop, seats_server, ana_name, new=True)
    account(devices(), seats_server, biel_name, new=True)  # Biel has an account, made elsewhere
    phone = devices(PHONE)

    # Ana creates a game against Biel, by user name
    open_lobby(laptop, seats_server.url, "tictactoe")
    assert laptop.locator(".seat-row[data-seat='0'] .seat-kind").input_value() == "me"
    set_seat(laptop, 1, "account", name=biel_name)
    create_table(laptop)
    assert biel_name in laptop.locator("#invitation-list").inner_text()
    laptop.click("a.play-link[data-seat='0']")
    play_first_target(laptop)  # Ana's first move, on the laptop
    game_path = laptop.url.split("#")[0].replace(seats_server.url, "")

    # Biel signs in on a phone: the game waits in "My games", his turn first
    phone.goto(f"{seats_server.url}/")
    account(phone, seats_server, biel_name, new=False)
    phone.goto(f"{seats_server.url}/")
    first = phone.locator("#account-game-list li.account-game").first
    first.wait_for()
    assert first.get_attribute("data-state") == "yourTurn"
    first.locator("a.play-mine").click()
    phone.wait_for_url(f"**{game_path}")
    move_number = play_first_target(phone)

    # Ana continues on a third device, signed in: same game, same seat, no seat token anywhere
    desk = devices()
    account(desk, seats_server, ana_name, new=False)
    desk.goto(f"{seats_server.url}/")
    line = desk.locator(f"#account-game-list li[data-game-id='{game_path.rsplit('/', 1)[1]}']")
    line.wait_for()
    line.locator("a.play-mine").click()
    desk.wait_for_selector(f"body[data-move-number='{move_number}']")
    assert desk.locator("#seats li.seat-card[data-seat='0'] .you").count() == 1
    after = play_first_target(desk)
    laptop.wait_for_selector(f"body[data-move-number='{after}']")  # the first device follows along
    phone.wait_for_selector(f"body[data-move-number='{after}'][data-your-turn='true']")
    for tab in (laptop, phone, desk):
        assert not tab.problems, tab.problems


def test_a_guest_who_signs_up_finds_the_browsers_game_in_my_games(
    devices: Any, seats_server: ServerProcess
) -> None:
    tab = devices()
    open_lobby(tab, seats_server.url, "tictactoe")
    set_seat(tab, 1, level="custom", bot="random")
    game_id = create_table(tab)
    tab.click("a.play-link[data-seat='0']")
    play_first_target(tab)
    assert tab.url.split("#")[0].rsplit("/", 1)[1] == game_id
    name = unique_name("Cesc")
    account(tab, seats_server, name, new=True)
    tab.goto(f"{seats_server.url}/")
    tab.locator(f"#account-game-list li[data-game-id='{game_id}']").wait_for()
    # the seat is the account's: another device opens it signed in, with no token
    other = devices(PHONE)
    account(other, seats_server, name, new=False)
    other.goto(f"{seats_server.url}/play/{game_id}")
    other.wait_for_selector("#seats li.seat-card[data-seat='0'] .you")
    assert not tab.problems and not other.problems


@pytest.mark.parametrize("lang", ["en", "fr", "de", "ja", "cs"])
def test_my_games_and_the_filters_read_in_each_language(
    devices: Any, seats_server: ServerProcess, lang: str
) -> None:
    tab = devices()
    account(tab, seats_server, unique_name("Dana"), new=True)
    tab.goto(f"{seats_server.url}/?lang={lang}")
    tab.wait_for_selector("#account-games:not([hidden]) #account-game-list li")
    assert tab.locator("#account-games-heading").inner_text() == catalog_text(lang, "myGames.title")
    assert tab.locator("#account-game-list li").first.inner_text() == catalog_text(lang, "myGames.empty")
    labels = tab.locator("#lobby-filters label > span").all_inner_texts()
    filters = ("game", "players", "speed", "minRating", "maxRating")
    assert labels == [catalog_text(lang, f"lobbyFilters.{key}") for key in filters]
    def filtered(request: Any) -> bool:
        return "/api/games?" in request.url and "min_rating=1400" in request.url

    with tab.expect_request(filtered):
        tab.fill("#filter-min-rating", "1400")
        tab.locator("#filter-min-rating").dispatch_event("change")
    kinds = tab.locator(".seat-row[data-seat='1'] .seat-kind option").all_inner_texts()
    assert catalog_text(lang, "invite.kindAccount") in kinds
    tab.locator(".seat-row[data-seat='1'] .seat-kind").select_option("account")
    tab.click("#create")  # no user name typed: said in the page's language
    assert tab.locator("#create-error").inner_text() == catalog_text(lang, "invite.accountMissing").replace(
        "{{letter}}", "B")
    tab.locator(".seat-row[data-seat='1'] .seat-name-input").fill("nobody-is-called-this")
    tab.click("#create")
    refusal = catalog_text(lang, "invite.code.account_unknown").replace("{{name}}", "nobody-is-called-this")
    shown = "(text) => document.getElementById('create-error').textContent === text"
    tab.wait_for_function(shown, arg=refusal)
    assert not tab.problems, tab.problems


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_the_signed_in_lobby_has_no_serious_axe_violation(
    devices: Any, seats_server: ServerProcess, viewport: Viewport
) -> None:
    tab = devices(viewport)
    name = unique_name("Eli")
    account(tab, seats_server, name, new=True)
    created = tab.request.post(f"{seats_server.url}/api/games", data={
        "game": "tictactoe", "seats": [{"account": name}, {"kind": "bot", "bot": "random"}]},
        headers={"X-CSRF-Token": tab.request.get(f"{seats_server.url}/api/account").json()["csrf"]})
    assert created.status == 201, created.text()
    tab.goto(f"{seats_server.url}/")
    tab.wait_for_selector("#account-game-list li.account-game")
    tab.locator(".seat-row[data-seat='1'] .seat-kind").select_option("account")
    overflow = tab.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 1, f"the lobby is {overflow} px wider than the window"
    assert_no_serious_axe_violations(tab)
