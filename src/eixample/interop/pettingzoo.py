"""The platform's games as PettingZoo AEC environments.

    from eixample.interop.pettingzoo import env
    aec = env(game="barcelona", players=3)
    aec.reset(seed=7)
    for agent in aec.agent_iter():
        observation, reward, termination, truncation, info = aec.last()
        mask = observation["action_mask"]
        aec.step(None if termination or truncation else int(mask.nonzero()[0][0]))

Agents are `player_0`.. (one per player; in a solo game of Barcelona the automa is not an
agent). The engine decides who moves next, so turns follow the rules, not a fixed cycle. An
observation is `{"observation": float32 vector, "action_mask": int8 mask}`, the vector the game's
structured observation of the agent's seat (`interop.encoding`; `env.unwrapped.observer.parts(v)`
names its parts); `state()` is every seat's observation, one after the other in seat order
(`state_space`: what all the seats know together, for a centralised critic); actions are numbers in the
game's `all_actions` list; the reward, given at the end, is the utility (`table.utility`), and
every agent's final info holds `scores` and `winners`. An illegal action ends the game with reward
-1 for its agent (PettingZoo's `TerminateIllegalWrapper`). `reset(seed=s)` deals the engine's game
`s`; a later `reset()` deals s + 1, s + 2, ... (as `eixample simulate --seed s` does).

`env(..., action_mask="info")` gives the vector itself as the observation (a `Box`) and the mask in
`infos[agent]["action_mask"]`, the other place PettingZoo's wrappers and `api_test` read it. With
the default dict observation, `api_test` warns "Observation space for each agent probably should be
gymnasium.spaces.box" and "Observation is not a NumPy array": it checks the environment's name
against its own list of dict-observation games (`env_obs_dicts`, `env_obs_space` in
`pettingzoo/test/api_test.py`: chess, go, connect four, tic-tac-toe, the poker games) and warns for
any other name, whatever the observation holds.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable, AECOrderEnforcingIterator

from eixample.core.protocol import State
from eixample.interop.encoding import Observer
from eixample.interop.table import SEED_BITS, GameTable, check_seed, utility, view_text


def env(game: str = "barcelona", players: int = 2, render_mode: str | None = None,
        action_mask: str = "observation", **options: Any) -> AECEnv:
    """The environment with PettingZoo's usual safety wrappers."""
    raw = raw_env(game, players, render_mode, action_mask, **options)
    wrapped: AECEnv = _TerminateIllegal(raw, illegal_reward=-1)
    wrapped = _AssertOutOfBounds(wrapped)
    return _OrderEnforcing(wrapped)


class _Fields:
    """Reads the public fields that every step reads (`last()`, `agent_iter()`) from the raw
    environment directly: the wrappers keep them there, and their `__getattr__` chain otherwise
    costs microseconds a step."""

    _raw: raw_env

    def __init__(self, env: AECEnv, *args: Any, **kwargs: Any):
        super().__init__(env, *args, **kwargs)  # type: ignore[call-arg]
        self.__dict__["_raw"] = env.unwrapped

    agent_selection = property(lambda self: self._raw.agent_selection)
    agents = property(lambda self: self._raw.agents)
    rewards = property(lambda self: self._raw.rewards)
    terminations = property(lambda self: self._raw.terminations)
    truncations = property(lambda self: self._raw.truncations)
    infos = property(lambda self: self._raw.infos)
    _cumulative_rewards = property(lambda self: self._raw._cumulative_rewards)
    unwrapped = property(lambda self: self._raw)


class _TerminateIllegal(_Fields, wrappers.TerminateIllegalWrapper):
    def observe(self, agent: str) -> Any:
        observation = self.env.observe(agent)
        raw = self._raw
        if agent == raw.agent_selection:  # what the wrapper checks the next action against
            self._prev_obs = observation
            self._prev_info: Any = raw.infos.get(agent, {})
        return observation

    def step(self, action: Any) -> None:
        raw, last = self._raw, self._prev_obs
        agent = raw.agent_selection
        if type(action) is int and last is not None and not self._terminated and not (
                raw.terminations[agent] or raw.truncations[agent]):  # the common case, quickly
            mask = last["action_mask"] if type(last) is dict else (self._prev_info or {}).get("action_mask")
            if mask is not None and mask[action]:
                self._prev_obs = self._prev_info = None
                self.env.step(action)
                return
        super().step(action)


class _AssertOutOfBounds(_Fields, wrappers.AssertOutOfBoundsWrapper):
    def step(self, action: Any) -> None:
        if type(action) is int and 0 <= action < self._raw._action_space.n:  # the common case, quickly
            self.env.step(action)
        else:
            super().step(action)


class _AgentIterator(AECOrderEnforcingIterator):
    """PettingZoo's order-enforcing agent iterator, reading the raw environment's fields."""

    env: _OrderEnforcing

    def __next__(self) -> str:
        env = self.env
        raw = env._raw
        if not raw.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert env._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        env._has_updated = False
        return raw.agent_selection


