"""The platform's games as OpenSpiel Python games.

`import eixample.interop.openspiel` registers every game that provides `all_actions` with pyspiel
as `eixample_<name>` (`eixample_barcelona`, `eixample_rose_of_fire`, ...), with parameter `players`:

    import pyspiel, eixample.interop.openspiel
    game = pyspiel.load_game("eixample_barcelona", {"players": 3})
    state = eixample.interop.openspiel.dealt_state(game, seed=7)   # the engine's game with seed 7

- the game type is declared per game and player count (`declared`): tic-tac-toe is perfect
  information, deterministic and zero-sum; Barcelona and The Rose of Fire are imperfect
  information and explicit stochastic, zero-sum with two seats and general-sum with more;
- chance: everything the engine draws (bag, stacks, decks) comes from its seeded generator, so a
  stochastic game opens with `SEED_CHANCE_NODES` chance nodes that deal the seed, a byte each
  (most significant first); after them the game is deterministic given the actions. The bytes of
  seed s make the engine's game s (`seed_outcomes`, `dealt_state`);
- actions are numbered by the game's `all_actions` list (see docs/research.md);
- terminal returns: `table.utility` (tanh of the VP margin over the best other seat / 10);
- one observer for observations and information states: the string is `view(player)` as canonical
  JSON, the tensor the game's structured observation (`interop.encoding`, the parts named in the
  observer's `dict`); an information state adds the player's own past actions to both: their
  texts to the string (with the public log), their counts by action number to the tensor (the
  view alone does not say, for instance, which street's action a player already took at a
  crossing when two streets offer the same kind); before the deal both are empty (nothing is
  known);
- `state.observation_tensor(player)` and `state.information_state_tensor(player)` return numpy
  float32 vectors (read-only), written once per position and player;
- `resample_from_infostate` is the engine's `resample`; OpenSpiel's sampler is seeded from the
  clock, so for a reproducible `ISMCTSBot` give it `resampler(random_state)`;
- games and states pickle, and `pyspiel.serialize_game_and_state` round-trips.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel

from eixample.core.protocol import JsonDict, State
from eixample.interop.encoding import Observer
from eixample.interop.table import (
    SEED_BITS,
    GameTable,
    check_seed,
    max_decisions,
    research_games,
    utility,
    view_text,
)

SEED_CHANCE_NODES = (SEED_BITS + 7) // 8
"""Chance nodes that deal a stochastic game's seed, one byte each, most significant first (the
first takes only the values the seed's range allows: 0..127 of a 63-bit seed)."""
_FIRST_BYTE_VALUES = 1 << (SEED_BITS - 8 * (SEED_CHANCE_NODES - 1))

_Type = pyspiel.GameType
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_CHANCE = int(pyspiel.PlayerId.CHANCE)


@dataclass(frozen=True)
class Declaration:
    """What a platform game is for OpenSpiel's algorithms."""

    information: Any  # pyspiel.GameType.Information
    chance_mode: Any  # pyspiel.GameType.ChanceMode


_HIDDEN_AND_DEALT = Declaration(_Type.Information.IMPERFECT_INFORMATION, _Type.ChanceMode.EXPLICIT_STOCHASTIC)
DECLARATIONS: dict[str, Declaration] = {
    "tictactoe": Declaration(_Type.Information.PERFECT_INFORMATION, _Type.ChanceMode.DETERMINISTIC),
    "barcelona": _HIDDEN_AND_DEALT,
    "rose-of-fire": _HIDDEN_AND_DEALT,
}
"""Per game (a game registered later is taken for imperfect information and stochastic); the game's
length bound is `table.max_decisions`."""


def declared(name: str, seats: int) -> tuple[Declaration, Any]:
    """The declaration of a game, and its utility with `seats` seats: zero-sum with two (the
    utility of one seat is minus the other's), general-sum with more."""
    declaration = DECLARATIONS.get(name, _HIDDEN_AND_DEALT)
    return declaration, _Type.Utility.ZERO_SUM if seats == 2 else _Type.Utility.GENERAL_SUM


