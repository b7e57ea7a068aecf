"""Both games at the keyboard on a terminal of 80 x 24: a compact table with what the decision
needs, the web app's words for actions, a suggestion for a near miss, influence cards that do
not read like seats, and `analyze` naming the seats as the record does."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from eixample.cli.play import HELP, KeyboardGame
from eixample.cli.render import game_help, render, render_choices, render_compact
from eixample.cli.render.words import say
from eixample.core.protocol import Game, State
from eixample.core.registry import get_game
from eixample.core.rng import Rng
from tests.cli.helpers import invoke

WIDTH, HEIGHT = 80, 24


def _keyboard(game: Game, state: State, lines: list[str]) -> tuple[KeyboardGame, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, width=WIDTH, force_terminal=False, highlight=False)
    typed: Iterator[str] = iter(f"{line}\n" for line in lines)
    seats = ["human"] * state.num_players
    return KeyboardGame(game, state, seats, console, lambda: next(typed, "")), out


def _screens(game_name: str, players: int, seed: int, moves: int) -> Iterator[tuple[State, str]]:
    """Decisions of a random game, each as `show` draws it on an 80-column terminal."""
    game = get_game(game_name)
    state = game.new_game(players, seed)
    rng = Rng(seed)
    for _ in range(moves):
        if state.is_terminal():
            return
        keyboard, out = _keyboard(game, state, [])
        keyboard.show_decision(state.current_player())
        yield state, out.getvalue()
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])


@pytest.mark.parametrize(("game_name", "players"), [("barcelona", 2), ("barcelona", 1), ("rose-of-fire", 2)])
def test_a_decision_fits_80_by_24_for_the_common_decisions(game_name: str, players: int) -> None:
    tall = []
    for state, screen in _screens(game_name, players, seed=5, moves=60):
        lines = screen.rstrip("\n").split("\n")
        assert max(len(line) for line in lines) <= WIDTH, screen
        if len(lines) + 1 > HEIGHT:  # and the prompt
            tall.append((state.view(None)["decision_kind"], len(lines)))
        wide = Console(file=io.StringIO(), width=200, record=True)  # what would wrap at 80
        wide.print(render_compact(game_name, state.view(state.current_player())))
        lines = [line.rstrip() for line in wide.export_text().split("\n") if not line.startswith("Your hand")]
        assert max(len(line) for line in lines) <= WIDTH, lines  # a hand may take two lines
    assert len(tall) <= 6, tall  # a long choice list may scroll; the table itself never does


@pytest.mark.parametrize("game_name", ["barcelona", "rose-of-fire"])
def test_help_fits_80_columns(game_name: str) -> None:
    text = f"{HELP}\n{game_help(game_name)}"
    assert max(len(line) for line in text.split("\n")) <= WIDTH


def test_barcelona_street_actions_are_whole_words_at_80_columns() -> None:
    state, screen = next(_screens("barcelona", 2, seed=3, moves=1))
    streets = {street["id"]: street["action"] for street in state.view(None)["city"]["streets"]}
    for street, action in streets.items():
        assert f"{street} {say(f'bcn.actionShort.{action}')}" in screen, (street, screen)
    for cut in ("inters\n", "improv\n", "narro\n", "Citizen tracks"):
        assert cut not in screen


def test_the_whole_table_on_request() -> None:
    game = get_game("barcelona")
    state = game.new_game(2, 3)
    keyboard, out = _keyboard(game, state, ["table", "quit"])
    keyboard.run()
    assert "Citizen tracks" in out.getvalue() and "Cerdà Scoring tiles" in out.getvalue()
    assert "Citizen tracks" not in out.getvalue().split("the whole table")[0]


@pytest.mark.parametrize(("game_name", "typed", "meant"), [
    ("barcelona", "C12", "place C12"),
    ("barcelona", "plce C12", "place C12"),
    ("rose-of-fire", "c22", "card c22"),
])
def test_a_near_miss_gets_the_nearest_legal_action(game_name: str, typed: str, meant: str) -> None:
    game = get_game(game_name)
    state = game.new_game(2, 3)
    legal = state.legal_actions()
    keyboard, out = _keyboard(game, state, [typed, "quit"])
    keyboard.run()
    text = " ".join(out.getvalue().split())
    assert f"'{typed}' is not a legal move now. Did you mean {legal.index(meant) + 1}) {meant}" in text
    assert state.record()["actions"] == []  # nothing played


def test_actions_are_shown_in_the_web_apps_words() -> None:
    game = get_game("barcelona")
    state = game.new_game(2, 3)
    state.apply("place C12")
    while state.view(None)["decision_kind"] != "actions":
        state.apply(state.legal_actions()[0])
    console = Console(file=io.StringIO(), width=WIDTH, record=True)
    console.print(render_choices("barcelona", state.view(0), state.legal_actions()))
    text = " ".join(console.export_text().split())
    acts = [action for action in state.legal_actions() if action.startswith("act ")]
    assert acts
    for action in acts:
        _, street, kind = action.split()
        assert f"Street {street}: {say(f'bcn.action.{kind}')}" in text
        assert kind not in text  # no internal name ("cloth_or_coins")
    keyboard, out = _keyboard(game, state, ["1", "quit"])
    keyboard.run()
    assert f"plays: Street {acts[0].split()[1]}:" in out.getvalue()


def _rose_with_influence_owned() -> State:
    game = get_game("rose-of-fire")
    for seed in range(40):
        state = game.new_game(2, seed)
        rng = Rng(seed)
        for _ in range(300):
            if state.is_terminal():
                break
            if any(isinstance(card["status"], int) for card in state.view(None)["influence_cards"]):
                return state
            legal = state.legal_actions()
            buys = [action for action in legal if action.startswith("buy ")]
            state.apply(buys[0] if buys else legal[rng.below(len(legal))])
    raise AssertionError("no influence card bought")


def test_influence_cards_do_not_read_like_seats() -> None:
    state = _rose_with_influence_owned()
    console = Console(file=io.StringIO(), width=160, record=True)
    console.print(render("rose-of-fire", state.view(0)))
    text = console.export_text()
    table = text[text.index("Influence cards"):text.index("Families")]
    assert "Antoni Gaudi (personalities 1)" in table
    for card in state.view(0)["influence_cards"]:
        line = next(line for line in table.splitlines() if card["name"] in line)
        assert card["id"] not in line.split(card["name"])[0].split()[-1:], line  # not "P1 Antoni Gaudi"
        if isinstance(card["status"], int):
            assert f"owned by P{card['status'] + 1}" in line


def test_analyze_names_the_seats_as_the_record_does(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "160")  # the tables' widths follow the figures: room for whole names
    record = {"format": 1, "game": "tictactoe", "players": 2, "seed": 0, "options": {},
              "actions": ["mark 0", "mark 4", "mark 8"],
              "seats": [{"seat": 0, "kind": "person", "name": "Ana", "bot": None},
                        {"seat": 1, "kind": "bot", "name": "", "bot": "greedy"}]}
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    result = invoke(runner, "analyze", str(path), "--iterations", "20")
    assert result.exit_code == 0, result.output
    assert "Player 1 (Ana)" in result.output and "Player 2 (greedy)" in result.output
    assert "Ana win" in result.output


def test_the_compact_city_keeps_its_columns_whatever_lies_on_it() -> None:
    """Every block line has its street bars under the crossings, however full the spaces get."""
    for state, _ in _screens("barcelona", 4, seed=21, moves=300):
        console = Console(file=io.StringIO(), width=200, record=True)
        console.print(render_compact("barcelona", state.view(None)))
        block_lines = console.export_text().split("\n")[2:11][1::2]
        for line in block_lines:
            assert all(line[column] in "│║" for column in (2, 17, 32, 47, 62)), line


def test_the_end_of_a_game_fits_80_columns_with_the_scores_by_source() -> None:
    game = get_game("barcelona")
    out = io.StringIO()
    console = Console(file=out, width=WIDTH, force_terminal=False, highlight=False)
    KeyboardGame(game, game.new_game(2, 8), ["random", "random"], console, lambda: "").run()
    text = out.getvalue()
    assert "game over" in text and "Final scores by source" in text
    assert "Citizen tracks" not in text  # the whole table is 120 columns wide
    assert max(len(line) for line in text.split("\n")) <= WIDTH


def test_a_bought_influence_card_is_named_by_its_symbol_not_like_a_seat() -> None:
    from eixample.cli.render.words import action_words

    view = get_game("rose-of-fire").new_game(2, 3).view(0)
    assert action_words("rose-of-fire", "buy P1 with 2P", view) == (
        "Buy Antoni Gaudi (personalities 1) with 2 personalities")
    assert action_words("rose-of-fire", "buy K2 with 2K1C+conv", view) == (
        "Buy Alfons XII (crown 2) with 2 crown, 1 colonies, your conviction token")
