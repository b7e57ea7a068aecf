"""A turn as a stack of pending decisions: the machinery every stack-based game shares.

A rulebook describes a turn as steps inside steps ("perform the actions of the crossing; each
action may ask for a street space; a gain that overflows the Warehouse asks for a discard"). A
game built on `DecisionStack` keeps exactly that: `stack` holds frames, the top frame is the
pending decision, and a frame is a flat tuple `(kind, seat, *arguments)` of ints, so copying the
stack is one list copy.

Each game gives, per decision kind, three small functions in its rules modules:

- `legal(state, frame, texts, payloads)` appends every legal action text and, at the same index,
  the payload its resolution needs (a space index, a tuple of cards...);
- `resolve(state, frame, payload)` carries the chosen action out; it may push further frames;
- for automatic steps (end of turn, end of phase...), `step(state, frame)` runs as soon as the
  frame reaches the top of the stack, with no decision.

`apply()` pops the decided frame, resolves it and then *settles* the state: automatic steps run,
the game's `_interrupt()` hook may push a decision that must come first (a discard on overflow),
and a decision with no legal action is skipped (a rule that says "if you can" needs no special
case). The loop stops at the next real decision, or at the end of the game.

The machinery also keeps what every game needs and nobody should write twice: the action history
(for records and replay), the undo floor, the log, and draws from the seeded RNG, each of which
raises the undo floor (an action seen by a random draw can never be taken back).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, MutableSequence
from typing import Any, ClassVar, TypeVar

from eixample.core.errors import IllegalActionError
from eixample.core.messages import english, to_json
from eixample.core.protocol import TERMINAL, StateDefaults
from eixample.core.rng import Rng, splitmix64

Frame = tuple[int, ...]
"""A pending decision or automatic step: (kind, seat, *arguments)."""

LegalFn = Callable[[Any, Frame, list[str], list[Any]], None]
ResolveFn = Callable[[Any, Frame, Any], None]
StepFn = Callable[[Any, Frame], None]
DescribeFn = Callable[[Any, Frame], Any]
"""The pending decision in words: a text, or a structured entry (see core/messages.py)."""

T = TypeVar("T")

MAX_ACTION_TEXT = 200
"""Action texts longer than this are refused without being searched for or quoted in full."""

_MASK = (1 << 64) - 1


class DecisionStack(StateDefaults):
    """Base class of a game state whose turn is a stack of pending decisions.

    Subclasses declare their own `__slots__` for game fields, fill the class-level dispatch
    tables (`LEGAL`, `RESOLVE`, `STEPS`, `DESCRIBE`, `DECISION_NAMES`), copy their own fields in
    `clone()` and call `_copy_decisions(copy)` for these.
    """

    __slots__ = (
        "_history",
        "_legal",
        "_log",
        "_payloads",
        "ended",
        "floor",
        "last_actor",
        "n_actions",
        "rng",
        "stack",
    )

    LEGAL: ClassVar[dict[int, LegalFn]] = {}
    RESOLVE: ClassVar[dict[int, ResolveFn]] = {}
    STEPS: ClassVar[dict[int, StepFn]] = {}
    DESCRIBE: ClassVar[dict[int, DescribeFn]] = {}
    DECISION_NAMES: ClassVar[dict[int, str]] = {}

    stack: list[Frame]
    ended: bool
    floor: int
    last_actor: int
    n_actions: int
    rng: int
    _legal: list[str] | None
    _payloads: list[Any]
    _log: Any
    _history: Any

    def _init_decisions(self, seed: int) -> None:
        """Start with an empty stack, no history and the generator seeded with `seed`."""
        self.stack = []
        self.ended = False
        self.floor = 0
        self.last_actor = -1
        self.n_actions = 0
        self.rng = seed & _MASK
        self._legal = None
        self._payloads = []
        self._log = None
        self._history = None

    def _copy_decisions(self, other: DecisionStack) -> None:
        """Copy this machinery's fields into `other` (a fresh object of the same class)."""
        other.stack = self.stack[:]
        other.ended = self.ended
        other.floor = self.floor
        other.last_actor = self.last_actor
        other.n_actions = self.n_actions
        other.rng = self.rng
        other._legal = self._legal  # never mutated in place: shared until recomputed
        other._payloads = self._payloads
        other._log = self._log  # linked lists (previous, item): shared tails are safe
        other._history = self._history

    # ------------------------------------------------------------------ protocol
    def current_player(self) -> int:
        if self.ended or not self.stack:
            return TERMINAL
        return self.stack[-1][1]

    def is_terminal(self) -> bool:
        return self.ended

    def legal_actions(self) -> list[str]:
        if self.ended:
            return []
        if self._legal is None:
            self._compute_legal()
        assert self._legal is not None
        return list(self._legal)

    def apply(self, action: str) -> None:
        """Apply one legal action; anything else raises IllegalActionError and changes nothing."""
        if self.ended:
            raise IllegalActionError("the game is over: no action is legal")
        if self._legal is None:
            self._compute_legal()
        legal = self._legal
        assert legal is not None
        try:
            index = legal.index(action)
        except ValueError:
            raise IllegalActionError(self._refusal(action, legal)) from None
        payload = self._payloads[index]
        frame = self.stack.pop()
        actor = frame[1]
        if actor != self.last_actor:
            self.floor = self.n_actions  # another seat's decision can never be undone
            self.last_actor = actor
        self.n_actions += 1
        self._history = (self._history, action)
        self._legal = None
        self.RESOLVE[frame[0]](self, frame, payload)
        self._settle()

    def _refusal(self, action: object, legal: list[str]) -> str:
        if not isinstance(action, str):
            return f"an action is a text, not {type(action).__name__}"
        shown = action if len(action) <= 40 else action[:40] + "..."
        if len(action) > MAX_ACTION_TEXT:
            return f"'{shown}' is not an action: longer than {MAX_ACTION_TEXT} characters"
        hint = ", ".join(legal[:12]) + (" ..." if len(legal) > 12 else "")
        return f"'{shown}' is not legal now ({self.describe_decision()}); legal: {hint}"

    def undo_floor(self) -> int:
        return self.floor

    def actions(self) -> list[str]:
        """Every action applied so far, in order."""
        return _unlink(self._history)

    def log(self) -> list[Any]:
        """The log entries so far, oldest first: texts, or structured entries in JSON form."""
        return [to_json(item) for item in _unlink(self._log)]

    def log_text(self) -> list[str]:
        """The log in English words (for terminals and tests)."""
        return [english(item) for item in _unlink(self._log)]

    def decision_message(self) -> Any:
        """The pending decision as a client renders it: a text or a structured entry (JSON)."""
        if self.ended or not self.stack:
            return {"key": "gameOver", "args": {}}
        frame = self.stack[-1]
        return to_json(self.DESCRIBE[frame[0]](self, frame))

    def decision_kind(self) -> str:
        """The pending decision's name ("place", "street", ...), or "" at the end."""
        if self.ended or not self.stack:
            return ""
        return self.DECISION_NAMES[self.stack[-1][0]]

    # ------------------------------------------------------------------ the stack
    def _compute_legal(self) -> None:
        frame = self.stack[-1]
        texts: list[str] = []
        payloads: list[Any] = []
        self.LEGAL[frame[0]](self, frame, texts, payloads)
        self._legal = texts
        self._payloads = payloads

    def _settle(self) -> None:
        """Run automatic steps and the game's interrupts until a player must decide (or the end)."""
        steps = self.STEPS
        while True:
            if self.ended or not self.stack:
                self._legal, self._payloads = [], []
                return
            if self._interrupt():
                continue
            frame = self.stack[-1]
            step = steps.get(frame[0])
            if step is not None:
                self.stack.pop()
                step(self, frame)
                continue
            self._compute_legal()
            if self._legal:
                return
            self.stack.pop()  # nothing can be done: the decision is skipped

    def _interrupt(self) -> bool:
        """Push a decision that must come before the top frame (e.g. a discard on overflow) and
        return True; by default there is none."""
        return False

    def _say(self, entry: Any) -> None:
        """Add an entry to the log (a line of text, or a structured entry a client renders)."""
        self._log = (self._log, entry)

    # ------------------------------------------------------------------ seeded randomness
    def _draw_u64(self) -> int:
        """64 random bits. Every draw raises the undo floor: what it revealed stays revealed."""
        self.rng, value = splitmix64(self.rng)
        self.floor = self.n_actions
        return value

    def _below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        rng = Rng(self.rng)
        value = rng.below(n)
        self.rng = rng.state
        self.floor = self.n_actions
        return value

    def _shuffle(self, items: MutableSequence[T]) -> None:
        rng = Rng(self.rng)
        rng.shuffle(items)
        self.rng = rng.state
        self.floor = self.n_actions


def _unlink(node: Any) -> list[Any]:
    out: list[Any] = []
    while node is not None:
        node, item = node
        out.append(item)
    out.reverse()
    return out


def fields_json(state: object, names: Iterable[str]) -> dict[str, Any]:
    """The named fields of a flat state as JSON values: each sequence a list, and so each tuple in it."""
    out: dict[str, Any] = {}
    for name in names:
        value = getattr(state, name)
        if isinstance(value, (list, tuple, array)):
            value = [list(v) if isinstance(v, (list, tuple)) else v for v in value]
        out[name] = value
    return out
