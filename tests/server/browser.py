"""Shared set-up of the browser tests: Debian's chromium, headless, driven by Playwright.

The tests fail (they do not skip) when /usr/bin/chromium is missing: install it with
`apt-get install -y chromium` (`make test` does). Screenshots go to test-artifacts/.
A test module sets VIEWPORT to choose its window size.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TIMEOUT_MS = 15_000
DEFAULT_VIEWPORT = {"width": 1280, "height": 860}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.fail(
            f"browser tests need Debian's chromium at {CHROMIUM}; install it as root with "
            "`apt-get update && apt-get install -y chromium`",
            pytrace=False,
        )
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("browser tests need the playwright package: pip install -e '.[dev]'", pytrace=False)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture()
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    viewport = getattr(request.module, "VIEWPORT", DEFAULT_VIEWPORT)
    context = browser.new_context(viewport=viewport)
    context.set_default_timeout(TIMEOUT_MS)
    tab = context.new_page()
    problems: list[str] = []
    tab.on("pageerror", lambda error: problems.append(f"page error: {error}"))

    def console(message: Any) -> None:
        if message.type == "error":
            problems.append(f"console error: {message.text}")

    tab.on("console", console)
    tab.problems = problems
    yield tab
    context.close()


def screenshot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=True)


def untranslated_log_lines(page: Any) -> list[str]:
    """The game log's lines that show a message key and its arguments instead of a sentence (what
    the client prints when no translation matches, e.g. a plural message looked up without its
    count)."""
    lines = page.locator("#log li").all_inner_texts()
    assert lines, "the log is empty"
    return [line for line in lines if '{"' in line or re.match(r"[a-z]+\.[A-Za-z.]+(\s|$)", line)]
