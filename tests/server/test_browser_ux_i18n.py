"""The web app in five languages (issue 13), in a real browser: the language comes from `?lang=`,
else from the menu's remembered choice, else from the browser's language; `<html lang>` follows;
the pages, the board's labels and tooltips and the decision buttons read in that language; a
structured engine entry {key, args} renders through the catalog. Texts are compared with the
catalogs themselves (src/eixample/web/i18n/<lang>.json).
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from eixample.core.messages import english, render
from tests.server.browser import ARTIFACTS, catalog, new_tab
from tests.server.harness import ServerProcess, create_claimed_game, seat_headers

pytestmark = pytest.mark.browser

READY = "body[data-your-turn='true'][data-busy='false']"


def text(lang: str, key: str, **args: object) -> str:
    node: Any = catalog(lang)
    for part in key.split("."):
        node = node[part]
    for name, value in args.items():
        node = node.replace("{{" + name + "}}", str(value))
    assert isinstance(node, str)
    return node


def lobby_ready(tab: Any) -> None:
    tab.wait_for_selector("#game-select option", state="attached")


@pytest.mark.parametrize("lang", ["en", "fr", "de", "ja", "cs"])
def test_lang_parameter_sets_the_language(browser: Any, module_server: ServerProcess, lang: str) -> None:
    tab = new_tab(browser)
    try:
        tab.goto(f"{module_server.url}/?lang={lang}")
        lobby_ready(tab)
        assert tab.evaluate("document.documentElement.lang") == lang
        assert tab.locator(".topbar h1").inner_text() == text(lang, "lobby.title")
        assert tab.locator("#create").inner_text() == text(lang, "lobby.create")
        assert tab.locator("#language").input_value() == lang
        assert not tab.problems, tab.problems
    finally:
        tab.context.close()


def test_browser_language_is_the_default_and_the_menu_choice_is_remembered(
    browser: Any, module_server: ServerProcess
) -> None:
    tab = new_tab(browser, locale="de-DE")
    try:
        tab.goto(f"{module_server.url}/")
        lobby_ready(tab)
        assert tab.evaluate("document.documentElement.lang") == "de"
        with tab.expect_navigation():
            tab.select_option("#language", "cs")
        lobby_ready(tab)
        assert tab.evaluate("document.documentElement.lang") == "cs"
        assert tab.evaluate("localStorage.getItem('eixample.lang')") == "cs"
        tab.goto(f"{module_server.url}/")  # no ?lang: the remembered choice wins over the browser's
        lobby_ready(tab)
        assert tab.evaluate("document.documentElement.lang") == "cs"
        assert tab.locator(".topbar h1").inner_text() == text("cs", "lobby.title")
        tab.goto(f"{module_server.url}/?lang=xx")  # an unknown language changes nothing
        lobby_ready(tab)
        assert tab.evaluate("document.documentElement.lang") == "cs"
    finally:
        tab.context.close()


def test_game_page_board_and_buttons_in_french(browser: Any, module_server: ServerProcess) -> None:
    with module_server.client() as client:
        game = create_claimed_game(
            client,
            "barcelona",
            [{"kind": "person", "name": "Ana"}, {"kind": "bot", "bot": "random", "name": "Biel"}],
            seed=3,
            seed_shown=True,
        )
    link = game["seats"][0]["link"].replace("#", "?lang=fr#")
    tab = new_tab(browser)
    try:
        tab.goto(link)
        tab.wait_for_selector(READY)
        tab.wait_for_selector("svg#board.bcn-board")
        assert tab.evaluate("document.documentElement.lang") == "fr"
        board = tab.locator("svg#board").text_content() or ""
        for key in ("bcn.panel.cerdaTrack", "bcn.panel.sidewalk", "bcn.panel.warehouse", "bcn.panel.tracks"):
            assert text("fr", key) in board, key
        # the first decision places citizens: its buttons read as words, the action text stays in data-action
        button = tab.locator("#actions button.action").first
        action = button.get_attribute("data-action") or ""
        assert action.startswith("place ")
        assert text("fr", "bcn.do.place", crossing=action.split()[1]) in (button.text_content() or "")
        assert action not in (button.text_content() or "")
        # the board target's tooltip and name are in French too
        target = tab.locator(f'svg#board [data-action="{action}"]')
        assert text("fr", "bcn.do.place", crossing=action.split()[1]) in (
            target.get_attribute("aria-label") or ""
        )
        # help for the decision
        assert tab.locator("#decision-help-text").text_content() == text("fr", "bcn.help.place")
        # a structured engine entry renders through the catalog
        rendered = tab.evaluate(
            "import('/static/js/i18n.js')"
            ".then((m) => m.message({key: 'newGame', args: {players: 2, first: 'Ana'}}))"
        )
        assert rendered == text("fr", "engine.newGame", players=2, first="Ana")
        tab.screenshot(path=str(ARTIFACTS / "ux-barcelona-fr-1280.png"))
        assert not tab.problems, tab.problems
    finally:
        tab.context.close()


def wait_for_turn(client: Any, url: str, token: str) -> dict[str, Any]:
    """The seat's state once it is its turn again (the bot has answered)."""
    for _ in range(200):
        state: dict[str, Any] = client.get(f"{url}/state", headers=seat_headers(token)).json()
        if state["your_turn"]:
            return state
        time.sleep(0.05)
    raise AssertionError("the bot did not answer")