class _AgentIterable(AECOrderEnforcingIterable):
    def __iter__(self) -> _AgentIterator:
        return _AgentIterator(self.env, self.max_iter)


class _OrderEnforcing(_Fields, wrappers.OrderEnforcingWrapper):
    def agent_iter(self, max_iter: int = 2**63) -> _AgentIterable:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _AgentIterable(self, max_iter)

    def observe(self, agent: str) -> Any:
        if self._has_reset:
            return self.env.observe(agent)
        return super().observe(agent)

    def step(self, action: Any) -> None:
        if self._has_reset and self._raw.agents:  # the common case, quickly
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        raw = self._raw
        agent = raw.agent_selection
        observation = self.observe(agent) if observe else None
        return (observation, raw._cumulative_rewards[agent], raw.terminations[agent],
                raw.truncations[agent], raw.infos[agent])


ACTION_MASKS = ("observation", "info")
"""Where the legal actions are given: in a dict observation with the vector (PettingZoo's board
games), or in `infos[agent]["action_mask"]` with the vector as the observation itself."""


class raw_env(AECEnv):  # the name PettingZoo's own environments use
    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, game: str = "barcelona", players: int = 2, render_mode: str | None = None,
                 action_mask: str = "observation", **options: Any):
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        if action_mask not in ACTION_MASKS:
            raise ValueError(f"action_mask must be one of {', '.join(ACTION_MASKS)}, not {action_mask!r}")
        self.mask_in_info = action_mask == "info"
        self.table = GameTable.build(game, players, **options)
        self.observer = Observer.of(self.table)
        self._observed: dict[str, Any] = {}  # per agent, until the next step or reset
        self.render_mode = render_mode
        self.metadata = {**raw_env.metadata, "name": f"eixample_{game.replace('-', '_')}_v0"}  # type: ignore[misc]
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        actions = len(self.table.actions)
        self._action_space = spaces.Discrete(actions)
        low, high = self.observer.low, self.observer.high
        self.state_space = spaces.Box(np.tile(low, players), np.tile(high, players), dtype=np.float32)
        vector = spaces.Box(low, high, dtype=np.float32)
        self._observation_space: spaces.Space[Any] = vector if self.mask_in_info else spaces.Dict({
            "observation": vector,
            "action_mask": spaces.Box(0, 1, (actions,), np.int8),
        })
        self._no_actions = np.zeros(actions, dtype=np.int8)
        self._no_actions.flags.writeable = False
        self.game_seed: int | None = None
        """The seed of the game being played."""
        self.game_state: State = self.table.new_state(0)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self.game_seed = check_seed(seed)
        elif self.game_seed is None:
            self.game_seed = int(np.random.default_rng().integers(1 << SEED_BITS, dtype=np.uint64))
        else:
            self.game_seed = (self.game_seed + 1) % (1 << SEED_BITS)
        self.game_state = self.table.new_state(self.game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._observed = {}
        self._select_next()

    def observe(self, agent: str) -> Any:
        """The agent's observation, written once per position (the wrappers ask too)."""
        observed = self._observed.get(agent)
        if observed is None:
            vector = np.empty(self.observer.size, np.float32)
            self.observer.write(self.game_state, self._seats[agent], vector)
            observed = vector if self.mask_in_info else {"observation": vector,
                                                         "action_mask": self._mask(agent)}
            self._observed[agent] = observed
        return observed

    def _mask(self, agent: str) -> np.ndarray:
        """The agent's legal actions: none unless it is to act."""
        if agent == self.agent_selection and not self.game_state.is_terminal():
            return self.table.mask(self.game_state)
        return np.zeros(len(self.table.actions), dtype=np.int8)

    def state(self) -> np.ndarray:
        """Every seat's observation, in seat order: all that the seats know together."""
        size = self.observer.size
        out = np.empty(size * len(self.possible_agents), np.float32)
        for seat in range(len(self.possible_agents)):
            self.observer.write(self.game_state, seat, out[seat * size:(seat + 1) * size])
        return out

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert action is not None
        self._cumulative_rewards[agent] = 0.0
        self.table.apply(self.game_state, int(action))
        self._observed = {}
        if self.game_state.is_terminal():  # before the end, every reward stays 0 (set by reset)
            values = utility(self.game_state)
            scores, winners = self.game_state.scores(), self.game_state.winners()
            for seat, name in enumerate(self.possible_agents):
                self.rewards[name] = values[seat]
                self.infos[name] = {"scores": list(scores), "winners": list(winners)}
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
        self._select_next()

    def _select_next(self) -> None:
        if self.game_state.is_terminal():  # every agent steps once more with None to leave
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[self.game_state.current_player()]
        if self.mask_in_info:  # the agent to act holds its mask, the others none
            for agent, info in self.infos.items():
                info["action_mask"] = self._mask(agent) if agent == self.agent_selection else self._no_actions

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return view_text(self.game_state.view(None))
        return None

    def close(self) -> None:
        pass
