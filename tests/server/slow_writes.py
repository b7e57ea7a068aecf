"""Loaded into a test's server process: every stored move waits a second before it is written, so
that a test can stop the server while a move is in flight. The file IN_FLIGHT appears in the
server's working folder (its data folder) when the first one starts waiting."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine

PAUSE_SECONDS = 1.0
IN_FLIGHT = "move-in-flight"


@event.listens_for(Engine, "before_cursor_execute")
def _pause_before_storing_a_move(_connection: Any, _cursor: Any, statement: str, *_args: Any) -> None:
    if statement.lstrip().upper().startswith("INSERT INTO ACTIONS"):
        Path(IN_FLIGHT).touch()
        time.sleep(PAUSE_SECONDS)
