"""The pages in a real browser: Debian's chromium, headless, driven by Playwright.

These tests fail (they do not skip) when /usr/bin/chromium is missing: install it with
`apt-get install -y chromium`. Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import httpx
import pytest

from eixample.ai.specs import LEVELS
from eixample.core.records import replay
from eixample.core.registry import get_game
from eixample.games.rose_of_fire import BOT_LEVELS
from tests.server.browser import click_a_random_target, create_table, open_lobby, screenshot, set_seat
from tests.server.harness import ServerProcess, create_game, wait_for

pytestmark = pytest.mark.browser

def test_play_a_game_against_a_bot_by_clicks(page: Any, server: ServerProcess) -> None:
    open_lobby(page, server.url, "tictactoe")  # the example game, unlisted, is chosen by the address
    assert page.locator("#game-select").input_value() == "tictactoe"
    set_seat(page, 0, "person", name="Ana")
    set_seat(page, 1, "bot", level="custom", bot="random")
    game_id = create_table(page)
    screenshot(page, "lobby-created.png")
    page.click("a.play-link[data-seat='0']")
    page.wait_for_selector("svg#board")
    assert re.search(r"/play/([^#?]+)", page.url).group(1) == game_id  # type: ignore[union-attr]

    rng = random.Random(3)
    clicks = 0
    while click_a_random_target(page, rng):
        clicks += 1
        if clicks == 2:
            screenshot(page, "game-mid.png")
    page.wait_for_selector("#final:not([hidden])")
    screenshot(page, "game-end.png")

    shown = [int(text) for text in page.locator("#final-scores .final-score").all_inner_texts()]
    record = httpx.get(f"{server.url}/api/games/{game_id}/record").json()
    engine = replay(get_game("tictactoe"), record)
    assert engine.is_terminal()
    assert shown == engine.scores()
    assert record["actions"][::2] and len(record["actions"][::2]) == clicks
    winners = page.locator("#winners").inner_text()
    if engine.winners() == [0]:
        assert "Ana" in winners
    elif engine.winners() == [1]:
        assert "Bot B" in winners
    else:
        assert "draw" in winners
    assert page.locator("#log li").count() == len(record["actions"])
    assert not page.problems, page.problems


def test_keyboard_undo_buttons_and_replay(page: Any, server: ServerProcess) -> None:
    with server.client() as api:
        people = create_game(api, "tictactoe", [{"name": "Ana"}, {"name": "Biel"}], invitations=True)
        # a game whose actions no renderer handles: every action is a button
        cards = create_game(api, "hiddencards", [{"name": "Ana"}, {"kind": "bot"}], seed=5)
        bots = create_game(api, "tictactoe", [{"kind": "bot"}, {"kind": "bot"}], seed=9)

    page.goto(people["seats"][0]["link"])
    page.wait_for_selector("body[data-your-turn='true']")
    page.keyboard.press("5")
    page.wait_for_selector("button.action.selected[data-action='mark 4']")
    page.wait_for_selector("svg#board .target.selected[data-action='mark 4']")
    page.keyboard.press("Enter")
    page.wait_for_selector("body[data-move-number='1'][data-your-turn='false']")
    assert page.locator("#decision").inner_text() == "Waiting for Biel (B)."

    page.goto(cards["seats"][0]["link"])
    page.wait_for_selector("body[data-your-turn='true']")
    assert page.locator(".raw-view").count() == 1  # no renderer for this game: the view as text
    first = page.locator("button.action").first
    played = first.get_attribute("data-action")
    first.click()
    page.wait_for_selector("body[data-move-number='1']")
    page.wait_for_selector("#undo:not([hidden])")
    page.keyboard.press("u")
    page.wait_for_selector("body[data-move-number='0']")
    assert page.locator(f"button.action[data-action='{played}']").count() == 1
    screenshot(page, "buttons-only.png")

    with server.client() as api:
        deadline_checks = 0
        while api.get(f"/api/games/{bots['game_id']}").json()["status"] != "finished":
            deadline_checks += 1
            assert deadline_checks < 300, "the bot game did not end"
            page.wait_for_timeout(50)
        record = api.get(f"/api/games/{bots['game_id']}/record").json()
    page.goto(f"{server.url}/replay/{bots['game_id']}")
    page.wait_for_selector("body[data-step='0']")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("body[data-step='1']")
    assert page.locator("svg#board .mark").count() == 1
    page.keyboard.press("End")
    steps = len(record["actions"])
    page.wait_for_selector(f"body[data-step='{steps}']")
    engine = replay(get_game("tictactoe"), record)
    shown = [int(text) for text in page.locator("#final-scores .final-score").all_inner_texts()]
    assert shown == engine.scores()
    assert page.locator("svg#board .mark").count() == steps
    # issue 15: the win-probability graph of the finished game, with its table, under the chart
    page.wait_for_selector("#win-panel:not([hidden]) #win-chart polyline")
    assert page.locator("#win-panel h2").inner_text() == "Win probability"
    assert "estimated win probability" in (page.locator("#win-chart").get_attribute("aria-label") or "")
    assert page.locator("#win-chart polyline").count() == 2  # a line per seat
    page.click("#win-panel summary")
    assert page.locator("#win-table tr").count() >= 2
    screenshot(page, "replay-end.png")
    assert not page.problems, page.problems


def test_the_lobby_lists_the_games_people_play_not_the_example(page: Any, server: ServerProcess) -> None:
    """Issue 37: tic-tac-toe stays for tests and as the smallest example, out of the players' list."""
    page.goto(f"{server.url}/")
    page.locator("#game-select option").first.wait_for(state="attached")
    offered = page.locator("#game-select option").evaluate_all("options => options.map(o => o.value)")
    assert "barcelona" in offered and "rose-of-fire" in offered and "tictactoe" not in offered
    assert page.locator("#game-select").input_value() == "barcelona"
    catalog = httpx.get(f"{server.url}/api/catalog").json()
    assert {game["name"]: game["listed"] for game in catalog["games"]}["tictactoe"] is False
    assert any(game["name"] == "tictactoe" for game in catalog["games"])  # the API still creates it


