"""The FastAPI application: REST API, WebSocket pushes, and the static page.

`run()` serves it on uvicorn; `create_app()` builds it (tests pass their own database URL and bot
pacing). The API is described in docs/api.md and, as OpenAPI, at /docs.
"""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import math
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Container, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import Body, FastAPI, Header, Query, Request, Response, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import JsonValue, ValidationError
from sqlalchemy.engine import make_url
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.websockets import WebSocketDisconnect, WebSocketState

from eixample.server import admin, bots, drain, logs, metrics, profiles, ratings, views
from eixample.server.accounts import Accounts, CsrfGuard
from eixample.server.accounts import router as accounts_router
from eixample.server.cluster import DEFAULT_LEASE_SECONDS, Cluster
from eixample.server.coach import Curves, Hints
from eixample.server.connections import guarded_http
from eixample.server.db import DatabaseInUseError, Store
from eixample.server.db import database_url as resolve_database_url
from eixample.server.errors import STATUS_CODES, ApiError, forbidden, quoted, too_many, unauthorized
from eixample.server.guard import Guard, host_names
from eixample.server.limits import RateKind, RateLimits, ServerLimits
from eixample.server.live import Connection, LiveGame, encode
from eixample.server.mail import Mailer
from eixample.server.manager import WEB_DIR, GameManager
from eixample.server.migrations import SchemaTooNewError
from eixample.server.notice_routes import attach as attach_notices
from eixample.server.pages import serve_pages
from eixample.server.passkeys import router as passkeys_router
from eixample.server.schemas import (
    CLIENT_MESSAGE,
    HELLO,
    CatalogOut,
    ChatLineOut,
    ChatRequest,
    ClaimedOut,
    CreatedOut,
    CreateGame,
    ErrorOut,
    GameListOut,
    GameSummaryOut,
    HintOut,
    HintRequest,
    MoveRequest,
    RematchOut,
    ReplayOut,
    StateOut,
    TableOut,
    UndoRequest,
    WinCurveOut,
    WsChat,
    WsMove,
    WsPing,
    WsResync,
    WsSeatChange,
    WsUndo,
)
from eixample.server.seats import RATING_HELP, SPEED, SPEED_HELP, Seats
from eixample.server.seats import router as seats_router
from eixample.server.settings import Settings, SettingsError
from eixample.server.settings import load as load_settings
from eixample.server.table import TableService
from eixample.server.turns import TurnWatch

log = logging.getLogger(__name__)

HELLO_TIMEOUT = 15.0
GC_THRESHOLDS = (20_000, 20, 10)
"""The served process's cyclic garbage collection: views and messages are many short-lived dicts
and lists freed by reference counting, so collecting every 700 allocations (CPython's default)
cost the server about a sixth of its CPU under load (benchmarks/server_load.py)."""
WS_FRAME_CEILING = 1024 * 1024
"""uvicorn's own ceiling on a WebSocket message; below it the app answers an oversized message
with a JSON error (ServerLimits.max_ws_message_bytes), above it the protocol closes with 1009."""

SeatToken = Annotated[
    str | None,
    Header(alias="X-Seat-Token", max_length=200, description="the seat's secret token; omit to watch"),
]
CreatorToken = Annotated[
    str | None,
    Header(alias="X-Creator-Token", max_length=200, description="the creator's token from the creation"),
]

ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorOut, "description": text}
    for code, text in (
        (400, "a host name this server does not answer for"),
        (401, "a seat token is needed"),
        (403, "the token is not for this game, or the seat is a bot's"),
        (404, "no such game"),
        (409, "not your turn, a stale move number, the game is over, or nothing to undo"),
        (413, "the request body is too large"),
        (422, "invalid request or illegal action"),
        (429, "too many requests from this address: see Retry-After"),
        (503, "this game cannot be loaded"),
    )
}

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)


def _error(
    status: int, message: str, code: str | None = None, args: dict[str, Any] | None = None
) -> JSONResponse:
    body = {"error": message, "code": code or STATUS_CODES.get(status, "error"), "args": args or {}}
    return JSONResponse(body, status_code=status)


