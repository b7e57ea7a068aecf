"""Accessibility (issues 13 and 37): axe-core (through axe-playwright-python, which bundles it)
finds no serious or critical violation on the lobby, the game page (Barcelona and tic-tac-toe,
during the player's turn and at the end; The Rose of Fire at the end), the replay page and both
games' rules pages, at 1280x800 and 390x844. (The Rose of Fire's game page during a turn and its
replay are checked in test_browser_rose_of_fire.py.)
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.browser import assert_no_serious_axe_violations, tab
from tests.server.harness import ServerProcess, create_claimed_game, wait_until_finished

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def pages(module_server: ServerProcess) -> dict[str, tuple[str, str]]:
    """Each page's address and the selector that says it is ready."""
    with module_server.client() as client:
        people = [{"kind": "person", "name": "Ana"}, {"kind": "bot", "bot": "random", "name": "Biel"}]
        bots = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
        bcn = create_claimed_game(client, "barcelona", people, seed=6, seed_shown=True)
        ttt = create_claimed_game(client, "tictactoe", people, seed=6, seed_shown=True)
        done = create_claimed_game(client, "barcelona", bots, seed=7, seed_shown=True)
        rose = create_claimed_game(client, "rose-of-fire", bots, seed=7, seed_shown=True)

        wait_until_finished(client, done, rose)
    turn = "body[data-your-turn='true'][data-busy='false']"
    return {
        "lobby": (f"{module_server.url}/", "#game-select option"),
        "barcelona": (bcn["seats"][0]["link"], turn),
        "tictactoe": (ttt["seats"][0]["link"], turn),
        "finished": (done["spectator_link"], "body[data-status='finished']"),
        "replay": (f"{module_server.url}/replay/{done['game_id']}", "body[data-step='0']"),
        "rules": (f"{module_server.url}/static/rules.html?game=barcelona&lang=en", "body[data-rules]"),
        "finished-rose-of-fire": (rose["spectator_link"], "body[data-status='finished']"),
        "rules-rose-of-fire": (
            f"{module_server.url}/static/rules.html?game=rose-of-fire&lang=en", "body[data-rules]"
        ),
    }


@pytest.mark.parametrize("width,height", [(1280, 800), (390, 844)], ids=["1280", "390"])
@pytest.mark.parametrize(
    "name",
    [
        "lobby", "barcelona", "tictactoe", "finished", "replay", "rules",
        "finished-rose-of-fire", "rules-rose-of-fire",
    ],
)
def test_no_serious_axe_violations(
    browser: Any, pages: dict[str, tuple[str, str]], name: str, width: int, height: int
) -> None:
    url, ready = pages[name]
    with tab(browser, width, height) as page:
        page.goto(url)
        page.wait_for_selector(ready, state="attached")
        page.wait_for_timeout(200)
        assert_no_serious_axe_violations(page)
