"""Tic-tac-toe: the smallest game on the platform. It keeps the core protocol honest (server, bots
and command line must work with it unchanged) and serves as a fast fixture in tests."""

from __future__ import annotations

from typing import Any

from eixample.core.errors import IllegalActionError
from eixample.core.observation import ObservationSpec, SpecBuilder
from eixample.core.protocol import TERMINAL, JsonDict, StateDefaults
from eixample.core.records import RecordedGame, make_record
from eixample.core.registry import register
from eixample.core.rng import check_seed

_LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
_MARKS = "XO"


class TicTacToeState(StateDefaults):
    __slots__ = ("_actions", "board", "seed", "to_move", "winner")

    def __init__(self, seed: int = 0) -> None:
        self.board = [-1] * 9
        self.to_move = 0
        self.winner = -1
        self.seed = seed
        self._actions: list[str] = []

    @property
    def num_players(self) -> int:
        return 2

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else self.to_move

    def legal_actions(self) -> list[str]:
        if self.is_terminal():
            return []
        return [f"mark {i}" for i in range(9) if self.board[i] < 0]

    def apply(self, action: str) -> None:
        if action not in self.legal_actions():
            raise IllegalActionError(f"'{action}' is not legal now; legal: {', '.join(self.legal_actions())}")
        cell = int(action.split()[1])
        self.board[cell] = self.to_move
        self._actions.append(action)
        if any(all(self.board[i] == self.to_move for i in line) for line in _LINES):
            self.winner = self.to_move
        self.to_move = 1 - self.to_move

    def clone(self) -> TicTacToeState:
        other = TicTacToeState.__new__(TicTacToeState)
        other.board = self.board[:]
        other.to_move = self.to_move
        other.winner = self.winner
        other.seed = self.seed
        other._actions = self._actions[:]
        return other

    def is_terminal(self) -> bool:
        return self.winner >= 0 or all(c >= 0 for c in self.board)

    def scores(self) -> list[int]:
        return [1 if self.winner == p else 0 for p in range(2)]

    def winners(self) -> list[int]:
        if not self.is_terminal():
            return []
        return [self.winner] if self.winner >= 0 else [0, 1]

    def score_breakdown(self) -> list[dict[str, int]]:
        return [{"win": s} for s in self.scores()]

    def evaluation(self) -> list[float]:
        return [float(s) for s in self.scores()]

    def decision_message(self) -> JsonDict:
        """The pending decision as a structured entry the clients translate (core/messages.py)."""
        if self.is_terminal():
            return {"key": "gameOver", "args": {}}
        return {"key": "ttt.toPlay", "args": {"mark": _MARKS[self.to_move]}}

    def log(self) -> list[JsonDict]:
        return [
            {"key": "ttt.marks", "args": {"mark": _MARKS[i % 2], "cell": int(a.split()[1])}}
            for i, a in enumerate(self._actions)
        ]

    def view(self, player: int | None) -> JsonDict:
        return {
            "game": "tictactoe",
            "board": ["." if c < 0 else _MARKS[c] for c in self.board],
            "current_player": self.current_player(),
            "viewer": player,
            "scores": self.scores(),
            "decision": self.decision_message(),
            "log": self.log(),
        }

    def write_observation(self, player: int, out: Any) -> None:
        """`player`'s observation (`observation_spec`) written into the float32 vector `out`."""
        if player not in (0, 1):
            raise ValueError(f"no seat {player!r} in a 2-player game")
        out[:] = 0
        out[player] = 1
        out[[2 + (9 if c != player else 0) + i for i, c in enumerate(self.board) if c >= 0]] = 1
        if self.is_terminal():
            out[20] = 1
        else:
            out[20 + (1 if self.to_move == player else 2)] = 1

    def record(self) -> JsonDict:
        return make_record("tictactoe", 2, self.seed, {}, self._actions)

    def to_json(self) -> JsonDict:
        return {"record": self.record()}

    def resample(self, player: int, rng_seed: int) -> TicTacToeState:
        return self.clone()

    def undo_floor(self) -> int:
        return len(self._actions)


class TicTacToe(RecordedGame[TicTacToeState]):
    name = "tictactoe"
    title = "Tic-tac-toe"
    min_players = 2
    max_players = 2

    def new_game(self, players: int = 2, seed: int = 0, **options: Any) -> TicTacToeState:
        if players != 2:
            raise ValueError("tic-tac-toe is for 2 players")
        if options:
            raise ValueError(f"unknown options: {', '.join(options)}")
        return TicTacToeState(check_seed(seed))

    def all_actions(self, players: int, **options: Any) -> list[str]:
        self.new_game(players, 0, **options)  # the same checks
        return [f"mark {i}" for i in range(9)]

    def observation_spec(self, players: int, **options: Any) -> ObservationSpec:
        self.new_game(players, 0, **options)  # the same checks
        b = SpecBuilder("tictactoe", 2)
        b.add("seat", (2,), "the observer's seat (0 marks X)")
        b.add("marks", (2, 9), "the observer's marks, then the other's, by cell row by row")
        b.add("turn", (3,), "the game is over; the observer is to move; the other is to move")
        return b.build()


GAME = register(TicTacToe())
