"""Barcelona: The Rose of Fire (Devir 2016, design Marco Maggi and Francesco Nepitello): the rules
engine, for 2 to 4 players.

from eixample.games import rose_of_fire
state = rose_of_fire.new_game(players=3, seed=7)
while not state.is_terminal():
    state.apply(state.legal_actions()[0])
print(state.scores(), state.winners())
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from eixample.core.protocol import JsonDict, State
from eixample.core.records import replay as replay_record
from eixample.core.registry import register
from eixample.games.rose_of_fire.actions import all_actions as _all_actions
from eixample.games.rose_of_fire.components import load_tables
from eixample.games.rose_of_fire.setup import OPTIONS, check_options, from_json, new_game
from eixample.games.rose_of_fire.state import RoseState
from eixample.games.rose_of_fire.versions import LATEST_RULES, RULES_VERSIONS

if TYPE_CHECKING:
    from eixample.core.observation import ObservationSpec

BOT_LEVELS = {
    "beginner": "greedy",
    "intermediate": "greedy:plan=3",
    "strong": "expert:seconds=1:fpu=0.1:finish=3:scale=5:depth=60:stage=yes:policy=greedy:widen=1",
}
"""This game's bot levels, weakest first, each measured against the one before it
(docs/rose-of-fire/strength.md, "Levels"): the platform's default ladder is not one here, where a
search without a look through the rest of its own turn plays no better than greedy."""


class RoseOfFire:
    name = "rose-of-fire"
    title = "Barcelona: The Rose of Fire"
    min_players = 2
    max_players = 4
    speed_ratio = 1.0  # issue 8: at least OpenSpiel's python_tic_tac_toe moves/s
    unversioned_rules = 1
    """A game stored without its rules version was played under the first rules."""

    def new_game(self, players: int = 4, seed: int = 0, **options: Any) -> RoseState:
        return new_game(players, seed, **options)

    def replay(self, record: JsonDict) -> RoseState:
        state = replay_record(self, record)
        assert isinstance(state, RoseState)
        return state

    def from_json(self, data: JsonDict) -> RoseState:
        return from_json(data)

    def option_names(self) -> list[str]:
        return list(OPTIONS)

    def switch_options(self) -> list[str]:
        return ["no_strike"]

    def option_choices(self, players: int) -> dict[str, list[str | int]]:
        return {"first_player": ["random", *range(players)]}

    def option_ranges(self, players: int) -> dict[str, tuple[int, int]]:
        return {}

    def rules_versions(self) -> list[int]:
        """The versions of the rules a game may be played under, oldest first (versions.py)."""
        return sorted(RULES_VERSIONS)

    def bot_levels(self) -> dict[str, str]:
        return dict(BOT_LEVELS)

    def all_actions(self, players: int, **options: Any) -> list[str]:
        """Every action text that can ever be legal with these options, in a fixed order."""
        options = check_options(players, options)
        return _all_actions(load_tables(options.get("data_dir")), players)

    def observation_spec(self, players: int, **options: Any) -> ObservationSpec:
        from eixample.games.rose_of_fire.observation import observation_spec

        return observation_spec(players, **options)

    def write_observations(self, states: Sequence[State], player: int, out: Any) -> None:
        """Row i of `out` (len(states) x the spec's size, float32) as `player` observes states[i],
        all at once: the states must share their tables and number of players."""
        from eixample.games.rose_of_fire.observation import write_observations

        if not all(isinstance(state, RoseState) for state in states):
            raise ValueError("a batch of Rose of Fire observations holds Rose of Fire states")
        write_observations(cast(Sequence[RoseState], states), player, out)


GAME = RoseOfFire()
register(GAME)


def replay(record: JsonDict) -> RoseState:
    """Rebuild the identical state from a game record (options + seed + actions)."""
    return GAME.replay(record)


__all__ = [
    "GAME",
    "LATEST_RULES",
    "RULES_VERSIONS",
    "RoseState",
    "from_json",
    "load_tables",
    "new_game",
    "replay",
]
