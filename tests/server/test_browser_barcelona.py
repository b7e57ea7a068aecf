"""Barcelona in a real browser (Debian's chromium, headless, through Playwright).

A whole game against a bot, played by clicks on the board wherever the decision has a target
there, else on the page's buttons; the final scores shown must be the engine's. A second test
renders views of every kind of decision with a board target and checks that each legal action
has a clickable element carrying it in `data-action`. Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from eixample.ai.specs import make_bot
from eixample.games import barcelona
from eixample.games.barcelona.house_rules import balanced_seats_vp
from eixample.games.barcelona.setup import MAX_FIRST_PLAYER_VP, MAX_TURN_ORDER_VP
from tests.server.browser import (
    ARTIFACTS,
    BOARD,
    LOCALES,
    READY,
    assert_board_texts_fit,
    assert_keyboard_choice_shows_on_the_board,
    assert_new_log_lines_show_within_a_moment,
    assert_points_on_the_board,
    assert_target_in_view,
    assert_the_finished_board_shows_whole,
    create_table,
    css_string,
    open_lobby,
    screenshot,
    set_seat,
    sit_against_a_bot,
    tab,
    untranslated_log_lines,
    with_lang,
)
from tests.server.harness import ServerProcess, create_game

pytestmark = pytest.mark.browser

# Verbs of the actions the board renderer makes clickable.
BOARD_VERBS = {"place", "intersection", "street", "tram", "cobble", "build", "take", "improve", "service",
               "sagrada", "act"}


VIEWPORT = {"width": 1400, "height": 900}


# The centroid of a polygon (a triangle's bounding-box centre lies on its edge), relative to the
# element's box, for Playwright's click(position=...).
CENTROID = """(node) => {
  if (node.tagName !== 'polygon') return null;
  const points = node.getAttribute('points').trim().split(/\\s+/).map((p) => p.split(',').map(Number));
  const x = points.reduce((s, p) => s + p[0], 0) / points.length;
  const y = points.reduce((s, p) => s + p[1], 0) / points.length;
  const m = node.getScreenCTM();
  const box = node.getBoundingClientRect();
  return {x: m.a * x + m.c * y + m.e - box.left, y: m.b * x + m.d * y + m.f - box.top};
}"""


def click(locator: Any) -> None:
    point = locator.evaluate(CENTROID)
    if point:
        locator.click(position=point)
    else:
        locator.click()


def click_action(page: Any, action: str) -> str:
    """Play `action` by clicking: its board target if it has one (through the tile or the
    building space first for a two-step choice), else its button. Returns how it was played."""
    on_board = page.locator(f'{BOARD} [data-action="{css_string(action)}"]')
    if on_board.count():
        click(on_board.first)
        return "board"
    words = action.split()
    step = None
    if words[0] == "take":
        step = page.locator(f'{BOARD} [data-take="{css_string(words[1])}"]')
    elif words[0] == "build":
        step = page.locator(f'{BOARD} [data-build-space="{css_string(words[2])}"]')
    if step is not None and step.count():
        click(step.first)
        click(page.locator(f'{BOARD} [data-action="{css_string(action)}"]').first)
        return "board"
    assert words[0] not in BOARD_VERBS, f"{action!r} has no target on the board"
    page.locator(f'#actions fieldset button.action[data-action="{css_string(action)}"]').click()
    return "button"


def lobby_for_barcelona(page: Any, new_server: Callable[..., ServerProcess]) -> ServerProcess:
    """A fresh server's lobby with a 2-player Barcelona game being set up."""
    server = new_server(bot_delay=0.0).start()
    open_lobby(page, server.url, "barcelona", players=2)
    return server


def create_from_the_lobby(page: Any, server: ServerProcess) -> dict[str, Any]:
    """Create the game set up in the lobby; the view of it a spectator gets."""
    game_id = create_table(page)
    view: dict[str, Any] = httpx.get(f"{server.url}/api/games/{game_id}/state", timeout=10).json()["view"]
    return view


