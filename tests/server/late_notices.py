"""Loaded into a test's server process: each change notice from another process is taken in only
after a pause, as on a slow network, so that this process still holds the old copy of a game
when the next request for it arrives."""

from __future__ import annotations

import asyncio

from eixample.server.cluster import Changed, Cluster

PAUSE_SECONDS = 1.5

_take_in = Cluster._on_notice


async def _late(self: Cluster, payload: str, changed: Changed) -> None:
    await asyncio.sleep(PAUSE_SECONDS)
    await _take_in(self, payload, changed)


Cluster._on_notice = _late  # type: ignore[method-assign]
