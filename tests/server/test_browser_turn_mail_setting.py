"""The account page turns the "your turn" mails of turn-based games off and on again (the same
setting a mail's unsubscribe link stops)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.browser import LAPTOP, PHONE, Viewport, new_tab
from tests.server.harness import ServerProcess
from tests.server.signin import unique_name
from tests.server.test_browser_accounts import sign_up_by_page


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("turn-mails")).start()
    yield process
    process.stop()


def mails_on(tab: Any) -> bool:
    answer = tab.evaluate("fetch('/api/notices/settings').then((response) => response.json())")
    return bool(answer["mail"])


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_the_account_page_turns_the_turn_mails_off_and_on(
    browser: Any, server: ServerProcess, viewport: Viewport
) -> None:
    tab = new_tab(browser, **viewport)
    sign_up_by_page(tab, server, unique_name("Mail"))
    box = tab.locator("#turn-mails")
    tab.wait_for_selector("#turn-mails[data-ready='true']")
    assert box.is_checked() and mails_on(tab)
    box.uncheck()
    tab.wait_for_function("() => document.getElementById('settings-result').textContent !== ''")
    assert not mails_on(tab)
    tab.reload()
    tab.wait_for_selector("#turn-mails[data-ready='true']")
    assert not box.is_checked()
    box.check()
    tab.wait_for_function("() => document.getElementById('settings-result').textContent !== ''")
    assert mails_on(tab)
    assert not tab.problems, tab.problems
