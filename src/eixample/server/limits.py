"""What one client may ask of the server: sizes, connections and rates, and their enforcement.

The numbers live in `ServerLimits` (documented in docs/api.md); `RateLimits` counts requests per
client address in token buckets (a minute's share, refilled continuously) and refuses with 429
and a `Retry-After` once an address has used its share.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import Annotated, Any, Literal

from pydantic import Field

from eixample.server.errors import ApiError, too_many


@dataclass(frozen=True)
class ServerLimits:
    max_body_bytes: int = 64 * 1024
    """HTTP request bodies above this are refused with 413 before they are read."""
    max_header_bytes: int = 32 * 1024
    """A request's line and headers together; more gets 431 and the connection is closed."""
    header_timeout_seconds: float = 10.0
    """A request's line and headers must arrive this long after the connection opened or the request
    began; a connection silent (or trickling) that long gets 408 and is closed."""
    body_timeout_seconds: float = 30.0
    """A request's body must arrive this long after its headers (408 and closed otherwise)."""
    connections_per_address: int = 64
    """HTTP connections open at once from one client address (WebSockets count in `ws_per_address`);
    one more gets 503 and is closed."""
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
    chat_per_minute: int = 20
    """Chat messages per seat of a game."""
    chat_per_address_minute: int = 60
    """Chat messages per client address, all games together."""
    chat_lines_per_game: int = 1000
    """Chat lines (and table events) a game keeps; a full chat refuses more with 409."""
    bot_workers: int = 2
    """Worker processes for bot searches: also the cap on searches running at once. Searches take
    them in turn by client address, then by game."""
    quick_bot_workers: int = 1
    """Worker processes for bot decisions that are no search (random, greedy one step ahead), so
    that they never wait behind searches."""
    search_bots_per_address: int = 12
    """Bot seats that search (every bot but random and plain greedy: each decision may take the
    10 s ceiling) in the unfinished games created from one client address; a game that would
    pass this is refused with 429."""
    hint_seconds: float = 1.0
    """The search time of one hint (in the bot workers), whichever of it and `hint_iterations`
    ends first."""
    hint_iterations: int = 20_000
    hints_per_minute: int = 6
    """Hints computed per seat of a game (an answer already in the cache costs nothing)."""
    hints_per_address_minute: int = 30
    """Hints computed per client address, all games together."""
    hints_cached: int = 2048
    """Hints kept, by game, move number and seat (the least recently asked for leave first)."""
    curve_move_seconds: float = 0.15
    """The search time of one point of a finished game's win-probability curve."""
    curve_move_iterations: int = 300
    curve_max_points: int = 400
    """A longer game's curve is computed at this many positions, evenly spread (and the end)."""
    curve_chunk: int = 8
    """Points computed in one worker task, so bot decisions never wait behind a whole curve."""
    curves_cached: int = 256
    """Curves kept in memory while the server runs (the least recently asked for leave first)."""
    curves_queued: int = 16
    """Curves waiting or being computed at most; more requests are answered 503 for a while."""
    turn_day_seconds: float = 86_400.0
    """The length of one of a turn-based game's days per move (tests shorten it)."""
    turn_scan_seconds: float = 30.0
    """How often each server looks in the database for turns whose time has run out in games it
    does not hold in memory (server/turns.py)."""
    notice_grace_seconds: float = 120.0
    """How long a "your turn" notice waits before it is sent: a player who moves or opens the
    game meanwhile gets none (server/notices.py)."""
    notice_poll_seconds: float = 5.0
    """How often each server looks for notices due to be sent."""
    push_to_loopback: bool = False
    """Accept Web Push subscriptions to http://127.0.0.1 (the tests' push service); otherwise
    a push service's address must be https."""
    notice_lease_seconds: float = 120.0
    """How long a server may take to send the notices it claimed before another may claim them
    (a server that died while sending leaves them to the others, or to itself after a restart)."""
    signups_per_address_hour: int = 10
    """Accounts made from one client address."""
    signin_failures_per_address_minute: int = 10
    """Failed sign-ins (wrong name or password) from one client address; then every sign-in from
    it is refused with 429 for a while."""
    signin_failures_per_account_hour: int = 20
    """Failed sign-ins for one user name, from all addresses together (whether or not the name
    exists); then every sign-in with that name is refused with 429 for a while."""
    account_mails_per_address_hour: int = 10
    """Mails (verification links, password resets) asked for from one client address; each
    e-mail address also gets at most 3 an hour, whoever asks."""
    session_days: int = 30
    """A sign-in lasts this long (then the browser signs in again)."""
    session_cache_seconds: Annotated[float, Field(ge=0, le=60)] = 5.0
    """A live session found in the database is trusted this long by the process that found it,
    so that a player's burst of requests costs one look-up. Ending a session (signing out,
    everywhere, a new password, suspension, deletion) takes effect at once in the process that
    ends it, and in the other processes within this time. 0: every request looks it up."""
    password_hashes_at_once: int = 2
    """Password hashes computed at the same time (each takes 64 MiB for a moment); more wait."""

    @classmethod
    def with_overrides(cls, overrides: dict[str, Any] | None) -> ServerLimits:
        known = {item.name for item in fields(cls)}
        unknown = set(overrides or {}) - known
        if unknown:
            raise ValueError(f"unknown server limit(s): {', '.join(sorted(unknown))}")
        return replace(cls(), **(overrides or {}))


