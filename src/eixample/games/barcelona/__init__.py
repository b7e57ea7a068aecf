"""Barcelona (Board&Dice 2023, design Dani Garcia): the rules engine.

from eixample.games import barcelona
state = barcelona.new_game(players=4, seed=7)
while not state.is_terminal():
    state.apply(state.legal_actions()[0])
print(state.scores(), state.winners())
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, cast

from eixample.core.protocol import JsonDict, State
from eixample.core.records import replay as replay_record
from eixample.core.registry import register
from eixample.games.barcelona.components import load_components
from eixample.games.barcelona.house_rules import MAX_SEAT_VP
from eixample.games.barcelona.setup import (
    HOUSE_RULES,
    OPTIONS,
    SWITCHES,
    from_json,
    new_game,
    option_choices,
    option_ranges,
)
from eixample.games.barcelona.state import BarcelonaState
from eixample.games.barcelona.versions import RULES_VERSIONS, UNVERSIONED_RULES

if TYPE_CHECKING:
    from eixample.core.observation import ObservationSpec


class Barcelona:
    name = "barcelona"
    title = "Barcelona"
    min_players = 1
    max_players = 4
    speed_ratio = 0.5
    unversioned_rules = UNVERSIONED_RULES
    """A game stored without its rules version was played under this one or an older one."""
    house_rules = HOUSE_RULES
    """Options that are not printed rules: the lobby shows them behind "Advanced: house rules"."""
    seat_lists: ClassVar[dict[str, tuple[int, int]]] = {"seat_vp": (0, MAX_SEAT_VP)}
    """Options that list one whole number per seat, in turn order, with the least and greatest."""

    def new_game(self, players: int = 4, seed: int = 0, **options: Any) -> BarcelonaState:
        return new_game(players, seed, **options)

    def replay(self, record: JsonDict) -> BarcelonaState:
        state = replay_record(self, record)
        assert isinstance(state, BarcelonaState)
        return state

    def from_json(self, data: JsonDict) -> BarcelonaState:
        return from_json(data)

    def option_names(self) -> list[str]:
        return list(OPTIONS)

    def switch_options(self) -> list[str]:
        return list(SWITCHES)

    def option_choices(self, players: int) -> dict[str, list[str | int]]:
        return option_choices(players)

    def option_ranges(self, players: int) -> dict[str, tuple[int, int]]:
        return option_ranges(players)

    def bot_levels(self) -> dict[str, str]:
        return {}

    def rules_versions(self) -> list[int]:
        return sorted(RULES_VERSIONS)

    def all_actions(self, players: int, **options: Any) -> list[str]:
        from eixample.games.barcelona.catalog import all_actions

        return all_actions(players, **options)

    def observation_spec(self, players: int, **options: Any) -> ObservationSpec:
        from eixample.games.barcelona.observation import observation_spec

        return observation_spec(players, **options)

    def write_observations(self, states: Sequence[State], player: int, out: Any) -> None:
        """Row i of `out` gets `states[i].write_observation(player, row)`'s vector, the whole batch
        at once (states of one table: same options' data, seats and mode)."""
        from eixample.games.barcelona.observation import write_observations

        if not all(isinstance(state, BarcelonaState) for state in states):
            raise ValueError("a batch of Barcelona observations holds Barcelona states")
        write_observations(cast("Sequence[BarcelonaState]", states), player, out)


GAME = Barcelona()
register(GAME)


def replay(record: JsonDict) -> BarcelonaState:
    """Rebuild the identical state from a game record (options + seed + actions)."""
    return GAME.replay(record)


__all__ = ["GAME", "BarcelonaState", "from_json", "load_components", "new_game", "replay"]
