"""Knowing it is your turn (issue 13), in a real browser, with two people at tic-tac-toe: the
second player's tab shows "▶" in its title and a badge on its icon exactly while it is their turn;
the optional sound plays (WebAudio) and, with the tab hidden, a notification appears when the turn
begins; notification permission is asked by the click on the option, never on load; the options
are remembered. The browser's Notification and AudioContext are replaced by recording stand-ins
(installed before the page's scripts), so the test sees what the page asked for.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.browser import ARTIFACTS, new_tab
from tests.server.harness import ServerProcess, create_claimed_game, seat_headers

pytestmark = pytest.mark.browser

STAND_INS = """
window.__asked = 0;
window.__notes = [];
window.__tones = 0;
class FakeNotification {
  constructor(title, options) { window.__notes.push({title, body: options && options.body}); }
  close() {}
}
FakeNotification.permission = 'default';
FakeNotification.requestPermission = async () => {
  window.__asked += 1;
  FakeNotification.permission = 'granted';
  return 'granted';
};
window.Notification = FakeNotification;
const RealContext = window.AudioContext;
window.AudioContext = class extends RealContext {
  createOscillator() { window.__tones += 1; return super.createOscillator(); }
};
window.__hidden = false;
Object.defineProperty(Document.prototype, 'hidden', {
  get() { return window.__hidden; },
  configurable: true,
});
"""


@pytest.fixture(scope="module")
def turn_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("turn-data")).start()
    yield process
    process.stop()


def badge(tab: Any) -> str:
    return str(tab.locator("#favicon").get_attribute("data-badge"))


def play_as_first(server: ServerProcess, game: dict[str, Any], action: str) -> None:
    token = game["seats"][0]["token"]
    with server.client() as client:
        move = client.get(f"/api/games/{game['game_id']}").json()["move_number"]
        response = client.post(
            f"/api/games/{game['game_id']}/moves",
            json={"action": action, "expected_move": move},
            headers=seat_headers(token),
        )
        assert response.status_code == 200, response.text


def test_title_badge_sound_and_notification_follow_the_turn(browser: Any, turn_server: ServerProcess) -> None:
    with turn_server.client() as client:
        game = create_claimed_game(
            client,
            "tictactoe",
            [{"kind": "person", "name": "Ana"}, {"kind": "person", "name": "Biel"}],
            seed=1,
            seed_shown=True,
        )
    tab = new_tab(browser)
    context = tab.context
    context.add_init_script(STAND_INS)
    try:
        tab.goto(game["seats"][1]["link"])  # Biel, seat B: Ana moves first
        tab.wait_for_selector("body[data-your-turn='false']")
        assert not tab.title().startswith("▶")
        assert badge(tab) == "off"
        assert tab.evaluate("window.__asked") == 0, "permission asked on load"

        # the options: sound on; notifications asked for by this click only
        tab.click("#settings-toggle")
        tab.check("#sound-setting")
        assert tab.evaluate("window.__tones") == 2  # the sample
        tab.check("#notify-setting")
        tab.wait_for_function("window.__asked === 1")
        assert tab.locator("#notify-setting").is_checked()

        play_as_first(turn_server, game, "mark 0")
        tab.wait_for_selector("body[data-your-turn='true']")
        assert tab.title().startswith("▶"), tab.title()
        assert badge(tab) == "on"
        assert tab.evaluate("window.__tones") == 4
        assert tab.evaluate("window.__notes.length") == 0  # the tab is visible: no notification
        tab.screenshot(path=str(ARTIFACTS / "ux-turn-1280.png"))

        tab.locator("svg#board [data-action='mark 4']").click()
        tab.wait_for_selector("body[data-your-turn='false']")
        assert badge(tab) == "off"
        assert not tab.title().startswith("▶")

        tab.evaluate("window.__hidden = true")
        play_as_first(turn_server, game, "mark 1")
        tab.wait_for_selector("body[data-your-turn='true']")
        notes = tab.evaluate("window.__notes")
        assert len(notes) == 1 and "Tic-tac-toe" in notes[0]["title"], notes

        # remembered: a new page of the same browser keeps both options, and asks nothing
        again = context.new_page()
        again.goto(game["seats"][1]["link"])
        again.wait_for_selector("body[data-your-turn='true']")
        assert again.locator("#sound-setting").is_checked()
        assert again.evaluate("window.__asked") == 0
        again.close()
    finally:
        context.close()