@pytest.mark.parametrize(
    "width,height,locale", [(1280, 800, "fr-FR"), (390, 844, "ja-JP")], ids=["1280-fr", "390-ja"]
)
def test_play_barcelona_against_a_bot_by_clicks(
    browser: Any, new_server: Callable[..., ServerProcess], width: int, height: int, locale: str
) -> None:
    """A whole game on a laptop in French and on a phone in Japanese: each decision's targets
    show without scrolling, the final scores are the engine's, no line is left untranslated."""
    with tab(browser, width, height, locale) as page:
        play_a_whole_game(page, new_server, f"{width}-{locale[:2]}")


def play_a_whole_game(page: Any, new_server: Callable[..., ServerProcess], tag: str) -> None:
    server = new_server(bot_delay=0.0).start()
    game_id = sit_against_a_bot(page, server.url, "barcelona", 7, "bcn-board")
    assert_keyboard_choice_shows_on_the_board(page, "bcn-target")

    rng = random.Random(5)
    played = {"board": 0, "button": 0}
    verbs: set[str] = set()
    mid_shot = False
    while True:
        page.wait_for_selector(READY)
        if page.locator("body[data-status='finished']").count():
            break
        number = page.locator("body").get_attribute("data-move-number")
        actions = [a for a in page.locator("#actions button.action").evaluate_all(
            "buttons => buttons.map((b) => b.dataset.action)") if a]
        assert actions, "my turn without actions"
        # prefer the board: pick among the actions with a board target when there are some
        board_actions = [a for a in actions if a.split()[0] in BOARD_VERBS]
        choices = board_actions if board_actions and rng.random() < 0.85 else actions
        action = rng.choice(choices)
        if board_actions:
            assert_target_in_view(page, page.locator("#decision").inner_text())
        played[click_action(page, action)] += 1
        verbs.add(action.split()[0])
        page.wait_for_selector(f"body:not([data-move-number='{number}'])")
        if not mid_shot and int(page.locator("body").get_attribute("data-move-number") or 0) > 120:
            page.wait_for_selector(READY)
            screenshot(page, f"barcelona-mid-{tag}.png")
            mid_shot = True

    page.wait_for_selector("#final:not([hidden])")
    screenshot(page, f"barcelona-end-{tag}.png")
    assert_the_finished_board_shows_whole(page)
    assert_new_log_lines_show_within_a_moment(page)
    shown = [int(text) for text in page.locator("#final-scores .final-score").all_inner_texts()]
    record = httpx.get(f"{server.url}/api/games/{game_id}/record", timeout=10).json()
    engine = barcelona.replay(record)
    assert engine.is_terminal()
    assert shown == engine.scores()
    # "Partie terminée" keeps clear of the bag's title
    alert_end = page.locator(f"{BOARD} .info-alert").evaluate("(n) => n.getBBox().x + n.getBBox().width")
    assert alert_end + 2 <= page.locator(f"{BOARD} .bag-title").evaluate("(n) => n.getBBox().x")
    board_scores = page.locator(f"{BOARD} .bcn-info").text_content() or ""
    assert str(engine.scores()[0]) in board_scores
    assert played["board"] > played["button"] > 0
    assert {"place", "act"} <= verbs
    assert untranslated_log_lines(page) == []
    assert not page.problems, page.problems


# -- every kind of board target ----------------------------------------------------------------

def find_views() -> dict[str, tuple[dict[str, Any], list[str]]]:
    """Views (of the seat deciding) where each kind of board-target action is legal."""
    wanted = {"place", "intersection", "street", "tram", "cobble", "build", "build-choice", "take",
              "improve", "service", "sagrada", "act"}
    found: dict[str, tuple[dict[str, Any], list[str]]] = {}
    for seed in range(1, 60):
        state = barcelona.new_game(players=2, seed=seed)
        bots = [make_bot("greedy", seat) for seat in range(2)]
        rng = random.Random(seed)
        while not state.is_terminal() and not wanted <= found.keys():
            seat = state.current_player()
            legal = state.legal_actions()
            kinds = {action.split()[0] for action in legal} & BOARD_VERBS
            builds: dict[str, int] = {}
            for action in legal:
                if action.startswith("build "):
                    builds[action.split()[2]] = builds.get(action.split()[2], 0) + 1
            if any(count > 1 for count in builds.values()):
                kinds.add("build-choice")
            for kind in kinds - found.keys():
                found[kind] = (state.view(seat), legal)
            action = rng.choice(legal) if rng.random() < 0.4 else bots[seat].choose(state.clone(), seat)
            state.apply(action)
        if wanted <= found.keys():
            return found
    raise AssertionError(f"no view found for {sorted(wanted - found.keys())}")


