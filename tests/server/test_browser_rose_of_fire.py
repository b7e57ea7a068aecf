"""The Rose of Fire in a real browser (Debian's chromium, headless, through Playwright).

One whole 2-player game against a bot, played by clicks only: on the board wherever the decision
has a target there (a card in hand, a space, a house type, a block, a token, the conviction, an
influence card), else on the page's buttons. Along the way: every legal action with a board
target has one, each target has a tooltip in words, a spectator's page shows no card face and no
secret conviction of anyone, and the seat's own page shows its hand and its conviction face up.
At the end the scores and points by source shown are the engine's, and the replay of the game
works step by step. A second test renders a view of every kind of decision with a board target
and checks that each legal action has one clickable element (or a step opening it). axe-core
finds no serious or critical violation on the game page and the replay page at 1280x800 and
390x844. Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from eixample.core.records import replay
from eixample.core.registry import get_game
from tests.server.browser import (
    BOARD,
    LOCALES,
    READY,
    assert_board_texts_fit,
    assert_keyboard_choice_shows_on_the_board,
    assert_new_log_lines_show_within_a_moment,
    assert_no_serious_axe_violations,
    assert_target_in_view,
    assert_the_finished_board_shows_whole,
    catalog,
    css_string,
    new_tab,
    screenshot,
    sit_against_a_bot,
    tab,
    untranslated_log_lines,
    with_lang,
)
from tests.server.harness import ServerProcess, create_claimed_game, wait_until_finished

pytestmark = pytest.mark.browser

VIEWPORT = {"width": 1280, "height": 800}
# Verbs whose actions the board makes clickable (the others are page buttons).
BOARD_VERBS = {"card", "event", "both", "discard", "tile", "house", "keep", "drop", "block", "buy"}
BOARD_ACTIONS = {"reward personalities", "extra colonies"}
GAME = get_game("rose-of-fire")


def on_board(action: str) -> bool:
    return action.split()[0] in BOARD_VERBS or action in BOARD_ACTIONS


def click_action(page: Any, action: str) -> str:
    """Play `action` by clicking: its board target (through the space or the influence card
    first when they open a choice), else its button. Returns how it was played."""
    target = page.locator(f'{BOARD} [data-action="{css_string(action)}"]')
    if target.count():
        target.first.click()
        return "board"
    words = action.split()
    step = None
    if words[0] == "tile":
        step = page.locator(f'{BOARD} [data-tile-space="{css_string(words[1])}"]')
    elif words[0] == "buy":
        step = page.locator(f'{BOARD} [data-buy="{css_string(words[1])}"]')
    if step is not None and step.count():
        step.first.click()
        page.locator(f'{BOARD} [data-action="{css_string(action)}"]').first.click()
        return "board"
    assert not on_board(action), f"{action!r} has no target on the board"
    page.locator(f'#actions fieldset button.action[data-action="{css_string(action)}"]').click()
    return "button"


def check_targets(page: Any, actions: list[str]) -> None:
    """Every board action is on the board (or behind its step), with a tooltip in words."""
    targets = page.locator(f"{BOARD} [data-action]").evaluate_all(
        "nodes => nodes.map((n) => [n.dataset.action, (n.querySelector('title') || {}).textContent || '',"
        " n.getAttribute('tabindex')])"
    )
    steps = page.locator(f"{BOARD} [data-tile-space], {BOARD} [data-buy]").evaluate_all(
        "nodes => nodes.map((n) => n.dataset.tileSpace || n.dataset.buy)"
    )
    shown = {action for action, _title, _tab in targets}
    for action in actions:
        if on_board(action):
            words = action.split()
            assert action in shown or (words[0] in ("tile", "buy") and words[1] in steps), action
    buttons = page.locator("#actions button.action").evaluate_all(
        "buttons => buttons.map((b) => [b.dataset.action, b.textContent])"
    )
    for action, words in buttons:
        label = re.sub(r"^\d+\s*", "", words.strip())
        assert label and label != action, f"the button of {action!r} shows the raw text"
    for action, title, tabindex in targets:
        assert title and title != action, f"{action!r} has no tooltip in words"
        assert tabindex == "0", f"{action!r} cannot be reached by keyboard"


def check_spectator(spectator: Any) -> int:
    """The spectator's board shows no hand, no influence token face up and every secret
    conviction face down; returns the number of secret convictions it shows."""
    spectator.reload()
    spectator.wait_for_selector(f"{BOARD}.rof-board")
    assert spectator.locator(f"{BOARD} .hand-card").count() == 0
    assert spectator.locator(f"{BOARD} .family-tokens .influence-token:not(.face-down)").count() == 0
    secret = 0
    for seat in (0, 1):
        conviction = spectator.locator(f'{BOARD} .rof-family[data-seat="{seat}"] .conviction')
        state = conviction.get_attribute("data-conviction")
        if state == "hidden":
            secret += 1
            assert conviction.locator(".influence-token.face-down").count() == 1
            assert conviction.locator(".influence-token:not(.face-down)").count() == 0
    return secret


@pytest.mark.parametrize(
    "width,height,lang", [(1280, 800, "de"), (390, 844, "cs")], ids=["1280-de", "390-cs"]
)
def test_play_rose_of_fire_against_a_bot_by_clicks(
    browser: Any, new_server: Callable[..., ServerProcess], width: int, height: int, lang: str
) -> None:
    """A whole game on a laptop in German and on a phone in Czech."""
    with tab(browser, width, height, LOCALES[lang]) as page:
        play_a_whole_game(page, browser, new_server, lang, width, height)


def play_a_whole_game(
    page: Any, browser: Any, new_server: Callable[..., ServerProcess], lang: str, width: int, height: int
) -> None:
    server = new_server(bot_delay=0.0).start()
    game_id = sit_against_a_bot(page, server.url, "rose-of-fire", 11, "rof-board")
    assert_keyboard_choice_shows_on_the_board(page, "rof-target")

    spectator = new_tab(browser, width, height, LOCALES[lang])
    spectator.goto(f"{server.url}/play/{game_id}")
    spectator.wait_for_selector(f"{BOARD}.rof-board")

    rng = random.Random(3)
    played = {"board": 0, "button": 0}
    verbs: set[str] = set()
    secrets_seen = 0
    watched_at = -50  # the spectator is checked at the first move too, when every conviction is secret
    shots = 0
    while True:
        page.wait_for_selector(READY)
        if page.locator("body[data-status='finished']").count():
            break
        number = page.locator("body").get_attribute("data-move-number")
        actions = [
            a
            for a in page.locator("#actions button.action").evaluate_all(
                "buttons => buttons.map((b) => b.dataset.action)"
            )
            if a
        ]
        assert actions, "my turn without actions"
        check_targets(page, actions)
        # the seat sees its own hand and its conviction face up (until spent or revealed)
        own = page.locator(f'{BOARD} .rof-family[data-seat="0"] .conviction').get_attribute("data-conviction")
        assert own in ("shown", "none")
        assert page.locator(f"{BOARD} .hand-card").count() > 0 or actions[0].split()[0] != "card"
        board = [a for a in actions if on_board(a)]
        choices = board if board and rng.random() < 0.9 else actions
        action = rng.choice(choices)
        if board:
            assert_target_in_view(page, page.locator("#decision").inner_text())
        if shots < 2 and action.split()[0] in ("tile", "buy") and len(board) > 1:
            screenshot(page, f"rose-of-fire-{action.split()[0]}-{width}.png")
            shots += 1
        played[click_action(page, action)] += 1
        verbs.add(action.split()[0])
        page.wait_for_selector(f"body:not([data-move-number='{number}'])")
        moves = int(page.locator("body").get_attribute("data-move-number") or 0)
        if moves - watched_at >= 50:
            secrets_seen += check_spectator(spectator)
            watched_at = moves

    page.wait_for_selector("#final:not([hidden])")
    screenshot(page, f"rose-of-fire-end-{width}.png")
    assert_the_finished_board_shows_whole(page)
    assert_new_log_lines_show_within_a_moment(page)
    record = httpx.get(f"{server.url}/api/games/{game_id}/record", timeout=10).json()
    engine = replay(GAME, record)
    assert engine.is_terminal()
    shown = [int(text) for text in page.locator("#final-scores .final-score").all_inner_texts()]
    assert shown == engine.scores()
    sources = page.locator("#final-scores tr[data-source]").evaluate_all(
        "rows => rows.map((r) => r.dataset.source)"
    )
    assert set(sources) == set(engine.score_breakdown()[0])
    blocks = catalog(lang)["source"]["blocks"]
    assert page.locator("#final-scores tr[data-source='blocks'] th").inner_text() == blocks
    assert played["board"] > played["button"] > 0
    assert {"card", "tile", "house"} <= verbs
    assert untranslated_log_lines(page) == []
    assert not page.problems, page.problems

    # the spectator saw secret convictions face down; at the end every one is face up
    assert secrets_seen > 0
    assert check_spectator(spectator) == 0
    spectator.context.close()

    # the rules page the game page links to
    rules = httpx.get(f"{server.url}/rules/rose-of-fire.en.md", timeout=10)
    assert rules.status_code == 200 and rules.text.startswith("# Barcelona: The Rose of Fire")

    # in English, the log counts strikers as words do ("1 striker", "3 strikers")
    page.goto(f"{server.url}/play/{game_id}?lang=en")
    page.wait_for_selector("body[data-status='finished'] #log li")
    raval = [line for line in page.locator("#log li").all_inner_texts() if "into Raval" in line]
    assert raval and all(re.search(r"puts (1 striker|\d+ strikers) into Raval", line) for line in raval)

    # the replay, step by step
    page.goto(f"{server.url}/replay/{game_id}")
    page.wait_for_selector("body[data-step='0']")
    page.wait_for_selector(f"{BOARD}.rof-board")
    for step in range(1, 6):
        page.keyboard.press("ArrowRight")
        page.wait_for_selector(f"body[data-step='{step}']")
        words = page.locator("#step-action").inner_text()
        assert record["actions"][step - 1] not in words, f"step {step} shows the raw action: {words}"
        view = replay(GAME, record, upto=step).view(None)
        tiles = page.locator(f"{BOARD} .space .tile").count()
        assert tiles == sum(1 for space in view["eixample"] if space["tile"])
    page.keyboard.press("End")
    page.wait_for_selector(f"body[data-step='{len(record['actions'])}']")
    shown = [int(text) for text in page.locator("#final-scores .final-score").all_inner_texts()]
    assert shown == engine.scores()
    screenshot(page, f"rose-of-fire-replay-end-{width}.png")
    assert_the_finished_board_shows_whole(page)
    assert not page.problems, page.problems


# -- axe-core on the game page ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def rof_pages(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, tuple[str, str]]]:
    """A game where seat A is to play, and the replay of a finished bot game."""
    process = ServerProcess(tmp_path_factory.mktemp("rof-a11y")).start()
    with process.client() as client:
        people = [{"kind": "person", "name": "Ana"}, {"kind": "bot", "bot": "random", "name": "Biel"}]
        created = create_claimed_game(client, "rose-of-fire", people, seed=6, seed_shown=True)
        bots = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
        done = create_claimed_game(client, "rose-of-fire", bots, seed=7, seed_shown=True)
        wait_until_finished(client, done)
    yield {
        "turn": (created["seats"][0]["link"], "body[data-your-turn='true'][data-busy='false']"),
        "replay": (f"{process.url}/replay/{done['game_id']}", "body[data-step='0']"),
    }
    process.stop()


@pytest.mark.parametrize("width,height", [(1280, 800), (390, 844)], ids=["1280", "390"])
@pytest.mark.parametrize("name", ["turn", "replay"])
def test_no_serious_axe_violations_on_the_board(
    browser: Any, rof_pages: dict[str, tuple[str, str]], name: str, width: int, height: int
) -> None:
    url, ready = rof_pages[name]
    with tab(browser, width, height) as page:
        page.goto(url)
        page.wait_for_selector(ready)
        page.wait_for_selector(f"{BOARD}.rof-board")
        assert_no_serious_axe_violations(page)
        # no sideways scroll, and the board's targets reach 24 px once the viewport has zoomed
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        screenshot(page, f"rose-of-fire-{name}-{width}.png")
        if name != "turn":
            return
        smallest = page.locator(f"{BOARD} [data-action]").evaluate_all(
            "nodes => Math.min(...nodes.map((n) => { const b = n.getBoundingClientRect();"
            " return Math.min(b.width, b.height); }))"
        )
        assert smallest >= 24, f"a board target is only {smallest:.1f} px"


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_long_words_keep_within_their_cards_and_columns(
    browser: Any, rof_pages: dict[str, tuple[str, str]], lang: str
) -> None:
    """German and French card heads ("P1 · Persönlichkeiten") and place titles ("Schwarzer
    Beutel") are longer than their space: they are squeezed into it, and only they are."""
    url, ready = rof_pages["turn"]
    with tab(browser, 1280, 800, LOCALES[lang]) as page:
        page.goto(with_lang(url, lang))
        page.wait_for_selector(ready)
        page.wait_for_selector(f"{BOARD}.rof-board")
        texts = assert_board_texts_fit(page)
    assert any(squeezed and words.startswith("P1 · ") for words, _w, _d, squeezed, _n in texts)


# -- every kind of board target ------------------------------------------------------------------


def target_kinds(legal: list[str]) -> set[str]:
    kinds = {action.split()[0] for action in legal} & BOARD_VERBS
    kinds |= {action for action in legal if action in BOARD_ACTIONS}
    spaces = [action.split()[1] for action in legal if action.startswith("tile ")]
    if len(spaces) != len(set(spaces)):
        kinds.add("tile-choice")
    cards = [action.split()[1] for action in legal if action.startswith("buy ")]
    if len(cards) != len(set(cards)):
        kinds.add("buy-choice")
    return kinds


def find_views() -> dict[str, tuple[dict[str, Any], list[str]]]:
    """A view of every kind of decision with a board target (a wild card's colours and an
    influence card's payments as kinds of their own), from random games that hoard tokens."""
    wanted = BOARD_VERBS | BOARD_ACTIONS | {"tile-choice", "buy-choice"}
    found: dict[str, tuple[dict[str, Any], list[str]]] = {}
    for seed in range(1, 60):
        state = GAME.new_game(3 if seed % 2 else 2, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal() and not wanted <= found.keys():
            seat = state.current_player()
            legal = state.legal_actions()
            for kind in target_kinds(legal) - found.keys():
                found[kind] = (state.view(seat), legal)
            hoard = [a for a in legal if a == "house U" or a == "done" or a.split()[0] in ("keep", "drop")]
            state.apply(rng.choice(hoard) if hoard and rng.random() < 0.8 else rng.choice(legal))
        if wanted <= found.keys():
            return found
    raise AssertionError(f"no view found for {sorted(wanted - found.keys())}")


RENDER = """async ([view, legal]) => {
  const module = await import('/static/games/rose-of-fire.js');
  let root = document.getElementById('probe');
  if (!root) {
    root = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    root.id = 'probe';
    root.setAttribute('class', 'board');
    document.querySelector('.board-panel').prepend(root);
    document.getElementById('board-viewport').hidden = true;
  }
  while (root.firstChild) root.removeChild(root.firstChild);
  window.played = [];
  return module.render(root, view, {legalActions: legal, onAction: (a) => window.played.push(a),
                                    seat: view.viewer, seats: []});
}"""

COUNT_TARGETS = """(actions) => Object.fromEntries(actions.map((action) => [action,
  Array.from(document.querySelectorAll('svg#probe [data-action]'))
    .filter((node) => node.dataset.action === action && node.getAttribute('role') === 'button').length]))"""


def test_every_board_target_is_clickable(page: Any, server: ServerProcess) -> None:
    with server.client() as api:
        people = [{"name": "Ana"}, {"name": "Biel"}]
        game = create_claimed_game(api, "rose-of-fire", people, seed=3, seed_shown=True)
    page.goto(game["spectator_link"])
    page.wait_for_selector(f"{BOARD}.rof-board")
    for kind, (view, legal) in sorted(find_views().items()):
        handled = set(page.evaluate(RENDER, [view, legal]))
        expected = {action for action in legal if on_board(action)}
        assert expected <= handled, (kind, sorted(expected - handled))
        shown = page.evaluate(COUNT_TARGETS, sorted(expected))
        assert all(count in (0, 1) for count in shown.values()), (kind, shown)
        direct = sorted(action for action, count in shown.items() if count == 1)
        if direct:
            page.locator(f'svg#probe [data-action="{css_string(direct[-1])}"]').click()
            assert page.evaluate("window.played") == [direct[-1]], kind
        behind_a_step = sorted(action for action, count in shown.items() if count == 0)
        for action in behind_a_step[:3]:
            words = action.split()
            assert words[0] in ("tile", "buy"), (kind, action)
            page.evaluate(RENDER, [view, legal])
            step = "data-tile-space" if words[0] == "tile" else "data-buy"
            page.locator(f'svg#probe [{step}="{css_string(words[1])}"]').click()
            target = page.locator(f'svg#probe .rof-choice [data-action="{css_string(action)}"]')
            assert target.get_attribute("role") == "button", (kind, action)
            target.click()
            assert page.evaluate("window.played") == [action], (kind, action)
        if kind in ("tile-choice", "buy-choice"):
            page.evaluate(RENDER, [view, legal])
            words = behind_a_step[0].split()
            step = "data-tile-space" if words[0] == "tile" else "data-buy"
            page.locator(f'svg#probe [{step}="{css_string(words[1])}"]').click()
            focused = page.evaluate(
                "document.activeElement === document.querySelector('svg#probe .rof-choice [data-action]')"
            )
            assert focused, "keyboard users continue on the choice's first option"
            page.keyboard.press("Escape")
            assert page.locator("svg#probe .rof-choice").count() == 0, "Escape closes the choice"
        if kind == "house":
            page.evaluate(RENDER, [view, legal])
            assert page.evaluate(COUNTS_OUTSIDE_THEIR_HOUSE) == [], "a count '×5' is cut by its target"
    assert not page.problems, page.problems


COUNTS_OUTSIDE_THEIR_HOUSE = """() => {
    const counts = [...document.querySelectorAll("svg#probe .rof-house-choice .count-text")];
    const houses = [...document.querySelectorAll("svg#probe .rof-house-choice [data-action^='house ']")];
    return counts.filter((count, k) => {
        const c = count.getBoundingClientRect(), h = houses[k].getBoundingClientRect();
        return c.left < h.left || c.right > h.right - 2 || c.top < h.top || c.bottom > h.bottom;
    }).map((count) => count.textContent);
}"""


TARGETS_IN_VIEW = """(nodes) => {
    const box = document.querySelector("svg#board").parentElement.getBoundingClientRect();
    const top = Math.max(0, box.top), bottom = Math.min(innerHeight, box.bottom);
    const left = Math.max(0, box.left), right = Math.min(innerWidth, box.right);
    return nodes.filter((n) => {
        const r = n.getBoundingClientRect();
        return (r.width > 0 || r.height > 0) && r.top >= top - 1 && r.bottom <= bottom + 1
            && r.left >= left - 1 && r.right <= right + 1;
    }).length;
}"""


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 800}, {"width": 390, "height": 844}])
def test_the_view_follows_the_next_decision(
    browser: Any, new_server: Callable[..., ServerProcess], viewport: dict[str, int]
) -> None:
    """Issue 37: after a choice, the next decision's targets come into view (the tile goes on the
    city after the hand; the token choice sits below the fold), on a laptop and on a phone."""
    server = new_server(bot_delay=0.0).start()
    with server.client() as api:
        seats = [{"name": "Ana"}, {"kind": "bot", "bot": "greedy"}]
        created = create_claimed_game(api, "rose-of-fire", seats, seed=11)
    page = new_tab(browser, viewport["width"], viewport["height"])
    page.goto(f"{server.url}/play/{created['game_id']}#seat=0&token={created['seats'][0]['token']}")
    rng = random.Random(8)
    checked = steps = 0
    for _ in range(40):
        page.wait_for_selector(READY)
        if page.locator("body[data-status='finished']").count():
            break
        page.wait_for_timeout(100)  # the view moves after the board is drawn
        targets = page.locator(f"{BOARD} [data-action], {BOARD} [data-step]")
        if targets.count():
            shown = targets.evaluate_all(TARGETS_IN_VIEW)
            assert shown > 0, page.locator("body").get_attribute("data-move-number")
            checked += 1
        number = page.locator("body").get_attribute("data-move-number")
        actions = [a for a in page.locator("#actions button.action").evaluate_all(
            "buttons => buttons.map((b) => b.dataset.action)") if a]
        board = [a for a in actions if on_board(a)]
        two_steps = [a for a in board if a.split()[0] in ("tile", "buy")]
        action = rng.choice(two_steps or board or actions)
        words = action.split()
        step = {"tile": "data-tile-space", "buy": "data-buy"}.get(words[0])
        if step and page.locator(f'{BOARD} [{step}="{css_string(words[1])}"]').count():
            page.locator(f'{BOARD} [{step}="{css_string(words[1])}"]').first.click()
            page.wait_for_timeout(100)  # the second step's targets come into view too
            assert page.locator(f"{BOARD} [data-action]").evaluate_all(TARGETS_IN_VIEW) > 0, action
            steps += 1
        click_action(page, action)
        page.wait_for_selector(f"body:not([data-move-number='{number}'])")
    assert checked >= 10
    assert not [problem for problem in page.problems if "403" not in problem], page.problems
    page.context.close()


