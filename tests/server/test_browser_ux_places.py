"""Issue 37: every place a decision names can be found on the board, in both games.

- Hovering or focusing the decision's text marks the places it names ("crossing C32", "SB6").
- Every choice with a place shows it when hovered or focused: its own target, else the step that
  opens it (the tile or space of a two-step choice), else the places its words name ("use the
  top citizens of C31 and C32").
- What each other player did since the viewer's last decision is marked: every place their lines
  name, and their own board when their moves name none (tokens kept, a card bought...).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from eixample.core.registry import get_game
from tests.server import test_browser_barcelona as bcn
from tests.server import test_browser_rose_of_fire as rof
from tests.server.browser import BOARD, assert_points_on_the_board, open_seat, play_by_api, tab
from tests.server.harness import ServerProcess, create_claimed_game

pytestmark = pytest.mark.browser

PLACE_ARGUMENTS = ("crossing", "space", "street", "sidewalk", "block", "project", "tile", "card")
GAMES = {"barcelona": bcn, "rose-of-fire": rof}
# Actions that are played somewhere on the board, though by a button (Barcelona's citizens for a
# building name the crossings they come from).
PLACED = {"barcelona": bcn.BOARD_VERBS | {"use"}, "rose-of-fire": rof.BOARD_VERBS}

POINTED = """(action) => {
  const root = document.getElementById('probe');
  return import('/static/js/draw.js').then((draw) => {
    draw.pointAt(root, action, true);
    const count = root.querySelectorAll('.pointed').length;
    draw.pointAt(root, action, false);
    return count;
  });
}"""

LAST_MOVES = """async ([log, viewer]) => {
  const draw = await import('/static/js/draw.js');
  const root = document.getElementById('probe');
  draw.markLastMoves(root, log, viewer);
  const places = Array.from(root.querySelectorAll('.last-move')).map((n) => {
    const d = n.dataset;
    return d.crossing || d.space || d.street || d.sidewalk || d.block || d.project || d.tile || d.card || '';
  });
  const seats = Array.from(root.querySelectorAll('.last-move-seat')).map((n) => Number(n.dataset.seat));
  return [places, seats];
}"""


ON_THE_BOARD = """(root, names) => names.filter((n) => root.querySelector(
  `[data-crossing='${n}'], [data-space='${n}'], [data-street='${n}'], [data-sidewalk='${n}'],
   [data-tile='${n}'], [data-card='${n}']`))"""


View = tuple[dict[str, Any], list[str], int]


def played_views(game: str, players: int, seed: int, every: int) -> list[View]:
    """Views of a random game's decisions (one in `every`): (the deciding seat's view, legal
    actions, seat)."""
    state = get_game(game).new_game(players=players, seed=seed)
    rng = random.Random(seed)
    views = []
    count = 0
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        if len(legal) > 1:
            count += 1
            if count % every == 0:
                views.append((state.view(seat), legal, seat))
        state.apply(rng.choice(legal))
    return views


def spectator_page(page: Any, server: ServerProcess, game: str) -> None:
    with server.client() as api:
        created = create_claimed_game(api, game, [{"name": "Ana"}, {"name": "Biel"}], seed=3, seed_shown=True)
    page.goto(created["spectator_link"])
    page.wait_for_selector(f"{BOARD}.bcn-board, {BOARD}.rof-board")


@pytest.mark.parametrize("game", ["barcelona", "rose-of-fire"])
def test_every_choice_with_a_place_points_at_it(
    browser: Any, module_server: ServerProcess, game: str
) -> None:
    module = GAMES[game]
    with tab(browser) as page:
        spectator_page(page, module_server, game)
        kinds: dict[str, tuple[dict[str, Any], list[str]]] = {
            kind: (view, legal) for kind, (view, legal) in module.find_views().items()
        }
        for view, legal, _seat in played_views(game, 2, 5, 9):
            for action in legal:
                kinds.setdefault(action.split()[0], (view, legal))
        missing = []
        for kind, (view, legal) in sorted(kinds.items()):
            page.evaluate(module.RENDER, [view, legal])
            for action in legal:
                if action.split()[0] in PLACED[game] and page.evaluate(POINTED, action) == 0:
                    missing.append((kind, action))
        assert not missing, missing[:10]
        assert not page.problems, page.problems


def decision_with_a_place(game: str) -> tuple[str, Any]:
    """A decision key that names a place, and how to choose on the way to it."""
    if game == "barcelona":
        return "bcn.ask.actions", None

    def towards_a_house(actions: list[str]) -> str:
        return next((a for a in actions if a.startswith(("card c", "tile"))), actions[0])
    return "rof.ask.house", towards_a_house


@pytest.mark.parametrize("game", ["barcelona", "rose-of-fire"])
def test_the_decision_shows_the_places_it_names(
    browser: Any, module_server: ServerProcess, game: str
) -> None:
    key, choose = decision_with_a_place(game)
    with module_server.client() as api:
        created = create_claimed_game(api, game, [{"name": "Ana"}, {"kind": "bot", "bot": "random"}], seed=4)
    state = play_by_api(module_server, created, 0, lambda s: s["decision"].get("key") == key, choose)
    place = {name: value for name, value in state["decision"]["args"].items() if name in PLACE_ARGUMENTS}
    (name, value), = place.items()
    with tab(browser) as page:
        open_seat(page, created)
        decision = page.locator("#decision")
        assert decision.get_attribute("tabindex") == "0"
        marked = assert_points_on_the_board(page, decision)
        assert {data.get(name) for data in marked} == {value}
        assert not page.problems, page.problems


def expected_last_moves(log: list[dict[str, Any]], viewer: int) -> tuple[dict[str, set[str]], set[int]]:
    """Each other player's places named since the viewer's last line, and the seats whose lines
    named none."""
    mine = f"P{viewer + 1}"
    places: dict[str, set[str]] = {}
    for entry in reversed(log):
        player = entry["args"].get("player")
        if not isinstance(player, str):
            continue
        if player == mine:
            break
        named = places.setdefault(player, set())
        args = entry["args"]
        named |= {value for name, value in args.items() if name in PLACE_ARGUMENTS and isinstance(value, str)}
    quiet = {int(player[1:]) - 1 for player, named in places.items() if not named}
    return places, quiet


@pytest.mark.parametrize("game,players", [("barcelona", 3), ("rose-of-fire", 3)])
def test_each_other_players_moves_since_my_last_decision_are_marked(
    browser: Any, module_server: ServerProcess, game: str, players: int
) -> None:
    module = GAMES[game]
    with tab(browser) as page:
        spectator_page(page, module_server, game)
        seen_quiet = seen_several = 0
        for view, legal, seat in played_views(game, players, 8, 5)[:40]:
            page.evaluate(module.RENDER, [view, legal])
            expected, quiet = expected_last_moves(view["log"], seat)
            marked, seats = page.evaluate(LAST_MOVES, [view["log"], seat])
            wanted = set().union(*expected.values()) if expected else set()
            # every place named is marked (the places no board element carries aside)
            shown = set(page.locator("svg#probe").evaluate(ON_THE_BOARD, sorted(wanted)))
            assert shown <= set(marked), (sorted(shown - set(marked)), view["log"][-6:])
            assert set(marked) <= wanted
            assert set(seats) == quiet
            seen_quiet += bool(quiet)
            seen_several += any(len(named) > 1 for named in expected.values())
        assert seen_several, "no turn named several places"
        if game == "rose-of-fire":
            assert seen_quiet, "no turn without a place"
        assert not page.problems, page.problems


def test_a_two_step_choice_brings_its_second_step_into_view_on_a_phone(
    browser: Any, module_server: ServerProcess
) -> None:
    """Played on a phone: the Modernisme offer is shown, a tile is picked, and its project spaces
    (on the player's board, another region of the board's viewport) must come into view."""
    with module_server.client() as api:
        seats = [{"name": "Ana"}, {"kind": "bot", "bot": "random"}]
        created = create_claimed_game(api, "barcelona", seats, seed=6, seed_shown=True)
    rng = random.Random(4)

    def towards_modernisme(actions: list[str]) -> str:
        wanted = [a for a in actions if a.startswith(("act V2", "act H2", "take", "place C2", "place C1"))]
        return rng.choice(wanted or actions)

    def several_spaces(state: dict[str, Any]) -> bool:
        legal = state["legal_actions"]
        tiles = {action.split()[1] for action in legal}
        return state["decision"].get("key") == "bcn.ask.take" and len(tiles) < len(legal)

    state = play_by_api(module_server, created, 0, several_spaces, towards_modernisme)
    tile = state["legal_actions"][0].split()[1]
    with tab(browser, 390, 844) as page:
        open_seat(page, created)
        page.locator(f'{BOARD} [data-take="{tile}"]').click()
        space = page.locator(f'{BOARD} [data-action^="take {tile} into"]').first
        space.wait_for()
        box = space.bounding_box()
        frame = page.locator(BOARD).evaluate(
            "n => { const r = n.parentElement.getBoundingClientRect();"
            " return [r.left, r.top, r.right, r.bottom]; }")
        assert box is not None
        centre = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        assert frame[0] <= centre[0] <= frame[2] and frame[1] <= centre[1] <= frame[3], (box, frame)
        assert 0 <= centre[0] <= 390 and 0 <= centre[1] <= 844, box
        space.click(timeout=5000)
        page.wait_for_selector(f"body:not([data-move-number='{state['move_number']}'])")
        assert not page.problems, page.problems
