"""No peeking: bot code receives a PlayerView, which gives no way to the real state."""

from __future__ import annotations

import pytest

from eixample.ai import Bot, BotError, ClosedViewError, PlayerView, make_bot
from eixample.core.protocol import Action, State
from eixample.core.registry import get_game
from tests.ai.games import deal


class SpyBot(Bot):
    """Keeps what it was given, then plays the first legal action."""

    def __init__(self, answer: Action | None = None) -> None:
        super().__init__("spy", 0)
        self.answer = answer
        self.given: list[object] = []

    def decide(self, view: PlayerView) -> Action:
        self.given.append(view)
        return self.answer or view.legal_actions()[0]


def _tictactoe() -> State:
    state = get_game("tictactoe").new_game(2, 0)
    state.apply("mark 4")
    return state


def test_the_bot_receives_only_a_player_view() -> None:
    state = _tictactoe()
    bot = SpyBot()
    bot.choose(state, 1)
    assert len(bot.given) == 1
    assert type(bot.given[0]) is PlayerView
    assert bot.given[0] is not state


def test_no_attribute_of_the_view_leads_to_the_state() -> None:
    state = _tictactoe()
    view = PlayerView(state, 1)
    for name in dir(view):
        value = getattr(view, name)
        assert value is not state, name
        assert getattr(value, "__self__", None) is not state, name
    assert not hasattr(view, "__dict__")
    for name in ("apply", "clone", "to_json", "record", "scores", "evaluation", "board", "state", "_state"):
        assert not hasattr(view, name), name


def test_the_view_cannot_change_seat_or_grow_attributes() -> None:
    view = PlayerView(_tictactoe(), 1)
    with pytest.raises(AttributeError):
        view.player = 0  # type: ignore[misc]
    with pytest.raises(AttributeError):
        view.state = None  # type: ignore[attr-defined]
    assert view.player == 1


def test_the_view_answers_for_its_own_seat() -> None:
    state = deal(3)
    view = PlayerView(state, 0)
    assert view.view() == state.view(0)
    assert view.view()["hands"][1] == 3
    assert view.legal_actions() == state.legal_actions()
    assert view.current_player() == 0
    assert view.num_players == 2
    assert view.describe_decision() == state.describe_decision()
    world = view.resample(11)
    assert world is not state
    assert world.view(0) == state.view(0)


def test_the_view_tells_whether_it_shows_a_given_table() -> None:
    state = deal(3)
    view = PlayerView(state, 0)
    assert view.shows(state.view(0))
    assert not view.shows(state.view(1))
    other = state.clone()
    other.apply(other.legal_actions()[0])
    assert not view.shows(other.view(0))
    view.close()
    with pytest.raises(ClosedViewError):
        view.shows(state.view(0))


def test_changing_what_the_view_returns_leaves_the_game_alone() -> None:
    state = deal(3)
    view = PlayerView(state, 0)
    view.view()["hands"][0].clear()
    view.legal_actions().clear()
    assert len(state.legal_actions()) == 3
    assert len(state.view(0)["hands"][0]) == 3


def test_a_view_is_closed_once_the_decision_is_over() -> None:
    bot = SpyBot()
    bot.choose(_tictactoe(), 1)
    kept = bot.given[0]
    assert isinstance(kept, PlayerView)
    with pytest.raises(ClosedViewError):
        kept.legal_actions()
    with pytest.raises(ClosedViewError):
        kept.resample(1)


def test_a_bot_may_not_decide_out_of_turn() -> None:
    with pytest.raises(BotError, match="seat 0 is to decide"):
        SpyBot().choose(get_game("tictactoe").new_game(2, 0), 1)


def test_an_illegal_answer_is_refused() -> None:
    state = _tictactoe()
    with pytest.raises(BotError, match="not legal"):
        SpyBot(answer="mark 4").choose(state, 1)
    assert state.record()["actions"] == ["mark 4"]


def _same_view_other_hidden_cards() -> tuple[State, State]:
    """Two deals where seat 0 holds the same cards but seat 1's hand differs."""
    first = deal(1)
    second = first.clone()
    assert isinstance(second, type(first))
    hidden = sorted(set(range(8)) - set(first.hands[0]))
    undealt = [card for card in hidden if card not in first.hands[1]]
    second.hands[1][:] = [*undealt, first.hands[1][0]]
    assert first.view(0) == second.view(0)
    assert first.hands[1] != second.hands[1]
    return first, second


@pytest.mark.parametrize("spec", ["random", "greedy", "greedy:samples=3", "mcts:iterations=60"])
def test_decisions_depend_only_on_what_the_seat_can_know(spec: str) -> None:
    first, second = _same_view_other_hidden_cards()
    for seed in range(8):
        assert make_bot(spec, seed).choose(first, 0) == make_bot(spec, seed).choose(second, 0)


def test_a_view_writes_its_seats_structured_observation_and_nothing_once_closed() -> None:
    import numpy as np

    from eixample.ai.view import player_view

    state = get_game("barcelona").new_game(2, 5)
    size = get_game("barcelona").observation_spec(2).size
    expected, seen = np.empty(size, np.float32), np.empty(size, np.float32)
    state.write_observation(1, expected)
    with player_view(state, 1) as view:
        view.write_observation(seen)
    assert np.array_equal(seen, expected)
    with pytest.raises(ClosedViewError):
        view.write_observation(seen)
