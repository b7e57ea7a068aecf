"""The optional house rule `balanced_seats` (not a printed rule, docs/barcelona/balance.md): the VP each seat
starts with, by player count, read from `data/house_rules.toml`.

The values are not printed game data: they were measured (every seat played the same bot, and the
values were tuned until every seat won about its fair share), so they live in a data file with
that provenance rather than in code. A game records the values it used (as `seat_vp`), so a later
change of the file never changes how an old record replays.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Annotated

from pydantic import Field

from eixample.core.errors import DataFileError
from eixample.games.barcelona.components import DATA_DIR, Model, _read

HOUSE_RULES_FILE = "house_rules.toml"
MAX_SEAT_VP = 30
"""The most VP a seat may start with under `seat_vp` or `balanced_seats`."""

SeatVp = Annotated[int, Field(ge=0, le=MAX_SEAT_VP)]


class BalancedSeats(Model):
    players_2: list[SeatVp]
    players_3: list[SeatVp]
    players_4: list[SeatVp]
    source: str
    note: str


class HouseRulesFile(Model):
    balanced_seats: BalancedSeats


def load_house_rules(folder: Path = DATA_DIR) -> HouseRulesFile:
    """Read and check the house-rules file: DataFileError naming the file, entry and problem."""
    rules: HouseRulesFile = _read(folder / HOUSE_RULES_FILE, HouseRulesFile)
    for players in (2, 3, 4):
        values = getattr(rules.balanced_seats, f"players_{players}")
        if len(values) != players:
            raise DataFileError(
                f"{HOUSE_RULES_FILE}: balanced_seats.players_{players}: "
                f"must list {players} values (one per seat in turn order), not {len(values)}"
            )
    return rules


@cache
def balanced_seats_vp(players: int) -> tuple[int, ...]:
    """The VP each seat starts with under `balanced_seats`, in turn order (first player first)."""
    return tuple(getattr(load_house_rules().balanced_seats, f"players_{players}"))
