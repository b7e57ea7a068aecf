"""Loaded into a test's server process: every read of a game's actions outside the group writer
waits a moment before it runs, so that a move committed by another process very likely lands
between that read and the reads of the same game before it (the window of a torn read)."""

from __future__ import annotations

import threading
import time
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine

PAUSE_SECONDS = 0.05


@event.listens_for(Engine, "before_cursor_execute")
def _pause_before_reading_actions(
    _connection: Any, _cursor: Any, statement: str, *_args: Any
) -> None:
    reading = statement.lstrip().upper().startswith("SELECT") and "FROM ACTIONS" in statement.upper()
    if reading and threading.current_thread().name != "group-writer":
        time.sleep(PAUSE_SECONDS)
