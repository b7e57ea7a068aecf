"""Loaded into a test's server process: each change notice from another process is taken in only
after a pause, as on a slow network, so that this process still holds the old copy of a game
when the next request for it arrives. Notices wait side by side (none waits behind another)."""

from __future__ import annotations

import asyncio

from eixample.server.cluster import Changed, Cluster

PAUSE_SECONDS = 3.0

_take_in = Cluster._on_notice
_waiting: set[asyncio.Task[None]] = set()


async def _late(self: Cluster, payload: str, changed: Changed) -> None:
    async def later() -> None:
        await asyncio.sleep(PAUSE_SECONDS)
        await _take_in(self, payload, changed)

    task = asyncio.get_running_loop().create_task(later())
    _waiting.add(task)
    task.add_done_callback(_waiting.discard)


Cluster._on_notice = _late  # type: ignore[method-assign]
