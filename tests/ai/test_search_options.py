"""Search options of the MCTS bot: first-play urgency (`fpu`), exploration scaled by the
spread of rewards (`spread`), reused determinizations (`redraw`) and implicit minimax backups
(`implicit`)."""

from __future__ import annotations

import pytest

from eixample.ai import make_bot
from eixample.ai.match import MatchTask, play_match
from eixample.ai.mcts import MctsBot, SearchNode, _back_up_best
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


def test_implicit_backups_keep_the_estimate_of_best_play() -> None:
    """Each node takes the best-play estimate of its child best for the seat deciding there: the
    root (seat 0 to move) follows the child good for seat 0, whose node (seat 1 to move) follows
    the reply good for seat 1, whatever the mean rewards say."""
    root, good, poor = SearchNode(2), SearchNode(2), SearchNode(2)
    reply_a, reply_b = SearchNode(2), SearchNode(2)
    root.mover, good.mover = 0, 1
    root.children = {"good": good, "poor": poor}
    good.children = {"a": reply_a, "b": reply_b}
    poor.best = [0.5, 0.5]
    reply_a.best = [0.9, 0.1]
    _back_up_best([root, good, reply_b], [0.7, 0.3])  # reply b's first estimate
    assert reply_b.best == [0.7, 0.3]
    assert good.best == [0.7, 0.3]  # seat 1 prefers b (0.3) to a (0.1)
    assert root.best == [0.7, 0.3]  # seat 0 prefers good (0.7) to poor (0.5)
    _back_up_best([root, good, reply_b], [0.2, 0.8])  # b turns out better for seat 1
    assert good.best == [0.2, 0.8] and root.best == [0.5, 0.5]  # now poor is better for seat 0


def test_implicit_backups_change_what_the_search_prefers() -> None:
    state = _opening()
    plain = _visits_by_action("mcts:iterations=300:fpu=0.1", state)
    mixed = _visits_by_action("mcts:iterations=300:fpu=0.1:implicit=0.5", state)
    assert sum(plain.values()) == sum(mixed.values()) == 300
    assert plain != mixed


def _visits_by_action(spec: str, state: State) -> dict[str, int]:
    bot = make_bot(spec, 7)
    assert isinstance(bot, MctsBot)
    with player_view(state, state.current_player()) as view:
        return {estimate.action: estimate.visits for estimate in bot.estimates(view)}


@pytest.mark.parametrize("spec", ["mcts:iterations=30:fpu=0.02", "expert:iterations=30:implicit=0.4",
                                  "mcts:iterations=30:redraw=4",
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
