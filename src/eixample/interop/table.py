"""What every research interface shares: the global action numbering, legal-action masks, the
fixed-size observation encoding of a view, and the utility of a finished game.

Everything here speaks only the platform protocol (`eixample.core.protocol`), so any registered
game that provides `all_actions` plugs in.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from eixample.core.protocol import Game, JsonDict, State
from eixample.core.registry import game_names, get_game
from eixample.core.rng import SEED_LIMIT

OBSERVATION_SIZE = 32768
"""Length of the encoded view (see `encode_view`)."""

LEFT_OUT = frozenset({"log", "decision"})
"""View keys left out of an observation: the public history, and free text that repeats what the
other keys say. An information state keeps the log (`encode_view(..., history=True)`)."""

UTILITY_SCALE = 10.0
"""VP margin that gives a utility of tanh(1) = 0.76."""

SEED_BITS = SEED_LIMIT.bit_length() - 1
"""A game's seed is an integer 0 <= seed < 2**63 (`core.rng.SEED_LIMIT`): `Game.new_game(players,
seed)`, `eixample simulate --seed`, OpenSpiel's chance outcomes `openspiel.seed_outcomes(seed)`,
PettingZoo's and Gymnasium's `reset(seed=seed)` all deal the same game from it."""


MAX_DECISIONS: dict[str, dict[int, int]] = {
    "tictactoe": {2: 9},
    # Longest of 20 random games per player count: 84, 187, 247, 296 decisions; the bounds leave
    # three times that (tests/interop/test_openspiel.py checks random games against them).
    "barcelona": {1: 300, 2: 600, 3: 750, 4: 900},
    # Longest of 20 random games per player count: 183, 223, 287.
    "rose-of-fire": {2: 550, 3: 700, 4: 900},
}
"""Per game and player count, an upper bound on the decisions of all the players in one game."""
FALLBACK_DECISIONS = 10_000
"""The bound of a game registered later without its own."""


def max_decisions(name: str, players: int | None = None) -> int:
    """The bound on one game's decisions (`MAX_DECISIONS`); without `players`, for any count."""
    bounds = MAX_DECISIONS.get(name, {})
    if players is None:
        return max(bounds.values(), default=FALLBACK_DECISIONS)
    return bounds.get(players, FALLBACK_DECISIONS)


def check_seed(seed: Any) -> int:
    """The seed of a game, refused unless an integer 0 <= seed < 2**63."""
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or not 0 <= seed < 1 << SEED_BITS:
        raise ValueError(f"a game's seed is an integer from 0 to 2**{SEED_BITS} - 1, not {seed!r}")
    return int(seed)


def research_games() -> list[str]:
    """Registered games that provide the global action numbering (`all_actions`)."""
    return [name for name in game_names() if callable(getattr(get_game(name), "all_actions", None))]


@dataclass(frozen=True)
class GameTable:
    """One game with a fixed number of players and options, numbered for research interfaces."""

    game: Game
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    actions: tuple[str, ...] = ()
    index: dict[str, int] = field(default_factory=dict)

    @classmethod
    def build(cls, name: str, players: int, **options: Any) -> GameTable:
        game = get_game(name)
        if not callable(getattr(game, "all_actions", None)):
            raise ValueError(f"game '{name}' has no global action numbering (all_actions)")
        if not isinstance(players, int) or isinstance(players, bool) or not (
                game.min_players <= players <= game.max_players):
            raise ValueError(f"{game.title} takes {game.min_players} to {game.max_players} players, "
                             f"not {players!r}")
        actions = tuple(game.all_actions(players, **options))
        return cls(game, players, dict(options), actions, {text: i for i, text in enumerate(actions)})

    def __deepcopy__(self, memo: dict[int, Any]) -> GameTable:
        return self  # immutable, shared by every copy of a state

    def __reduce__(self) -> tuple[Any, ...]:  # pickled by name: the registry rebuilds it
        return _table, (self.game.name, self.players, tuple(sorted(self.options.items())))

    def new_state(self, seed: int) -> State:
        return self.game.new_game(self.players, seed, **self.options)

    @cached_property
    def seats(self) -> int:
        """Seats of a state (a solo game of Barcelona has two: the player and the automa)."""
        return self.new_state(0).num_players

    def legal_ids(self, state: State) -> list[int]:
        """Numbers of the legal actions, ascending."""
        return sorted(map(self.index.__getitem__, state.legal_actions()))

    def mask(self, state: State) -> npt.NDArray[np.int8]:
        mask = np.zeros(len(self.actions), dtype=np.int8)
        index = self.index
        for action in state.legal_actions():  # a handful: set one by one, without building an array
            mask[index[action]] = 1
        return mask

    def apply(self, state: State, action_id: int) -> None:
        """Apply an action by its number (the engine refuses an illegal one and changes nothing)."""
        state.apply(self.actions[int(action_id)])


@lru_cache(maxsize=64)
def _table(name: str, players: int, options: tuple[tuple[str, Any], ...]) -> GameTable:
    return GameTable.build(name, players, **dict(options))


def utility(state: State) -> list[float]:
    """Per seat, tanh(margin / 10) where the margin is the seat's final VP minus the best other
    seat's: a clear win is near 1, a clear loss near -1, a tie on VP 0. Zero before the end."""
    if not state.is_terminal():
        return [0.0] * state.num_players
    scores = state.scores()
    if len(scores) == 1:
        return [math.tanh(scores[0] / UTILITY_SCALE)]
    return [math.tanh((mine - max(s for q, s in enumerate(scores) if q != seat)) / UTILITY_SCALE)
            for seat, mine in enumerate(scores)]


def encode_view(view: JsonDict, history: bool = False,
                size: int = OBSERVATION_SIZE) -> npt.NDArray[np.float32]:
    """A fixed-size vector from a view (feature hashing): every leaf of the view but `LEFT_OUT`
    is named by its path (list items by position, e.g. `city.crossings.12.citizens.0`); a number
    adds its value at slot hash(path), any other leaf (text, true/false, null) adds 1 at slot
    hash(path=value), the value written as JSON. The hash is the first 8 bytes of BLAKE2b of the
    UTF-8 key, modulo `size`."""
    vector = np.zeros(size, dtype=np.float32)
    left_out = LEFT_OUT - {"log"} if history else LEFT_OUT
    leaves: list[tuple[str, Any]] = []
    for key, value in view.items():
        if key not in left_out:
            _collect(value, key, leaves)
    slots: list[int] = []
    amounts: list[float] = []
    for path, value in leaves:
        if type(value) in (int, float):
            slots.append(_slot(path, size))
            amounts.append(value)
        else:
            slots.append(_slot(f"{path}={_json_leaf(value)}", size))
            amounts.append(1.0)
    np.add.at(vector, slots, amounts)
    return vector


def view_text(view: JsonDict, history: bool = False) -> str:
    """The view as canonical JSON (sorted keys), the log left out unless `history`."""
    kept = {key: value for key, value in view.items() if history or key != "log"}
    return json.dumps(kept, sort_keys=True, separators=(",", ":"))


def _collect(node: Any, path: str, out: list[tuple[str, Any]]) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            _collect(value, f"{path}.{key}", out)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            _collect(value, f"{path}.{i}", out)
    else:
        out.append((path, node))


def _json_leaf(value: Any) -> str:
    if isinstance(value, str):
        return json.dumps(value)
    return "null" if value is None else "true" if value is True else "false" if value is False else str(value)


@lru_cache(maxsize=1 << 16)
def _slot(key: str, size: int) -> int:
    digest = hashlib.blake2b(key.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little") % size