def _ws_error(
    status: int, message: str, code: str | None = None, args: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A WebSocket error message: the fields of an HTTP error body, with its status."""
    code = code or STATUS_CODES.get(status, "error")
    return {"type": "error", "status": status, "error": message, "code": code, "args": args or {}}


def _validation_message(errors: list[Any]) -> str:
    parts = []
    for error in errors[:5]:
        where = quoted(_field(error))
        message = quoted(str(error.get("msg", "invalid")), 120)
        parts.append(f"{where}: {message}" if where else message)
    return "invalid request: " + "; ".join(parts)


def _field(error: Any) -> str:
    where = error.get("loc", ())
    return ".".join(str(part) for part in where if part not in ("body", "query", "header", "path"))


def _validation_problems(errors: list[Any]) -> list[dict[str, Any]]:
    """The `args.problems` of an "invalid_request" error: per problem its field, pydantic's error
    type as `rule`, and the rule's plain limits (ge, le, max_length...)."""
    problems = []
    for error in errors[:5]:
        problem: dict[str, Any] = {"field": quoted(_field(error)), "rule": str(error.get("type", "invalid"))}
        for name, value in (error.get("ctx") or {}).items():
            if isinstance(value, int | float | str) and not isinstance(value, bool):
                problem[name] = quoted(value) if isinstance(value, str) else value
        problems.append(problem)
    return problems


def _state_response(message: dict[str, Any]) -> Response:
    """A state message as the answer, encoded once with orjson (its shape is StateOut's, built by
    views.seat_message, so it skips FastAPI's second validation of a large view)."""
    return Response(encode(message), media_type="application/json")


def _address(connection: Request | WebSocket) -> str:
    return connection.client.host if connection.client is not None else "unknown"


def create_app(
    database_url: str | None = None,
    *,
    data_dir: str | Path = "data",
    bot_delay: float = 0.5,
    limits: ServerLimits | None = None,
    allowed_hosts: frozenset[str] | None = None,
    exclusive: bool = True,
    bot_lease_seconds: float = DEFAULT_LEASE_SECONDS,
    mailer: Mailer | None = None,
    settings: Any | None = None,
) -> FastAPI:
    """The application. `database_url` (or $DATABASE_URL) picks the database; default: SQLite
    in `data_dir`, locked for this process while it runs (`exclusive`). `bot_delay` is the pause
    in seconds before each bot decision, so that people can follow bot moves. `limits` bound what
    clients may ask; `allowed_hosts` are the host names the server answers for (default: the
    local ones, see `guard.host_names`). On PostgreSQL the server works with any other servers
    on the same database (`cluster.Cluster`); a game's bots move to another server when theirs
    has not renewed its lease for `bot_lease_seconds`. `mailer` sends the accounts' mail
    (default: configured by the environment, see server/mail.py)."""
    limits = limits or ServerLimits()
    url = resolve_database_url(data_dir, database_url)
    settings = settings if settings is not None else Settings()
    store = Store(url, exclusive=exclusive)
    metrics.instrument(store.engine)
    cluster = Cluster(store, lease_seconds=bot_lease_seconds) if store.is_postgres else None
    manager = GameManager(store, bot_delay=bot_delay, limits=limits, cluster=cluster)
    store.on_finish.append(ratings.rate_finished)
    table = TableService(manager, store)
    manager.table = table
    rates = RateLimits(limits)
    hints = Hints(manager.bot_pool, limits)
    curves = Curves(manager.bot_pool, limits)
    turn_watch = TurnWatch(manager, store, limits)
    accounts = Accounts(store, limits, mailer)
    seat_owners = Seats(manager, store, limits, rates)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await manager.startup()
        turn_watch.start()
        notice_service.notices.start()
        try:
            yield
        finally:
            await notice_service.notices.stop()
            await turn_watch.stop()
            hints.stop()
            await curves.stop()
            await manager.shutdown()
            store.close()

    app = FastAPI(
        title="Eixample",
        summary="Play Barcelona (and other games on the platform) in the browser.",
        version="1",
        lifespan=lifespan,
    )
    app.state.manager = manager
    app.state.store = store
    app.state.accounts = accounts
    app.state.seats = seat_owners
    app.add_middleware(CsrfGuard, accounts=accounts)  # inside the Guard: hosts and sizes come first
    app.add_middleware(
        Guard,
        allowed_hosts=allowed_hosts if allowed_hosts is not None else host_names("127.0.0.1"),
        max_body_bytes=limits.max_body_bytes,
        csp=CSP,
    )
    app.state.moderation = moderation = admin.Moderation(store, accounts.store)
    app.add_middleware(admin.Blocks, moderation=moderation)
    app.add_middleware(logs.RequestLog)
    app.state.drain = draining = drain.Drain(manager)

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, error: ApiError) -> JSONResponse:
        response = _error(error.status, error.message, error.code, error.params)
        response.headers.update(error.headers)
        return response

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
        errors = list(error.errors())
        problems = {"problems": _validation_problems(errors)}
        return _error(422, _validation_message(errors), "invalid_request", problems)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, error: StarletteHTTPException) -> JSONResponse:
        if error.status_code == 404:
            return _error(404, f"not found: {quoted(request.url.path, 80)}")
        if error.status_code == 405:
            return _error(405, f"method {request.method} not allowed on {quoted(request.url.path, 80)}")
        return _error(error.status_code, str(error.detail))

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
        return _error(500, "internal server error")



    # -- REST ---------------------------------------------------------------------------------

    @app.get("/api/health", tags=["meta"])
    async def health() -> dict[str, bool]:
        return {"ok": True}

    @app.get("/api/catalog", response_model=CatalogOut, tags=["lobby"])
    async def catalog() -> dict[str, Any]:
        """The games that can be created, their player counts and options, and bot specs."""
        return manager.catalog()

    @app.get("/api/games", response_model=GameListOut, tags=["lobby"])
    async def list_games(
        status: Annotated[Literal["open", "running", "finished"] | None, Query()] = None,
        game: Annotated[str | None, Query(max_length=64, description="only games of this name")] = None,
        players: Annotated[int | None, Query(ge=1, le=8, description="only games of so many seats")] = None,
        speed: Annotated[str | None, Query(pattern=SPEED, description=SPEED_HELP)] = None,
        min_rating: Annotated[int | None, Query(ge=0, le=10_000, description=RATING_HELP)] = None,
        max_rating: Annotated[int | None, Query(ge=0, le=10_000, description=RATING_HELP)] = None,
    ) -> dict[str, Any]:
        """Games, most recently changed first: open (a person's seat not yet taken), running, finished;
        with filters, only those that match them."""
        ratings = (min_rating, max_rating)
        if game is None and players is None and speed is None and ratings == (None, None):
            return {"games": await manager.list_games(status)}
        games = await seat_owners.filtered_games(status, game, players, speed, limits.lobby_size, ratings)
        return {"games": games}

    @app.post("/api/games", status_code=201, response_model=CreatedOut, responses=ERRORS, tags=["lobby"])
    async def create_game(body: CreateGame, request: Request) -> dict[str, Any]:
        """Create a game. The answer holds each person's secret seat token and invitation link
        (shown only here), the creator's token, and the spectator link."""
        address = _address(request)
        rates.hit("create", address)
        _check_search_bots(body, address)
        owners = await seat_owners.owners_for(body, request, address)
        live, tokens, creator_token = await manager.create(body, owners)
        live.address = address
        base = str(request.base_url).rstrip("/")
        seats = []
        for public, token in zip(views.seats_public(live.seats, game=live.game_name), tokens, strict=True):
            link = f"{base}/play/{live.id}#seat={public['seat']}&token={token}" if token else None
            seats.append({**public, "token": token, "link": link})
        return {
            "game_id": live.id,
            "game": live.game_name,
            "seats": seats,
            "spectator_link": f"{base}/play/{live.id}",
            "creator_token": creator_token,
            "state": views.seat_message(live, None),
        }

    @app.get("/api/games/{game_id}", response_model=GameSummaryOut, responses=ERRORS, tags=["lobby"])
    async def game_info(game_id: str) -> dict[str, Any]:
        """The game's line of the lobby list."""
        live = await manager.get(game_id)
        data = await asyncio.to_thread(store.load_game, live.id)
        assert data is not None
        return views.game_summary(data, live.game, live.resigned)

    @app.get("/api/games/{game_id}/state", response_model=StateOut, responses=ERRORS, tags=["play"])
    async def game_state(request: Request, game_id: str, token: SeatToken = None) -> Response:
        """The game as the token's seat sees it (without a token: as a spectator)."""
        live = await manager.get(game_id)
        await _refresh_seats(_address(request), live, token)
        seat = _authenticate(_address(request), live, token)
        if token is None:
            seat = await seat_owners.account_seat(request, live)
        if seat is not None:
            await manager.join(live, seat)
        return _state_response(views.seat_message(live, seat))

    @app.post("/api/games/{game_id}/moves", response_model=StateOut, responses=ERRORS, tags=["play"])
    async def play_move(
        request: Request, game_id: str, body: MoveRequest, token: SeatToken = None
    ) -> Response:
        """Take one legal action for the token's seat. `expected_move` must be the current
        move_number: of two requests for the same decision exactly one is applied."""
        live, seat = await _seat_for(request, game_id, token, "move")
        await manager.move(live, seat, body.action, body.expected_move)
        return _state_response(views.seat_message(live, seat))

    @app.post("/api/games/{game_id}/undo", response_model=StateOut, responses=ERRORS, tags=["play"])
    async def undo_move(
        request: Request, game_id: str, body: UndoRequest, token: SeatToken = None
    ) -> Response:
        """Take back the seat's own last decision, within its turn (never past a random draw or
        another player's decision)."""
        live, seat = await _seat_for(request, game_id, token, "move")
        await manager.undo(live, seat, body.expected_move)
        return _state_response(views.seat_message(live, seat))

    @app.get("/api/games/{game_id}/record", responses=ERRORS, tags=["replay"])
    async def game_record(game_id: str) -> dict[str, Any]:
        """The game record (options, seed, seats, actions, result), once the game is over."""
        live = await manager.get(game_id)
        return manager.record(live)

    @app.get("/api/games/{game_id}/replay", response_model=ReplayOut, responses=ERRORS, tags=["replay"])
    async def game_replay(
        game_id: str, step: Annotated[int | None, Query(ge=0, le=1_000_000)] = None
    ) -> dict[str, Any]:
        """A finished game as a spectator saw it after `step` actions (default: the end)."""
        live = await manager.get(game_id)
        return await manager.replay(live, step)

    @app.post("/api/replay", response_model=ReplayOut, responses=ERRORS, tags=["replay"])
    async def replay_record_file(
        request: Request,
        record: Annotated[dict[str, JsonValue], Body(description="a record, as GET /api/games/{id}/record")],
        step: Annotated[int | None, Query(ge=0, le=1_000_000)] = None,
    ) -> dict[str, Any]:
        """A record a client sends (a file opened in the replay page) at `step` (default: the end),
        as a spectator sees it: checked and replayed like any record, never stored. 422 names
        what is wrong with it; each request counts as a move against the address's limit."""
        rates.hit("move", _address(request))
        return await manager.replay_file(record, step)

    @app.post("/api/games/{game_id}/claim", response_model=ClaimedOut, responses=ERRORS, tags=["play"])
    async def claim_seat(request: Request, game_id: str, token: SeatToken = None) -> dict[str, Any]:
        """Trade a seat's invitation token (X-Seat-Token) for a private seat token. From then on
        only the private token acts for the seat; the invitation is refused with 403."""
        address = _address(request)
        live = await manager.get(game_id)
        if token is None:
            raise unauthorized("claiming a seat needs its invitation token in the X-Seat-Token header",
                               "needs_seat_token")
        with token_tries(address, refused=(403,)):
            seat, private = await manager.claim(live, token)
        await seat_owners.give_to_signed_in(request, live, seat)
        return {"seat": seat, "token": private}

    @app.post(
        "/api/games/{game_id}/seats/{seat}/join", response_model=ClaimedOut, responses=ERRORS, tags=["play"]
    )
    async def join_open_seat(request: Request, game_id: str, seat: int) -> dict[str, Any]:
        """Take a seat its creator opened to anyone, while nobody has claimed it: the answer is the
        seat's private token, as a claimed invitation gives. A seat not opened is refused with 403,
        one already claimed with 409."""
        address = _address(request)
        live = await manager.get(game_id)
        with token_tries(address, refused=(403, 409)):
            number, private = await manager.join_open(live, seat)
        await seat_owners.give_to_signed_in(request, live, number)
        return {"seat": number, "token": private}

    @app.post("/api/games/{game_id}/seats/{seat}/release", responses=ERRORS, tags=["play"])
    async def release_seat(
        request: Request, game_id: str, seat: int, creator: CreatorToken = None
    ) -> dict[str, Any]:
        """The game's creator (X-Creator-Token) forgets a seat's claim, for a player who lost the
        browser that claimed it: the invitation link acts for the seat again."""
        address = _address(request)
        live = await manager.get(game_id)
        if creator is None:
            raise unauthorized("releasing a seat needs the creator's token in the X-Creator-Token header",
                               "needs_creator_token")
        rates.check("token", address)
        if not manager.is_creator(live, creator):
            rates.hit("token", address)
            raise forbidden("this is not the creator's token of this game", "not_creator")
        await manager.release(live, seat)
        return {"seat": seat, "claimed": False}

    # -- the coach (server/coach.py) ----------------------------------------------------------

    @app.post("/api/games/{game_id}/hint", response_model=HintOut, responses=ERRORS, tags=["coach"])
    async def hint(
        request: Request, game_id: str, body: HintRequest, token: SeatToken = None
    ) -> dict[str, Any]:
        """The bot's top three choices for the token's seat's current decision, with their
        estimated win probability, searched from that seat's view only (about a second, in the
        bot workers). Only in games created with `hints_allowed` (403 otherwise); 409 when it is
        not the seat's decision; 429 when the seat or the address has asked for too many."""
        live, seat = await _table_seat(request, game_id, token)
        return await hints.hint(live, seat, body.expected_move, _address(request))

    @app.get(
        "/api/games/{game_id}/win-probability", response_model=WinCurveOut, responses=ERRORS, tags=["coach"]
    )
    async def win_probability(game_id: str) -> dict[str, Any]:
        """Each seat's estimated win probability at every position of a finished game (409 while
        it runs). Computed in the background on the first request: "pending" until ready, so ask
        again after a while."""
        live = await manager.get(game_id)
        return curves.curve(live)

    # -- around the table (server/table.py) --------------------------------------------------

    @app.get("/api/games/{game_id}/table", response_model=TableOut, responses=ERRORS, tags=["table"])
    async def game_table(game_id: str) -> dict[str, Any]:
        """The table, public like the game: turn clock, seats played by a stand-in bot, the
        rematch, and the last chat lines."""
        live = await manager.get(game_id)
        return table.message(live)

    @app.post(
        "/api/games/{game_id}/chat",
        status_code=201,
        response_model=ChatLineOut,
        responses=ERRORS,
        tags=["table"],
    )
    async def chat(
        request: Request, game_id: str, body: ChatRequest, token: SeatToken = None
    ) -> dict[str, Any]:
        """Say something at the table (seats only; spectators read). At most 500 characters,
        `chat_per_minute` messages per seat."""
        live, seat = await _table_seat(request, game_id, token)
        return await table.say(live, seat, body.text, _address(request))

    SeatChange = Callable[[LiveGame, int], Awaitable[None]]

    def seat_change(change: SeatChange) -> Callable[..., Awaitable[dict[str, Any]]]:
        """An endpoint by which a seat changes who plays it; it answers with the table."""

        async def endpoint(request: Request, game_id: str, token: SeatToken = None) -> dict[str, Any]:
            live, seat = await _table_seat(request, game_id, token)
            await change(live, seat)
            return table.message(live)

        return endpoint

    for path, change, description in (
        ("resign", table.resign, "Resign: a bot plays the seat to the end of the game."),
        ("leave", table.leave, "Leave the table for a while: a bot plays the seat until it is taken back."),
        ("take-back", table.take_back,
         "Take back a seat a bot played (after leaving or running out of time)."),
    ):
        app.post(f"/api/games/{{game_id}}/{path}", response_model=TableOut, responses=ERRORS, tags=["table"],
                 name=path.replace("-", "_"), description=description)(seat_change(change))

    @app.post("/api/games/{game_id}/rematch", response_model=RematchOut, responses=ERRORS, tags=["table"])
    async def rematch(request: Request, game_id: str, token: SeatToken = None) -> dict[str, Any]:
        """The rematch of a finished game: same seats, new seed. The first request creates it;
        each seat then gets its own private token there, already claimed."""
        live, seat = await _table_seat(request, game_id, token)
        if table.table(live).rematch is None:
            rates.hit("create", _address(request))
        new_id, new_token = await table.rematch(live, seat)
        return {"game_id": new_id, "seat": seat, "token": new_token, "link": f"/play/{new_id}"}

    def _check_search_bots(body: CreateGame, address: str) -> None:
        """429 if the game's searching bots would pass the address's share (`search_bots_per_address`)."""
        try:
            specs = [bots.spec_of(seat.bot or "random", body.game)
                     for seat in body.seats if seat.kind == "bot"]
        except KeyError:
            return  # no such game: the manager says so
        wanted = sum(1 for spec in specs if not bots.is_quick(spec))
        if wanted == 0:
            return
        held = sum(
            1
            for live in manager.games.values()
            if live.address == address and not live.finished
            for seat in live.seats
            if seat.kind == "bot" and not bots.is_quick(seat.bot or "random")
        )
        if held + wanted > limits.search_bots_per_address:
            raise too_many(
                f"too many searching bots from your address: {held} play in your unfinished games and "
                f"at most {limits.search_bots_per_address} may (random and greedy bots do not count)",
                60, "too_many_bots", most=limits.search_bots_per_address,
            )

    async def _table_seat(request: Request, game_id: str, token: str | None) -> tuple[LiveGame, int]:
        address = _address(request)
        live = await manager.get(game_id)
        seat = await _account_seat(request, live) if token is None else _authenticate(address, live, token)
        assert seat is not None
        return live, seat

    async def _account_seat(request: Request, live: LiveGame) -> int:
        """Without a seat token: the seat of the signed-in account (server/seats.py)."""
        seat = await seat_owners.account_seat(request, live)
        if seat is None:
            raise unauthorized("this request needs the seat's token in the X-Seat-Token header, "
                               "or the session of the account the seat belongs to", "needs_seat_token")
        return seat

    @contextmanager
    def token_tries(address: str, refused: Container[int] | None = None) -> Iterator[None]:
        """Refuse an address out of token tries (429); count a refusal of the guarded token (with
        one of the statuses `refused`; any, when not given) as one of its tries."""
        rates.check("token", address)
        try:
            yield
        except ApiError as error:
            if refused is None or error.status in refused:
                rates.hit("token", address)
            raise

    def _authenticate(address: str, live: LiveGame, token: str | None) -> int | None:
        """The token's seat; wrong tokens count against the address (429 once too many)."""
        if token is None:
            return None
        with token_tries(address):
            return manager.authenticate(live, token)

    async def _refresh_seats(address: str, live: LiveGame, token: str | None) -> None:
        """With other servers on the database, a token given out by one of them a moment ago is
        looked up there (an address out of token tries is refused first, at no database cost)."""
        if token is not None and manager.cluster is not None:
            rates.check("token", address)
            await manager.refresh_seats(live, token)

    async def _seat_for(
        request: Request, game_id: str, token: str | None, kind: RateKind
    ) -> tuple[LiveGame, int]:
        address = _address(request)
        rates.hit(kind, address)
        live = await manager.get(game_id)
        if token is None:
            return live, await _account_seat(request, live)
        await _refresh_seats(address, live, token)
        seat = _authenticate(address, live, token)
        assert seat is not None
        return live, seat

    # -- WebSocket ----------------------------------------------------------------------------

    @app.websocket("/ws/games/{game_id}")
    async def game_socket(websocket: WebSocket, game_id: str) -> None:
        address = _address(websocket)
        await websocket.accept()
        try:
            manager.admit(address)
        except ApiError as error:
            await _refuse(websocket, error.status, error.message, error=error)
            return
        try:
            await _serve_socket(websocket, game_id, address)
        finally:
            manager.dismiss(address)

    async def _serve_socket(websocket: WebSocket, game_id: str, address: str) -> None:
        try:
            raw = await asyncio.wait_for(_receive(websocket), timeout=HELLO_TIMEOUT)
            if raw is None:
                return
            if len(raw) > limits.max_ws_message_bytes:
                await _refuse(websocket, 413, _too_long(), code=1009)
                return
            hello = HELLO.validate_json(raw)
            live = await manager.get(game_id)
            await _refresh_seats(address, live, hello.token)
            seat = _authenticate(address, live, hello.token)
            if hello.token is None:
                seat = await seat_owners.account_seat(websocket, live)
            conn = await manager.connect(live, websocket, seat, address, patches=hello.patches)
            notice_service.heard(live, seat, websocket)
            greeting = table.greeting(live)
            if greeting is not None:
                conn.send(greeting)
        except TimeoutError:
            await _refuse(websocket, 408, 'no hello message: send {"type": "hello", "token": ...} first')
            return
        except ValidationError as error:
            await _refuse(websocket, 422, _validation_message(list(error.errors())))
            return
        except ApiError as error:
            await _refuse(websocket, error.status, error.message, error=error)
            return
        except WebSocketDisconnect:
            return

        writer = asyncio.create_task(conn.writer())
        try:
            while not conn.closed:
                raw = await _receive(websocket)
                if raw is None or conn.closed:
                    break
                if len(raw) > limits.max_ws_message_bytes:
                    conn.send(_ws_error(413, _too_long()))
                    conn.end(1009, "message too big")
                    break
                with draining.handling(conn):
                    await _handle(live, conn, raw)
        except WebSocketDisconnect:
            pass
        finally:
            await manager.disconnect(live, conn)
            try:
                await asyncio.wait_for(writer, timeout=5)
            except (TimeoutError, asyncio.CancelledError):
                writer.cancel()

    def _too_long() -> str:
        return f"a message may hold at most {limits.max_ws_message_bytes} bytes"

    async def _handle(live: LiveGame, conn: Connection, raw: str) -> None:
        try:
            message = CLIENT_MESSAGE.validate_json(raw)
        except ValidationError as error:
            errors = list(error.errors())
            conn.send({
                "type": "error", "status": 422, "error": _validation_message(errors),
                "code": "invalid_request", "args": {"problems": _validation_problems(errors)},
            })
            return
        if isinstance(message, WsPing):
            conn.send({"type": "pong", "request_id": message.request_id})
            return
        if isinstance(message, WsResync):  # the whole state, in order with the pushed patches
            conn.send(views.seat_message(live, conn.seat))
            return
        if not isinstance(message, WsMove | WsUndo | WsChat | WsSeatChange):
            conn.send(_ws_error(422, "already said hello"))
            return
        try:
            if conn.seat is None:
                raise unauthorized("spectators cannot act: open the game with a seat's invitation link",
                                   "spectator")
            if isinstance(message, WsChat):
                await table.say(live, conn.seat, message.text, conn.address)
            elif isinstance(message, WsSeatChange):
                change = {"resign": table.resign, "leave": table.leave, "take_back": table.take_back}
                await change[message.type](live, conn.seat)
            elif isinstance(message, WsMove):
                rates.hit("move", conn.address)
                await manager.move(live, conn.seat, message.action, message.expected_move)
            else:
                rates.hit("move", conn.address)
                await manager.undo(live, conn.seat, message.expected_move)
        except ApiError as error:
            reply = {
                "type": "error", "status": error.status, "error": error.message,
                "code": error.code, "args": error.params,
            }
            conn.send({**reply, "request_id": message.request_id})
            return
        conn.send({"type": "ack", "request_id": message.request_id, "move_number": live.move_number})

    # The features' own routes come after the game routes: FastAPI tries routes in order, so a
    # move or a state read matches without first trying every feature's router.
    app.include_router(profiles.router(store))
    app.include_router(accounts_router)
    app.include_router(passkeys_router)
    app.include_router(seats_router)
    app.include_router(admin.router(manager, moderation))
    notice_service = attach_notices(app, manager, store, limits, data_dir, accounts.mailer,
                                    public_url=settings.public_url, push_contact=settings.push_contact)
    app.include_router(drain.router(store, draining))
    token = settings.metrics_token.get_secret_value() if settings.metrics_token is not None else None
    app.include_router(metrics.router(manager, settings.metrics_from, token))

    # -- pages --------------------------------------------------------------------------------

    serve_pages(app, {
        "/": "lobby",
        "/play/{game_id}": "game",
        "/replay": "replay",
        "/replay/{game_id}": "replay",
        "/static/rules.html": "rules",
    })

    # the rules pages' text: docs/rules/<game>.<lang>.md of the source tree (web/rules.html shows it)
    rules_dir = Path(__file__).resolve().parents[3] / "docs" / "rules"
    app.mount("/rules", StaticFiles(directory=rules_dir, check_dir=False), name="rules")
    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")
    return app


