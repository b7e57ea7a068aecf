"""What a new player tripped over while playing whole games (issue 37), each checked where it
was found: the end of a 3-player game of The Rose of Fire with bots, on a laptop and a phone.

- Every player's column of the score table fits its panel on a laptop (bots' long names wrap).
- Score sources read as the catalog writes them (no Title Case, which Czech does not use).
- On a phone the decision sheet gives the screen back once the game is over: it no longer
  covers the score table.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from eixample.games import barcelona
from tests.server.browser import ARTIFACTS, catalog, open_seat, tab, with_lang
from tests.server.harness import ServerProcess, create_claimed_game, wait_until_finished

pytestmark = pytest.mark.browser



@pytest.fixture(scope="module")
def finished_rose(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The spectator's link of a finished 3-player Rose of Fire game of bots."""
    process = ServerProcess(tmp_path_factory.mktemp("played-data")).start()
    try:
        with process.client() as client:
            bots = [{"kind": "bot", "bot": "random"} for _ in range(3)]
            game = create_claimed_game(client, "rose-of-fire", bots, seed=5, seed_shown=True)
            wait_until_finished(client, game, timeout=90)
        yield str(game["spectator_link"])
    finally:
        process.stop()


@pytest.mark.parametrize(
    "width,height,lang", [(1280, 800, "cs"), (390, 844, "en")], ids=["1280-cs", "390-en"]
)
def test_the_end_screen_of_three_players(
    browser: Any, finished_rose: str, width: int, height: int, lang: str
) -> None:
    sources = catalog(lang)["source"]
    with tab(browser, width, height) as page:
        page.goto(with_lang(finished_rose, lang))
        page.wait_for_selector("body[data-status='finished'] #final:not([hidden])")
        final = page.locator("#final")
        final.scroll_into_view_if_needed()
        page.wait_for_timeout(300)
        rows = page.locator("#final-scores tbody tr[data-source]")
        for k in range(rows.count()):
            row = rows.nth(k)
            source = row.get_attribute("data-source")
            assert row.locator("th").inner_text() == sources[source], source
        if width >= 1280:
            table = page.locator("#final-scores").bounding_box()
            panel = page.locator("#final .table-scroll").bounding_box()
            assert table and panel
            assert table["x"] + table["width"] <= panel["x"] + panel["width"] + 0.5, (table, panel)
        total = page.locator("#final-scores tr.total")
        total.scroll_into_view_if_needed()
        covered = total.evaluate(
            "row => { const r = row.getBoundingClientRect();"
            " const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);"
            " return hit && !row.contains(hit) ? (hit.id || hit.className || hit.tagName) : null; }")
        assert covered is None, f"the score table's total is covered by {covered}"
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"ux-played-final-{width}.png"))
        assert not page.problems, page.problems


def test_the_solo_opponent_goes_by_its_name_in_the_page_language(browser: Any, module_server: Any) -> None:
    """In a Czech solo game the Assistant was "Gaudí's Assistant" in the seats, the region tabs
    and the end screen's columns, while the result said "Gaudího asistent"."""
    with module_server.client() as client:
        created = create_claimed_game(client, "barcelona", [{"kind": "person", "name": "Ana"}], seed=3)
    names = catalog("cs")["bcn"]["solo"]["assistant"], catalog("en")["bcn"]["solo"]["assistant"]
    with tab(browser, 1280, 800) as page:
        open_seat(page, created, lang="cs")
        seats = page.locator("#seats").inner_text()
        tabs = page.locator("#board-toolbar").inner_text()
        assert names[0] in seats and names[0] in tabs
        assert names[1] not in seats and names[1] not in tabs
        assert not page.problems, page.problems


LABEL = """async ([action, view, seat]) => {
  const module = await import('/static/games/barcelona.js');
  return module.actionLabel(action, {view, seat, seats: []});
}"""


def benefits_decision() -> tuple[dict[str, Any], list[str], int]:
    """A Barcelona view where the seat deciding chooses among its Intersections' benefits."""
    for seed in range(1, 60):
        state = barcelona.new_game(players=2, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            if any(action.startswith("benefits ") and action != "benefits none" for action in legal):
                seat = state.current_player()
                return state.view(seat), legal, seat
            state.apply(rng.choice(legal))
    raise AssertionError("no benefits decision found")


def test_intersection_benefits_are_said_with_what_they_give(browser: Any, module_server: Any) -> None:
    """The choice read "Take the benefits of Intersections 1": it now says what slot 1 gives."""
    view, legal, seat = benefits_decision()
    slots = view["player_list"][seat]["intersections"]
    with module_server.client() as client:
        created = create_claimed_game(client, "barcelona", [{"kind": "person", "name": "Ana"}], seed=3)
    with tab(browser) as page:
        page.goto(created["spectator_link"])
        page.wait_for_selector("svg#board.bcn-board")
        for action in legal:
            if not action.startswith("benefits ") or action == "benefits none":
                continue
            label = page.evaluate(LABEL, [action, view, seat])
            numbers = [int(n) for n in action.split()[1].split("+")]
            assert label.startswith("Take ") and "(Intersections " in label, label
            for n in numbers:
                count = next(iter(slots[n - 1]["benefit"].values()))
                assert str(count) in label, (label, slots[n - 1])
        assert not page.problems, page.problems