RENDER = """async ([view, legal]) => {
  const module = await import('/static/games/barcelona.js');
  let root = document.getElementById('probe');
  if (!root) {
    root = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    root.id = 'probe';
    root.setAttribute('class', 'board');
    document.querySelector('.board-panel').prepend(root);
    document.getElementById('board').style.display = 'none';
  }
  while (root.firstChild) root.removeChild(root.firstChild);
  window.played = [];
  const handled = module.render(root, view, {legalActions: legal, onAction: (a) => window.played.push(a),
                                             seat: view.viewer, seats: []});
  return handled;
}"""


# How many clickable elements (role=button) carry each action in data-action.
COUNT_TARGETS = """(actions) => Object.fromEntries(actions.map((action) => [action,
  Array.from(document.querySelectorAll('svg#probe [data-action]'))
    .filter((node) => node.dataset.action === action && node.getAttribute('role') === 'button').length]))"""


def test_every_board_target_is_clickable(page: Any, server: ServerProcess) -> None:
    with server.client() as api:
        game = create_game(api, "barcelona", [{"name": "Ana"}, {"name": "Biel"}], seed=3, seed_shown=True)
    page.goto(game["spectator_link"])
    page.wait_for_selector(f"{BOARD}.bcn-board")
    for kind, (view, legal) in sorted(find_views().items()):
        handled = set(page.evaluate(RENDER, [view, legal]))
        expected = {action for action in legal if action.split()[0] in BOARD_VERBS}
        assert expected <= handled, (kind, sorted(expected - handled))
        shown = page.evaluate(COUNT_TARGETS, sorted(expected))
        direct = sorted(action for action, count in shown.items() if count == 1)
        assert all(count in (0, 1) for count in shown.values()), (kind, shown)
        if direct:
            # one click plays the action
            click(page.locator(f'svg#probe [data-action="{css_string(direct[-1])}"]'))
            assert page.evaluate("window.played") == [direct[-1]]
        for action in sorted(a for a, count in shown.items() if count == 0):
            # a two-step choice: the Modernisme tile or the building space first
            words = action.split()
            assert words[0] in {"take", "build"}, (kind, action)
            page.evaluate(RENDER, [view, legal])
            step = (f'svg#probe [data-take="{words[1]}"]' if words[0] == "take"
                    else f'svg#probe [data-build-space="{words[2]}"]')
            click(page.locator(step))
            target = page.locator(f'svg#probe [data-action="{css_string(action)}"]')
            assert target.get_attribute("role") == "button", (kind, action)
            click(target)
            assert page.evaluate("window.played") == [action]
        if kind == "build-choice":
            page.evaluate(RENDER, [view, legal])
            spaces = Counter(action.split()[2] for action in legal if action.startswith("build "))
            space = next(space for space, count in spaces.items() if count > 1)
            click(page.locator(f'svg#probe [data-build-space="{space}"]'))
            page.locator("svg#probe .bcn-choice").wait_for()
            ARTIFACTS.mkdir(exist_ok=True)
            page.locator("#probe").screenshot(path=str(ARTIFACTS / "barcelona-build-choice.png"))

    # a solo game: the Assistant's meeple, card and score
    state = barcelona.new_game(players=1, seed=4)
    bot = make_bot("greedy", 1)
    while state.turns < 8:
        state.apply(bot.choose(state.clone(), 0))
    view = state.view(0)
    page.evaluate(RENDER, [view, []])
    assert page.locator(f'svg#probe [data-meeple="{view["solo"]["meeple"]}"]').count() == 1
    solo_text = page.locator("svg#probe .bcn-solo").text_content() or ""
    assert f"Card {view['solo']['card']['number']}" in solo_text
    assert str(view["solo"]["automa_vp"]) in solo_text
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#probe").screenshot(path=str(ARTIFACTS / "barcelona-solo.png"))
    assert not page.problems, page.problems


# -- a solo game from the lobby ------------------------------------------------------------------