RateKind = Literal["create", "move", "token"]

_RATE_CODES: dict[RateKind, str] = {
    "create": "too_many_games", "move": "too_many_moves", "token": "too_many_tokens",
}
_WHAT: dict[RateKind, str] = {
    "create": "too many games created from your address",
    "move": "too many moves from your address",
    "token": "too many wrong tokens from your address",
}


ONE = 1.0 - 1e-9
"""A whole token, give or take the rounding of the refill arithmetic."""


class TokenBuckets:
    """Token buckets, one per key: each holds at most `capacity` tokens, refills at `per_minute`
    tokens a minute (or per `period` seconds), and a request takes one. O(1) per request, no
    threads; buckets that have refilled completely are forgotten, so memory follows the keys
    active in the last period."""

    def __init__(
        self, per_minute: int, clock: Callable[[], float] = time.monotonic, *, period: float = 60.0
    ) -> None:
        self.capacity = float(max(1, per_minute))
        self.rate = self.capacity / period
        self._clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, when)
        self._since_prune = 0

    def _tokens(self, key: str, now: float) -> float:
        tokens, when = self._buckets.get(key, (self.capacity, now))
        return min(self.capacity, tokens + (now - when) * self.rate)

    def take(self, key: str) -> bool:
        """Take a token; False (nothing taken) if the bucket is empty."""
        now = self._clock()
        tokens = self._tokens(key, now)
        self._prune(now)
        if tokens < ONE:
            self._buckets[key] = (tokens, now)
            return False
        self._buckets[key] = (tokens - 1.0, now)
        return True

    def has(self, key: str) -> bool:
        """A token is there (nothing taken)."""
        return self._tokens(key, self._clock()) >= ONE

    def wait(self, key: str) -> int:
        """Whole seconds until the bucket holds a token again (at least 1)."""
        missing = ONE - self._tokens(key, self._clock())
        return max(1, math.ceil(missing / self.rate))

    def _prune(self, now: float) -> None:
        self._since_prune += 1
        if self._since_prune < 1000:
            return
        self._since_prune = 0
        full = [key for key in self._buckets if self._tokens(key, now) >= self.capacity]
        for key in full:
            del self._buckets[key]

    def __len__(self) -> int:
        return len(self._buckets)


class RateLimits:
    """Per-address token buckets for game creation, moves and token failures: each allows its
    number a minute on average, and as many at once after a quiet minute."""

    def __init__(self, limits: ServerLimits, clock: Callable[[], float] = time.monotonic) -> None:
        self._buckets: dict[RateKind, TokenBuckets] = {
            "create": TokenBuckets(limits.games_per_minute, clock),
            "move": TokenBuckets(limits.moves_per_minute, clock),
            "token": TokenBuckets(limits.token_failures_per_minute, clock),
        }

    def hit(self, kind: RateKind, address: str) -> None:
        """Count one request; ApiError 429 (nothing counted) once the address has used its share."""
        if not self._buckets[kind].take(address):
            raise self._refusal(kind, address)

    def check(self, kind: RateKind, address: str) -> None:
        """ApiError 429 while the address has no share left, without counting."""
        if not self._buckets[kind].has(address):
            raise self._refusal(kind, address)

    def _refusal(self, kind: RateKind, address: str) -> ApiError:
        return too_many(_WHAT[kind], self._buckets[kind].wait(address), _RATE_CODES[kind])
