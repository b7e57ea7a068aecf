"""The platform's games as single-agent Gymnasium environments: one seat learns, the platform's
bots play the others.

`import eixample.interop.gymnasium` registers `eixample/<Name>-v0` for every game that provides
`all_actions` (`eixample/Barcelona-v0`, `eixample/RoseOfFire-v0`, `eixample/Tictactoe-v0`), with a
time limit of the game's bound on decisions (`table.max_decisions`):

    import gymnasium, eixample.interop.gymnasium
    env = gymnasium.make("eixample/Barcelona-v0", players=2, opponents="greedy")
    observation, info = env.reset(seed=7)
    action = int(info["action_mask"].nonzero()[0][0])
    observation, reward, terminated, truncated, info = env.step(action)

- `opponents`: one bot spec for every other seat, or comma-separated specs, one per other seat
  (any spec of `eixample.ai.specs`, e.g. `random`, `greedy`, `mcts:iterations=200`);
- `seat`: the learner's seat (default 0);
- the observation is the game's structured observation of the seat (`interop.encoding`: a float32
  vector, `env.unwrapped.observer.parts(observation)` names its parts), within the finite bounds of
  `observation_space`; `info["action_mask"]` and `action_masks()` (sb3-contrib's MaskablePPO
  reads it) the legal actions;
- `reward` (see `REWARDS`): `utility` (default) gives at the end the learner's utility, tanh of the
  VP margin over the best other seat / 10; `win` gives 1 for a sole win, 0 for a shared one, -1
  for a loss; `margin` gives at the end that VP margin / 10, unsquashed; `score` gives after each
  step the change of that margin / 10 (the same total as `margin`, spread over the game);
- `illegal_action` (see `ILLEGAL_ACTIONS`): `refuse` (default): nothing changes, reward 0 and
  `info["illegal_action"]`; `lose`: the episode ends (terminated), reward -1; `raise`: the step
  raises `IllegalActionError`. An action that is not an integer is always refused with ValueError;
- `reset(seed=s)` deals the engine's game `s` and seeds the bots as `eixample simulate --seed s`
  does its first game; each later `reset()` deals s + 1, s + 2, ...
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from eixample.ai.base import Bot
from eixample.ai.match import derive_seed
from eixample.ai.specs import make_bot
from eixample.core.errors import IllegalActionError
from eixample.core.protocol import State
from eixample.interop.encoding import Observer
from eixample.interop.table import (
    SEED_BITS,
    UTILITY_SCALE,
    GameTable,
    check_seed,
    max_decisions,
    research_games,
    utility,
    view_text,
)

MAX_BOT_ACTIONS = 100_000
"""Bot decisions in a row after which the game is taken for one that never ends."""

REWARDS = ("utility", "win", "margin", "score")
ILLEGAL_ACTIONS = ("refuse", "lose", "raise")

Observation = npt.NDArray[np.float32]


class EixampleEnv(gymnasium.Env[Observation, np.int64]):
    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 - an instance variable of gymnasium.Env

    def __init__(self, game: str = "barcelona", players: int = 2, opponents: str = "greedy", seat: int = 0,
                 render_mode: str | None = None, reward: str = "utility", illegal_action: str = "refuse",
                 **options: Any):
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if illegal_action not in ILLEGAL_ACTIONS:
            raise ValueError(f"illegal_action must be one of {', '.join(ILLEGAL_ACTIONS)}, "
                             f"not {illegal_action!r}")
        self.table = GameTable.build(game, players, **options)
        self.seats = self.table.seats
        if not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"seat must be 0..{players - 1}, not {seat!r}")
        self.seat = seat
        self.reward_kind = reward
        self.illegal_action = illegal_action
        self.opponent_specs = _opponents(opponents, [s for s in range(players) if s != seat])
        for spec in self.opponent_specs.values():
            make_bot(spec, 0)  # a bad spec fails here, with its message
        self.render_mode = render_mode
        self.action_space = spaces.Discrete(len(self.table.actions))
        self.observer = Observer.of(self.table)
        self.observation_space = spaces.Box(self.observer.low, self.observer.high, dtype=np.float32)
        self.game_seed: int | None = None
        self.state: State = self.table.new_state(0)
        self.bots: dict[int, Bot] = {}
        self._margin = 0.0
        self.decisions = 0
        """Decisions taken in this environment's games so far, by every seat (for benchmarks)."""

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self.game_seed = check_seed(seed)
        elif self.game_seed is None:
            self.game_seed = int(self.np_random.integers(1 << SEED_BITS, dtype=np.uint64))
        else:
            self.game_seed = (self.game_seed + 1) % (1 << SEED_BITS)
        self._deal(self.game_seed)
        return self._observation(), self._info()

    def _deal(self, seed: int) -> None:
        """Game `seed` begun, its bots seated and played up to the learner's first decision."""
        self.state = self.table.new_state(seed)
        self.bots = {seat: make_bot(spec, derive_seed(seed, seat))
                     for seat, spec in self.opponent_specs.items()}
        self._margin = self._vp_margin()  # before the bots' first moves: `score` sums to the final margin
        self._let_bots_play()

    def next_game(self) -> None:
        """The next game begun, as `reset()` without a seed begins it, without building the first
        observation (a vector environment writes it into its batch)."""
        assert self.game_seed is not None, "reset the environment first"
        self.game_seed = (self.game_seed + 1) % (1 << SEED_BITS)
        self._deal(self.game_seed)

    def step(self, action: Any) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        number = _action_number(action)
        if self.state.is_terminal():
            raise IllegalActionError("the game is over: reset the environment")
        if not 0 <= number < len(self.table.actions):
            return self._refuse(number)
        try:
            self.table.apply(self.state, number)
        except IllegalActionError:  # the engine changed nothing
            return self._refuse(number)
        self.decisions += 1
        self._let_bots_play()
        terminated = self.state.is_terminal()
        return self._observation(), self._reward(terminated), terminated, False, self._info()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the learner now (all false once the game is over)."""
        return self._mask().astype(bool)

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return view_text(self.state.view(self.seat))
        return None

    def _refuse(self, number: int) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        if self.illegal_action == "raise":
            raise IllegalActionError(f"action {number} is not legal now")
        lose = self.illegal_action == "lose"
        return self._observation(), -1.0 if lose else 0.0, lose, False, self._info(illegal=True)

    def _reward(self, terminated: bool) -> float:
        if self.reward_kind == "score":
            before, self._margin = self._margin, self._vp_margin()
            return (self._margin - before) / UTILITY_SCALE
        if not terminated:
            return 0.0
        if self.reward_kind == "utility":
            return utility(self.state)[self.seat]
        if self.reward_kind == "margin":
            return self._vp_margin() / UTILITY_SCALE
        winners = self.state.winners()
        return 0.0 if self.seat in winners and len(winners) > 1 else 1.0 if self.seat in winners else -1.0

    def _vp_margin(self) -> float:
        scores = self.state.scores()
        others = [score for seat, score in enumerate(scores) if seat != self.seat]
        return float(scores[self.seat] - max(others)) if others else float(scores[self.seat])

    def _let_bots_play(self) -> None:
        for _ in range(MAX_BOT_ACTIONS):
            if self.state.is_terminal() or self.state.current_player() == self.seat:
                return
            seat = self.state.current_player()
            self.state.apply(self.bots[seat].choose(self.state, seat))
            self.decisions += 1
        raise RuntimeError(f"the bots made {MAX_BOT_ACTIONS} decisions in a row")

    def _observation(self) -> Observation:
        return self.observer.observe(self.state, self.seat)

    def _mask(self) -> npt.NDArray[np.int8]:
        if self.state.is_terminal():
            return np.zeros(len(self.table.actions), dtype=np.int8)
        return self.table.mask(self.state)

    def _info(self, illegal: bool = False) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self._mask()}
        if illegal:
            info["illegal_action"] = True
        if self.state.is_terminal():
            info["scores"] = self.state.scores()
            info["winners"] = self.state.winners()
        return info


def _action_number(action: Any) -> int:
    """The action as a Python int; anything but an integer (a bool, a float, a text) is refused."""
    if isinstance(action, np.ndarray) and action.shape == ():
        action = action[()]
    if isinstance(action, bool | np.bool_) or not isinstance(action, int | np.integer):
        raise ValueError(f"an action is an integer of the action space, not {action!r}")
    return int(action)


def _opponents(text: str, seats: list[int]) -> dict[int, str]:
    if not isinstance(text, str) or not text.strip():
        raise ValueError("opponents: give a bot spec, or one per other seat, comma-separated")
    specs = [spec.strip() for spec in text.split(",")]
    if len(specs) == 1:
        specs *= len(seats)
    if len(specs) != len(seats):
        raise ValueError(f"opponents: {len(specs)} bot specs for {len(seats)} other seats")
    return dict(zip(seats, specs, strict=True))


def env_id(game_name: str) -> str:
    """`eixample/Barcelona-v0` for `barcelona`, `eixample/RoseOfFire-v0` for `rose-of-fire`."""
    return "eixample/" + "".join(part.capitalize() for part in game_name.split("-")) + "-v0"


def register_all() -> list[str]:
    ids = []
    for name in research_games():
        ident = env_id(name)
        if ident not in gymnasium.registry:
            gymnasium.register(id=ident, entry_point=f"{__name__}:EixampleEnv", kwargs={"game": name},
                               max_episode_steps=max_decisions(name))
        ids.append(ident)
    return ids


ENV_IDS = register_all()
