"""The coach on the server: hints for a seat's decision, and win-probability curves of finished games.

Both search in the bot worker pool (`BotPool.run`), never on the event loop or in the threads
that serve requests, with fixed budgets (`ServerLimits.hint_*`, `curve_*`), and through
`eixample.ai.analysis`, which searches from one seat's view only:

- A hint is the bot's top three choices for the seat's current decision with their estimated
  win probability. Only in games created with hints allowed (403 otherwise), only for the seat
  to decide (409), at most one being computed per seat, rate-limited per seat and per address
  (429), kept in a bounded cache by (game, move number, seat). Its search seed comes from public
  facts (game id, move number, seat), so a hint is a function of the seat's view alone.
- A curve is each seat's win probability at every position of a finished game (at most
  `curve_max_points` positions, evenly spread). Never for a running game: it would coach and leak.
  It is computed in the background, one game at a time and a few points per worker task (bot
  decisions never wait behind a whole curve), and kept in memory while the server runs, in a
  bounded cache (`curves_cached` games); until it is ready the endpoint answers "pending".
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from dataclasses import replace

from eixample.ai.analysis import COACH_SETTINGS, top_actions, win_probability_curve
from eixample.core.protocol import JsonDict, State
from eixample.core.registry import get_game
from eixample.server import metrics, views
from eixample.server.bots import BotPool
from eixample.server.errors import ApiError, conflict, forbidden, too_many, unavailable
from eixample.server.limits import ServerLimits, TokenBuckets
from eixample.server.live import LiveGame
from eixample.server.manager import derived_seed
from eixample.server.tasks import cancel_and_wait

log = logging.getLogger(__name__)

HINT_CHOICES = 3
QUEUE_SECONDS = 15.0
"""How long a hint may wait for a free worker before the request is answered 503."""
BUSY_RETRY = 5
CURVES = "curves"
"""The curves' place in the search workers' turns: all curves together take the turn of one client
address (one curve is computed at a time anyway)."""


# -- in the worker processes -----------------------------------------------------------------


def hint_choices(state: State, seat: int, iterations: int, seconds: float, seed: int) -> list[JsonDict]:
    """The bot's top choices for `seat`'s decision, searched from that seat's view only."""
    settings = replace(COACH_SETTINGS, iterations=iterations, seconds=seconds)
    return [
        {
            "action": choice.action,
            "win_probability": round(choice.win_probability[seat], 4),
            "win_probabilities": [round(p, 4) for p in choice.win_probability],
        }
        for choice in top_actions(state, seat, HINT_CHOICES, settings, seed)
    ]


def curve_part(game_name: str, record: JsonDict, moves: list[int], iterations: int, seconds: float,
               seed: int) -> list[JsonDict]:
    """Some points of a finished game's win-probability curve (`analysis.win_probability_curve`)."""
    settings = replace(COACH_SETTINGS, iterations=iterations, seconds=seconds)
    points = win_probability_curve(get_game(game_name), record, settings, seed, moves=moves)
    return [point.as_json() for point in points]


def curve_positions(actions: int, most: int) -> list[int]:
    """The positions (0 to `actions`) a curve is computed at: all of them, or `most` evenly
    spread, always with the first and the last."""
    if actions + 1 <= most:
        return list(range(actions + 1))
    most = max(2, most)
    return sorted({round(index * actions / (most - 1)) for index in range(most)})


# -- in the server ---------------------------------------------------------------------------


