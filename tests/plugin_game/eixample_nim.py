"""Nim as an Eixample plug-in: a pile of stones, each player takes 1 to 3 in turn, and whoever
takes the last stone wins. The package names its game in the `eixample.games` entry point group
(pyproject.toml); nothing in Eixample names it."""

from __future__ import annotations

from typing import Any

from eixample.core.errors import IllegalActionError
from eixample.core.protocol import TERMINAL, JsonDict, StateDefaults
from eixample.core.records import RecordedGame, make_record

STONES = 7


class NimState(StateDefaults):
    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.stones = STONES
        self.to_move = 0
        self.actions: list[str] = []

    @property
    def num_players(self) -> int:
        return 2

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else self.to_move

    def legal_actions(self) -> list[str]:
        return [] if self.is_terminal() else [f"take {n}" for n in range(1, min(3, self.stones) + 1)]

    def apply(self, action: str) -> None:
        if action not in self.legal_actions():
            raise IllegalActionError(f"'{action}' is not legal now; legal: {', '.join(self.legal_actions())}")
        self.stones -= int(action.split()[1])
        self.actions.append(action)
        self.to_move = 1 - self.to_move

    def clone(self) -> NimState:
        other = NimState(self.seed)
        other.stones, other.to_move, other.actions = self.stones, self.to_move, self.actions[:]
        return other

    def is_terminal(self) -> bool:
        return self.stones == 0

    def scores(self) -> list[int]:
        # the player who took the last stone moved just before the turn passed on
        return [int(self.is_terminal() and self.to_move != seat) for seat in range(2)]

    def winners(self) -> list[int]:
        return [seat for seat, score in enumerate(self.scores()) if score] if self.is_terminal() else []

    def score_breakdown(self) -> list[dict[str, int]]:
        return [{"win": score} for score in self.scores()]

    def evaluation(self) -> list[float]:
        return [float(score) for score in self.scores()]

    def describe_decision(self) -> str:
        return "game over" if self.is_terminal() else f"P{self.to_move + 1} takes 1-3 of {self.stones} stones"

    def decision_message(self) -> str:
        return self.describe_decision()

    def view(self, player: int | None) -> JsonDict:
        return {"game": "nim", "stones": self.stones, "current_player": self.current_player(),
                "viewer": player, "scores": self.scores(), "decision": self.decision_message(), "log": []}

    def record(self) -> JsonDict:
        return make_record("nim", 2, self.seed, {}, self.actions)

    def to_json(self) -> JsonDict:
        return {"record": self.record()}

    def resample(self, player: int, rng_seed: int) -> NimState:
        return self.clone()

    def undo_floor(self) -> int:
        return len(self.actions)


class Nim(RecordedGame[NimState]):
    name = "nim"
    title = "Nim"
    min_players = 2
    max_players = 2

    def new_game(self, players: int = 2, seed: int = 0, **options: Any) -> NimState:
        if players != 2 or options:
            raise ValueError("Nim is for 2 players, with no options")
        return NimState(seed)

    def all_actions(self, players: int, **options: Any) -> list[str]:
        return ["take 1", "take 2", "take 3"]


GAME = Nim()
