"""The platform's games as OpenSpiel Python games.

`import eixample.interop.openspiel` registers every game that provides `all_actions` with pyspiel
as `eixample_<name>` (`eixample_barcelona`, `eixample_rose_of_fire`, ...), with parameters
`players` and `seed`:

    import pyspiel, eixample.interop.openspiel
    game = pyspiel.load_game("eixample_barcelona", {"players": 3, "seed": 7})

- imperfect information, sampled stochastic: the engine draws (bag, stacks, decks) from its own
  seeded generator, so there are no chance nodes; game k of a game object (the k-th call of
  `new_initial_state`) is set up with a seed drawn from the parameter `seed`;
- actions are numbered by the game's `all_actions` list (see docs/research.md);
- general-sum terminal returns: `table.utility` (tanh of the VP margin over the best other seat,
  divided by 10);
- one observer for observations and information states: the string is `view(player)` as canonical
  JSON, the tensor the game's structured observation (`interop.encoding`, the parts named in the
  observer's `dict`); an information state adds the player's own past actions to both: their
  texts to the string (with the public log), their counts by action number to the tensor (the
  view alone does not say, for instance, which street's action a player already took at a
  crossing when two streets offer the same kind);
- `state.observation_tensor(player)` and `state.information_state_tensor(player)` return numpy
  float32 vectors (read-only), written once per position and player;
- `resample_from_infostate` is the engine's `resample`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel

from eixample.core.protocol import JsonDict, State
from eixample.core.rng import Rng
from eixample.interop.encoding import Observer
from eixample.interop.table import GameTable, research_games, utility, view_text

MAX_GAME_LENGTH = 10_000
"""An upper bound on the decisions of one game, for OpenSpiel's GameInfo."""

_SEED_RANGE = 1 << 62
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


def short_name(game_name: str) -> str:
    return "eixample_" + game_name.replace("-", "_")


class EixampleGame(pyspiel.Game):
    """A platform game with a fixed number of players, as seen by OpenSpiel. `register_all` makes
    one subclass per platform game, naming it and its GameType."""

    NAME = ""
    TYPE: pyspiel.GameType

    def __init__(self, params: dict[str, Any] | None = None):
        name, game_type = self.NAME, self.TYPE
        params = {**game_type.parameter_specification, **(params or {})}
        players, seed = int(params["players"]), int(params["seed"])
        self.table = GameTable.build(name, players)
        self.observer = Observer.of(self.table)
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.table.actions),
            max_chance_outcomes=0,
            num_players=self.table.seats,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(game_type, info, params)
        self._seeds = Rng(seed)

    def new_initial_state(self) -> EixampleState:
        return EixampleState(self, self.table.new_state(self._seeds.below(_SEED_RANGE)))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ViewObserver:
        if params:
            raise ValueError(f"observer parameters are not supported, got {params}")
        history = bool(iig_obs_type is None or iig_obs_type.perfect_recall)
        return ViewObserver(self.observer, len(self.table.actions), history)


class EixampleState(pyspiel.State):
    """An engine state behind OpenSpiel's State API."""

    def __init__(self, game: EixampleGame, engine: State):
        super().__init__(game)
        self.table = game.table
        self.observer = game.observer
        self._held = _Held(engine, ((),) * engine.num_players)

    @property
    def engine(self) -> State:
        return self._held.state

    @engine.setter
    def engine(self, state: State) -> None:
        self._held = _Held(state, self._held.own_actions)

    def current_player(self) -> int:
        seat = self._held.state.current_player()  # the protocol's TERMINAL (-1) once the game is over
        return seat if seat >= 0 else _TERMINAL

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.engine.current_player():
            return []
        return self.table.legal_ids(self.engine)

    def _apply_action(self, action: int) -> None:
        seat = self.engine.current_player()
        self.table.apply(self.engine, action)
        held = self._held
        held.own_actions = tuple((*mine, int(action)) if p == seat else mine
                                 for p, mine in enumerate(held.own_actions))
        if held.encodings:
            held.encodings = {}

    def seen_by(self, player: int, history: bool) -> JsonDict:
        """What the observer encodes: `view(player)`; for an information state (history) the
        view with its log plus the player's own past actions, in order."""
        view = self.engine.view(player)
        if history:
            view["own_actions"] = [self.table.actions[a] for a in self._held.own_actions[player]]
        return view

    def encoding(self, player: int, history: bool) -> npt.NDArray[np.float32]:
        """The observation of `player` (with `history`, followed by the counts of the player's own
        past actions by number), kept read-only until the next action (OpenSpiel asks often)."""
        key = (player, history)
        encodings = self._held.encodings
        vector = encodings.get(key)
        if vector is None:
            size = self.observer.size
            vector = np.zeros(size + len(self.table.actions) if history else size, np.float32)
            self.observer.write(self.engine, player, vector[:size])
            if history:
                np.add.at(vector, [size + a for a in self._held.own_actions[player]], 1)
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
        if not (isinstance(player, (int, np.integer)) and 0 <= player < self.engine.num_players):
            raise ValueError(f"no player {player!r} in this game")
        return int(player)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.table.actions[action]

    def is_terminal(self) -> bool:
        return self.engine.is_terminal()

    def returns(self) -> list[float]:
        return utility(self.engine)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> EixampleState:
        """A state with the same information state for `player_id`, hidden parts drawn afresh
        by the engine's `resample` (seeded from the sampler's draw)."""
        seed = int(probability_sampler() * _SEED_RANGE)
        other = self.clone()
        other.engine = self.engine.resample(player_id, seed)
        return other

    def __str__(self) -> str:
        return view_text(self.engine.view(None), history=True)


class _Held:
    """The engine state inside an OpenSpiel state: pyspiel clones a Python state by deep-copying
    its attributes, and the engine's own `clone` is the fast way to copy it."""

    __slots__ = ("encodings", "own_actions", "state")

    def __init__(self, state: State, own_actions: tuple[tuple[int, ...], ...]):
        self.state = state
        self.own_actions = own_actions  # per seat, the numbers of its own decisions
        self.encodings: dict[tuple[int, bool], npt.NDArray[np.float32]] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(self.state.clone(), self.own_actions)


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
        return view_text(state.seen_by(player, self.history), history=self.history)


def _game_type(name: str, title: str, max_players: int, min_players: int) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"Eixample {title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max_players,
        min_num_players=min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": min(max(2, min_players), max_players), "seed": 0},
    )


def register_all() -> list[str]:
    """Register every research game with pyspiel (once); their short names."""
    from eixample.core.registry import get_game

    registered = set(pyspiel.registered_names())
    names = []
    for name in research_games():
        game = get_game(name)
        game_type = _game_type(name, game.title, game.max_players, game.min_players)
        if game_type.short_name not in registered:
            game_class = type(f"Eixample_{game_type.short_name}", (EixampleGame,),
                              {"NAME": name, "TYPE": game_type})
            pyspiel.register_game(game_type, game_class)
        names.append(game_type.short_name)
    return names


GAMES = register_all()