ASSISTANT = "Gaudí's Assistant"


def expected_headline(solo: dict[str, Any]) -> str:
    by = abs(solo["margin"])
    if solo["result"] == "won":
        return f"You beat {ASSISTANT} by {by} VP" if by else f"You beat {ASSISTANT} on the tie-breakers"
    if solo["result"] == "lost":
        return f"{ASSISTANT} beat you by {by} VP" if by else f"{ASSISTANT} wins on the tie-breakers"
    return f"A shared victory: you and {ASSISTANT} tie"


def test_play_solo_from_the_lobby_by_clicks(page: Any, new_server: Callable[..., ServerProcess]) -> None:
    server = new_server(bot_delay=0.0).start()
    open_lobby(page, server.url, "barcelona", players=1)
    assert ASSISTANT in (page.locator("#seat-rows .automa-row").text_content() or "")
    page.select_option("#options select[data-option='difficulty']", label="hard")
    set_seat(page, 0, "person", name="Ana")
    page.fill("#seed", "11")
    game_id = create_table(page)
    assert "played by the game" in (page.locator("#invitation-list").text_content() or "")
    page.click("a.play-link[data-seat='0']")
    page.wait_for_selector(f"{BOARD}.bcn-board")
    assert "automa" in (page.locator("#seats .seat-card[data-seat='1']").text_content() or "")

    rng = random.Random(3)
    played = {"board": 0, "button": 0}
    fading = 0  # the most log lines of the Assistant appearing one after the other at once
    while True:
        page.wait_for_selector(READY)
        if page.locator("body[data-status='finished']").count():
            break
        number = page.locator("body").get_attribute("data-move-number")
        actions = [a for a in page.locator("#actions button.action").evaluate_all(
            "buttons => buttons.map((b) => b.dataset.action)") if a]
        assert actions, "my turn without actions"
        board_actions = [a for a in actions if a.split()[0] in BOARD_VERBS]
        action = rng.choice(board_actions if board_actions and rng.random() < 0.85 else actions)
        played[click_action(page, action)] += 1
        page.wait_for_selector(f"body:not([data-move-number='{number}'])")
        fading = max(fading, page.locator("#log li.log-automa.log-new").count())

    page.wait_for_selector("#final:not([hidden])")
    record = httpx.get(f"{server.url}/api/games/{game_id}/record", timeout=10).json()
    engine = barcelona.replay(record)
    assert engine.is_terminal() and record["players"] == 1 and record["options"]["difficulty"] == "hard"
    solo = engine.view(0)["solo"]
    # the final scores shown: the points table, the seat cards and the board's panel
    shown = [int(text) for text in page.locator("#final-scores .final-score").all_inner_texts()]
    assert shown == engine.scores() == [solo["player_vp"], solo["automa_vp"]]
    assert page.locator("#seats .seat-score").all_inner_texts() == [f"{vp} pts" for vp in engine.scores()]
    assert page.locator("#winners").inner_text() == expected_headline(solo)
    assert page.locator("#final").get_attribute("data-outcome") == solo["result"]
    assert f"margin {solo['margin']:+d}" in page.locator("#result-detail").inner_text()
    banner = page.locator(f"{BOARD} .solo-result")
    assert banner.get_attribute("data-result") == solo["result"]
    assert expected_headline(solo) in (banner.text_content() or "")
    assert page.locator(f'{BOARD} [data-meeple="{solo["meeple"]}"]').count() == 1
    # the Assistant's turns are in the log, one step a line, each line appearing after the last
    log = page.locator("#log li").all_inner_texts()
    assert log[-1].startswith("Final scores: you ")
    assert page.locator("#log li.log-automa").count() == sum(
        isinstance(entry, dict) and isinstance(entry["args"].get("player"), dict)  # the Assistant's lines
        for entry in engine.view(0)["log"])
    assert fading >= 3
    assert played["board"] > played["button"] > 0
    screenshot(page, "barcelona-solo-end.png")
    assert not page.problems, page.problems


# -- what the board reads from the view ----------------------------------------------------------

