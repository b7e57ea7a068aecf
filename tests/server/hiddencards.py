"""Hidden cards: a tiny game with hidden information, for server tests only.

Each seat holds a hand of cards nobody else may see, and a face-down bag is drawn from. Card
names are long random strings, so a test can search every byte a client received for any card
it must not know. A turn is several decisions by the same seat: `play <card>` (any number of
times), `draw` (a random draw: undo stops there) and `end` (the next seat's turn). The game ends
after every seat has ended `turns_each` turns; a seat scores the value (last digit) of each card
it played.

Importing this module registers the game as "hiddencards".
"""

from __future__ import annotations

from typing import Any

from eixample.core.errors import IllegalActionError
from eixample.core.protocol import TERMINAL, JsonDict, StateDefaults
from eixample.core.records import RecordedGame, make_record
from eixample.core.registry import register
from eixample.core.rng import Rng

NAME = "hiddencards"
HAND = 3
DECK = 24


def card_value(card: str) -> int:
    return int(card[-1])


class HiddenCardsState(StateDefaults):
    def __init__(self, players: int, seed: int, turns_each: int) -> None:
        self.players = players
        self.seed = seed
        self.turns_each = turns_each
        rng = Rng(seed)
        deck = [f"card{rng.next_u64():016x}{i % 10}" for i in range(DECK)]
        rng.shuffle(deck)
        self.hands = [deck[i * HAND : (i + 1) * HAND] for i in range(players)]
        self.bag = deck[players * HAND :]
        self.played: list[list[str]] = [[] for _ in range(players)]
        self.to_move = 0
        self.turns_done = 0
        self.drawn = False
        self.actions: list[str] = []
        self.actors: list[int] = []

    @property
    def num_players(self) -> int:
        return self.players

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else self.to_move

    def is_terminal(self) -> bool:
        return self.turns_done >= self.turns_each * self.players

    def legal_actions(self) -> list[str]:
        if self.is_terminal():
            return []
        out = [f"play {card}" for card in self.hands[self.to_move]]
        if self.bag and not self.drawn:
            out.append("draw")
        out.append("end")
        return out

    def apply(self, action: str) -> None:
        if action not in self.legal_actions():
            raise IllegalActionError(f"'{action}' is not legal now")
        seat = self.to_move
        if action.startswith("play "):
            card = action[5:]
            self.hands[seat].remove(card)
            self.played[seat].append(card)
        elif action == "draw":
            self.hands[seat].append(self.bag.pop())
            self.drawn = True
        else:
            self.turns_done += 1
            self.to_move = (seat + 1) % self.players
            self.drawn = False
        self.actions.append(action)
        self.actors.append(seat)

    def clone(self) -> HiddenCardsState:
        other = HiddenCardsState.__new__(HiddenCardsState)
        other.__dict__.update(self.__dict__)
        other.hands = [hand[:] for hand in self.hands]
        other.bag = self.bag[:]
        other.played = [cards[:] for cards in self.played]
        other.actions = self.actions[:]
        other.actors = self.actors[:]
        return other

    def scores(self) -> list[int]:
        return [sum(card_value(card) for card in cards) for cards in self.played]

    def winners(self) -> list[int]:
        if not self.is_terminal():
            return []
        best = max(self.scores())
        return [p for p, score in enumerate(self.scores()) if score == best]

    def score_breakdown(self) -> list[dict[str, int]]:
        return [{"cards": score} for score in self.scores()]

    def evaluation(self) -> list[float]:
        return [float(score) for score in self.scores()]

    def decision_message(self) -> str:
        return self.describe_decision()

    def describe_decision(self) -> str:
        if self.is_terminal():
            return "The game is over."
        hand = ", ".join(self.hands[self.to_move])
        return f"Seat {self.to_move}: play, draw or end your turn. Your hand: {hand}"

    def view(self, player: int | None) -> JsonDict:
        view: JsonDict = {
            "game": NAME,
            "viewer": player,
            "current_player": self.current_player(),
            "hand_sizes": [len(hand) for hand in self.hands],
            "bag_size": len(self.bag),
            "played": [cards[:] for cards in self.played],
            "scores": self.scores(),
            "log": [
                f"seat {seat}: {'draw' if action == 'draw' else action}"
                for seat, action in zip(self.actors, self.actions, strict=True)
            ],
        }
        if player is not None:
            view["hand"] = self.hands[player][:]
        if self.is_terminal():
            view["score_breakdown"] = self.score_breakdown()
        return view

    def record(self) -> JsonDict:
        return make_record(NAME, self.players, self.seed, {"turns_each": self.turns_each}, self.actions)

    def to_json(self) -> JsonDict:
        return {"record": self.record(), "bag_order": self.bag[:], "all_hands": [h[:] for h in self.hands]}

    def resample(self, player: int, rng_seed: int) -> HiddenCardsState:
        other = self.clone()
        unknown = [card for p, hand in enumerate(other.hands) if p != player for card in hand] + other.bag
        Rng(rng_seed).shuffle(unknown)
        for p, hand in enumerate(other.hands):
            if p != player:
                size = len(hand)
                other.hands[p], unknown = unknown[:size], unknown[size:]
        other.bag = unknown
        return other

    def undo_floor(self) -> int:
        floor = 0
        for index, (seat, action) in enumerate(zip(self.actors, self.actions, strict=True)):
            if action == "draw" or seat != self.to_move or action == "end":
                floor = index + 1
        return floor


class HiddenCards(RecordedGame[HiddenCardsState]):
    name = NAME
    title = "Hidden cards"
    min_players = 2
    max_players = 4

    def new_game(self, players: int = 2, seed: int = 0, **options: Any) -> HiddenCardsState:
        unknown = set(options) - {"turns_each"}
        if unknown:
            raise ValueError(f"unknown options: {', '.join(sorted(unknown))}")
        turns_each = options.get("turns_each", 2)
        if not isinstance(turns_each, int) or isinstance(turns_each, bool) or not 1 <= turns_each <= 5:
            raise ValueError("turns_each must be an integer from 1 to 5")
        if not self.min_players <= players <= self.max_players:
            raise ValueError("hidden cards is for 2 to 4 players")
        return HiddenCardsState(players, seed, turns_each)

    def option_names(self) -> list[str]:
        return ["turns_each"]


GAME = register(HiddenCards())


def hidden_from(state: HiddenCardsState, seat: int | None) -> set[str]:
    """The card names `seat` must not see in `state` (None: a spectator)."""
    secret = set(state.bag)
    for p, hand in enumerate(state.hands):
        if p != seat:
            secret.update(hand)
    return secret