def test_a_seat_opened_to_anyone_is_joined_from_the_open_tab(page: Any, server: ServerProcess) -> None:
    """Issue 37: the creator opens seat B to anyone; the Open tab offers "join" for it (and for no
    invitation-only seat), and joining takes the seat with a private token kept by this browser."""
    open_lobby(page, server.url, "barcelona", players=2)
    set_seat(page, 0, "person", name="Ana")
    set_seat(page, 1, "person")
    page.locator(".seat-row[data-seat='1'] .seat-open").check()
    gid = create_table(page)
    seats = httpx.get(f"{server.url}/api/games/{gid}").json()["seats"]
    assert [(seat["open"], seat["claimed"]) for seat in seats] == [(False, False), (True, False)]
    line = page.locator(f"#game-list .game-line[data-game-id='{gid}']")
    line.wait_for()
    assert line.locator(".join-seat").count() == 1  # Ana's seat stays invitation-only
    line.locator(".join-seat[data-seat='1']").click()
    page.wait_for_url(re.compile(f"/play/{gid}#seat=1"))
    page.wait_for_selector(".seat-card[data-seat='1'] .you")
    kept = page.evaluate(f"localStorage.getItem('eixample.seat.{gid}.1')")
    with server.client() as api:
        assert api.get(f"/api/games/{gid}/state", headers={"X-Seat-Token": kept}).json()["seat"] == 1
        assert api.post(f"/api/games/{gid}/seats/1/join").status_code == 409  # taken: nobody else joins
    page.goto(f"{server.url}/")
    page.locator(f"#game-list .game-line[data-game-id='{gid}']").wait_for()
    assert page.locator(f"#game-list .game-line[data-game-id='{gid}'] .join-seat").count() == 0
    assert not page.problems, page.problems


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 800}, {"width": 390, "height": 844}])
def test_house_rules_wait_behind_a_disclosure_with_a_field_per_seat(
    page: Any, server: ServerProcess, viewport: dict[str, int]
) -> None:
    """Issue 37: Barcelona's house rules are behind "Advanced: house rules", and the starting VP of
    each seat is a number field per place in turn order, not a list typed by hand."""
    page.set_viewport_size(viewport)
    page.goto(f"{server.url}/")
    page.select_option("#game-select", "barcelona")
    page.select_option("#player-count", "3")
    disclosure = page.locator("#options details.house-rules")
    assert disclosure.locator("summary").inner_text() == "Advanced: house rules"
    assert disclosure.get_attribute("open") is None
    fields = disclosure.locator(".seat-list[data-option='seat_vp'] input.seat-list-input")
    assert fields.count() == 3 and not fields.first.is_visible()
    assert page.locator("#options [data-option='first_player']").is_visible()  # printed options stay in view
    assert page.locator(".option-input[data-option='seat_vp']").count() == 0  # no typed list
    disclosure.locator("summary").click()
    assert fields.first.is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    page.select_option("#player-count", "2")  # the fields follow the number of players; it stays open
    assert fields.count() == 2 and fields.first.is_visible()
    page.select_option("#player-count", "3")
    page.select_option("#options [data-option='first_player']", "0")
    fields.nth(0).fill("8")
    fields.nth(2).fill("2")
    for seat in (1, 2):
        set_seat(page, seat, "bot")
    game_id = create_table(page)
    view = httpx.get(f"{server.url}/api/games/{game_id}/state").json()["view"]
    assert [player["vp"] for player in view["player_list"]] == [8, 0, 2]
    assert not page.problems, page.problems


