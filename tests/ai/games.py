"""A tiny card game with hidden hands, for checking that bots only know what their seat knows.

Eight cards 0..7 are shuffled; each of two players gets three, two stay face down. In each of three
rounds player 0 plays a card face up, then player 1 plays one; the higher card takes the round.
Most rounds wins. `resample` keeps what the seat has seen and redeals everything else.
"""

from __future__ import annotations

from typing import Any

from eixample.core.errors import IllegalActionError
from eixample.core.protocol import TERMINAL, JsonDict, StateDefaults
from eixample.core.records import RecordedGame, make_record
from eixample.core.rng import Rng

CARDS = tuple(range(8))
HAND = 3


class TricksState(StateDefaults):
    def __init__(self, seed: int, hands: tuple[list[int], list[int]]) -> None:
        self.seed = seed
        self.hands = hands
        self.lead: int | None = None
        self.rounds = [0, 0]
        self.played: list[int] = []
        self.actions: list[str] = []

    @property
    def num_players(self) -> int:
        return 2

    def current_player(self) -> int:
        if self.is_terminal():
            return TERMINAL
        return 0 if self.lead is None else 1

    def legal_actions(self) -> list[str]:
        if self.is_terminal():
            return []
        return [f"play {card}" for card in sorted(self.hands[self.current_player()])]

    def apply(self, action: str) -> None:
        if action not in self.legal_actions():
            raise IllegalActionError(f"'{action}' is not legal now")
        seat, card = self.current_player(), int(action.split()[1])
        self.hands[seat].remove(card)
        self.played.append(card)
        self.actions.append(action)
        if self.lead is None:
            self.lead = card
        else:
            self.rounds[0 if self.lead > card else 1] += 1
            self.lead = None

    def clone(self) -> TricksState:
        other = TricksState(self.seed, (self.hands[0][:], self.hands[1][:]))
        other.lead, other.rounds = self.lead, self.rounds[:]
        other.played, other.actions = self.played[:], self.actions[:]
        return other

    def is_terminal(self) -> bool:
        return len(self.played) == 2 * HAND

    def scores(self) -> list[int]:
        return self.rounds[:]

    def winners(self) -> list[int]:
        if not self.is_terminal():
            return []
        return [0] if self.rounds[0] > self.rounds[1] else [1]

    def score_breakdown(self) -> list[dict[str, int]]:
        return [{"rounds": points} for points in self.rounds]

    def evaluation(self) -> list[float]:
        return [points + sum(hand) / 10 for points, hand in zip(self.rounds, self.hands, strict=True)]

    def describe_decision(self) -> str:
        return "Play a card." if not self.is_terminal() else "The game is over."

    def view(self, player: int | None) -> JsonDict:
        hands: list[Any] = [sorted(hand) if player == seat else len(hand)
                            for seat, hand in enumerate(self.hands)]
        return {"game": "tricks", "hands": hands, "lead": self.lead, "rounds": self.rounds[:],
                "played": self.played[:], "current_player": self.current_player()}

    def record(self) -> JsonDict:
        return make_record("tricks", 2, self.seed, {}, self.actions)

    def to_json(self) -> JsonDict:
        return {"record": self.record()}

    def resample(self, player: int, rng_seed: int) -> TricksState:
        unseen = sorted(set(CARDS) - set(self.hands[player]) - set(self.played))
        Rng(rng_seed).shuffle(unseen)
        other = self.clone()
        other.hands[1 - player][:] = unseen[: len(self.hands[1 - player])]
        return other

    def undo_floor(self) -> int:
        return len(self.actions)


def deal(seed: int) -> TricksState:
    cards = list(CARDS)
    Rng(seed).shuffle(cards)
    return TricksState(seed, (cards[:HAND], cards[HAND : 2 * HAND]))


class Tricks(RecordedGame[TricksState]):
    name = "tricks"
    title = "Tricks"
    min_players = 2
    max_players = 2

    def new_game(self, players: int = 2, seed: int = 0, **options: Any) -> TricksState:
        if players != 2 or options:
            raise ValueError("tricks is for 2 players, without options")
        return deal(seed)


GAME = Tricks()
