"""The end of a game as a new player sees it (issue 37): the score table of a 4-player game
shows every player's column or scrolls inside its own box, on a laptop and a phone and in
Japanese; bots are named by their level.

Screenshots go to test-artifacts/ux-endgame-<lang>-<width>.png.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.server.browser import ARTIFACTS, LAPTOP, PHONE, Viewport, open_page
from tests.server.harness import ServerProcess, create_claimed_game, wait_until_finished

pytestmark = pytest.mark.browser


# Per column of the final score table: is its header inside the window, or can the table's own
# box scroll to it? And the widest row label's lines (a label one character wide wraps a lot).
TABLE_FACTS = """() => {
  const table = document.querySelector('#final-scores');
  const box = table.closest('.table-scroll');
  const style = getComputedStyle(box);
  const scrolls = box.scrollWidth > box.clientWidth + 1 && ['auto', 'scroll'].includes(style.overflowX);
  const inner = box.getBoundingClientRect();
  const columns = [...table.querySelectorAll('thead th')].map((th) => {
    const r = th.getBoundingClientRect();
    return {left: r.left, right: r.right, shown: r.left >= inner.left - 1 && r.right <= inner.right + 1
      && r.right <= window.innerWidth + 1};
  });
  const lines = [...table.querySelectorAll('tbody th[scope=row]')].map((th) => {
    const style = getComputedStyle(th);
    const height = parseFloat(style.lineHeight) || 1.2 * parseFloat(style.fontSize);
    const text = th.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
    return Math.round(text / height);
  });
  return {scrolls, columns, lines, pageWidth: document.documentElement.scrollWidth};
}"""


@pytest.fixture(scope="module")
def four_player_game(module_server: ServerProcess) -> str:
    with module_server.client() as client:
        game = create_claimed_game(
            client,
            "barcelona",
            [
                {"kind": "bot", "bot": "random", "name": name}
                for name in ("Montserrat Puig", "Bartomeu Rosselló", "Carme", "Dolors Aleixandre")
            ],
            seed=7,
        )
        wait_until_finished(client, game, timeout=90)
    return str(game["game_id"])


@pytest.mark.parametrize("lang", ["en", "ja", "de"])
@pytest.mark.parametrize("page", ["replay", "play"])
@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["390", "1280"])
def test_final_scores_show_every_player(
    browser: Any,
    module_server: ServerProcess,
    four_player_game: str,
    viewport: Viewport,
    page: str,
    lang: str,
) -> None:
    tab = open_page(browser, viewport, f"{module_server.url}/{page}/{four_player_game}?lang={lang}")
    where = f"{page} in {lang} at {viewport['width']}"
    try:
        tab.wait_for_selector("#final-scores tr.total td", state="attached")
        if page == "replay":
            tab.locator("#last").click()
        tab.locator("#final-scores").scroll_into_view_if_needed()
        ARTIFACTS.mkdir(exist_ok=True)
        tab.screenshot(
            path=str(ARTIFACTS / f"ux-endgame-{page}-{lang}-{viewport['width']}.png"), full_page=True
        )
        facts = tab.evaluate(TABLE_FACTS)
        assert len(facts["columns"]) == 5, where
        hidden = [i for i, column in enumerate(facts["columns"]) if not column["shown"]]
        assert not hidden or facts["scrolls"], (
            f"{where}: columns {hidden} are cut off and nothing scrolls: {facts}"
        )
        assert facts["pageWidth"] <= viewport["width"], f"{where}: the page scrolls sideways"
        assert max(facts["lines"]) <= 3, f"{where}: a row label wraps onto {max(facts['lines'])} lines"
        assert not tab.problems, tab.problems
    finally:
        tab.context.close()


@pytest.fixture(scope="module")
def bot_game(module_server: ServerProcess) -> str:
    """A finished game of two unnamed bots: a level ("beginner") and a spec of its own."""
    with module_server.client() as client:
        game = create_claimed_game(
            client,
            "tictactoe",
            [{"kind": "bot", "bot": "beginner"}, {"kind": "bot", "bot": "random"}],
            seed=3,
        )
        wait_until_finished(client, game)
    return str(game["game_id"])


@pytest.mark.parametrize("page", ["play", "replay", "lobby"])
def test_bots_are_named_by_their_level_in_the_page_language(
    browser: Any, module_server: ServerProcess, bot_game: str, page: str
) -> None:
    url = (
        f"{module_server.url}/?lang=fr"
        if page == "lobby"
        else f"{module_server.url}/{page}/{bot_game}?lang=fr"
    )
    tab = open_page(browser, PHONE, url)
    try:
        if page == "lobby":
            tab.wait_for_selector("#game-select option", state="attached")
            tab.locator("button[data-status='finished']").click()
            line = tab.locator(f"#game-list li[data-game-id='{bot_game}']")
            line.wait_for()
            text = line.inner_text()
        else:
            tab.wait_for_selector("#final-scores tr.total td", state="attached")
            if page == "replay":
                tab.locator("#last").click()
            tab.wait_for_selector("#winners:not(:empty)")
            text = tab.locator("#seats").inner_text() + "\n" + tab.locator("#final").inner_text()
        assert "Bot A (Débutant)" in text, text
        assert "Bot B (coups au hasard)" in text, text
        assert "greedy" not in text and "random" not in text, text
        assert not re.search(r"\)\s*\([AB]\)", text), f"a seat's letter twice: {text}"
        assert not tab.problems, tab.problems
    finally:
        tab.context.close()


@pytest.mark.parametrize("lang", ["fr", "de", "ja", "cs"])
def test_barcelona_board_says_victory_points_in_the_page_language(
    browser: Any, module_server: ServerProcess, four_player_game: str, lang: str
) -> None:
    tab = open_page(browser, LAPTOP, f"{module_server.url}/replay/{four_player_game}?lang={lang}")
    try:
        tab.wait_for_selector("svg#board[viewBox]")
        tab.locator("#last").click()
        tab.wait_for_selector("#winners:not(:empty)")
        ARTIFACTS.mkdir(exist_ok=True)
        tab.screenshot(path=str(ARTIFACTS / f"ux-endgame-board-{lang}.png"))
        texts = tab.locator("svg#board text").all_text_contents()
        english = [text for text in texts if re.search(r"\bVP\b|\dVP\b", text)]
        assert not english, f"{lang}: {len(english)} board texts say VP: {english[:10]}"
        assert not tab.problems, tab.problems
    finally:
        tab.context.close()


# Words as the page makes them, from its own modules (the page's language is set by ?lang=).
WORDS = """async () => {
  const { message, t } = await import('/static/js/i18n.js');
  const coin = (count) => t('bcn.price.coin', { count });
  const cloth = (count) => t('bcn.price.cloth', { count });
  return {
    warehouse: t('bcn.panel.warehouseNote', { coins: coin(1), cloth: cloth(2), room: 4 }),
    intersection: message({ key: 'bcn.intersection', args: { player: 'Ana', crossing: 'X3', benefits: [
      { key: 'bcn.gains', args: { gains: [{ key: 'bcn.gain.coin', args: { count: 1 } }] } },
      { key: 'bcn.gain.nothing', args: {} },
      { key: 'bcn.gain.nothing', args: {} },
      { key: 'bcn.gains', args: { gains: [{ key: 'bcn.gain.cerda', args: { count: 1 } }] } },
    ] } }),
    alone: message({ key: 'bcn.intersection', args: { player: 'Ana', crossing: 'X3', benefits: [
      { key: 'bcn.gain.nothing', args: {} },
    ] } }),
    house: t('rof.do.house', { house: t('rof.house.U') }),
  };
}"""


def test_counts_articles_and_lists_read_right(
    browser: Any, module_server: ServerProcess, bot_game: str
) -> None:
    tab = open_page(browser, LAPTOP, f"{module_server.url}/replay/{bot_game}?lang=en")
    try:
        tab.wait_for_selector("#winners:not(:empty)")
        words = tab.evaluate(WORDS)
        assert words["warehouse"].startswith("1 coin · 2 cloth"), words
        assert "nothing" not in words["intersection"] and "1 coin; 1 step" in words["intersection"], words
        assert "nothing" in words["alone"], words
        assert not re.search(r"\ba upper", words["house"]), words
        assert not tab.problems, tab.problems
    finally:
        tab.context.close()
