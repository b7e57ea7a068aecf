"""The moderation pages as people use them: a player reports another seat's chat line, and another
player, from the game page; the reports reach the admins' page (/admin), where an admin hides the
line; the page in five languages, on phones and laptops, with no serious axe violation."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.browser import LAPTOP, PHONE, Viewport, assert_no_serious_axe_violations, catalog, new_tab
from tests.server.harness import ServerProcess, create_game, seat_headers
from tests.server.signin import PASSWORD
from tests.server.test_server_admin import make_admin

PEOPLE = [{"kind": "person", "name": "Ana"}, {"kind": "person", "name": "Biel"}]
ADMIN = "mod_marta"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("admin-pages")).start()
    make_admin(process, ADMIN)
    yield process
    process.stop()


def sign_in_as_admin(tab: Any, server: ServerProcess, lang: str = "en") -> None:
    tab.goto(f"{server.url}/account?lang={lang}")
    tab.wait_for_selector("#signin-panel:not([hidden])")
    tab.fill("#signin-name", ADMIN)
    tab.fill("#signin-password", PASSWORD)
    tab.click("#signin-form button[type='submit']")
    tab.wait_for_selector(f"body[data-account='{ADMIN}']")


def test_a_reported_chat_line_reaches_the_admins_page_and_is_hidden_there(
    browser: Any, server: ServerProcess
) -> None:
    with server.client() as client:
        created = create_game(client, "tictactoe", PEOPLE)
        gid = created["game_id"]
        ana, biel = (seat["token"] for seat in created["seats"])
        said = client.post(f"/api/games/{gid}/chat", json={"text": "something rude"},
                           headers=seat_headers(biel))
        assert said.status_code == 201, said.text

    player = new_tab(browser, **PHONE)
    player.goto(f"{server.url}/play/{gid}#seat=0&token={ana}")
    line = player.locator("#chat-lines li", has_text="something rude")
    line.wait_for()
    player.once("dialog", lambda dialog: dialog.accept("insults"))
    line.locator("button.chat-report").click()
    player.wait_for_selector("#chat-lines button.chat-report[disabled]")
    assert player.locator("#chat-lines button.chat-report").inner_text() == "Reported"
    biel_card = player.locator(".seat-card[data-seat='1']")
    player.once("dialog", lambda dialog: dialog.accept("cheating"))
    biel_card.locator("button.chat-report").click()
    biel_card.locator("button.chat-report[disabled]").wait_for()
    assert player.locator(".seat-card[data-seat='0'] button.chat-report").count() == 0  # not oneself

    admin = new_tab(browser, **LAPTOP)
    sign_in_as_admin(admin, server)
    admin.goto(f"{server.url}/admin")
    report = admin.locator("#reports li", has_text="something rude")
    report.wait_for()
    assert "insults" in report.inner_text()
    player_report = admin.locator("#reports li", has_text="cheating")
    player_report.wait_for()
    assert " B · seat A" in player_report.inner_text()
    assert admin.locator(f"#games li[data-game='{gid}']").count() == 1
    admin.once("dialog", lambda dialog: dialog.accept("insults"))
    report.locator("button", has_text="Hide the line").click()
    player.locator("#chat-lines li", has_text="a moderator hid this line").wait_for()
    assert player.locator("#chat-lines", has_text="something rude").count() == 0
    assert not player.problems and not admin.problems, player.problems + admin.problems


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1280", "390"])
@pytest.mark.parametrize("lang", ["en", "fr", "de", "ja", "cs"])
def test_the_admins_page_reads_in_each_language_without_serious_axe_violations(
    browser: Any, server: ServerProcess, viewport: Viewport, lang: str
) -> None:
    tab = new_tab(browser, **viewport)
    sign_in_as_admin(tab, server, lang)
    tab.goto(f"{server.url}/admin?lang={lang}")
    words = catalog(lang)["admin"]
    tab.wait_for_selector("#audit li")
    assert tab.locator("#reports-heading").inner_text() == words["reports"]
    assert tab.locator("#games-heading").inner_text() == words["games"]
    assert tab.locator("#audit-heading").inner_text() == words["audit"]
    assert tab.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "sideways scrolling"
    if lang in ("en", "ja"):  # axe checks the structure, which the language does not change
        assert_no_serious_axe_violations(tab)
    assert not tab.problems, tab.problems
