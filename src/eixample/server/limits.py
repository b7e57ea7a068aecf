"""What one client may ask of the server: sizes, connections and rates, and their enforcement.

The numbers live in `ServerLimits` (documented in docs/api.md); `RateLimits` counts requests per
client address in moving one-minute windows (the `limits` library) and refuses with 429 and a
`Retry-After` once a window is full.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, fields, replace
from typing import Any, Literal

from limits import RateLimitItem, RateLimitItemPerMinute
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from eixample.server.errors import ApiError, too_many


@dataclass(frozen=True)
class ServerLimits:
    max_body_bytes: int = 64 * 1024
    """HTTP request bodies above this are refused with 413 before they are read."""
    max_ws_message_bytes: int = 64 * 1024
    """WebSocket messages above this get an error message and the connection is closed."""
    ws_per_game: int = 200
    ws_per_address: int = 32
    games_per_minute: int = 10
    """Game creations per client address."""
    moves_per_minute: int = 300
    """Moves and undos per client address (REST and WebSocket together)."""
    token_failures_per_minute: int = 20
    """Wrong seat or creator tokens per client address; then every token request is refused."""
    live_games: int = 500
    """Games held in memory at most (others are reloaded from the database when asked for)."""
    idle_seconds: float = 600.0
    """A game nobody has touched this long leaves memory (a finished one as soon as nobody watches)."""
    sweep_seconds: float = 30.0
    lobby_size: int = 100
    bot_workers: int = 2
    """Worker processes for bot searches: also the cap on searches running at once."""

    @classmethod
    def with_overrides(cls, overrides: dict[str, Any] | None) -> ServerLimits:
        known = {item.name for item in fields(cls)}
        unknown = set(overrides or {}) - known
        if unknown:
            raise ValueError(f"unknown server limit(s): {', '.join(sorted(unknown))}")
        return replace(cls(), **(overrides or {}))


RateKind = Literal["create", "move", "token"]

_WHAT: dict[RateKind, str] = {
    "create": "too many games created from your address",
    "move": "too many moves from your address",
    "token": "too many wrong tokens from your address",
}


class RateLimits:
    """Per-address moving windows of one minute for game creation, moves and token failures."""

    def __init__(self, limits: ServerLimits) -> None:
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self._items: dict[RateKind, RateLimitItem] = {
            "create": RateLimitItemPerMinute(limits.games_per_minute),
            "move": RateLimitItemPerMinute(limits.moves_per_minute),
            "token": RateLimitItemPerMinute(limits.token_failures_per_minute),
        }

    def hit(self, kind: RateKind, address: str) -> None:
        """Count one request; ApiError 429 (nothing counted) once the window is full."""
        if not self._limiter.hit(self._items[kind], kind, address):
            raise self._refusal(kind, address)

    def check(self, kind: RateKind, address: str) -> None:
        """ApiError 429 while the window is full, without counting."""
        if not self._limiter.test(self._items[kind], kind, address):
            raise self._refusal(kind, address)

    def _refusal(self, kind: RateKind, address: str) -> ApiError:
        stats = self._limiter.get_window_stats(self._items[kind], kind, address)
        retry_after = max(1, math.ceil(stats.reset_time - time.time()))
        return too_many(_WHAT[kind], retry_after)
