"""The shared decision stack (core/decisions.py) on a toy game: a pile of counters, each seat in
turn takes 1-3, the seat taking the last wins; a random bonus counter may be drawn at each turn's
end, and a seat holding more than 4 counters must first drop one (an interrupt)."""

from __future__ import annotations

from typing import Any

import pytest

from eixample.core.decisions import MAX_ACTION_TEXT, DecisionStack, Frame
from eixample.core.errors import IllegalActionError
from eixample.core.protocol import TERMINAL

TAKE, DROP, END_TURN = 0, 1, 2


class Pile(DecisionStack):
    __slots__ = ("held", "pile")

    def __init__(self, seed: int, pile: int = 9) -> None:
        self._init_decisions(seed)
        self.pile = pile
        self.held = [0, 0]
        self.stack = [(END_TURN, 0), (TAKE, 0)]
        self._settle()

    def clone(self) -> Pile:
        other = object.__new__(Pile)
        self._copy_decisions(other)
        other.pile = self.pile
        other.held = self.held[:]
        return other

    def _interrupt(self) -> bool:
        for p in (0, 1):
            if self.held[p] > 4 and self.stack[-1][:2] != (DROP, p):
                self.stack.append((DROP, p))
                return True
        return False


def _legal_take(s: Pile, f: Frame, texts: list[str], payloads: list[Any]) -> None:
    for n in range(1, min(3, s.pile) + 1):
        texts.append(f"take {n}")
        payloads.append(n)


def _take(s: Pile, f: Frame, n: int) -> None:
    s.pile -= n
    s.held[f[1]] += n
    s._say(f"P{f[1] + 1} takes {n}")
    if s.pile == 0:
        s.ended = True


def _legal_drop(s: Pile, f: Frame, texts: list[str], payloads: list[Any]) -> None:
    texts.append("drop")
    payloads.append(None)


def _drop(s: Pile, f: Frame, _: None) -> None:
    s.held[f[1]] -= 1


def _end_turn(s: Pile, f: Frame) -> None:
    s.pile += s._below(2)  # a random bonus counter
    nxt = 1 - f[1]
    s.stack = [(END_TURN, nxt), (TAKE, nxt)]


Pile.LEGAL = {TAKE: _legal_take, DROP: _legal_drop}
Pile.RESOLVE = {TAKE: _take, DROP: _drop}
Pile.STEPS = {END_TURN: _end_turn}
Pile.DESCRIBE = {TAKE: lambda s, f: "take 1-3", DROP: lambda s, f: "drop one"}
Pile.DECISION_NAMES = {TAKE: "take", DROP: "drop"}


def test_apply_resolves_and_settles_through_automatic_steps() -> None:
    s = Pile(seed=1)
    assert s.current_player() == 0 and s.legal_actions() == ["take 1", "take 2", "take 3"]
    s.apply("take 3")
    assert s.current_player() == 1  # the END_TURN step ran by itself
    assert s.decision_kind() == "take"
    assert s.actions() == ["take 3"] and s.log() == ["P1 takes 3"]


def test_illegal_or_malformed_input_changes_nothing() -> None:
    s = Pile(seed=1)
    before = (s.pile, s.held[:], s.stack[:], s.rng, s.actions())
    for bad in ("take 4", "", "x" * (MAX_ACTION_TEXT + 1), 3):
        with pytest.raises(IllegalActionError) as error:
            s.apply(bad)  # type: ignore[arg-type]
        assert len(str(error.value)) < 400
    assert (s.pile, s.held[:], s.stack[:], s.rng, s.actions()) == before


def test_interrupt_comes_before_the_pending_decision() -> None:
    s = Pile(seed=3, pile=30)
    s.held[0] = 4
    s.apply("take 1")  # P1 now holds 5: must drop one before anything else
    assert s.current_player() == 0 and s.legal_actions() == ["drop"]
    s.apply("drop")
    assert s.held[0] == 4 and s.current_player() == 1


def test_clone_is_independent_and_draws_raise_the_undo_floor() -> None:
    s = Pile(seed=5, pile=20)
    copy = s.clone()
    s.apply("take 1")
    assert copy.pile == 20 and copy.actions() == [] and copy.current_player() == 0
    assert s.undo_floor() == 1  # the end-of-turn draw came after the action
    copy.apply("take 1")
    assert copy.pile == s.pile and copy.rng == s.rng  # same seed, same draws


def test_game_end_is_terminal() -> None:
    s = Pile(seed=2, pile=2)
    s.apply("take 2")
    assert s.is_terminal() and s.current_player() == TERMINAL and s.legal_actions() == []
    assert s.describe_decision() == "The game is over."
    with pytest.raises(IllegalActionError):
        s.apply("take 1")
