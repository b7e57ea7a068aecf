"""Shared set-up of the browser tests: Debian's chromium, headless, driven by Playwright.

The tests fail (they do not skip) when /usr/bin/chromium is missing: install it with
`apt-get install -y chromium` (`make test` does). Screenshots go to test-artifacts/.
A test module sets VIEWPORT to choose its window size.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypedDict

import httpx
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


class Viewport(TypedDict):
    """A window's size in CSS pixels."""

    width: int
    height: int


PHONE: Viewport = {"width": 390, "height": 844}
LAPTOP: Viewport = {"width": 1280, "height": 800}
AXE_BLOCKING = ("serious", "critical")
"""The impacts of the axe-core violations that fail a page."""


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
    tab = new_tab(browser, viewport["width"], viewport["height"], locale=None, console=True)
    yield tab
    tab.context.close()


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


# -- the set-up the browser tests share: a server, a game made through the API, a page opened -----

CATALOGS = Path(__file__).resolve().parents[2] / "src" / "eixample" / "web" / "i18n"
LOCALES = {"en": "en-US", "fr": "fr-FR", "de": "de-DE", "ja": "ja-JP", "cs": "cs-CZ"}


@pytest.fixture(scope="module")
def module_server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A server for one test module's browser tests; the module's SERVER_OPTIONS (bot_delay,
    limits) are given to it."""
    from tests.server.harness import ServerProcess

    options = getattr(request.module, "SERVER_OPTIONS", {})
    data = tmp_path_factory.mktemp(request.module.__name__.rsplit(".", 1)[-1])
    process = ServerProcess(data, **options).start()
    try:
        yield process
    finally:
        process.stop()


def catalog(lang: str) -> dict[str, Any]:
    """The web app's message catalog of `lang`, as its JSON."""
    data: dict[str, Any] = json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))
    return data


def css_string(value: str) -> str:
    """`value` inside a CSS attribute selector's double quotes."""
    return value.replace("\\", "\\\\").replace('"', '\\"')


def with_lang(url: str, lang: str) -> str:
    """A page's address asking for `lang` (before the fragment that carries a seat's token)."""
    base, _, fragment = url.partition("#")
    joined = f"{base}{'&' if '?' in base else '?'}lang={lang}"
    return f"{joined}#{fragment}" if fragment else joined

READY = "body[data-status='finished'], body[data-your-turn='true'][data-busy='false']"
"""The game page is waiting for the seat (or the game is over)."""
BOARD = "svg#board"


def seat_link(created: dict[str, Any], seat: int = 0, lang: str | None = None) -> str:
    """The page of `seat` of a game made with `create_game`/`create_claimed_game`, in `lang`."""
    link: str = created["seats"][seat]["link"]
    if lang is None:
        return link
    base, _, fragment = link.partition("#")
    return f"{base}?lang={lang}#{fragment}"


def new_tab(
    browser: Any, width: int = 1280, height: int = 800, locale: str | None = "en-US", *,
    console: bool = False, touch: bool = False,
) -> Any:
    """A page in a fresh context of the given size and language (the browser's own with None; a
    phone's touch screen with `touch`); its page errors (and, with `console`, the console's errors)
    collected in `problems`. The caller closes `page.context`."""
    language = {} if locale is None else {"locale": locale}
    context = browser.new_context(
        viewport={"width": width, "height": height}, is_mobile=touch, has_touch=touch, **language
    )
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))

    def on_console(message: Any) -> None:
        if message.type == "error":
            problems.append(f"console error: {message.text}")

    if console:
        page.on("console", on_console)
    page.problems = problems
    return page


def open_page(browser: Any, viewport: Viewport, url: str) -> Any:
    """`url` opened in a `new_tab` of `viewport`'s size: a touch phone when narrower than 600 px."""
    page = new_tab(browser, viewport["width"], viewport["height"], touch=viewport["width"] < 600)
    page.goto(url)
    return page


@contextmanager
def tab(
    browser: Any, width: int = 1280, height: int = 800, locale: str = "en-US", *, console: bool = True
) -> Iterator[Any]:
    """`new_tab`, with the console's errors too unless told otherwise, closed on leaving."""
    page = new_tab(browser, width, height, locale, console=console)
    try:
        yield page
    finally:
        page.context.close()


