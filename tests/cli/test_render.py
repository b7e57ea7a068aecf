from __future__ import annotations

from collections.abc import Iterator

import pytest
from rich.console import Console, RenderableType
from rich.text import Text

from eixample.cli import render as rendering
from eixample.cli.render import log_lines, render, render_generic, renderer
from eixample.core.protocol import JsonDict


def _text(renderable: RenderableType) -> str:
    console = Console(width=100, record=True, file=None)
    with console.capture() as capture:
        console.print(renderable)
    return capture.get()


@pytest.fixture
def clean_renderers(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(rendering, "_RENDERERS", dict(rendering._RENDERERS))
    yield


def test_the_tictactoe_renderer_draws_the_grid() -> None:
    shown = _text(render("tictactoe", {"board": ["X", ".", ".", ".", "O", ".", ".", ".", "."]}))
    assert "│ X │ 1 │ 2 │" in shown
    assert "│ 3 │ O │ 5 │" in shown


def test_games_without_a_renderer_get_the_generic_one() -> None:
    view: JsonDict = {
        "game": "unknown",
        "round": 2,
        "scores": [3, 5],
        "decision": None,
        "city": {"streets": [{"id": "V0", "width": "narrow"}], "bag": {"W": 3, "M": 1}},
        "log": ["hidden from the table"],
    }
    shown = _text(render("no_such_game", view))
    assert shown == _text(render_generic(view))
    assert "round" in shown and "3 5" in shown
    assert "{id=V0 width=narrow}" in shown
    assert "{W=3 M=1}" in shown
    assert "decision -" in " ".join(shown.split())
    assert "hidden from the table" not in shown
    assert "unknown" not in shown


def test_registering_a_renderer(clean_renderers: None) -> None:
    @renderer("my_game")
    def draw(view: JsonDict) -> RenderableType:
        return Text(f"turn {view['turn']}")

    assert _text(render("my_game", {"turn": 4})).strip() == "turn 4"
    assert _text(render("weird.name", {"turn": 4})).split() == ["turn", "4"]


def test_log_lines() -> None:
    assert log_lines({"log": ["a", {"text": "b"}, {"seat": 1}]}) == ["a", "b", "{'seat': 1}"]
    assert log_lines({"log": "not a list"}) == []
    assert log_lines({}) == []
