"""Prometheus metrics at `/metrics` (docs/deploy.md, Metrics).

Counters and histograms live in prometheus-client's process-wide registry (the code that counts
imports them from here); what is read off the server's state when scraped (games in memory,
WebSocket connections, bot queue) comes from a collector of the app. Each process serves its own
numbers: with several processes, scrape each one (on its own port), not through the proxy.
"""

from __future__ import annotations

import hmac
import ipaddress
import time
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request, Response
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector
from sqlalchemy import event
from sqlalchemy.engine import Engine

from eixample.server.errors import ApiError

if TYPE_CHECKING:
    from eixample.server.manager import GameManager

LATENCY = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
SEARCH = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0)

MOVES = Counter("eixample_moves", "Moves stored (people's and bots'), by game.", ["game"])
MOVE_SECONDS = Histogram(
    "eixample_move_seconds",
    "Time from a move's arrival at its game to its being stored and pushed, by game.",
    ["game"], buckets=LATENCY,
)
BOT_SECONDS = Histogram(
    "eixample_bot_decision_seconds",
    "Time of a bot decision in the workers (waiting for a worker included), by kind: "
    "search or quick.", ["kind"], buckets=SEARCH,
)
HINTS = Counter("eixample_hints_computed", "Hints computed (answers from the cache not counted).")
CURVES = Counter("eixample_curves_computed", "Win-probability curves computed.")
REFUSALS = Counter("eixample_refusals", "HTTP answers with an error status, by status code.", ["status"])
DB_SECONDS = Histogram("eixample_db_seconds", "Time of each database statement.", buckets=LATENCY)


def move_stored(game: str, started: float) -> None:
    MOVES.labels(game).inc()
    MOVE_SECONDS.labels(game).observe(time.perf_counter() - started)


def instrument(engine: Engine) -> None:
    """Time every statement the engine runs (eixample_db_seconds)."""

    @event.listens_for(engine, "before_cursor_execute")
    def _before(_conn: Any, _cursor: Any, _statement: Any, _params: Any, context: Any, _many: Any) -> None:
        context._eixample_started = time.perf_counter()

    @event.listens_for(engine, "after_cursor_execute")
    def _after(_conn: Any, _cursor: Any, _statement: Any, _params: Any, context: Any, _many: Any) -> None:
        started = getattr(context, "_eixample_started", None)
        if started is not None:
            DB_SECONDS.observe(time.perf_counter() - started)


class ServerState(Collector):
    """What the server holds when scraped."""

    def __init__(self, manager: GameManager) -> None:
        self.manager = manager

    def collect(self) -> Iterator[GaugeMetricFamily]:
        games = list(self.manager.games.values())
        yield GaugeMetricFamily("eixample_games_in_memory", "Games held in memory.", len(games))
        yield GaugeMetricFamily(
            "eixample_websocket_connections", "Open WebSocket connections to games.",
            sum(len(live.connections) for live in games),
        )
        pool = self.manager.bot_pool
        waiting = GaugeMetricFamily("eixample_bot_queue", "Bot decisions, hints and curve parts waiting "
                                    "for a worker, by kind.", labels=["kind"])
        waiting.add_metric(["search"], pool.waiting_searches)
        waiting.add_metric(["quick"], pool.waiting_quick)
        yield waiting
        yield GaugeMetricFamily("eixample_bot_searching", "Searches running in the workers.", pool.searching)


def _networks(names: Iterable[str]) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    return [ipaddress.ip_network(name, strict=False) for name in names]


def allowed(address: str, networks: Iterable[ipaddress.IPv4Network | ipaddress.IPv6Network]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in networks)


def router(manager: GameManager, allowed_from: Iterable[str], token: str | None) -> APIRouter:
    """`/metrics`: for the addresses in `allowed_from`, or anyone with the bearer `token`."""
    state = CollectorRegistry(auto_describe=True)
    state.register(ServerState(manager))
    networks = _networks(allowed_from)
    routes = APIRouter()

    @routes.get("/metrics", include_in_schema=False)
    async def metrics(request: Request) -> Response:
        address = request.client.host if request.client is not None else ""
        given = request.headers.get("authorization", "")
        by_token = token is not None and hmac.compare_digest(given.encode(), f"Bearer {token}".encode())
        if not by_token and not allowed(address, networks):
            raise ApiError(403, "the metrics are not open to your address")
        body = generate_latest(REGISTRY) + generate_latest(state)
        return Response(body, media_type=CONTENT_TYPE_LATEST)

    return routes