def assert_no_serious_axe_violations(page: Any) -> None:
    """axe-core (bundled by axe-playwright-python) finds no serious or critical violation on the
    page as it stands; each one found is named with its rule, help and first four places."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    found = [
        f"{v['id']} ({v['impact']}): {v['help']} — {[node['target'] for node in v['nodes'][:4]]}"
        for v in results.response["violations"]
        if v.get("impact") in AXE_BLOCKING
    ]
    assert not found, "\n".join(found)


# -- the lobby: a table set up and created by its form ---------------------------------------------


def open_lobby(page: Any, server_url: str, game: str, players: int | None = None) -> None:
    """The lobby with `game` chosen by its address (and `players` in the player count), ready."""
    page.goto(f"{server_url}/?game={game}")
    page.locator(f"#game-select option[value='{game}']").wait_for(state="attached")
    if players is not None:
        page.select_option("#player-count", str(players))


def set_seat(
    page: Any, seat: int, kind: str | None = None, *, name: str | None = None, level: str | None = None,
    bot: str | None = None,
) -> None:
    """Sets the lobby's row of `seat`: its kind, then the name, the bot's level or its own spec."""
    row = page.locator(f".seat-row[data-seat='{seat}']")
    if kind is not None:
        row.locator(".seat-kind").select_option(kind)
    if name is not None:
        row.locator(".seat-name-input").fill(name)
    if level is not None:
        row.locator(".seat-level").select_option(level)
    if bot is not None:
        row.locator(".seat-bot").fill(bot)


def create_table(page: Any) -> str:
    """Creates the game set up in the lobby; its id, read from the invitations shown."""
    page.click("#create")
    page.wait_for_selector("#invitations:not([hidden])")
    link = page.locator("a.play-link[data-seat='0']").get_attribute("href") or ""
    found = re.search(r"/play/([^#?]+)", link)
    assert found, f"no game in the first seat's link {link!r}"
    return found.group(1)


def click_a_random_target(page: Any, rng: random.Random) -> bool:
    """Waits for the seat's turn and clicks one of the board's targets, drawn by `rng`, then waits
    for the move to be made; False, with nothing clicked, once the game is over."""
    page.wait_for_selector(READY)
    if page.locator("body[data-status='finished']").count():
        return False
    number = page.locator("body").get_attribute("data-move-number")
    targets = page.locator(f"{BOARD} .target")
    targets.nth(rng.randrange(targets.count())).click()
    page.wait_for_selector(f"body:not([data-move-number='{number}'])")
    return True


def sit_against_a_bot(page: Any, server_url: str, game: str, seed: int, board: str) -> str:
    """From the lobby, a 2-player `game` (its `seed`) of Ana, at this page, against the beginner
    bot; the page opens Ana's seat and waits for her board (of class `board`: bcn-board,
    rof-board). Returns the game's id."""
    open_lobby(page, server_url, game, players=2)
    set_seat(page, 0, "person", name="Ana")
    set_seat(page, 1, "bot", level="beginner")  # greedy
    page.fill("#seed", str(seed))
    game_id = create_table(page)
    page.click("a.play-link[data-seat='0']")
    page.wait_for_selector(f"{BOARD}.{board}")
    return game_id


def assert_keyboard_choice_shows_on_the_board(page: Any, target: str) -> None:
    """Key 1 selects the decision's first action, whose board target (of class `target`:
    bcn-target, rof-target) shows it selected; Escape lets it go."""
    page.wait_for_selector(READY)
    first = page.locator("#actions button.action").first.get_attribute("data-action")
    page.keyboard.press("1")
    page.wait_for_selector(f'{BOARD} .{target}.selected[data-action="{first}"]')
    page.keyboard.press("Escape")


def keep_seat_token(page: Any, created: dict[str, Any], seat: int = 0) -> None:
    """The seat's token (claimed already) kept in the page's browser as the page keeps a claimed
    one, so that opening the seat's link does not try to claim it again."""
    key = f"eixample.seat.{created['game_id']}.{seat}"
    token = json.dumps(created["seats"][seat]["token"])
    page.add_init_script(f"localStorage.setItem({json.dumps(key)}, {token})")


def open_seat(page: Any, created: dict[str, Any], seat: int = 0, lang: str | None = None) -> None:
    """Opens the seat's page (see keep_seat_token) and waits until it is the seat's turn or the
    game is over."""
    keep_seat_token(page, created, seat)
    page.goto(seat_link(created, seat, lang))
    page.wait_for_selector(READY, timeout=60_000)


def play_by_api(
    server: Any, created: dict[str, Any], seat: int, until: Callable[[dict[str, Any]], bool],
    choose: Callable[[list[str]], str] | None = None, limit: int = 400,
) -> dict[str, Any]:
    """Plays `seat`'s decisions through the API (the first legal action, or `choose`'s) until
    `until(state)` holds on a state where it is the seat's turn; returns that state."""
    token = created["seats"][seat]["token"]
    headers = {"X-Seat-Token": token}
    game_id = created["game_id"]
    with httpx.Client(base_url=server.url, timeout=30) as client:
        for _ in range(limit):
            state: dict[str, Any] = {}
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                state = client.get(f"/api/games/{game_id}/state", headers=headers).json()
                if state["your_turn"] or state["status"] == "finished":
                    break
                time.sleep(0.05)
            assert state.get("your_turn"), f"the seat never got its turn: {state.get('status')}"
            if until(state):
                return state
            actions = state["legal_actions"]
            action = choose(actions) if choose else actions[0]
            answer = client.post(f"/api/games/{game_id}/moves", headers=headers,
                                 json={"action": action, "expected_move": state["move_number"]})
            assert answer.status_code == 200, answer.text
    raise AssertionError("the state asked for never came")


