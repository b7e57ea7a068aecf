"""Speed of the game engine against OpenSpiel's pure-Python tic-tac-toe.

The same measurement as `eixample bench`, runnable straight from a checkout:

    python benchmarks/bench.py [--seconds S] [--players 2,3,4] [--game NAME]
"""

from __future__ import annotations

import sys
from pathlib import Path


def main(argv: list[str]) -> None:
    try:
        from eixample.cli.main import app
    except ModuleNotFoundError:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
        from eixample.cli.main import app
    app(["bench", *argv], prog_name="bench.py")


if __name__ == "__main__":
    main(sys.argv[1:])
