"""A whole game of Barcelona at the keyboard, against a random bot, saved and resumed; and the
Barcelona table drawn at the start, the middle and the end of a game."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from rich.console import Console, RenderableType
from typer.testing import CliRunner

from eixample.ai.match import derive_seed
from eixample.ai.specs import make_bot
from eixample.cli.render import render, render_choices, render_details
from eixample.cli.tables import breakdown_table, outcome_line
from eixample.core.rng import Rng
from eixample.games import barcelona
from eixample.games.barcelona import BarcelonaState
from tests.cli.helpers import assert_clear_failure, invoke

SEED = 4
BEFORE_SAVE = 30
ENOUGH = 400
WIDTH = 120


def _lines(*lines: str) -> str:
    return "".join(f"{line}\n" for line in lines)


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_a_whole_game_against_a_bot_saved_and_resumed(runner: CliRunner, tmp_path: Path) -> None:
    saved = tmp_path / "barcelona.json"
    script = _lines("undo", "help", "place C99", "99", "1", "undo", *["1"] * BEFORE_SAVE,
                    f"save {saved}", "quit")
    first = invoke(runner, "play", "--seed", str(SEED), "--opponent", "random", input=script)
    assert first.exit_code == 0, first.output[-3000:]
    out = _flat(first.output)
    assert "P1: place your citizens (2) on an empty street crossing" in out
    assert "Your citizens:" in out
    assert "1) C00 $1 2) C01 3) C02" in out
    assert "Nothing to undo" in out
    assert "Barcelona moves, as typed" in out and "undo take back your last decision" in out
    assert "'place C99' is not a legal move now. Did you mean" in out
    assert "There is no choice 99: pick a number from 1 to 25." in out
    assert "Took back: place C00" in out
    assert "Player 2 (random) plays:" in out
    assert "P2 places" in out  # the last moves
    assert f"Saved to {saved}" in out
    data = json.loads(saved.read_text())
    assert data["seats"] == ["human", "random"]
    record = data["record"]
    assert record["game"] == "barcelona" and len(record["actions"]) > BEFORE_SAVE

    second = invoke(runner, "play", "--load", str(saved), input=_lines(*["1"] * ENOUGH))
    assert second.exit_code == 0, second.output[-3000:]
    assert "End of input" not in second.output
    assert "Final scores by source" in second.output

    # the same game by the engine alone: the saved record, then option 1 against a fresh bot
    state = barcelona.replay(record)
    bot = make_bot("random", derive_seed(record["seed"], 1))
    while not state.is_terminal():
        seat = state.current_player()
        state.apply(state.legal_actions()[0] if seat == 0 else bot.choose(state, seat))
    scores = state.scores()
    out = _flat(second.output)
    assert f"game over VP P1 {scores[0]} P2 {scores[1]}" in out
    assert outcome_line(state, ["you", "random"]) in out
    for source in state.score_breakdown()[0]:
        points = [breakdown[source] for breakdown in state.score_breakdown()]
        row = rf"│ {source.replace('_', ' ')}\s+│\s+{points[0]} │\s+{points[1]} │"
        assert re.search(row, second.output), row
    assert re.search(rf"│ Total\s+│\s+{scores[0]} │\s+{scores[1]} │", second.output)


def test_solo_means_one_player(runner: CliRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[int, dict[str, object]]] = []

    def new_game(players: int = 4, seed: int = 0, **options: object) -> BarcelonaState:
        calls.append((players, options))
        raise ValueError("no solo mode yet")

    monkeypatch.setattr(barcelona.GAME, "new_game", new_game)
    assert_clear_failure(invoke(runner, "play", "--solo", "--difficulty", "hard", input="quit\n"),
                         "cannot set up Barcelona for one player (solo): no solo mode yet")
    assert_clear_failure(invoke(runner, "play", "--solo", input="quit\n"), "cannot set up Barcelona")
    assert calls == [(1, {"difficulty": "hard"}), (1, {})]


def test_a_whole_solo_game(runner: CliRunner, tmp_path: Path) -> None:
    """One player against the game's own opponent; the command ends cleanly either way."""
    try:
        barcelona.new_game(1, 1)
    except ValueError:
        result = invoke(runner, "play", "--solo", "--seed", "1", input="quit\n")
        assert_clear_failure(result, "cannot set up Barcelona for one player (solo)")
        return
    saved = tmp_path / "solo.json"
    first = invoke(runner, "play", "--solo", "--difficulty", "easy", "--seed", "2",
                   input=_lines("1", f"save {saved}", "quit"))
    assert first.exit_code == 0, first.output[-3000:]
    data = json.loads(saved.read_text())
    assert data["record"]["players"] == 1 and data["record"]["options"]["difficulty"] == "easy"
    assert data["seats"][0] == "human" and set(data["seats"][1:]) == {"solo"}
    second = invoke(runner, "play", "--load", str(saved), input=_lines(*["1"] * ENOUGH))
    assert second.exit_code == 0, second.output[-3000:]
    out = _flat(second.output)
    assert "Barcelona, solo against" in out and "Final scores by source" in out
    state = barcelona.replay(data["record"])
    opponent = state.view(None)["solo"]["opponent"]
    assert f"Player 2 ({opponent})" in out
    assert "Player 2 (solo)" not in out and "plays:" not in out.replace("Player 1 (you) plays:", "")
    assert_clear_failure(invoke(runner, "play", "--solo", "--seat", "2=human", input="quit\n"),
                         "that seat is the solo opponent")