# Where the decision is made shows without scrolling: some clickable target of the board lies in
# the window and in the board's own box (the page moves there by itself after each choice).
TARGET_IN_VIEW = """() => {
  const board = document.querySelector('svg#board');
  if (!board) return true;
  const frame = board.parentElement.getBoundingClientRect();
  const nodes = board.querySelectorAll('[data-action], [data-step]');
  if (!nodes.length) return true;
  return Array.from(nodes).some((node) => {
    const r = node.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    return r.width > 0 && x >= Math.max(0, frame.left) && x <= Math.min(innerWidth, frame.right)
      && y >= Math.max(0, frame.top) && y <= Math.min(innerHeight, frame.bottom);
  });
}"""


WHERE_TARGETS = """() => {
  const board = document.querySelector('svg#board');
  const box = board.parentElement;
  const f = box.getBoundingClientRect();
  const targets = [...board.querySelectorAll('[data-action], [data-step]')].slice(0, 6).map((n) => {
    const r = n.getBoundingClientRect();
    return `${n.dataset.action || 'step'} @${Math.round(r.left)},${Math.round(r.top)}`;
  });
  return `window ${innerWidth}x${innerHeight} scrolled ${Math.round(scrollY)}; board box`
    + ` ${Math.round(f.left)},${Math.round(f.top)}-${Math.round(f.right)},${Math.round(f.bottom)}`
    + ` scrolled ${box.scrollLeft},${box.scrollTop} zoom ${box.dataset.zoom} region ${board.dataset.region};`
    + ` targets ${targets.join('; ')}`;
}"""


def assert_target_in_view(page: Any, what: str) -> None:
    """Fails, with a screenshot, when none of the decision's board targets shows."""
    try:
        page.wait_for_function(TARGET_IN_VIEW, timeout=3000)
    except Exception as error:  # playwright's TimeoutError
        screenshot(page, f"off-screen-{re.sub(r'[^a-z0-9]+', '-', what.lower())[:40]}.png")
        where = page.evaluate(WHERE_TARGETS)
        raise AssertionError(f"no target of the decision shows on screen: {what}\n{where}") from error


def assert_points_on_the_board(page: Any, element: Any) -> Any:
    """Hovering or focusing `element` (a decision, a log line) marks its places on the board, and
    leaving or blurring it clears them; the marked elements, as they were while hovered."""
    pointed = page.locator(f"{BOARD} .pointed")
    assert pointed.count() == 0
    element.hover()
    assert pointed.count() >= 1
    marked = pointed.evaluate_all("nodes => nodes.map((n) => ({...n.dataset}))")
    page.mouse.move(0, 0)
    assert pointed.count() == 0
    element.focus()
    assert pointed.count() >= 1
    element.blur()
    assert pointed.count() == 0
    return marked


# The words of the final table's headings that the browser broke across two lines.
BROKEN_HEADING_WORDS = """() => {
  const broken = [];
  for (const cell of document.querySelectorAll("#final-scores thead th")) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const match of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top)));
        if (lines.size > 1) broken.push(match[0]);
      }
    }
  }
  return broken;
}"""


def assert_the_finished_board_shows_whole(page: Any) -> None:
    """At the end of a game the board shows the whole table, on every screen, and the final
    table fits its panel (with the tests' short names), its headings broken between words only."""
    page.wait_for_selector(f"{BOARD}[data-region='all']", timeout=3000)
    fits = "(t) => t.scrollWidth <= t.parentElement.clientWidth"
    assert page.locator("#final-scores").evaluate(fits), "the final table is wider than its panel"
    broken = page.evaluate(BROKEN_HEADING_WORDS)
    assert broken == [], f"words broken across lines in the final table's headings: {broken}"


def assert_new_log_lines_show_within_a_moment(page: Any) -> None:
    """The lines a message added to the log (a bot's turn, the final scoring) fade in one after
    the other, the last within a second and a half however many they are."""
    delays = page.locator("#log li.log-new").evaluate_all(
        "items => items.map((li) => parseFloat(li.style.animationDelay))"
    )
    assert delays and max(delays) <= 1500, delays


# Every text drawn to keep within a width: its text, that width, its drawn width, whether it was
# squeezed, and its width unsqueezed.
FITTED_TEXTS = """() => Array.from(document.querySelectorAll('svg#board text[data-fit]'), (node) => {
  const squeezed = node.hasAttribute('textLength');
  node.removeAttribute('textLength');
  const natural = node.getComputedTextLength();
  if (squeezed) node.setAttribute('textLength', node.dataset.fit);
  return [node.textContent, Number(node.dataset.fit), node.getBBox().width, squeezed, natural];
})"""

def assert_board_texts_fit(page: Any) -> list[Any]:
    """Every text drawn to a width keeps within it, squeezed exactly when it is longer; the
    fitted texts, as FITTED_TEXTS gives them."""
    texts: list[Any] = page.evaluate(FITTED_TEXTS)
    assert texts
    for words, width, drawn, squeezed, natural in texts:
        # a squeezed text's box may pass its width by a glyph's overhang
        assert drawn <= width + 2.5, f"{words!r} is {drawn:.1f} wide, over {width}"
        assert squeezed == (natural > width), f"{words!r}: {natural:.1f} wide unsqueezed, within {width}"
    return texts