def test_a_record_is_downloaded_and_a_record_file_opens_in_the_replay_page(
    page: Any, server: ServerProcess, tmp_path: Any
) -> None:
    """Issue 37: a finished game's record downloads from its game and replay pages; a record file
    (picked, or dropped on the page) replays there; a file that is no record is refused clearly."""
    with server.client() as api:
        bots = create_game(api, "tictactoe", [{"kind": "bot"}, {"kind": "bot"}], seed=11)
        gid = bots["game_id"]
        wait_for(lambda: api.get(f"/api/games/{gid}").json()["status"] == "finished", timeout=30)
        record = api.get(f"/api/games/{gid}/record").json()
    page.goto(f"{server.url}/play/{gid}")
    page.wait_for_selector("#final:not([hidden])")
    with page.expect_download() as download:
        page.click("#record-download")
    saved = tmp_path / "record.json"
    download.value.save_as(saved)
    assert json.loads(saved.read_text())["actions"] == record["actions"]
    page.goto(f"{server.url}/replay/{gid}")
    page.wait_for_selector("body[data-step='0']")
    with page.expect_download() as again:
        page.click("#record-download")
    assert again.value.suggested_filename == f"eixample-{gid}.json"

    page.goto(f"{server.url}/replay")  # the page for a file: nothing stored to show
    page.wait_for_selector("body[data-ready='true']")  # the file picker is listened to
    assert page.locator("#record-download").is_hidden()
    page.set_input_files("#record-file", files=[{"name": "notes.json", "mimeType": "application/json",
                                                 "buffer": b"not json"}])
    page.wait_for_selector("#error:not([hidden])")
    assert "notes.json is not a game record" in page.locator("#error").inner_text()
    broken = {**record, "actions": record["actions"][:2]}
    page.set_input_files("#record-file", files=[{"name": "short.json", "mimeType": "application/json",
                                                 "buffer": json.dumps(broken).encode()}])
    page.locator("#error", has_text="short.json").wait_for()
    assert "does not reach its end" in page.locator("#error").inner_text()
    # the picker opens from the page's own words, not from the browser's file button
    assert page.locator("#record-file").bounding_box()["width"] <= 1  # type: ignore[index]
    with page.expect_file_chooser() as chooser:
        page.get_by_text("Open a record file (or drop it on the page)").click()
    chooser.value.set_files(str(saved))
    page.wait_for_selector("body[data-record-file='record.json'][data-step='0']")
    assert page.locator("#error").is_hidden()
    steps = len(record["actions"])
    assert page.locator("#position").inner_text() == f"step 0 of {steps}"
    page.click("#last")
    page.wait_for_selector(f"body[data-step='{steps}']")
    # dropped on the page: the same
    page.goto(f"{server.url}/replay")
    page.wait_for_selector("body[data-ready='true']")  # the file picker is listened to
    page.evaluate(
        """(text) => {
            const data = new DataTransfer();
            data.items.add(new File([text], "dropped.json", { type: "application/json" }));
            const drop = new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true });
            document.body.dispatchEvent(drop);
        }""",
        json.dumps(record),
    )
    page.wait_for_selector("body[data-record-file='dropped.json'][data-step='0']")
    page.keyboard.press("End")
    page.wait_for_selector(f"body[data-step='{steps}']")
    assert page.locator("#winners").inner_text()
    unexpected = [problem for problem in page.problems if "status of 422" not in problem]  # the refused file
    assert not unexpected, unexpected


