"""A tiny game whose turns take two decisions, so that a player can take a decision back."""

from __future__ import annotations

from typing import Any

from eixample.core.errors import IllegalActionError
from eixample.core.protocol import TERMINAL, JsonDict, StateDefaults
from eixample.core.records import RecordedGame, make_record

TURNS_EACH = 2
STEPS = 2


class StepsState(StateDefaults):
    """Each turn, the player adds 1 or 2 to their total twice; after two turns each, the higher
    total wins (equal totals share the victory)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.totals = [0, 0]
        self.actions: list[str] = []

    @property
    def num_players(self) -> int:
        return 2

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else (len(self.actions) // STEPS) % 2

    def legal_actions(self) -> list[str]:
        return [] if self.is_terminal() else ["add 1", "add 2"]

    def apply(self, action: str) -> None:
        if action not in self.legal_actions():
            raise IllegalActionError(f"'{action}' is not legal now")
        self.totals[self.current_player()] += int(action.split()[1])
        self.actions.append(action)

    def clone(self) -> StepsState:
        other = StepsState(self.seed)
        other.totals, other.actions = self.totals[:], self.actions[:]
        return other

    def is_terminal(self) -> bool:
        return len(self.actions) == 2 * TURNS_EACH * STEPS

    def scores(self) -> list[int]:
        return self.totals[:]

    def winners(self) -> list[int]:
        if not self.is_terminal():
            return []
        best = max(self.totals)
        return [seat for seat in range(2) if self.totals[seat] == best]

    def score_breakdown(self) -> list[dict[str, int]]:
        return [{"steps": total} for total in self.totals]

    def evaluation(self) -> list[float]:
        return [float(total) for total in self.totals]

    def describe_decision(self) -> str:
        return "Add 1 or 2 to your total."

    def view(self, player: int | None) -> JsonDict:
        return {"game": "steps", "totals": self.totals[:], "log": [f"step: {a}" for a in self.actions]}

    def record(self) -> JsonDict:
        return make_record("steps", 2, self.seed, {}, self.actions)

    def to_json(self) -> JsonDict:
        return {"record": self.record()}

    def resample(self, player: int, rng_seed: int) -> StepsState:
        return self.clone()

    def undo_floor(self) -> int:
        """Everything before the current turn."""
        return len(self.actions) - len(self.actions) % STEPS


class Steps(RecordedGame[StepsState]):
    name = "steps"
    title = "Steps"
    min_players = 2
    max_players = 2

    def new_game(self, players: int = 2, seed: int = 0, **options: Any) -> StepsState:
        if players != 2 or options:
            raise ValueError("steps is for 2 players, without options")
        return StepsState(seed)


GAME = Steps()
