"""Search options of the MCTS bot: first-play urgency (`fpu`), exploration scaled by the
spread of rewards (`spread`) and reused determinizations (`redraw`)."""

from __future__ import annotations

import pytest

from eixample.ai import make_bot
from eixample.ai.match import MatchTask, play_match
from eixample.ai.mcts import MctsBot
from eixample.ai.view import player_view
from eixample.core.protocol import State
from eixample.games import barcelona
from eixample.games.barcelona.state import BarcelonaState


def _opening() -> State:
    """Barcelona's first decision: 25 crossings to place citizens on."""
    return barcelona.new_game(2, 3)


def _estimates(spec: str, state: State) -> list[int]:
    bot = make_bot(spec, 7)
    assert isinstance(bot, MctsBot)
    with player_view(state, state.current_player()) as view:
        return [estimate.visits for estimate in bot.estimates(view)]


def test_without_fpu_every_action_is_tried_before_any_is_followed() -> None:
    state = _opening()
    legal = len(state.legal_actions())
    assert legal > 20
    assert _estimates(f"mcts:iterations={legal}", state) == [1] * legal


def test_with_fpu_the_search_follows_good_actions_before_trying_all() -> None:
    state = _opening()
    legal = len(state.legal_actions())
    visits = _estimates(f"mcts:iterations={legal}:c=0.05:fpu=0", state)
    assert sum(visits) == legal
    assert 0 in visits, "some action was never tried"
    assert max(visits) > 1, "an action was followed"


@pytest.mark.parametrize("spec", ["mcts:iterations=30:fpu=0.02", "mcts:iterations=30:redraw=4",
                                  "expert:iterations=30:fpu=0:redraw=3", "mcts:iterations=30:spread=yes:c=1"])
def test_search_options_play_legal_and_repeatable_games(spec: str) -> None:
    task = MatchTask("tictactoe", 5, (spec, "greedy"))
    first = play_match(task)
    assert first.record == play_match(task).record
    assert first.winners


def test_redraw_searches_copies_of_fewer_determinizations(monkeypatch: pytest.MonkeyPatch) -> None:
    """With redraw=N, a search of I iterations draws ceil(I / N) determinizations."""
    draws: list[int] = []
    original = BarcelonaState.resample

    def counted(self: BarcelonaState, player: int, seed: int) -> BarcelonaState:
        draws.append(seed)
        return original(self, player, seed)

    monkeypatch.setattr(BarcelonaState, "resample", counted)
    state = _opening()
    make_bot("mcts:iterations=40:redraw=8", 1).choose(state, state.current_player())
    assert len(draws) == 5
    draws.clear()
    make_bot("mcts:iterations=40", 1).choose(state, state.current_player())
    assert len(draws) == 40


def test_spread_scales_exploration_to_the_differences_between_actions() -> None:
    """With rewards a few hundredths apart, c=1 explores almost evenly; scaled by the spread, the
    search concentrates on the better actions."""
    state = _opening()
    even = _estimates("mcts:iterations=200:c=1", state)
    scaled = _estimates("mcts:iterations=200:c=1:spread=yes", state)
    assert max(scaled) > 2 * max(even)
