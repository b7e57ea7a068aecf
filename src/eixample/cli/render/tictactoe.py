"""The tic-tac-toe table: the 3x3 grid, empty cells numbered by their `mark` cell."""

from __future__ import annotations

from rich.console import RenderableType
from rich.table import Table

from eixample.cli.render import renderer
from eixample.core.protocol import JsonDict


@renderer("tictactoe")
def render_tictactoe(view: JsonDict) -> RenderableType:
    board = view.get("board", ["."] * 9)
    grid = Table(show_header=False, show_lines=True, padding=(0, 1))
    for _ in range(3):
        grid.add_column(justify="center", width=1)
    for row in range(3):
        cells = [board[3 * row + col] for col in range(3)]
        grid.add_row(*(f"[dim]{3 * row + col}[/]" if cell == "." else f"[bold]{cell}[/]"
                       for col, cell in enumerate(cells)))
    return grid
