"""Refusals reach the player (issue 37): a refused hint (429 too many, 503 busy, 409 stale) stays
shown with when to ask again, and the Hint button waits that long."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.server.browser import tab
from tests.server.harness import GENEROUS_LIMITS, ServerProcess, create_claimed_game, seat_headers

pytestmark = pytest.mark.browser

PEOPLE = [{"kind": "person", "name": "Ana"}, {"kind": "person", "name": "Biel"}]
READY = "body[data-your-turn='true'][data-busy='false']"


SERVER_OPTIONS = {"limits": {**GENEROUS_LIMITS, "hint_iterations": 40, "hints_per_minute": 1}}
"""The options of this module's server (module_server)."""


def play(server: ServerProcess, game: dict[str, Any], seat: int, action: str, move: int) -> None:
    with server.client() as client:
        response = client.post(
            f"/api/games/{game['game_id']}/moves",
            json={"action": action, "expected_move": move},
            headers=seat_headers(game["seats"][seat]["token"]),
        )
    assert response.status_code == 200, response.text


def test_a_refused_hint_is_shown_with_when_to_ask_again(browser: Any, module_server: ServerProcess) -> None:
    with module_server.client() as client:
        game = create_claimed_game(client, "tictactoe", PEOPLE, hints_allowed=True)
    with tab(browser, console=False) as page:
        page.goto(game["seats"][0]["link"])
        page.wait_for_selector(READY)
        page.locator("#hint").click()
        page.wait_for_selector("#hint-choices button.hint-choice")
        play(module_server, game, 0, "mark 0", 0)
        play(module_server, game, 1, "mark 4", 1)
        page.wait_for_selector("body[data-your-turn='true']")
        page.wait_for_selector("#hint:not([disabled])")
        page.locator("#hint").click()
        status = page.locator("#hint-status")
        page.locator("#hint-status", has_text="Too many").wait_for()
        page.wait_for_timeout(300)
        text = status.inner_text()
        assert re.search(r"try again in \d+ s", text), text
        assert page.locator("#hint").is_disabled(), "the Hint button opens before the server's wait is over"


REFUSED = """async () => {
  const { api } = await import('/static/js/api.js');
  try {
    const seats = [{ kind: 'person' }, { kind: 'person' }];
    await api('/api/games', { method: 'POST', body: { game: 'tictactoe', seats, seed: -1 } });
    return null;
  } catch (error) {
    return error.message;
  }
}"""


@pytest.mark.parametrize(
    ("lang", "words"),
    [("fr", "La demande a été refusée : seed doit valoir au moins 0."), ("ja", "seed は 0 以上")],
)
def test_server_errors_are_shown_in_the_page_language(
    browser: Any, module_server: ServerProcess, lang: str, words: str
) -> None:
    with tab(browser, console=False) as page:
        page.goto(f"{module_server.url}/?lang={lang}")
        page.wait_for_selector("#game-select option", state="attached")
        shown = page.evaluate(REFUSED)
        assert shown is not None and words in shown, shown
        assert "Input should be" not in shown, shown