async def _receive(websocket: WebSocket) -> str | None:
    """The next text message; None when the client has gone."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return None
        text = message.get("text")
        if text is not None:
            return str(text)
        data = message.get("bytes")
        if data is not None:
            return data.decode("utf-8", errors="replace")


async def _refuse(
    websocket: WebSocket, status: int, message: str, code: int | None = None, error: ApiError | None = None
) -> None:
    if websocket.application_state == WebSocketState.CONNECTED:
        try:
            sent = _ws_error(status, message, *((error.code, error.params) if error else ()))
            await websocket.send_text(json.dumps(sent))
            close_code = code if code is not None else 4000 + status if status < 1000 else 1008
            await websocket.close(code=close_code, reason=message[:100])
        except Exception:
            log.debug("client left before the refusal was sent")


def _describe(url: str) -> str:
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        return f"SQLite {parsed.database}"
    return parsed.render_as_string(hide_password=True)


def run(
    host: str = "127.0.0.1",
    port: int = 8000,
    data_dir: str | Path = "data",
    *,
    database_url: str | None = None,
    bot_delay: float = 0.5,
    log_level: str = "info",
    allowed_hosts: list[str] | tuple[str, ...] = (),
    limits: dict[str, Any] | None = None,
    bot_lease_seconds: float = DEFAULT_LEASE_SECONDS,
    settings: Any | None = None,
    config: str | Path | None = None,
) -> None:
    """Serve the web app on http://host:port/ until interrupted (SIGTERM drains: server/drain.py).
    `settings` (server/settings.py) says everything; without them, the arguments (and `limits`,
    fields of ServerLimits, and `settings` as a dict) are taken as flags over the EIXAMPLE_*
    environment and the `config` file. Data live in
    `data_dir` (SQLite) unless `database_url` or $DATABASE_URL names another database."""
    import uvicorn

    if not isinstance(settings, Settings):
        flags = {
            "host": host, "port": port, "data_dir": str(data_dir), "database_url": database_url,
            "bot_delay": bot_delay, "log_level": log_level, "allowed_hosts": list(allowed_hosts),
            "bot_lease_seconds": bot_lease_seconds, **(limits or {}), **(settings or {}),
        }
        try:
            settings = load_settings(config, flags)
        except SettingsError as error:
            print(f"Eixample cannot start: {error}", file=sys.stderr, flush=True)
            raise SystemExit(2) from None
    logs.configure(settings.log_level, settings.log_format)
    secret = settings.database_url.get_secret_value() if settings.database_url is not None else None
    url = resolve_database_url(settings.data_dir, secret)
    server_limits = settings.limits()
    try:
        app = create_app(
            database_url=url,
            data_dir=settings.data_dir,
            bot_delay=settings.bot_delay,
            limits=server_limits,
            allowed_hosts=host_names(settings.host, settings.allowed_hosts),
            bot_lease_seconds=settings.bot_lease_seconds,
            mailer=Mailer(settings.mail()),
            settings=settings,
        )
    except (DatabaseInUseError, SchemaTooNewError) as error:
        print(f"Eixample cannot start: {error}", file=sys.stderr, flush=True)
        raise SystemExit(2) from None
    gc.set_threshold(*GC_THRESHOLDS)
    host, port = settings.host, settings.port
    shown = f"[{host}]" if ":" in host else host
    print(f"Eixample serving on http://{shown}:{port}/  (database: {_describe(url)})", flush=True)
    if app.state.store.is_postgres:  # names this process in the bot_leases table
        print(f"Eixample server id {app.state.store.origin} (PostgreSQL: shares games with other servers)",
              flush=True)
    proxies = list(settings.trusted_proxies)
    served = uvicorn.Config(
        app,
        host=host,
        port=port,
        http=guarded_http(server_limits, proxies),
        log_level=settings.log_level,
        log_config=None,
        access_log=False,
        proxy_headers=bool(proxies),
        forwarded_allow_ips=proxies or None,
        ws_max_size=WS_FRAME_CEILING,
        timeout_graceful_shutdown=math.ceil(settings.drain_seconds),
    )
    drain.DrainingServer(served, app.state.drain, settings.drain_seconds).run()
