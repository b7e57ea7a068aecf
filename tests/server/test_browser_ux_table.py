"""Around the table (issue 13) in a real browser: the chat (escaped, spectators read-only),
resigning, the turn clock handing a seat to a bot and the player taking it back, the rematch
sending each seat's browser to its new seat, the lobby's finished rows and the replay controls.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.browser import ARTIFACTS, TIMEOUT_MS
from tests.server.harness import ServerProcess, create_claimed_game, seat_headers

pytestmark = pytest.mark.browser

PEOPLE = [{"kind": "person", "name": "Ana"}, {"kind": "person", "name": "Biel"}]
INJECTION = '<img src=x onerror="window.__pwned=1"> hola'


SERVER_OPTIONS = {"bot_delay": 0.8}
"""The options of this module's server (module_server): bots pause a little, so that a person can
take a seat back between two bot moves."""


@pytest.fixture()
def context(browser: Any) -> Iterator[Any]:
    made = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US")
    made.set_default_timeout(TIMEOUT_MS)
    yield made
    made.close()


def finished_tictactoe(server: ServerProcess) -> dict[str, Any]:
    """A new game of Ana and Biel, which Ana has won."""
    with server.client() as client:
        game = create_claimed_game(client, "tictactoe", PEOPLE)
    finish_tictactoe(server, game)
    return game


def finish_tictactoe(server: ServerProcess, game: dict[str, Any]) -> None:
    """Ana (A) wins along the top row."""
    ana, biel = (seat["token"] for seat in game["seats"])
    with server.client() as client:
        for number, (token, cell) in enumerate([(ana, 0), (biel, 3), (ana, 1), (biel, 4), (ana, 2)]):
            response = client.post(
                f"/api/games/{game['game_id']}/moves",
                json={"action": f"mark {cell}", "expected_move": number},
                headers=seat_headers(token),
            )
            assert response.status_code == 200, response.text


def test_chat_is_escaped_spectators_read_and_resigning_is_told(
    context: Any, module_server: ServerProcess
) -> None:
    with module_server.client() as client:
        game = create_claimed_game(client, "tictactoe", PEOPLE)
    ana, biel, watcher = context.new_page(), context.new_page(), context.new_page()
    ana.goto(game["seats"][0]["link"])
    biel.goto(game["seats"][1]["link"])
    watcher.goto(f"{module_server.url}/play/{game['game_id']}")
    for tab in (ana, biel, watcher):
        tab.wait_for_selector("body[data-status='running']")
    assert watcher.locator("#chat-form").is_hidden() and watcher.locator("#chat-readonly").is_visible()

    ana.fill("#chat-input", INJECTION)
    ana.press("#chat-input", "Enter")
    for tab in (biel, watcher):
        line = tab.locator("#chat-lines li.chat-line")
        line.wait_for()
        assert line.locator(".chat-text").text_content() == INJECTION
        assert tab.locator("#chat-lines img").count() == 0
        assert tab.evaluate("window.__pwned") is None
    assert ana.input_value("#chat-input") == ""
    box = ana.locator("#chat-input").bounding_box()
    assert box is not None and box["height"] >= 24

    ana.on("dialog", lambda dialog: dialog.accept())
    ana.click("#resign")
    for tab in (ana, biel, watcher):
        tab.locator("#chat-lines li.chat-event", has_text="Ana resigned").wait_for()
    ana.wait_for_selector("body[data-stand-in='resigned']")
    assert ana.locator("#take-back").is_hidden()
    biel.locator(".seat-card[data-seat='0'] .stand-in", has_text="resigned").wait_for()
    ana.screenshot(path=str(ARTIFACTS / "ux-table-chat-390.png"))


def test_clock_hands_the_seat_to_a_bot_and_the_player_takes_it_back(
    context: Any, module_server: ServerProcess
) -> None:
    seats = [{"kind": "person", "name": "Ana"}, {"kind": "bot", "bot": "random", "name": "Robot"}]
    with module_server.client() as client:
        game = create_claimed_game(client, "tictactoe", seats, clock_seconds=2)
    ana = context.new_page()
    ana.goto(game["seats"][0]["link"])
    ana.wait_for_selector("body[data-your-turn='true']")
    assert re.search(r"0:0[0-2]", ana.locator("#clock").text_content() or "")
    ana.wait_for_selector("body[data-stand-in='clock']", timeout=8000)
    ana.locator("#chat-lines li.chat-event", has_text="Ana ran out of time").wait_for()
    ana.click("#take-back")
    ana.wait_for_selector("body[data-stand-in='']")
    ana.locator("#chat-lines li.chat-event", has_text="Ana took the seat back").wait_for()
    with module_server.client() as client:
        table = client.get(f"/api/games/{game['game_id']}/table").json()
    assert table["stand_ins"] == []


def test_rematch_sends_each_seat_to_its_new_seat_then_lobby_and_replay(
    context: Any, module_server: ServerProcess
) -> None:
    game = finished_tictactoe(module_server)
    ana, biel = context.new_page(), context.new_page()
    ana.goto(game["seats"][0]["link"])
    biel.goto(game["seats"][1]["link"])
    for tab in (ana, biel):
        tab.wait_for_selector("body[data-status='finished']")
        tab.locator("#rematch").wait_for(state="visible")  # drawn on the table message, maybe later
    ana.click("#rematch")
    old = game["game_id"]
    for tab, seat in ((ana, "0"), (biel, "1")):
        tab.wait_for_url(re.compile(r"/play/(?!" + re.escape(old) + r")[^#]+"))
        tab.wait_for_selector("body[data-status='running']")
        tab.locator(f".seat-card[data-seat='{seat}'] .you").wait_for()

    # the lobby: the finished game with its winner and date, and a replay link
    lobby = context.new_page()
    lobby.goto(f"{module_server.url}/")
    lobby.wait_for_selector("body[data-ready='true']")
    lobby.click("[data-status='finished']")
    row = lobby.locator(f".game-line[data-game-id='{old}']")
    row.locator(".winner", has_text="Winner: Ana").wait_for()
    assert row.locator("time.finished-at").get_attribute("datetime")
    assert row.locator("a", has_text="replay").count() == 1
    rematch_id = ana.url.split("/play/")[1].split("#")[0]
    lobby.click("[data-status='running']")
    lobby.locator(f".game-line[data-game-id='{rematch_id}']").wait_for()
    assert lobby.locator("#game-list a", has_text="replay").count() == 0

    # the replay: turn by turn, and played at a chosen speed
    replay = context.new_page()
    replay.goto(f"{module_server.url}/replay/{old}")
    replay.wait_for_selector("body[data-step='0']")
    replay.click("#next-turn")
    replay.wait_for_selector("body[data-step='1']")
    replay.click("#last")
    replay.wait_for_selector("body[data-step='5']")
    replay.click("#previous-turn")
    replay.wait_for_selector("body[data-step='4']")
    replay.click("#first")
    replay.wait_for_selector("body[data-step='0']")
    replay.select_option("#speed", "140")
    replay.click("#play")
    replay.wait_for_selector("body[data-step='5']", timeout=3000)
    replay.locator("#play", has_text=re.compile(r"^play$")).wait_for()


def test_a_lobby_tab_clicked_while_the_first_list_loads_keeps_its_own_list(
    context: Any, module_server: ServerProcess
) -> None:
    """The open games' list answers late; the Finished tab, clicked meanwhile, is not overwritten."""
    game = finished_tictactoe(module_server)
    held: list[Any] = []

    def hold_open_list(route: Any) -> None:
        if "status=open" in route.request.url and not held:
            held.append(route)  # answered only after the Finished tab's list is drawn
        else:
            route.continue_()

    lobby = context.new_page()
    lobby.route(re.compile(r".*/api/games\?.*"), hold_open_list)
    lobby.goto(f"{module_server.url}/")
    lobby.wait_for_selector("body[data-ready='true']")
    lobby.click("[data-status='finished']")
    finished_row = lobby.locator(f".game-line[data-game-id='{game['game_id']}']")
    finished_row.wait_for()
    assert held, "the open games' request was not held"
    held[0].continue_()
    lobby.wait_for_timeout(1000)  # the late open list arrives and must be dropped
    assert finished_row.count() == 1
    assert lobby.locator("[data-status='finished']").get_attribute("aria-selected") == "true"
