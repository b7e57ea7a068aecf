"""Loaded into a test's server process: every stored move waits a second before it is written, so
that a test can stop the server while a move is in flight."""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine

PAUSE_SECONDS = 1.0


@event.listens_for(Engine, "before_cursor_execute")
def _pause_before_storing_a_move(_connection: Any, _cursor: Any, statement: str, *_args: Any) -> None:
    if statement.lstrip().upper().startswith("INSERT INTO ACTIONS"):
        time.sleep(PAUSE_SECONDS)
