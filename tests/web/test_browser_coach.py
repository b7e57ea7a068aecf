"""The coach in a real browser: the lobby's "allow hints" box and row note, the Hint button of a
game created with hints allowed (three choices in the buttons' words, one clicked and played), no
Hint button without the agreement, and the win-probability graph of a finished game on its replay
and on the game page's end screen. Bot budgets are a few iterations."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.browser import ARTIFACTS, browser, create_table, open_lobby, page  # noqa: F401  (the browser fixtures)
from tests.server.harness import GENEROUS_LIMITS, ServerProcess, create_game, seat_headers

pytestmark = pytest.mark.browser

PEOPLE = [{"kind": "person", "name": "Ana"}, {"kind": "person", "name": "Biel"}]
TINY = {"hint_iterations": 40, "curve_move_iterations": 5, "curve_chunk": 4}


@pytest.fixture(scope="module")
def coach_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("coach-web"), limits={**GENEROUS_LIMITS, **TINY}).start()
    yield process
    process.stop()


def test_hint_shows_three_choices_in_words_and_plays_one(page: Any, coach_server: ServerProcess) -> None:  # noqa: F811
    with coach_server.client() as client:
        game = create_game(client, "barcelona", PEOPLE, hints_allowed=True, seed=5, seed_shown=True,
                           invitations=True)
    page.goto(game["seats"][0]["link"])  # the page claims the seat
    page.wait_for_selector("body[data-your-turn='true']")
    assert page.locator("#hints-note").is_visible()
    before = page.evaluate("document.body.dataset.moveNumber")
    page.click("#hint")
    choices = page.locator("#hint-choices button.hint-choice")
    choices.nth(2).wait_for()
    assert choices.count() == 3
    for index in range(3):
        choice = choices.nth(index)
        action = choice.get_attribute("data-action")
        text = choice.text_content() or ""
        assert "%" in text and action not in text  # the words of the action, never its raw text
        button = page.locator(f"#actions button.action[data-action='{action}']")
        label = (button.text_content() or "").lstrip("0123456789")
        assert label and text.startswith(label)
    # hovering a hint marks its place on the board (issue 37)
    placed = 0
    for index in range(3):
        action = choices.nth(index).get_attribute("data-action")
        targets = page.locator(f'svg#board [data-action="{action}"]')
        if not targets.count():
            continue
        choices.nth(index).hover()
        assert page.locator("svg#board .pointed").count() == targets.count(), action
        page.mouse.move(0, 0)
        assert page.locator("svg#board .pointed").count() == 0
        placed += 1
    assert placed >= 1
    page.screenshot(path=str(ARTIFACTS / "coach-hint.png"))
    choices.first.click()
    page.wait_for_selector(f"body:not([data-move-number='{before}'])")
    assert page.locator("#hint-choices").is_hidden()
    assert not page.problems


def test_no_hint_button_in_a_game_created_without_hints(page: Any, coach_server: ServerProcess) -> None:  # noqa: F811
    with coach_server.client() as client:
        game = create_game(client, "tictactoe", PEOPLE)
    page.goto(game["seats"][0]["link"])
    page.wait_for_selector("body[data-your-turn='true']")
    page.wait_for_timeout(300)
    assert page.locator("#hint-panel").is_hidden() and page.locator("#hints-note").is_hidden()


def test_the_lobby_creates_a_game_with_hints_and_says_so(page: Any, coach_server: ServerProcess) -> None:  # noqa: F811
    open_lobby(page, coach_server.url, "tictactoe")
    page.select_option("#game-select", "tictactoe")
    page.check("#hints-allowed")
    created = create_table(page)
    page.locator("#invitation-list .hints-note").wait_for()  # the creator knows what the links offer
    with coach_server.client() as client:
        games = client.get("/api/games?status=open").json()["games"]
    mine = [game for game in games if game["hints_allowed"] and game["game"] == "tictactoe"]
    assert mine and created in [game["game_id"] for game in mine]
    row = page.locator(f".game-line[data-game-id='{mine[0]['game_id']}']")
    row.locator(".hints-allowed").wait_for()
    assert not page.problems


def finish_tictactoe(server: ServerProcess, game: dict[str, Any]) -> None:
    ana, biel = (seat["token"] for seat in game["seats"])
    with server.client() as client:
        for number, (token, cell) in enumerate([(ana, 0), (biel, 3), (ana, 1), (biel, 4), (ana, 2)]):
            response = client.post(
                f"/api/games/{game['game_id']}/moves",
                json={"action": f"mark {cell}", "expected_move": number},
                headers=seat_headers(token),
            )
            assert response.status_code == 200, response.text


def test_the_graph_of_a_finished_game_on_its_replay_and_end_screen(
    page: Any, coach_server: ServerProcess  # noqa: F811
) -> None:
    with coach_server.client() as client:
        game = create_game(client, "tictactoe", PEOPLE)
    finish_tictactoe(coach_server, game)
    page.goto(f"{coach_server.url}/replay/{game['game_id']}")
    page.wait_for_selector("body[data-win-probability='ready']")
    assert page.locator("#win-panel").is_visible()
    lines = page.locator("#win-chart polyline.win-probability-line")
    assert lines.count() == 2
    # each seat's line in its own colour (A blue, B vermillion), as in the score chart
    colours = [lines.nth(seat).evaluate("line => getComputedStyle(line).stroke") for seat in (0, 1)]
    assert colours == ["rgb(0, 114, 178)", "rgb(213, 94, 0)"]
    assert page.locator("#win-table tbody tr").count() == 6
    label = page.locator("#win-chart").get_attribute("aria-label") or ""
    assert "Ana (A)" in label and "%" in label
    page.click("#last")
    page.wait_for_selector("body[data-step='5']")
    label = page.locator("#win-chart").get_attribute("aria-label") or ""
    assert "Ana (A): 100%" in label and "Biel (B): 0%" in label
    page.locator("#win-panel details summary").click()
    page.locator("#win-panel").screenshot(path=str(ARTIFACTS / "coach-graph-replay.png"))

    page.goto(f"{coach_server.url}/play/{game['game_id']}")
    page.wait_for_selector("body[data-win-probability='ready']")
    assert page.locator("#final").is_visible() and page.locator("#win-panel").is_visible()
    assert page.locator("#win-chart polyline.win-probability-line").count() == 2
    assert not page.problems
