"""Rich tables shared by several commands: final scores by source, and the outcome line."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table

from eixample.cli.common import seat_label
from eixample.core.protocol import State

MAX_NAME = 40


def seat_names(record: object, seats: object, players: int) -> list[str]:
    """Who played each seat ("" where unknown): the seats of a saved game or of a JSON Lines entry
    (names or bot specs), else the seats of a server's record (each one's name, else its bot)."""
    if seats is None and isinstance(record, dict):
        seats = record.get("seats")
    if isinstance(seats, list) and len(seats) == players:
        return [_seat_name(seat) for seat in seats]
    return [""] * players


def _seat_name(seat: object) -> str:
    if isinstance(seat, dict):
        seat = seat.get("name") or seat.get("bot")
    if not isinstance(seat, str):
        return ""
    return "".join(char for char in seat if char.isprintable())[:MAX_NAME]


def player_name(seat: int, names: Sequence[str]) -> str:
    """"Player 2 (mcts)", or just "Player 2" when who played is unknown (empty name)."""
    return f"{seat_label(seat)} ({names[seat]})" if names[seat] else seat_label(seat)


def breakdown_table(state: State, names: Sequence[str]) -> Table:
    """Victory points by source (one row each) for every seat (one column each), with the
    totals; winners marked."""
    breakdown = state.score_breakdown()
    winners = state.winners()
    table = Table(title="Final scores by source")
    table.add_column("Source")
    for seat in range(state.num_players):
        mark = " (winner)" if seat in winners else ""
        table.add_column(f"{player_name(seat, names)}{mark}", justify="right")
    for source in sources_of(breakdown):
        table.add_row(source.replace("_", " "), *(str(points.get(source, 0)) for points in breakdown))
    table.add_section()
    table.add_row("Total", *(str(total) for total in state.scores()), style="bold")
    return table


def sources_of(breakdown: Sequence[dict[str, int]]) -> list[str]:
    """Every source of points, in order of first appearance."""
    sources: list[str] = []
    for points in breakdown:
        sources.extend(source for source in points if source not in sources)
    return sources


def outcome_line(state: State, names: Sequence[str]) -> str:
    winners = state.winners()
    if not winners:
        return "Nobody wins."
    who = ", ".join(player_name(seat, names) for seat in winners)
    return f"Winner: {who}" if len(winners) == 1 else f"Shared victory: {who}"
