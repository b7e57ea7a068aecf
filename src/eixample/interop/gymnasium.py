"""The platform's games as single-agent Gymnasium environments: one seat learns, the platform's
bots play the others.

`import eixample.interop.gymnasium` registers `eixample/<Name>-v0` for every game that provides
`all_actions` (`eixample/Barcelona-v0`, `eixample/RoseOfFire-v0`, `eixample/Tictactoe-v0`):

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
  `observation_space`; `info["action_mask"]` the legal actions (int8);
- the reward is 0 until the end, then the learner's utility (`table.utility`);
- an illegal action is refused: nothing changes, the reward is 0 and `info["illegal_action"]`
  is true.
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
from eixample.interop.table import GameTable, research_games, utility, view_text

_SEED_RANGE = 1 << 62
MAX_BOT_ACTIONS = 100_000
"""Bot decisions in a row after which the game is taken for one that never ends."""

Observation = npt.NDArray[np.float32]


class EixampleEnv(gymnasium.Env[Observation, np.int64]):
    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 - an instance variable of gymnasium.Env

    def __init__(self, game: str = "barcelona", players: int = 2, opponents: str = "greedy", seat: int = 0,
                 render_mode: str | None = None, **options: Any):
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.table = GameTable.build(game, players, **options)
        self.seats = self.table.seats
        if not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"seat must be 0..{players - 1}, not {seat!r}")
        self.seat = seat
        self.opponent_specs = _opponents(opponents, [s for s in range(players) if s != seat])
        for spec in self.opponent_specs.values():
            make_bot(spec, 0)  # a bad spec fails here, with its message
        self.render_mode = render_mode
        self.action_space = spaces.Discrete(len(self.table.actions))
        self.observer = Observer.of(self.table)
        self.observation_space = spaces.Box(self.observer.low, self.observer.high, dtype=np.float32)
        self.state: State = self.table.new_state(0)
        self.bots: dict[int, Bot] = {}
        self.decisions = 0
        """Decisions taken in this environment's games so far, by every seat (for benchmarks)."""

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(_SEED_RANGE))
        self.state = self.table.new_state(game_seed)
        self.bots = {s: make_bot(spec, derive_seed(game_seed, s)) for s, spec in self.opponent_specs.items()}
        self._let_bots_play()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        try:
            self.table.apply(self.state, int(action))
        except (IllegalActionError, IndexError, ValueError, TypeError):
            return self._observation(), 0.0, self.state.is_terminal(), False, self._info(illegal=True)
        self.decisions += 1
        self._let_bots_play()
        terminated = self.state.is_terminal()
        reward = utility(self.state)[self.seat] if terminated else 0.0
        return self._observation(), reward, terminated, False, self._info()

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return view_text(self.state.view(self.seat))
        return None

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

    def _info(self, illegal: bool = False) -> dict[str, Any]:
        mask = (np.zeros(len(self.table.actions), dtype=np.int8) if self.state.is_terminal()
                else self.table.mask(self.state))
        info: dict[str, Any] = {"action_mask": mask}
        if illegal:
            info["illegal_action"] = True
        if self.state.is_terminal():
            info["scores"] = self.state.scores()
        return info


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
            gymnasium.register(id=ident, entry_point=f"{__name__}:EixampleEnv", kwargs={"game": name})
        ids.append(ident)
    return ids


ENV_IDS = register_all()
