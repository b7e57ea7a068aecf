"""Many games in one process as one Gymnasium vector environment.

    from eixample.interop.vector import EixampleVectorEnv
    envs = EixampleVectorEnv(num_envs=64, game="barcelona", players=2, opponents="random")
    observations, infos = envs.reset(seed=7)              # (64, size) float32
    actions = [int(mask.nonzero()[0][0]) for mask in infos["action_mask"]]
    observations, rewards, terminations, truncations, infos = envs.step(actions)

Each sub-environment is an `EixampleEnv` (one learning seat, the platform's bots at the others;
the same options). Observations and action masks are written in place into one preallocated
batch (`copy=False` hands out those buffers themselves), the observations of all the games in one
call (`Observer.write_batch`: numpy over the whole batch where the game offers it). A finished
game starts the next one in the same step (Gymnasium's same-step autoreset): its last observation
is in `infos["final_obs"]` (where `infos["_final_obs"]` is true) and its scores in
`infos["final_scores"]`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from eixample.core.errors import IllegalActionError
from eixample.interop.gymnasium import EixampleEnv
from eixample.interop.table import utility

Batch = npt.NDArray[np.float32]


class EixampleVectorEnv(VectorEnv[Batch, npt.NDArray[np.int64], npt.NDArray[Any]]):
    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012 - as gymnasium's VectorEnv

    def __init__(
        self,
        num_envs: int = 8,
        game: str = "barcelona",
        players: int = 2,
        opponents: str = "greedy",
        seat: int = 0,
        copy: bool = True,
        **options: Any,
    ):
        if not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive whole number, not {num_envs!r}")
        self.envs = [EixampleEnv(game, players, opponents, seat, **options) for _ in range(num_envs)]
        first = self.envs[0]
        self.num_envs = num_envs
        self.copy = copy
        self.observer = first.observer
        self.table = first.table
        self.seat = seat
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(first.observation_space, num_envs)
        self.action_space = batch_space(first.action_space, num_envs)
        self._observations = np.zeros((num_envs, self.observer.size), np.float32)
        self._masks = np.zeros((num_envs, len(self.table.actions)), np.int8)
        self._actions = len(self.table.actions)
        self._legal: list[list[int]] = [[] for _ in range(num_envs)]

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Batch, dict[str, Any]]:
        seeds = (
            seed
            if isinstance(seed, list)
            else [None if seed is None else seed + i for i in range(self.num_envs)]
        )
        if len(seeds) != self.num_envs:
            raise ValueError(f"{len(seeds)} seeds for {self.num_envs} environments")
        for i, env in enumerate(self.envs):
            env.reset(seed=seeds[i])
            self._legal[i] = self._legal_flat(i)
        self._write_observations()
        self._write_masks()
        return self._out(self._observations), {"action_mask": self._out(self._masks)}

    def step(
        self, actions: Any
    ) -> tuple[Batch, npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]]:
        numbers = np.asarray(actions)
        if numbers.shape != (self.num_envs,):
            raise ValueError(f"expected {self.num_envs} actions, got shape {numbers.shape}")
        rewards = np.zeros(self.num_envs)
        terminations = np.zeros(self.num_envs, np.bool_)
        illegal: list[int] = []
        infos: dict[str, Any] = {}
        texts, seat = self.table.actions, self.seat
        for i, number in enumerate(numbers.tolist()):  # Python numbers, in one conversion
            env = self.envs[i]
            state = env.state
            try:
                if not 0 <= number < self._actions or number != int(number):
                    raise IllegalActionError(f"no action {number!r}")
                state.apply(texts[int(number)])
            except (IllegalActionError, ValueError, TypeError):
                illegal.append(i)  # nothing changed: its observation and legal actions stay as they were
                continue
            env.decisions += 1
            if not state.is_terminal() and state.current_player() != seat:
                env._let_bots_play()
            if state.is_terminal():
                terminations[i] = True
                rewards[i] = utility(state)[seat]
                self._finish(i, infos)
                env.next_game()
            self._legal[i] = self._legal_flat(i)
        self._write_observations()  # a refused action's game too: unchanged, it writes the same
        self._write_masks()
        infos["action_mask"] = self._out(self._masks)
        if illegal:
            flagged = np.zeros(self.num_envs, np.bool_)
            flagged[illegal] = True
            infos["illegal_action"], infos["_illegal_action"] = flagged, flagged.copy()
        return (
            self._out(self._observations),
            rewards,
            terminations,
            np.zeros(self.num_envs, np.bool_),
            infos,
        )

    def _write_observations(self) -> None:
        """Every game's observation, in one call: the game writes the whole batch with numpy."""
        self.observer.write_batch([env.state for env in self.envs], self.seat, self._observations)

    def _legal_flat(self, i: int) -> list[int]:
        """The legal actions of game `i` as indexes into the flattened batch of masks."""
        state = self.envs[i].state
        if state.is_terminal():
            return []
        base, index = i * self._actions, self.table.index
        return [base + index[action] for action in state.legal_actions()]

    def _write_masks(self) -> None:
        """Every game's mask in one assignment."""
        self._masks.fill(0)
        legal = [flat for row in self._legal for flat in row]
        if legal:
            self._masks.reshape(-1)[np.array(legal, np.intp)] = 1

    def _finish(self, i: int, infos: dict[str, Any]) -> None:
        if "final_obs" not in infos:
            infos["final_obs"] = np.zeros_like(self._observations)
            infos["_final_obs"] = np.zeros(self.num_envs, np.bool_)
            infos["final_scores"] = [None] * self.num_envs
        env = self.envs[i]
        self.observer.write(env.state, self.seat, infos["final_obs"][i])
        infos["_final_obs"][i] = True
        infos["final_scores"][i] = env.state.scores()

    def _out(self, array: npt.NDArray[Any]) -> npt.NDArray[Any]:
        return array.copy() if self.copy else array

    def close_extras(self, **kwargs: Any) -> None:
        for env in self.envs:
            env.close()