class Hints:
    """Hints for seats of games created with hints allowed."""

    def __init__(self, pool: BotPool, limits: ServerLimits) -> None:
        self.pool = pool
        self.limits = limits
        self._cache: OrderedDict[tuple[str, int, int], list[JsonDict]] = OrderedDict()
        self._pending: dict[tuple[str, int], tuple[int, asyncio.Task[list[JsonDict]]]] = {}
        self._per_seat = TokenBuckets(limits.hints_per_minute)
        self._per_address = TokenBuckets(limits.hints_per_address_minute)

    async def hint(self, live: LiveGame, seat: int, expected_move: int, address: str) -> JsonDict:
        """The hint for `seat`'s current decision (ApiError 403, 409, 429 or 503 when refused)."""
        if not live.hints_allowed:
            raise forbidden("this game was created without hints: its seats did not agree to them",
                            "no_hints")
        if live.finished:
            raise conflict("the game is over", "game_over")
        move = live.move_number
        if expected_move != move:
            raise conflict(f"stale hint request: the game is at move {move}, not {expected_move}",
                           "stale_move")
        if live.state.current_player() != seat:
            raise conflict(f"it is not your turn: waiting for {live.seat_label(live.state.current_player())}",
                           "not_your_turn", player=live.seat_label(live.state.current_player()))
        key = (live.id, move, seat)
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            return self._answer(live, move, seat, cached, True)
        task = self._start(live, move, seat, address)
        try:
            choices = await asyncio.wait_for(asyncio.shield(task), self.limits.hint_seconds + QUEUE_SECONDS)
        except TimeoutError:
            raise ApiError(503, "the bots are busy: ask for the hint again in a moment",
                           {"Retry-After": str(BUSY_RETRY)}, code="bots_busy",
                           args={"seconds": BUSY_RETRY}) from None
        return self._answer(live, move, seat, choices, False)

    def _start(self, live: LiveGame, move: int, seat: int, address: str) -> asyncio.Task[list[JsonDict]]:
        """The computation of this hint: the one already running, or a new one if the seat and
        the address have hints left."""
        pending = self._pending.get((live.id, seat))
        if pending is not None:
            if pending[0] == move:
                return pending[1]
            raise too_many("a hint for this seat is still being computed", 1, "hint_running")
        seat_key = f"{live.id}:{seat}"
        if not self._per_seat.has(seat_key):
            raise too_many("too many hints for this seat", self._per_seat.wait(seat_key), "too_many_hints")
        if not self._per_address.take(address):
            raise too_many("too many hints from your address", self._per_address.wait(address),
                           "too_many_hints")
        self._per_seat.take(seat_key)
        snapshot = live.state.clone()
        seed = derived_seed(move, "hint", live.id, seat)
        task = asyncio.create_task(self._compute(live.id, move, seat, snapshot, seed, address),
                                   name=f"hint-{live.id}")
        self._pending[(live.id, seat)] = (move, task)
        return task

    async def _compute(self, game_id: str, move: int, seat: int, state: State, seed: int,
                       address: str) -> list[JsonDict]:
        try:
            try:
                choices = await self.pool.run(hint_choices, state, seat, self.limits.hint_iterations,
                                              self.limits.hint_seconds, seed, game=game_id, address=address)
            except RuntimeError as error:
                raise unavailable("the server is stopping", "stopping") from error
            metrics.HINTS.inc()
            self._cache[(game_id, move, seat)] = choices
            while len(self._cache) > self.limits.hints_cached:
                self._cache.popitem(last=False)
            return choices
        finally:
            self._pending.pop((game_id, seat), None)

    @staticmethod
    def _answer(live: LiveGame, move: int, seat: int, choices: list[JsonDict], cached: bool) -> JsonDict:
        return {"game_id": live.id, "move_number": move, "seat": seat, "choices": choices, "cached": cached}

    def stop(self) -> None:
        for _move, task in self._pending.values():
            task.cancel()


class Curves:
    """Win-probability curves of finished games, computed in the background."""

    def __init__(self, pool: BotPool, limits: ServerLimits) -> None:
        self.pool = pool
        self.limits = limits
        self._ready: OrderedDict[str, JsonDict] = OrderedDict()
        self._running: dict[str, tuple[asyncio.Task[None], list[int], list[JsonDict]]] = {}
        self._one_at_a_time = asyncio.Semaphore(1)

    def curve(self, live: LiveGame) -> JsonDict:
        """The curve if it is ready, else "pending" (its computation started if need be)."""
        if not live.finished:
            raise conflict("the win-probability curve of a game is shown once the game is over",
                           "curve_not_over")
        ready = self._ready.get(live.id)
        if ready is not None:
            self._ready.move_to_end(live.id)
            return ready
        running = self._running.get(live.id)
        if running is None:
            if len(self._running) >= self.limits.curves_queued:
                raise ApiError(503, "many curves are being computed: ask again in a minute",
                               {"Retry-After": "30"}, code="curves_busy", args={"seconds": 30})
            running = self._begin(live)
        _task, positions, points = running
        return self._message(live.id, "pending", points, len(positions))

    def _begin(self, live: LiveGame) -> tuple[asyncio.Task[None], list[int], list[JsonDict]]:
        record = views.public_record(live)  # refuses a running game
        positions = curve_positions(len(live.actions), self.limits.curve_max_points)
        points: list[JsonDict] = []
        task = asyncio.create_task(self._compute(live.id, live.game_name, record, positions, points),
                                   name=f"curve-{live.id}")
        self._running[live.id] = (task, positions, points)
        return self._running[live.id]

    async def _compute(self, game_id: str, game_name: str, record: JsonDict, positions: list[int],
                       points: list[JsonDict]) -> None:
        limits = self.limits
        seed = derived_seed(0, "curve", game_id)
        try:
            async with self._one_at_a_time:
                for start in range(0, len(positions), max(1, limits.curve_chunk)):
                    chunk = positions[start : start + max(1, limits.curve_chunk)]
                    points.extend(await self.pool.run(curve_part, game_name, record, chunk,
                                                      limits.curve_move_iterations,
                                                      limits.curve_move_seconds, seed,
                                                      game=game_id, address=CURVES))
            metrics.CURVES.inc()
            self._keep(game_id, self._message(game_id, "ready", points, len(positions)))
        except RuntimeError:
            return  # the pool is stopped: the server is closing
        except Exception:
            log.exception("game %s: its win-probability curve cannot be computed", game_id)
            self._keep(game_id, self._message(game_id, "failed", [], len(positions)))
        finally:
            self._running.pop(game_id, None)

    def _keep(self, game_id: str, message: JsonDict) -> None:
        self._ready[game_id] = message
        while len(self._ready) > self.limits.curves_cached:
            self._ready.popitem(last=False)

    def _message(self, game_id: str, status: str, points: list[JsonDict], total: int) -> JsonDict:
        return {
            "type": "win_probability",
            "game_id": game_id,
            "status": status,
            "done": len(points),
            "total": total,
            "points": list(points) if status == "ready" else [],
            "budget": {"iterations": self.limits.curve_move_iterations,
                       "seconds": self.limits.curve_move_seconds},
        }

    async def stop(self) -> None:
        await cancel_and_wait([task for task, _positions, _points in self._running.values()])

