"""The coach: win probabilities, preferred actions and the loss of each move played."""

from __future__ import annotations

import pytest

from eixample.ai.analysis import (
    analyse_game,
    biggest_mistakes,
    judge_move,
    rank_choices,
    top_actions,
    win_probabilities,
    win_probability_curve,
)
from eixample.ai.mcts import MctsSettings
from eixample.core.errors import MalformedRecordError
from eixample.core.protocol import State
from eixample.core.registry import get_game
from eixample.core.rng import Rng
from eixample.games import barcelona
from tests.records import record_of

SEARCH = MctsSettings(iterations=300)
TINY = MctsSettings(iterations=8)

# X: 0, O: 4, X: 8, O: 1 threatens 1-4-7; X must take 7 and plays 2 instead; O wins with 7.
BLUNDER = ["mark 0", "mark 4", "mark 8", "mark 1", "mark 2", "mark 7"]


def _tictactoe(*actions: str) -> State:
    state = get_game("tictactoe").new_game(2, 0)
    for action in actions:
        state.apply(action)
    return state


def test_a_blunder_is_the_biggest_mistake_with_the_block_as_the_better_move() -> None:
    notes = analyse_game(get_game("tictactoe"), record_of(BLUNDER), SEARCH, seed=1)
    assert [note.move for note in notes] == list(range(len(BLUNDER)))
    assert [note.seat for note in notes] == [0, 1, 0, 1, 0, 1]
    assert [note.action for note in notes] == BLUNDER
    blunder = notes[4]
    assert blunder.best == "mark 7"
    assert blunder.loss >= 0.4
    assert biggest_mistakes(notes)[0] == blunder
    assert notes[5].best == "mark 7" and notes[5].loss == 0.0
    assert notes[5].win_probability == [0.0, 1.0]  # O's winning move ends the game


def test_win_probabilities_sum_to_one_and_losses_are_never_negative() -> None:
    notes = analyse_game(get_game("tictactoe"), record_of(BLUNDER), TINY, seed=2)
    for note in notes:
        assert sum(note.win_probability) == pytest.approx(1.0)
        assert all(0.0 <= p <= 1.0 for p in note.win_probability)
        assert note.loss >= 0.0
        assert note.loss == 0.0 or note.best != note.action


def test_same_seed_same_notes() -> None:
    game = get_game("tictactoe")
    first = analyse_game(game, record_of(BLUNDER), TINY, seed=5)
    assert analyse_game(game, record_of(BLUNDER), TINY, seed=5) == first


def test_top_actions_put_the_winning_move_first() -> None:
    state = _tictactoe("mark 0", "mark 3", "mark 1", "mark 4")  # X wins with 2
    top = top_actions(state, 0, k=3, settings=SEARCH)
    assert len(top) == 3
    assert top[0].action == "mark 2"
    assert top[0].win_probability[0] > 0.9
    assert len({choice.action for choice in top}) == 3
    every = rank_choices(state, 0, TINY)
    assert sorted(choice.action for choice in every) == sorted(state.legal_actions())
    assert all(sum(choice.win_probability) == pytest.approx(1.0) for choice in every)


def test_a_forced_move_is_the_only_choice_and_a_full_board_is_a_draw() -> None:
    state = _tictactoe("mark 0", "mark 1", "mark 2", "mark 4", "mark 3", "mark 5", "mark 7", "mark 6")
    choices = rank_choices(state, 0, TINY)
    assert [choice.action for choice in choices] == ["mark 8"]
    assert choices[0].win_probability == [0.5, 0.5]


def test_only_the_deciding_seat_gets_choices() -> None:
    with pytest.raises(ValueError, match="no decision"):
        top_actions(_tictactoe("mark 0"), 0)


def test_a_record_with_an_illegal_action_is_refused_before_any_search() -> None:
    with pytest.raises(MalformedRecordError, match="'mark 0' is illegal"):
        analyse_game(get_game("tictactoe"), record_of(["mark 0", "mark 0"]), SEARCH)


def test_win_probabilities_of_rewards() -> None:
    assert win_probabilities([0.9, 0.1]) == pytest.approx([0.9, 0.1])
    assert win_probabilities([0.5, 0.5, 0.0]) == pytest.approx([0.5, 0.5, 0.0])
    assert win_probabilities([0.0, 0.0]) == [0.5, 0.5]


def _barcelona_position() -> State:
    state = barcelona.new_game(3, 21)
    rng = Rng(4)
    for _ in range(25):
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
    return state


def test_a_hint_in_barcelona_depends_only_on_what_the_seat_sees() -> None:
    state = _barcelona_position()
    me = state.current_player()
    expected = top_actions(state, me, settings=TINY, seed=3)
    assert expected and all(sum(choice.win_probability) == pytest.approx(1.0) for choice in expected)
    for seed in range(3):
        assert top_actions(state.resample(me, seed), me, settings=TINY, seed=3) == expected


def test_judging_a_barcelona_move_depends_only_on_what_the_seat_saw() -> None:
    state = _barcelona_position()
    me = state.current_player()
    played = state.legal_actions()[-1]
    expected = judge_move(state, played, 25, TINY, seed=4)
    for seed in range(3):
        assert judge_move(state.resample(me, seed), played, 25, TINY, seed=4) == expected


def test_barcelona_moves_are_annotated() -> None:
    record = _barcelona_position().record()
    notes = analyse_game(get_game("barcelona"), record, TINY)
    assert [note.action for note in notes] == record["actions"]
    assert all(len(note.win_probability) == 3 for note in notes)
    assert all(sum(note.win_probability) == pytest.approx(1.0) for note in notes)


def test_the_curve_has_a_point_per_position_ending_with_the_outcome() -> None:
    curve = win_probability_curve(get_game("tictactoe"), record_of(BLUNDER), SEARCH, seed=1)
    assert [point.move for point in curve] == list(range(len(BLUNDER) + 1))
    assert all(sum(point.win_probability) == pytest.approx(1.0) for point in curve)
    assert curve[-1].win_probability == [0.0, 1.0]
    assert curve[5].win_probability[1] > 0.9  # after the blunder, O's win is one move away


def test_a_part_of_the_curve_computed_alone_equals_the_same_part_of_the_whole() -> None:
    record = _barcelona_position().record()
    whole = win_probability_curve(get_game("barcelona"), record, TINY, seed=6)
    part = win_probability_curve(get_game("barcelona"), record, TINY, seed=6, moves=[3, 10, 25])
    assert part == [whole[3], whole[10], whole[25]]