def find_view_features() -> dict[str, dict[str, Any]]:
    """Views with a crossing and a building as the decision's target, and one at the end of a game
    with Modernisme tiles in project spaces and Sagrada Família tiles taken."""
    found: dict[str, dict[str, Any]] = {}
    for seed in range(1, 40):
        state = barcelona.new_game(players=2, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            target = state.view(state.current_player())["decision_target"] or {}
            for key in ("crossing", "building"):
                if key in target and key not in found:
                    found[key] = state.view(state.current_player())
            state.apply(rng.choice(state.legal_actions()))
        view = state.view(None)
        players = view["player_list"]
        projects = any(space["tile"] for p in players for space in p["modernisme"])
        if projects and any(p["sagrada_tiles"] for p in players):
            found.setdefault("tiles", view)
        if len(found) == 3:
            return found
    raise AssertionError(f"not found: {sorted({'crossing', 'building', 'tiles'} - found.keys())}")


# A panel's title and its note, at one baseline: [title, note, where the title ends, where the note begins].
PANEL_HEADS = """() => {
  const notes = Array.from(document.querySelectorAll('svg#board text.panel-note'));
  return Array.from(document.querySelectorAll('svg#board text.panel-title')).flatMap((title) => {
    const end = title.getBBox().x + title.getBBox().width;
    const beside = (note) =>
      note.getAttribute('y') === title.getAttribute('y') && note.getBBox().x >= title.getBBox().x;
    return notes.filter(beside).map((note) => [title.textContent, note.textContent, end, note.getBBox().x]);
  });
}"""


@pytest.mark.parametrize("lang", ["de", "cs", "fr", "ja"])
def test_panel_titles_notes_and_tile_texts_keep_to_their_room(
    browser: Any, server: ServerProcess, lang: str
) -> None:
    """A German title or note is longer than the English one it replaced ("Einwohner-Leisten",
    "wertet Plättchen × Multiplikator · über dem Ende: 2 SP je Schritt"): titles and notes do
    not run into each other, and tile texts keep within their tiles."""
    with server.client() as api:
        game = create_game(api, "barcelona", [{"name": "Ana"}, {"name": "Biel"}], seed=3, seed_shown=True)
    with tab(browser, 1280, 800, LOCALES[lang]) as page:
        page.goto(with_lang(game["spectator_link"], lang))
        page.wait_for_selector(f"{BOARD}.bcn-board")
        heads = page.evaluate(PANEL_HEADS)
        assert len(heads) >= 3
        for title, note, end, begin in heads:
            assert end + 4 <= begin, f"{title!r} runs into {note!r}"
        assert_board_texts_fit(page)


def test_board_reads_tiles_rows_and_target_from_the_view(page: Any, server: ServerProcess) -> None:
    with server.client() as api:
        game = create_game(api, "barcelona", [{"name": "Ana"}, {"name": "Biel"}], seed=3, seed_shown=True)
    page.goto(game["spectator_link"])
    page.wait_for_selector(f"{BOARD}.bcn-board")
    found = find_view_features()

    # the decision's target is ringed
    for key in ("crossing", "building"):
        view = found[key]
        page.evaluate(RENDER, [view, []])
        where = view["decision_target"][key]
        ring = page.locator(f'svg#probe .decision-target[data-decision-target="{where}"]')
        assert ring.count() == 1, (key, view["decision_target"])
        assert page.locator("svg#probe .decision-target").count() == 1

    # tiles named by id on the player boards come from the view's catalogue
    view = found["tiles"]
    player = next(p for p in view["player_list"] if any(space["tile"] for space in p["modernisme"]))
    tile_id = next(space["tile"] for space in player["modernisme"] if space["tile"])
    changed = {"vp": 9, "condition": "made_up", "text": "9 VP: a changed tile"}
    view["tiles"]["modernisme"][tile_id].update(changed)
    holder = next(p for p in view["player_list"] if p["sagrada_tiles"])
    sagrada_id = holder["sagrada_tiles"][0]
    view["tiles"]["sagrada"][sagrada_id]["benefit"] = {"vp": 42}
    # and the printed VP rows of the player boards from `player_board`
    passenger_vp = [0, 5, 15, 25, 35, 45]
    view["player_board"] = {"cobblestone_vp": [0, 10, 20, 30, 40, 50, 60], "passenger_vp": passenger_vp}
    page.evaluate(RENDER, [view, []])
    boards = "svg#probe .bcn-player"
    project = page.locator(f'{boards}[data-seat="{player["seat"]}"] .project', has_text=tile_id).first
    assert "9 VP" in (project.text_content() or "")
    assert "a changed tile" in (project.locator("title").first.text_content() or "")
    titles = page.locator(f'svg#probe .bcn-player[data-seat="{holder["seat"]}"] title').all_text_contents()
    assert any(sagrada_id in t and "42 VP" in t for t in titles), titles
    for entry in view["player_list"]:
        board = page.locator(f'svg#probe .bcn-player[data-seat="{entry["seat"]}"]')
        removed = 6 - entry["cobblestones_left"]
        cobbles = board.locator('[data-next="cobblestone"]').text_content() or ""
        assert f"{removed * 10} VP now" in cobbles
        if removed < 6:
            assert f"next one: {(removed + 1) * 10} VP (+10)" in cobbles
        placed = sum(p["placed"] for p in entry["passengers"])
        passengers = board.locator('[data-next="passenger"]').text_content() or ""
        assert passengers.startswith(f"{passenger_vp[placed]} VP")
        if placed < 5:
            assert f"next {passenger_vp[placed + 1]}" in passengers

    # the result of a solo game in words, for the page shell
    state = barcelona.new_game(players=1, seed=4)
    view = state.view(0)
    summary = page.evaluate(
        """async ([view, results]) => {
          const module = await import('/static/games/barcelona.js');
          return results.map(([result, margin]) => module.resultSummary(
            {...view, solo: {...view.solo, result, margin}}, {seat: 0, seats: []}));
        }""",
        [view, [["won", 7], ["lost", -12], ["tied", 0], ["won", 0], [None, 3]]],
    )
    assert [s and s["headline"] for s in summary] == [
        f"You beat {ASSISTANT} by 7 VP", f"{ASSISTANT} beat you by 12 VP",
        f"A shared victory: you and {ASSISTANT} tie", f"You beat {ASSISTANT} on the tie-breakers", None,
    ]
    assert not page.problems, page.problems


def test_options_with_a_few_values_are_menus_in_the_lobby(
    page: Any, new_server: Callable[..., ServerProcess]
) -> None:
    server = lobby_for_barcelona(page, new_server)
    first = "#options select[data-option='first_player']"
    assert page.locator(f"{first} option").all_inner_texts() == ["default", "seat A", "seat B", "random"]
    assert page.locator("#options select[data-option='action_tiles'] option").all_inner_texts() == [
        "default", "shuffled", "as printed"]
    assert page.locator("#options [data-option='difficulty']").count() == 0  # a solo game's only
    page.select_option(first, label="seat B")
    page.select_option("#player-count", "3")  # the choice survives the seats changing
    assert page.locator(f"{first} option").all_inner_texts()[-2:] == ["seat C", "random"]
    assert page.locator(f"{first} option:checked").inner_text() == "seat B"
    page.select_option("#player-count", "1")  # solo: the difficulty, and you always start
    assert page.locator(f"{first}").count() == 0
    assert page.locator("#options select[data-option='difficulty'] option").count() == 4
    page.select_option("#player-count", "2")
    page.select_option("#options select[data-option='action_tiles']", label="as printed")
    set_seat(page, 0, "person")
    page.fill("#seed", "5")
    view = create_from_the_lobby(page, server)
    assert view["first_player"] == 1
    assert view["city"] == barcelona.new_game(2, 5, first_player=1, action_tiles="printed").view(None)["city"]
    assert view["city"] != barcelona.new_game(2, 5, first_player=1).view(None)["city"]
    assert not page.problems, page.problems


def test_a_house_rule_switch_is_a_checkbox_in_the_lobby(
    page: Any, new_server: Callable[..., ServerProcess]
) -> None:
    server = lobby_for_barcelona(page, new_server)
    page.click("#options details.house-rules summary")  # the house rules wait behind a disclosure
    switch = page.locator("#options input[data-option='balanced_seats']")
    assert switch.get_attribute("type") == "checkbox" and not switch.is_checked()
    switch.check()
    page.select_option("#player-count", "3")  # the tick survives the seats changing
    assert page.locator("#options input[data-option='balanced_seats']").is_checked()
    page.select_option("#player-count", "2")
    set_seat(page, 0, "person")
    view = create_from_the_lobby(page, server)
    assert [line["house_rule"] for line in view["score_breakdown"]] == list(balanced_seats_vp(2))


def test_a_whole_number_house_rule_is_a_number_field_with_its_limits(
    page: Any, new_server: Callable[..., ServerProcess]
) -> None:
    server = lobby_for_barcelona(page, new_server)
    page.click("#options details.house-rules summary")
    field = page.locator("#options input[data-option='first_player_vp']")
    assert field.get_attribute("type") == "number"
    assert (field.get_attribute("min"), field.get_attribute("max")) == ("0", str(MAX_FIRST_PLAYER_VP))
    turn_order = page.locator("#options input[data-option='turn_order_vp']")
    assert turn_order.get_attribute("max") == str(MAX_TURN_ORDER_VP)
    page.select_option("#player-count", "1")  # a solo game has no house-rule VP
    assert page.locator("#options [data-option='first_player_vp']").count() == 0
    page.select_option("#player-count", "2")
    set_seat(page, 0, "person")
    page.locator("#options input[data-option='first_player_vp']").fill(str(MAX_FIRST_PLAYER_VP + 1))
    page.click("#create")  # beyond the limit: the server's reason, and no game
    page.wait_for_selector("#create-error:not([hidden])")
    assert "first_player_vp" in page.inner_text("#create-error")
    assert page.locator("#invitations").is_hidden()
    assert [problem for problem in page.problems if "status of 422" not in problem] == []
    page.problems.clear()  # the browser reports the refused request itself
    page.locator("#options input[data-option='first_player_vp']").fill("3")
    view = create_from_the_lobby(page, server)
    assert [line["house_rule"] for line in view["score_breakdown"]] == [3, 0]
    assert not page.problems, page.problems


def test_a_log_line_hovered_or_focused_shows_the_places_it_names(
    page: Any, new_server: Callable[..., ServerProcess]
) -> None:
    """Issue 37: the log names places the board does not label ("crossing C33"); hovering or
    focusing such a line marks them on the board."""
    server = new_server(bot_delay=0.0).start()
    with server.client() as api:
        bots = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
        game = create_game(api, "barcelona", bots, seed=3)
    page.goto(f"{server.url}/play/{game['game_id']}")
    page.wait_for_selector("body[data-status='finished']", timeout=60_000)
    lines = page.locator("#log li.names-place")
    assert lines.count() > 0
    crossing = page.locator("#log li.names-place", has_text="C0").first  # a crossing of the city's first row
    crossing.scroll_into_view_if_needed()
    first = assert_points_on_the_board(page, crossing)[0]
    assert first.get("crossing") or first.get("space") or first.get("street")
    assert not page.problems, page.problems


def test_the_others_last_moves_are_marked_on_the_board(
    page: Any, new_server: Callable[..., ServerProcess]
) -> None:
    """Issue 37: what the others did since your last decision is marked on the board (the places
    their latest lines name)."""
    server = new_server(bot_delay=0.0).start()
    with server.client() as api:
        game = create_game(api, "barcelona", [{"name": "Ana"}, {"kind": "bot", "bot": "random"}], seed=3)
    page.goto(game["seats"][0]["link"])
    rng = random.Random(2)
    marked = 0
    for _ in range(12):
        page.wait_for_selector(READY)
        if page.locator("body[data-status='finished']").count():
            break
        if page.locator(f"{BOARD} .last-move").count():
            marked += 1
            places = page.locator(f"{BOARD} .last-move").evaluate_all(
                "nodes => nodes.map((n) => n.dataset.crossing || n.dataset.space || n.dataset.street || '')")
            assert all(places), places
        number = page.locator("body").get_attribute("data-move-number")
        actions = [a for a in page.locator("#actions button.action").evaluate_all(
            "buttons => buttons.map((b) => b.dataset.action)") if a]
        page.locator("#actions button.action").nth(actions.index(rng.choice(actions))).dispatch_event("click")
        page.wait_for_selector(f"body:not([data-move-number='{number}'])")
    assert marked >= 1