def seed_outcomes(seed: int) -> list[int]:
    """The chance outcomes that deal the engine's game `seed` (its bytes, most significant first)."""
    return list(check_seed(seed).to_bytes(SEED_CHANCE_NODES, "big"))


def dealt_state(game: pyspiel.Game, seed: int) -> EixampleState:
    """A new state of `game` dealt as the engine's game `seed` (`Game.new_game(players, seed)`,
    `eixample simulate --seed seed`); a deterministic game ignores the seed's chance outcomes."""
    state = game.new_initial_state()
    for outcome in seed_outcomes(seed):
        if not state.is_chance_node():
            break
        state.apply_action(outcome)
    return state


def resampler(random_state: np.random.RandomState) -> Callable[[EixampleState, int], EixampleState]:
    """A resampler for `ISMCTSBot.set_resampler` drawing its seeds from `random_state`, so that a
    bot with a seeded `random_state` and this resampler repeats its moves exactly."""
    def resample(state: EixampleState, player: int) -> EixampleState:
        return state.resampled(player, int(random_state.randint(0, 1 << 62, dtype=np.int64)))
    return resample


def short_name(game_name: str) -> str:
    return "eixample_" + game_name.replace("-", "_")


class EixampleGame(pyspiel.Game):
    """A platform game with a fixed number of players, as seen by OpenSpiel. `register_all` makes
    one subclass per platform game, naming it and its registered GameType; an instance declares the
    type for its player count."""

    NAME = ""
    TYPE: pyspiel.GameType

    def __init__(self, params: dict[str, Any] | None = None):
        params = {**self.TYPE.parameter_specification, **(params or {})}
        self.table = GameTable.build(self.NAME, int(params["players"]))
        declaration, kind = declared(self.NAME, self.table.seats)
        self.deals = declaration.chance_mode == _Type.ChanceMode.EXPLICIT_STOCHASTIC
        self.observer = Observer.of(self.table)
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.table.actions),
            max_chance_outcomes=256 if self.deals else 0,
            num_players=self.table.seats,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if kind == _Type.Utility.ZERO_SUM else None,
            max_game_length=max_decisions(self.NAME, self.table.players),
        )
        super().__init__(_game_type(self.TYPE, declaration, kind), info, params)

    def new_initial_state(self) -> EixampleState:
        return EixampleState(self)

    def __reduce__(self) -> tuple[Any, ...]:  # by its game string: loading it registers the class
        return _load_game, (str(self),)

    def max_chance_nodes_in_history(self) -> int:
        return SEED_CHANCE_NODES if self.deals else 0

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ViewObserver:
        if params:
            raise ValueError(f"observer parameters are not supported, got {params}")
        history = bool(iig_obs_type is None or iig_obs_type.perfect_recall)
        return ViewObserver(self.observer, len(self.table.actions), history)


def _load_game(text: str) -> pyspiel.Game:
    return pyspiel.load_game(text)