SEAT_ARGUMENTS = {"player", "players", "first", "best", "winners"}


def with_names(entry: Any, names: list[str]) -> Any:
    """What the page does to an entry before rendering it: the seats P1..P4 its seat arguments
    name become the players' names; other arguments (influence cards P1..P9) stay as they are."""
    if isinstance(entry, str):
        return re.sub(r"\bP([1-9])\b", lambda match: names[int(match.group(1)) - 1], entry)
    args = {name: named(name, value, names) for name, value in entry["args"].items()}
    return {"key": entry["key"], "args": args}


def named(name: str, value: Any, names: list[str]) -> Any:
    if isinstance(value, list):
        return [named(name, item, names) for item in value]
    if isinstance(value, dict):
        return with_names(value, names)
    if name in SEAT_ARGUMENTS and isinstance(value, str):
        return re.sub(r"\bP([1-9])\b", lambda match: names[int(match.group(1)) - 1], value)
    return value


def test_influence_cards_keep_their_names_beside_player_names(
    browser: Any, module_server: ServerProcess
) -> None:
    """Seats and The Rose of Fire's influence cards are both written P1, P2…: the page gives the
    players' names to the seats only."""
    tab = new_tab(browser)
    try:
        tab.goto(f"{module_server.url}/?lang=en")
        lobby_ready(tab)
        entry = {"key": "rof.buys", "args": {"player": "P1", "card": "P2", "worth": 3, "paid": 2}}
        seats = [{"seat": 0, "name": "Ana"}, {"seat": 1, "name": "Biel"}]
        line = tab.evaluate(
            "async ([entry, seats]) => (await import('/static/js/players.js')).namedMessage(entry, seats)",
            [entry, seats],
        )
        assert line.startswith("Ana buys influence card P2 ")
        assert "Biel" not in line
    finally:
        tab.context.close()


@pytest.mark.parametrize("game_name", ["barcelona", "rose-of-fire"])
def test_decision_and_log_lines_in_french(browser: Any, module_server: ServerProcess, game_name: str) -> None:
    """The engine's structured entries (core/messages.py) read in French on the page: the decision
    and every log line are the French catalog's words, with the players' names, and none of them
    is the English text."""
    names = ["Ana", "Biel"]
    with module_server.client() as client:
        game = create_claimed_game(
            client,
            game_name,
            [{"kind": "person", "name": names[0]}, {"kind": "bot", "bot": "random", "name": names[1]}],
            seed=5,
        )
        token = game["seats"][0]["token"]
        link = game["seats"][0]["link"].replace("#", "?lang=fr#")
        tab = new_tab(browser)
        try:
            url = f"/api/games/{game['game_id']}"
            for _ in range(40):  # moves (and the bot's answers) until the log has lines of both
                state = wait_for_turn(client, url, token)
                if len(state["view"]["log"]) > 8:
                    break
                action = state["legal_actions"][-1]
                body = {"action": action, "expected_move": state["move_number"]}
                reply = client.post(f"{url}/moves", json=body, headers=seat_headers(token))
                assert reply.status_code == 200, reply.text
            state = wait_for_turn(client, url, token)
            tab.goto(link)
            tab.wait_for_selector(f"{READY}[data-move-number='{state['move_number']}']")
            decision = render(with_names(state["decision"], names), "fr")
            assert tab.locator("#decision").inner_text() == decision
            assert decision != english(with_names(state["decision"], names))
            lines = tab.locator("#log li").all_inner_texts()
            entries = state["view"]["log"]
            assert len(lines) == len(entries) > 8
            for line, entry in zip(lines, entries, strict=True):
                assert line.strip() == render(with_names(entry, names), "fr")
                assert "{{" not in line and "engine." not in line
            differ = [
                line.strip() != english(with_names(entry, names))
                for line, entry in zip(lines, entries, strict=True)
            ]
            assert sum(differ) >= len(entries) - 1  # a line of ids and numbers only may read alike
            tab.screenshot(path=str(ARTIFACTS / f"ux-{game_name}-fr-log.png"))
            assert not tab.problems, tab.problems
        finally:
            tab.context.close()


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", ["1 coin", "3 coins", "1 cloth", "2 coins and 1 cloth", "free"]),
    ("cs", ["1 minci", "3 mince", "1 látku", "2 mince a 1 látku", "zdarma"]),
    ("fr", ["1 pièce", "3 pièces", "1 tissu", "2 pièces et 1 tissu", "gratuit"]),
])
def test_costs_on_the_board_take_the_plural_forms_of_their_language(
    browser: Any, module_server: ServerProcess, lang: str, expected: list[str]
) -> None:
    """A Public Service at 1 coin reads "1 coin", not "1 coins"; a Passenger's price names only
    what it costs (Czech costs in the accusative: "stojí 1 minci")."""
    tab = new_tab(browser)
    try:
        tab.goto(f"{module_server.url}/?lang={lang}")
        lobby_ready(tab)
        prices = tab.evaluate(
            """async () => {
              const { priceText } = await import('/static/games/barcelona.js');
              return [priceText(1), priceText(3), priceText(0, 1), priceText(2, 1), priceText(0, 0)];
            }""",
        )
        assert prices == expected
        assert not tab.problems, tab.problems
    finally:
        tab.context.close()
