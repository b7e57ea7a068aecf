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
- one observer for observations and information states, built from `view(player)` only: the
  string is the view as canonical JSON, the tensor its fixed-size encoding (`table.encode_view`);
  an information state adds the public log and the player's own past actions to both (the view
  alone does not say, for instance, which street's action a player already took at a crossing
  when two streets offer the same kind);
- `resample_from_infostate` is the engine's `resample`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel

from eixample.core.protocol import JsonDict, State
from eixample.core.rng import Rng
from eixample.interop.table import (
    OBSERVATION_SIZE,
    GameTable,
    encode_view,
    research_games,
    utility,
    view_text,
)

MAX_GAME_LENGTH = 10_000
"""An upper bound on the decisions of one game, for OpenSpiel's GameInfo."""

_SEED_RANGE = 1 << 62


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
        return ViewObserver(history)


class EixampleState(pyspiel.State):
    """An engine state behind OpenSpiel's State API."""

    def __init__(self, game: EixampleGame, engine: State):
        super().__init__(game)
        self.table = game.table
        self._held = _Held(engine, ((),) * engine.num_players)

    @property
    def engine(self) -> State:
        return self._held.state

    @engine.setter
    def engine(self, state: State) -> None:
        self._held = _Held(state, self._held.own_actions)

    def current_player(self) -> int:
        if self.engine.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return self.engine.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.engine.current_player():
            return []
        return self.table.legal_ids(self.engine)

    def _apply_action(self, action: int) -> None:
        seat = self.engine.current_player()
        self.table.apply(self.engine, action)
        held = self._held
        held.own_actions = tuple((*mine, self.table.actions[action]) if p == seat else mine
                                 for p, mine in enumerate(held.own_actions))
        held.encodings.clear()

    def seen_by(self, player: int, history: bool) -> JsonDict:
        """What the observer encodes: `view(player)`; for an information state (history) the
        view with its log plus the player's own past actions, in order."""
        view = self.engine.view(player)
        if history:
            view["own_actions"] = list(self._held.own_actions[player])
        return view

    def encoding(self, player: int, history: bool) -> npt.NDArray[np.float32]:
        """The encoded `seen_by`, kept until the next action (OpenSpiel asks often)."""
        key = (player, history)
        if key not in self._held.encodings:
            self._held.encodings[key] = encode_view(self.seen_by(player, history), history=history)
        return self._held.encodings[key]

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

    def __init__(self, state: State, own_actions: tuple[tuple[str, ...], ...]):
        self.state = state
        self.own_actions = own_actions  # per seat, the texts of its own decisions
        self.encodings: dict[tuple[int, bool], npt.NDArray[np.float32]] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(self.state.clone(), self.own_actions)


class ViewObserver:
    """Observations (history=False) and information states (history=True) from `view(player)`."""

    def __init__(self, history: bool):
        self.history = history
        self.tensor = np.zeros(OBSERVATION_SIZE, np.float32)
        self.dict = {"view": self.tensor}

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
