from __future__ import annotations

from typing import Any

import pytest

from eixample.ai.scoring import after, margin, margins_after, normalise, outcome
from eixample.core.registry import get_game


def test_margin_is_over_the_best_opponent() -> None:
    assert margin([10.0, 4.0, 12.0], 0) == -2.0
    assert margin([10.0, 4.0, 12.0], 2) == 2.0
    assert margin([7.0], 0) == 7.0


def test_minmax_places_each_seat_between_worst_and_best() -> None:
    assert normalise([10.0, 20.0, 15.0], "minmax", 1.0) == [0.0, 1.0, 0.5]
    assert normalise([3.0, 3.0], "minmax", 1.0) == [0.5, 0.5]


def test_rank_counts_opponents_behind() -> None:
    assert normalise([10.0, 20.0, 10.0, 5.0], "rank", 1.0) == [0.5, 1.0, 0.5, 0.0]


def test_sigmoid_of_the_margin() -> None:
    low, high = normalise([10.0, 20.0], "sigmoid", 5.0)
    assert low == pytest.approx(1 / (1 + 2.718281828**2))
    assert high == pytest.approx(1 - low)
    assert normalise([-1e6, 0.0], "sigmoid", 1.0)[0] == 0.0


def test_a_single_seat_is_judged_by_its_own_value() -> None:
    assert normalise([0.0], "minmax", 10.0) == [0.5]
    assert normalise([30.0], "rank", 10.0)[0] > 0.9


def test_unknown_normalisation() -> None:
    with pytest.raises(ValueError, match="unknown normalisation"):
        normalise([1.0, 2.0], "softmax", 1.0)


def test_outcome_shares_the_win() -> None:
    game = get_game("tictactoe")
    state = game.new_game(2, 0)
    for cell in (4, 0, 8, 2, 1, 7, 6, 3, 5):
        state.apply(f"mark {cell}")
    assert state.winners() == [0, 1]
    assert outcome(state) == [0.5, 0.5]
    won = game.new_game(2, 0)
    for cell in (0, 3, 1, 4, 2):
        won.apply(f"mark {cell}")
    assert outcome(won) == [1.0, 0.0]


class Shortcut:
    """Tic-tac-toe whose game hands bots evaluations after each action without copies."""

    def __init__(self, given: list[list[float]] | None) -> None:
        self.state = get_game("tictactoe").new_game(2, 0)
        self.given = given
        self.asked: list[list[str]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.state, name)

    def evaluations_after(self, actions: list[str]) -> list[list[float]] | None:
        self.asked.append(list(actions))
        return self.given


def test_margins_after_take_the_games_shortcut_when_it_has_one() -> None:
    legal = get_game("tictactoe").new_game(2, 0).legal_actions()
    given = [[float(k), 0.5] for k in range(len(legal))]
    shortcut = Shortcut(given)
    assert margins_after(shortcut, legal, 0) == [k - 0.5 for k in range(len(legal))]  # type: ignore[arg-type]
    assert shortcut.asked == [legal]
    none = Shortcut(None)  # no shortcut: copies of the state with each action applied
    copied = [margin(after(none.state, action).evaluation(), 1) for action in legal]
    assert margins_after(none, legal, 1) == copied  # type: ignore[arg-type]
    assert none.asked == [legal]