def test_opening_an_invitation_claims_the_seat(page: Any, server: ServerProcess) -> None:
    with server.client() as api:
        created = create_game(api, "tictactoe", [{"name": "Ana"}, {"name": "Biel"}], seed=4, seed_shown=True,
                              invitations=True)
    gid, invitation = created["game_id"], created["seats"][1]["token"]
    page.goto(created["seats"][1]["link"])
    page.wait_for_selector("body[data-move-number='0']")
    assert "seed 4" in page.locator("#title").inner_text()  # a shown seed is on every seat's page
    kept = page.evaluate(f"localStorage.getItem('eixample.seat.{gid}.1')")
    assert kept and kept != invitation
    with server.client() as api:
        refused = api.get(f"/api/games/{gid}/state", headers={"X-Seat-Token": invitation})
        assert refused.status_code == 403 and "claimed" in refused.json()["error"]
        assert api.get(f"/api/games/{gid}/state", headers={"X-Seat-Token": kept}).json()["seat"] == 1
        # Ana plays by API; Biel's page hears of it, and of Ana's presence
        move = {"action": "mark 4", "expected_move": 0}
        claimed = api.post(f"/api/games/{gid}/claim", headers={"X-Seat-Token": created["seats"][0]["token"]})
        ana = {"X-Seat-Token": claimed.json()["token"]}
        assert api.post(f"/api/games/{gid}/moves", json=move, headers=ana).status_code == 200
    page.wait_for_selector("body[data-move-number='1'][data-your-turn='true']")
    page.reload()  # the same browser keeps its seat
    page.wait_for_selector("body[data-move-number='1'][data-your-turn='true']")
    assert page.locator(".seat-card[data-seat='1'] .you").count() == 1
    page.goto(f"{server.url}/")  # and the lobby shows the seed too
    page.click(".tabs [data-status='running']")
    line = page.locator(f".game-line[data-game-id='{gid}'] .seed-shown")
    line.wait_for()
    assert line.inner_text() == "seed 4"
    assert not page.problems, page.problems


def test_the_lobby_offers_bot_levels_by_name(page: Any, server: ServerProcess) -> None:
    """Issue 15: a bot seat is chosen by level (plain, translated names); a custom spec is one
    choice away."""
    page.goto(f"{server.url}/?game=tictactoe")
    page.select_option("#game-select", "tictactoe")
    level = page.locator(".seat-row[data-seat='1'] .seat-level")
    spec = page.locator(".seat-row[data-seat='1'] .seat-bot")
    names = level.locator("option").all_inner_texts()
    assert names == ["Beginner", "Intermediate", "Strong", "Strongest", "Custom bot spec…"]
    assert level.input_value() == "intermediate" and spec.is_hidden()
    level.select_option("strong")
    game_id = create_table(page)
    info = httpx.get(f"{server.url}/api/games/{game_id}").json()
    assert info["seats"][1]["bot"] == LEVELS["strong"]
    level.select_option("custom")
    assert spec.is_visible()


def test_the_lobby_offers_each_games_own_levels_and_keeps_the_choice_by_name(
    page: Any, server: ServerProcess
) -> None:
    """The Rose of Fire has levels of its own: switching games keeps a seat's level by its name
    with the new game's spec, and a level the game lacks becomes its strongest."""
    page.goto(f"{server.url}/")
    page.select_option("#game-select", "barcelona")
    page.select_option("#player-count", "3")
    levels = [page.locator(f".seat-row[data-seat='{seat}'] .seat-level") for seat in (1, 2)]
    specs = [page.locator(f".seat-row[data-seat='{seat}'] .seat-bot") for seat in (1, 2)]
    levels[0].select_option("strong")
    levels[1].select_option("strongest")
    assert specs[0].input_value() == LEVELS["strong"]
    page.select_option("#game-select", "rose-of-fire")
    names = levels[0].locator("option").all_inner_texts()
    assert names == ["Beginner", "Intermediate", "Strong", "Custom bot spec…"]
    assert levels[0].input_value() == "strong" and specs[0].input_value() == BOT_LEVELS["strong"]
    assert levels[1].input_value() == "strong" and specs[1].input_value() == BOT_LEVELS["strong"]
    page.select_option("#game-select", "barcelona")
    assert levels[0].input_value() == "strong" and specs[0].input_value() == LEVELS["strong"]
    assert not page.problems, page.problems