class EixampleState(pyspiel.State):
    """An engine state behind OpenSpiel's State API; in a stochastic game, no engine state until
    the seed is dealt."""

    def __init__(self, game: EixampleGame):
        super().__init__(game)
        self.table = game.table
        self.observer = game.observer
        self.seed_bytes: list[int] | None = [] if game.deals else None
        self._held = None if game.deals else _Held(self.table.new_state(0), _no_actions(self.table.seats))

    @property
    def dealt(self) -> bool:
        return self._held is not None

    @property
    def engine(self) -> State:
        if self._held is None:
            raise ValueError("the game is not dealt yet: apply its seed's chance outcomes first")
        return self._held.state

    @engine.setter
    def engine(self, state: State) -> None:
        assert self._held is not None
        self._held = _Held(state, self._held.own_actions)

    def current_player(self) -> int:
        held = self._held
        if held is None:
            return _CHANCE
        seat = held.state.current_player()  # the protocol's TERMINAL (-1) once the game is over
        return seat if seat >= 0 else _TERMINAL

    def legal_actions(self, *player: int) -> list[int]:
        """As pyspiel's, answered here once dealt (its own asks Python three times more)."""
        held = self._held
        if held is not None and (not player or player[0] == held.state.current_player()):
            return self.table.legal_ids(held.state)  # none once the game is over
        return super().legal_actions(*player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._held is not None:
            return []
        values = self._byte_values()
        return [(byte, 1 / values) for byte in range(values)]

    def _byte_values(self) -> int:
        """How many values the next byte of the seed may take."""
        assert self.seed_bytes is not None
        return _FIRST_BYTE_VALUES if not self.seed_bytes else 256

    def _legal_actions(self, player: int) -> list[int]:
        held = self._held
        if held is None or player != held.state.current_player():
            return []
        return self.table.legal_ids(held.state)

    def _apply_action(self, action: int) -> None:
        held = self._held
        if held is None:
            self._deal(action)
            return
        seat = held.state.current_player()
        self.table.apply(held.state, action)
        held.own_actions[seat].append(int(action))
        if held.encodings:
            held.encodings = {}

    def _deal(self, byte: int) -> None:
        assert self.seed_bytes is not None
        values = self._byte_values()
        if not 0 <= byte < values:
            raise ValueError(f"a chance outcome is a byte of the seed, 0..{values - 1}, not {byte}")
        self.seed_bytes.append(byte)
        if len(self.seed_bytes) == SEED_CHANCE_NODES:
            seed = int.from_bytes(bytes(self.seed_bytes), "big")
            self._held = _Held(self.table.new_state(seed), _no_actions(self.table.seats))

    def seen_by(self, player: int, history: bool) -> JsonDict:
        """What the observer encodes: `view(player)`; for an information state (history) the
        view with its log plus the player's own past actions, in order."""
        view = self.engine.view(player)
        if history:
            view["own_actions"] = [self.table.actions[a] for a in self._held.own_actions[player]] \
                if self._held else []
        return view

    def encoding(self, player: int, history: bool) -> npt.NDArray[np.float32]:
        """The observation of `player` (with `history`, followed by the counts of the player's own
        past actions by number), kept read-only until the next action (OpenSpiel asks often);
        zeros before the deal."""
        size = self.observer.size
        if self._held is None:
            return np.zeros(size + len(self.table.actions) if history else size, np.float32)
        key = (player, history)
        encodings = self._held.encodings
        vector = encodings.get(key)
        if vector is None:
            if history:
                vector = np.zeros(size + len(self.table.actions), np.float32)
                self.observer.write(self.engine, player, vector[:size])
                np.add.at(vector, [size + a for a in self._held.own_actions[player]], 1)
            else:  # the observer writes every entry
                vector = np.empty(size, np.float32)
                self.observer.write(self._held.state, player, vector)
            vector.flags.writeable = False
            encodings[key] = vector
        return vector

    def observation_tensor(self, player: int | None = None) -> npt.NDArray[np.float32]:
        return self.encoding(self._player(player), False)

    def information_state_tensor(self, player: int | None = None) -> npt.NDArray[np.float32]:
        return self.encoding(self._player(player), True)

    def _player(self, player: int | None) -> int:
        if player is None:
            player = self.current_player()
        if not (isinstance(player, (int, np.integer)) and 0 <= player < self.table.seats):
            raise ValueError(f"no player {player!r} in this game")
        return int(player)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed byte {action}"
        return self.table.actions[action]

    def is_terminal(self) -> bool:
        held = self._held
        return held is not None and held.state.is_terminal()

    def returns(self) -> list[float]:
        return utility(self.engine) if self._held is not None else [0.0] * self.table.seats

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> EixampleState:
        """A state with the same information state for `player_id`, hidden parts drawn afresh
        by the engine's `resample` (seeded from the sampler's draw)."""
        return self.resampled(player_id, int(probability_sampler() * (1 << 62)))

    def resampled(self, player: int, seed: int) -> EixampleState:
        """The engine's `resample(player, seed)` behind a copy of this state."""
        other = self.clone()
        other.engine = self.engine.resample(player, seed)
        return other

    def __str__(self) -> str:
        if self._held is None:
            return f"dealing the seed: {self.seed_bytes}"
        return view_text(self.engine.view(None), history=True)


def _no_actions(seats: int) -> list[list[int]]:
    return [[] for _ in range(seats)]


class _Held:
    """The engine state inside an OpenSpiel state: pyspiel clones a Python state by deep-copying
    its attributes, and the engine's own `clone` is the fast way to copy it."""

    __slots__ = ("encodings", "own_actions", "state")

    def __init__(self, state: State, own_actions: list[list[int]]):
        self.state = state
        self.own_actions = own_actions  # per seat, the numbers of its own decisions
        self.encodings: dict[tuple[int, bool], npt.NDArray[np.float32]] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(self.state.clone(), [mine[:] for mine in self.own_actions])

    def __reduce__(self) -> tuple[Any, ...]:  # pickled without the cached encodings
        return _Held, (self.state, self.own_actions)


class ViewObserver:
    """Observations (history=False) and information states (history=True) of one game: `tensor`
    holds the last one written, `dict` its named parts (with history, `own_actions` last)."""

    def __init__(self, observer: Observer, actions: int, history: bool):
        self.history = history
        self.tensor = np.zeros(observer.size + (actions if history else 0), np.float32)
        self.dict = observer.parts(self.tensor)
        if history:
            self.dict["own_actions"] = self.tensor[observer.size:]

    def set_from(self, state: EixampleState, player: int) -> None:
        self.tensor[:] = state.encoding(player, self.history)

    def string_from(self, state: EixampleState, player: int) -> str:
        if not state.dealt:
            return ""
        return view_text(state.seen_by(player, self.history), history=self.history)


def _registered_type(name: str, title: str, max_players: int, min_players: int) -> pyspiel.GameType:
    declaration, _ = declared(name, 2)
    return pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"Eixample {title}",
        dynamics=_Type.Dynamics.SEQUENTIAL,
        chance_mode=declaration.chance_mode,
        information=declaration.information,
        utility=_Type.Utility.ZERO_SUM if max_players == 2 else _Type.Utility.GENERAL_SUM,
        reward_model=_Type.RewardModel.TERMINAL,
        max_num_players=max_players,
        min_num_players=min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": min(max(2, min_players), max_players)},
    )


def _game_type(base: pyspiel.GameType, declaration: Declaration, kind: Any) -> pyspiel.GameType:
    """The registered type with the utility of an instance's player count."""
    return pyspiel.GameType(
        short_name=base.short_name,
        long_name=base.long_name,
        dynamics=base.dynamics,
        chance_mode=declaration.chance_mode,
        information=declaration.information,
        utility=kind,
        reward_model=base.reward_model,
        max_num_players=base.max_num_players,
        min_num_players=base.min_num_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=base.parameter_specification,
    )


def register_all() -> list[str]:
    """Register every research game with pyspiel (once); their short names."""
    from eixample.core.registry import get_game

    registered = set(pyspiel.registered_names())
    names = []
    for name in research_games():
        game = get_game(name)
        game_type = _registered_type(name, game.title, game.max_players, game.min_players)
        if game_type.short_name not in registered:
            game_class = type(f"Eixample_{game_type.short_name}", (EixampleGame,),
                              {"NAME": name, "TYPE": game_type})
            pyspiel.register_game(game_type, game_class)
        names.append(game_type.short_name)
    return names


GAMES = register_all()