def test_a_choice_hovered_or_focused_shows_its_place_on_the_board(
    page: Any, new_server: Callable[..., ServerProcess]
) -> None:
    """Issue 37: the page's list of choices names places the board does not label; hovering or
    focusing a choice marks its target on the board."""
    server = new_server(bot_delay=0.0).start()
    with server.client() as api:
        seats = [{"name": "Ana"}, {"kind": "bot", "bot": "greedy"}]
        created = create_claimed_game(api, "rose-of-fire", seats, seed=11)
    page.goto(f"{server.url}/play/{created['game_id']}#seat=0&token={created['seats'][0]['token']}")
    page.wait_for_selector(READY)
    page.locator("#actions details.on-board").evaluate_all("nodes => nodes.forEach((n) => { n.open = true })")
    button = page.locator("#actions button.action").first
    action = button.get_attribute("data-action") or ""
    target = page.locator(f'{BOARD} [data-action="{css_string(action)}"]')
    assert target.count() >= 1 and page.locator(f"{BOARD} .pointed").count() == 0
    button.hover()
    assert target.first.evaluate("n => n.classList.contains('pointed')")
    assert page.locator(f"{BOARD} .pointed").count() == target.count()  # only its own place
    page.mouse.move(0, 0)
    assert page.locator(f"{BOARD} .pointed").count() == 0
    button.focus()
    assert target.first.evaluate("n => n.classList.contains('pointed')")
    button.blur()
    assert page.locator(f"{BOARD} .pointed").count() == 0
    # the page offers a claimed seat's token to the claim first, which answers 403
    assert not [problem for problem in page.problems if "status of 403" not in problem], page.problems
