"""Turn-based games in a real browser (Debian's chromium, Playwright): two signed-in players start
one from the lobby; the second is not on the page when the first moves, so a "your turn" mail
reaches the local SMTP server; its link opens the game at his decision in another browser context
where he signs in; its unsubscribe link works without signing in; the seat whose time runs out
loses, as chosen. The unsubscribe page reads in five languages and has no serious axe violation."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.server.browser import (
    TIMEOUT_MS,
    assert_no_serious_axe_violations,
    catalog,
    create_table,
    new_tab,
    open_lobby,
    set_seat,
    tab,
)
from tests.server.harness import ServerProcess, wait_for
from tests.server.notices import NOTICE_LIMITS, run_sql, text_of, turn_mail, verify_email
from tests.server.signin import PASSWORD, unique_name
from tests.server.smtp import SmtpServer, smtp  # noqa: F401  (the fixture)

pytestmark = pytest.mark.browser

DAY_SECONDS = 3.0
"""A day lasts 3 s here: the game's 7 days a move are 21 s."""
TURN = "body[data-your-turn='true'][data-busy='false']"


def signed_in_context(browser: Any, server: ServerProcess, email: str) -> tuple[Any, dict[str, Any]]:
    context = browser.new_context(locale="en-US")
    context.set_default_timeout(TIMEOUT_MS)
    answer = context.request.post(f"{server.url}/api/account/signup",
                                  data={"name": unique_name(), "password": PASSWORD, "email": email})
    assert answer.status == 201, answer.text()
    account: dict[str, Any] = answer.json()
    verify_email(server, account["id"])
    return context, account


def test_a_turn_based_game_mails_the_player_away_and_their_time_runs_out_as_chosen(
    browser: Any, tmp_path: Path, smtp: SmtpServer,  # noqa: F811
) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    limits = {**NOTICE_LIMITS, "turn_day_seconds": DAY_SECONDS, "turn_scan_seconds": 0.5}
    server = ServerProcess(folder, limits=limits, env=smtp.env()).start()
    contexts: list[Any] = []
    try:
        ana_context, ana = signed_in_context(browser, server, "ana@example.test")
        biel_context, biel = signed_in_context(browser, server, "biel@example.test")
        contexts += [ana_context, biel_context]
        lobby = ana_context.new_page()
        open_lobby(lobby, server.url, "tictactoe")
        set_seat(lobby, 0, "person", name="Ana")
        set_seat(lobby, 1, "person", name="Biel")
        assert lobby.locator("#time-out-row").is_hidden()
        lobby.select_option("#turn-select", "7")
        lobby.select_option("#time-out-select", "lose")
        assert lobby.locator("#clock-select").is_disabled()
        game_id = create_table(lobby)
        ana_link = lobby.locator("a.play-link[data-seat='0']").get_attribute("href")
        biel_link = lobby.locator("a.play-link[data-seat='1']").get_attribute("href")
        assert ana_link and biel_link

        biel_page = biel_context.new_page()  # Biel takes his seat, then leaves the page
        biel_page.goto(biel_link)
        biel_page.wait_for_selector("body[data-busy='false']")
        biel_page.close()
        ana_page = ana_context.new_page()
        ana_page.goto(ana_link)
        ana_page.wait_for_selector(TURN)
        query = "SELECT seat, account_id FROM seats WHERE game_id = ? ORDER BY seat"
        owners = run_sql(server, query, (game_id,))
        assert owners == [(0, ana["id"]), (1, biel["id"])]  # claimed while signed in: the accounts' seats
        assert "7" in ana_page.locator("#clock").inner_text()
        ana_page.locator("svg#board .target").first.click()
        ana_page.wait_for_selector("body[data-move-number='1']")

        mail = turn_mail(smtp.mailbox, "biel@example.test")
        body = text_of(mail)
        assert mail["Subject"] == "Your turn in Tic-tac-toe against Ana"
        link = re.search(r"(http://127\.0\.0\.1:\d+/play/[\w-]+)", body)
        assert link is not None and link.group(1) == f"{server.url}/play/{game_id}"
        # the mail's link, opened in another browser context where Biel signs in: his seat, at the
        # decision that waits for him
        opened = new_tab(browser)
        contexts.append(opened.context)
        signed_in = opened.request.post(f"{server.url}/api/account/signin",
                                        data={"name": biel["name"], "password": PASSWORD})
        assert signed_in.status == 200, signed_in.text()
        opened.goto(link.group(1))
        opened.wait_for_selector(f"body[data-move-number='1']{TURN.removeprefix('body')}")

        # the unsubscribe link, in a browser that is signed in nowhere
        unsubscribe = re.search(r"(http://\S+/notices/unsubscribe\?\S+)", body)
        assert unsubscribe is not None
        page = new_tab(browser)
        contexts.append(page.context)
        page.goto(unsubscribe.group(1))
        page.click("#unsubscribe")
        page.wait_for_selector("#unsubscribe-done:not([hidden])")
        query = "SELECT mail_stopped FROM notice_settings WHERE account_id = ?"
        assert run_sql(server, query, (biel["id"],)) == [(1,)]

        # Biel does not move: his time runs out and, as the game was created, his seat loses
        ana_page.wait_for_selector("#chat-lines li.chat-event", timeout=int(8 * DAY_SECONDS * 1000))
        assert "ran out of time and loses" in ana_page.locator("#chat-lines").inner_text()
        wait_for(lambda: "resigned" in json.dumps(run_sql(
            server, "SELECT stand_ins FROM game_tables WHERE game_id = ?", (game_id,))), what="the seat lost")
        assert not ana_page.locator("#push-offer").is_hidden()  # a signed-in seat of a turn-based game
    finally:
        for context in contexts:
            context.close()
        server.stop()


@pytest.fixture(scope="module")
def plain_server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    process = ServerProcess(tmp_path_factory.mktemp("notices-page")).start()
    yield process
    process.stop()


@pytest.mark.parametrize("lang", ["en", "fr", "de", "ja", "cs"])
def test_the_unsubscribe_page_reads_in_five_languages(
    browser: Any, plain_server: ServerProcess, lang: str
) -> None:
    texts = catalog(lang)["notices"]
    with tab(browser, console=False) as page:
        page.goto(f"{plain_server.url}/notices/unsubscribe?account=nobody&token=wrong&lang={lang}")
        page.wait_for_selector("#unsubscribe-form:not([hidden])")
        assert page.locator("#title").inner_text() == texts["pageTitle"]
        assert page.locator("#unsubscribe").inner_text() == texts["unsubscribeButton"]
        page.click("#unsubscribe")
        page.wait_for_selector("#unsubscribe-error:not([hidden])")
        assert page.locator("#unsubscribe-error").inner_text() == texts["badLink"]


@pytest.mark.parametrize("width,height", [(1280, 800), (390, 844)], ids=["1280", "390"])
def test_the_unsubscribe_page_has_no_serious_axe_violation(
    browser: Any, plain_server: ServerProcess, width: int, height: int
) -> None:
    with tab(browser, width, height) as page:
        page.goto(f"{plain_server.url}/notices/unsubscribe?account=a&token=b")
        page.wait_for_selector("#unsubscribe-form:not([hidden])")
        assert_no_serious_axe_violations(page)