@pytest.mark.parametrize(("args", "phrase"), [
    (("--solo", "--players", "3"), "--solo is a one-player game"),
    (("--players", "3", "--difficulty", "easy"), "--difficulty goes with --solo"),
])
def test_solo_options_that_do_not_fit(runner: CliRunner, args: tuple[str, ...], phrase: str) -> None:
    assert_clear_failure(invoke(runner, "play", *args, input="quit\n"), phrase)


# -- the table ------------------------------------------------------------------------------------


def _text(renderable: RenderableType) -> str:
    console = Console(width=WIDTH, record=True, color_system=None)
    with console.capture() as capture:
        console.print(renderable)
    return capture.get()


def _played(players: int, moves: int, seed: int = 5) -> BarcelonaState:
    state = barcelona.new_game(players, seed)
    rng = Rng(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
    return state


def _check_table(state: BarcelonaState, viewer: int | None) -> str:
    view = state.view(viewer)
    shown = _text(render("barcelona", view))
    assert all(len(line) <= WIDTH for line in shown.splitlines())
    lines = shown.splitlines()
    # every crossing: its id and cost, and its citizens (bottom/top) just below
    for crossing in view["city"]["crossings"]:
        row = next(i for i, line in enumerate(lines) if f"{crossing['id']} ${crossing['cost']}" in line)
        column = lines[row].index(crossing["id"])
        below = lines[row + 1][column:].split()
        assert below[0] == ("/".join(crossing["citizens"]) or "·"), crossing
        if crossing["intersection"] is not None:
            assert below[1] == f"■P{crossing['intersection'] + 1}"
    flat = _flat(shown)
    for player, score in zip(view["player_list"], view["scores"], strict=True):
        name = f" {player['name']}" if player.get("name") else ""
        assert f"P{player['seat'] + 1}{name} {score} VP" in flat
    # a hand is shown only to its owner
    owners = [p["seat"] for p in view["player_list"] if p["hand"] is not None]
    assert owners == ([] if viewer is None else [viewer])
    assert len(re.findall(r"hand [WMU]( [WMU])*\b|hand \(empty\)", shown)) == len(owners)
    hidden = [p for p in view["player_list"] if p["hand"] is None and p["hand_size"]]
    assert flat.count("hidden") == len(hidden)
    assert f"lowest visible value {view['lowest_visible']}" in flat
    for street in view["city"]["streets"]:
        assert street["id"] in flat
    return shown


def test_the_table_at_the_start() -> None:
    state = barcelona.new_game(4, 2)
    shown = _check_table(state, 0)
    hand = " ".join(state.view(0)["player_list"][0]["hand"])
    assert f"hand {hand}" in shown
    assert "round 1" in shown and "turn of P1" in shown
    for bonus in state.view(0)["city"]["row_bonus"]:
        assert f"row bonus {bonus}" in shown
    assert "Final scores" not in shown and "Points by source" not in shown
    choices = _text(render_choices("barcelona", state.view(0), state.legal_actions()))
    assert "1) C00 $1" in choices and "25) C44" in choices


def test_the_table_in_the_middle() -> None:
    state = _played(3, 120)
    assert not state.is_terminal()
    me = state.current_player()
    shown = _check_table(state, me)
    _check_table(state, None)
    _check_table(state, (me + 1) % 3)
    view = state.view(me)
    for space in view["city"]["spaces"]:
        if space["tile"] is not None:
            assert space["id"] in shown
    for index, tile in enumerate(view["cerda_scoring"]):
        mark = "✓" if tile["scored"] else ""
        assert re.search(rf"^{mark}\s*{index + 1} {tile['id']} ", shown, re.MULTILINE), tile
    choices = _text(render_choices("barcelona", view, state.legal_actions()))
    assert "1)" in choices
    details = render_details("barcelona", view)
    assert details is not None and view["cerda_scoring"][0]["text"] in _flat(_text(details))


def test_the_table_at_the_end() -> None:
    state = _played(2, 10_000)
    assert state.is_terminal()
    shown = _check_table(state, None)
    flat = _flat(shown)
    assert "game over" in flat
    assert "by source" not in flat  # the command prints the final scores once, under the table
    names = ["greedy", "random"]
    scores = _text(breakdown_table(state, names))
    for seat in state.winners():
        assert f"Player {seat + 1} ({names[seat]}) (winner)" in _flat(scores)
    breakdown = state.score_breakdown()
    for source in breakdown[0]:
        row = next(line for line in scores.splitlines() if line.startswith(f"│ {source.replace('_', ' ')} "))
        assert [int(n) for n in re.findall(r"\d+", row)] == [points[source] for points in breakdown]


def test_the_solo_table() -> None:
    try:
        state = barcelona.new_game(1, 3, difficulty="hard")
    except ValueError:
        pytest.skip("no solo mode in the engine")
    for _ in range(40):
        state.apply(state.legal_actions()[0])
    shown = _check_table(state, 0)
    solo = state.view(0)["solo"]
    flat = _flat(shown)
    assert f"solo against {solo['opponent']} ({solo['difficulty']})" in flat
    assert f"x {solo['multiplier_percent']}% = {solo['automa_vp']}" in flat
    assert f"meeple on {solo['meeple']}" in flat
