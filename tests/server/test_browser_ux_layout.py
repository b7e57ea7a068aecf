"""Small and large screens (issue 13): at 390x844 (a phone) and 1280x800 (a laptop), on the lobby,
the game page (Barcelona and tic-tac-toe, while it is the player's turn) and the replay page:

- the page never scrolls sideways (scroll width = window width);
- every visible control (links, buttons, form fields, clickable board targets) is at least
  24x24 CSS px (WCAG 2.2 target size);
- the decision and its first choice are in the window, also after scrolling to the page's end;
- on the phone the board is readable (median text of the part shown >= 11 px) and its regions
  (city, offers, tracks, each player board) open one at a time.

Screenshots of each page go to test-artifacts/ux-<page>-<width>.png.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.browser import ARTIFACTS, LAPTOP, PHONE, Viewport, open_page
from tests.server.harness import (
    ServerProcess,
    create_claimed_game,
    seat_headers,
    wait_until_finished,
)

pytestmark = pytest.mark.browser

MIN_TARGET = 24
READY = "body[data-your-turn='true'][data-busy='false']"

# Every visible control, with its box (an input's label's); board targets clipped away by the region
# shown are left out.
CONTROLS = """() => {
  const selector = 'a[href], button, select, input, summary, [role=button], [tabindex]:not([tabindex="-1"])';
  const out = [];
  for (const node of document.querySelectorAll(selector)) {
    if (node.closest('[hidden]') || node.closest('details:not([open]) > :not(summary)')) continue;
    if (node.matches('ol.log, [tabindex="0"].log')) continue;
    // an input inside its label is clicked through the label (a file picker's is hidden in it)
    const r = (node.matches('input') && node.closest('label') || node).getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    const style = getComputedStyle(node);
    if (style.visibility === 'hidden' || style.display === 'none') continue;
    const svg = node.ownerSVGElement;
    if (svg) {
      const s = svg.getBoundingClientRect();
      const x = r.left + r.width / 2, y = r.top + r.height / 2;
      if (x < s.left || x > s.right || y < s.top || y > s.bottom) continue;
    }
    out.push({what: node.outerHTML.slice(0, 90), width: r.width, height: r.height});
  }
  return out;
}"""

BOARD_TEXT = """() => {
  const svg = document.querySelector('svg#board');
  const s = svg.getBoundingClientRect();
  const box = document.querySelector('#board-viewport').getBoundingClientRect();
  const sizes = [];
  for (const node of svg.querySelectorAll('text')) {
    const r = node.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (r.width === 0 || x < s.left || x > s.right || y < s.top || y > s.bottom) continue;
    sizes.push(parseFloat(getComputedStyle(node).fontSize) * svg.getScreenCTM().a);
  }
  sizes.sort((a, b) => a - b);
  return sizes.length ? sizes[Math.floor(sizes.length / 2)] : null;
}"""


@pytest.fixture(scope="module")
def games(module_server: ServerProcess) -> dict[str, str]:
    """Links to a Barcelona and a tic-tac-toe game where seat A is to play, and to the replays
    of a finished game of each."""
    with module_server.client() as client:
        barcelona = create_claimed_game(
            client,
            "barcelona",
            [{"kind": "person", "name": "Ana"}, {"kind": "bot", "bot": "random", "name": "Biel"}],
            seed=4,
            seed_shown=True,
        )
        tictactoe = create_claimed_game(
            client,
            "tictactoe",
            [{"kind": "person", "name": "Ana"}, {"kind": "bot", "bot": "random", "name": "Biel"}],
            seed=4,
            seed_shown=True,
        )
        finished = {
            name: create_claimed_game(
                client, name, [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}], seed=5
            )
            for name in ("barcelona", "tictactoe")
        }
        wait_until_finished(client, *finished.values())
    return {
        "lobby": f"{module_server.url}/",
        "barcelona": barcelona["seats"][0]["link"],
        "tictactoe": tictactoe["seats"][0]["link"],
        "replay-barcelona": f"{module_server.url}/replay/{finished['barcelona']['game_id']}",
        "replay-tictactoe": f"{module_server.url}/replay/{finished['tictactoe']['game_id']}",
    }


def wait_ready(tab: Any, name: str) -> None:
    if name in ("barcelona", "tictactoe"):
        tab.wait_for_selector(READY)
        tab.wait_for_selector("#actions button.action, #actions summary")
    elif name.startswith("replay"):
        tab.wait_for_selector("body[data-step='0']")
        tab.wait_for_selector("svg#board[viewBox]")
    else:
        tab.wait_for_selector("#game-select option", state="attached")
    tab.wait_for_timeout(150)  # the viewport's zoom follows the first render


def assert_no_sideways_scroll(tab: Any, where: str) -> None:
    width = tab.evaluate("document.documentElement.scrollWidth")
    assert width <= tab.viewport_size["width"], f"{where}: the page scrolls sideways ({width} px)"


def assert_targets_big_enough(tab: Any, where: str) -> None:
    controls = tab.evaluate(CONTROLS)
    assert controls, where
    small = [c for c in controls if c["width"] < MIN_TARGET - 0.5 or c["height"] < MIN_TARGET - 0.5]
    assert not small, f"{where}: controls under {MIN_TARGET} px: {small[:5]}"


def assert_in_window(tab: Any, selector: str, where: str) -> None:
    box = tab.locator(selector).first.bounding_box()
    assert box is not None, f"{where}: {selector} is not shown"
    height = tab.viewport_size["height"]
    assert box["y"] >= 0 and box["y"] + min(box["height"], 40) <= height, (
        f"{where}: {selector} is out of the window: {box}"
    )


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["390", "1280"])
@pytest.mark.parametrize("name", ["lobby", "barcelona", "tictactoe", "replay-barcelona", "replay-tictactoe"])
def test_layout(browser: Any, games: dict[str, str], name: str, viewport: Viewport) -> None:
    tab = open_page(browser, viewport, games[name])
    where = f"{name} at {viewport['width']}x{viewport['height']}"
    try:
        wait_ready(tab, name)
        ARTIFACTS.mkdir(exist_ok=True)
        tab.screenshot(path=str(ARTIFACTS / f"ux-{name}-{viewport['width']}.png"))
        assert_no_sideways_scroll(tab, where)
        assert_targets_big_enough(tab, where)
        if name in ("barcelona", "tictactoe"):
            assert_in_window(tab, "#decision", where)
            assert_in_window(tab, "#actions button.action, #actions summary", where)
            tab.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
            tab.wait_for_timeout(50)
            assert_in_window(tab, "#decision", f"{where}, scrolled to the end")
        if name.startswith("replay"):
            assert_in_window(tab, "#next", where)
        if viewport is PHONE and name != "lobby":
            size = tab.evaluate(BOARD_TEXT)  # an empty tic-tac-toe grid has no text
            assert size is not None or name.endswith("tictactoe"), where
            assert size is None or size >= 11, f"{where}: board text too small to read ({size} px)"
        assert not tab.problems, tab.problems
    finally:
        tab.context.close()


def test_phone_opens_board_regions_one_at_a_time(browser: Any, games: dict[str, str]) -> None:
    tab = open_page(browser, PHONE, games["barcelona"])
    try:
        wait_ready(tab, "barcelona")
        # the first decision (placing citizens) is about the city: the city is shown
        assert tab.locator("svg#board").get_attribute("data-region") == "city"
        for region in ("tracks", "board-1", "board-0", "side"):
            tab.locator(f'.region-tab[data-region="{region}"]').click()
            assert tab.locator("svg#board").get_attribute("data-region") == region
            assert tab.locator(f'.region-tab[data-region="{region}"]').get_attribute("aria-pressed") == "true"
            assert tab.evaluate(BOARD_TEXT) >= 11, f"{region}: board text too small"
            assert_no_sideways_scroll(tab, region)
        tab.screenshot(path=str(ARTIFACTS / "ux-barcelona-390-side.png"))
        tab.locator('.region-tab[data-region="all"]').click()
        whole = tab.locator("svg#board").get_attribute("viewBox") or ""
        assert whole.split()[:3] == ["0", "0", "1000"], whole
        # zooming widens the drawing inside its own scrolling box, never the page
        tab.locator(".zoom-fit").click()
        before = tab.locator("svg#board").bounding_box()["width"]
        tab.locator(".zoom-in").click()
        tab.locator(".zoom-in").click()
        assert tab.locator("svg#board").bounding_box()["width"] > before * 1.5
        assert_no_sideways_scroll(tab, "zoomed in")
    finally:
        tab.context.close()


def test_phone_panning_is_kept_while_others_move(browser: Any, module_server: ServerProcess) -> None:
    """A spectator on a phone pans the zoomed city; moves arriving do not move the view back."""
    with module_server.client() as client:
        people = [{"kind": "person", "name": "Ana"}, {"kind": "person", "name": "Biel"}]
        game = create_claimed_game(client, "barcelona", people, seed=8, seed_shown=True)
    tab = open_page(browser, PHONE, game["spectator_link"])
    try:
        tab.wait_for_selector("svg#board[data-region='city']")
        tab.wait_for_timeout(150)
        box = tab.locator("#board-viewport")
        assert float(box.get_attribute("data-zoom") or 1) > 1, "the city is zoomed in to be readable"
        box.evaluate("(node) => { node.scrollLeft = 60; node.scrollTop = 40; }")
        before = box.evaluate("(node) => [node.scrollLeft, node.scrollTop]")
        with module_server.client() as client:
            state = client.get(
                f"/api/games/{game['game_id']}/state", headers=seat_headers(game["seats"][0]["token"])
            )
            action = state.json()["legal_actions"][0]
            moved = client.post(
                f"/api/games/{game['game_id']}/moves",
                json={"action": action, "expected_move": state.json()["move_number"]},
                headers=seat_headers(game["seats"][0]["token"]),
            )
            assert moved.status_code == 200, moved.text
        tab.wait_for_selector("body[data-move-number='1']")
        assert box.evaluate("(node) => [node.scrollLeft, node.scrollTop]") == before
    finally:
        tab.context.close()
