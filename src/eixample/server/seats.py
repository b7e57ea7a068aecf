"""Seats that follow the player: a signed-in player's seats belong to the account.

- A seat gets its account (`seats.account_id`) when a signed-in player creates a game naming an
  account for it (`{"kind": "person", "account": "name"}`: their own name or a friend's), claims
  an invitation, or joins a seat open to anyone; and when a browser that signed in hands over the
  seat tokens it held as a guest (POST /api/me/seats). An account holds at most one seat of a
  game, and a seat once given keeps its account.
- A request with the account's session cookie and no seat token acts for the account's seat of
  the game (REST, WebSocket, the game page), on any device and on several at once: of two moves
  for one decision the move number's compare-and-set applies exactly one. A seat token, when one
  is sent, is used as before (guests).
- GET /api/me/games lists the account's games: those where it is the account's turn first, then
  the running ones, then the finished ones, each group most recently changed first.
- Naming an account that does not exist answers 422 (`account_unknown`). Such failures are
  counted per client address with the budget of failed sign-ins
  (`ServerLimits.signin_failures_per_address_minute`), so names cannot be probed faster here
  than through the sign-in form; naming accounts needs a signed-in creator.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel, Field
from sqlalchemy import and_, case, exists, func, literal, select, update
from sqlalchemy.orm import aliased, sessionmaker
from starlette.requests import HTTPConnection

from eixample.core.registry import get_game
from eixample.server import views
from eixample.server.accounts import Account, current_account, name_key, require_account
from eixample.server.db import AccountRow, GameData, GameRow, SeatRow, Store, _game_data, _seat_data
from eixample.server.errors import ApiError, bad_request, quoted, too_many
from eixample.server.limits import RateLimits, ServerLimits, TokenBuckets
from eixample.server.live import LiveGame
from eixample.server.manager import GameManager
from eixample.server.ratings import RATINGS, new_skill, shown
from eixample.server.schemas import CreateGame, GameSummaryOut, Strict
from eixample.server.table import TableRow

MAX_HANDED_OVER = 50
"""Seat tokens one request may hand over to the account."""
MY_GAMES_LIMIT = 200
SPEED = r"^(none|clock|[0-9]{1,4})$"
SPEED_HELP = ('"none": games without a turn clock; "clock": games with one; a number: a clock of so '
              "many seconds a decision")
"""The lobby's speed filter: no clock, any clock, or a clock of so many seconds a decision."""
RATING_HELP = ("only games whose table rating (the mean rating of the accounts seated, in the game at its "
               "player count; newcomers count as 1000) is at least min_rating / at most max_rating")

Owners = dict[int, tuple[str, str]]
"""seat -> (account id, account name): the seats of a new game that belong to accounts."""


# -- the database -------------------------------------------------------------------------------


class SeatOwners:
    """Which account each seat belongs to (the `seats.account_id` column), and the games of an
    account; rows in db.py, same engine."""

    def __init__(self, store: Store) -> None:
        self._sessions = sessionmaker(store.engine, expire_on_commit=False)

    def accounts_named(self, keys: list[str]) -> dict[str, tuple[str, str]]:
        """name key -> (id, name) of the live accounts among these name keys."""
        with self._sessions() as session:
            rows = session.execute(
                select(AccountRow.name_key, AccountRow.id, AccountRow.name)
                .where(AccountRow.name_key.in_(keys), AccountRow.deleted_at.is_(None))
            )
            return {key: (account_id, name) for key, account_id, name in rows}

    def give(self, game_id: str, seat: int, account_id: str) -> bool:
        """Give a person's seat that belongs to nobody to an account that holds no seat of the
        game (one statement: two requests racing cannot both win); False if refused."""
        other = aliased(SeatRow)
        held = exists().where(other.game_id == game_id, other.account_id == account_id)
        with self._sessions() as session, session.begin():
            changed = session.execute(
                update(SeatRow)
                .where(SeatRow.game_id == game_id, SeatRow.seat == seat, SeatRow.kind == "person",
                       SeatRow.account_id.is_(None), ~held)
                .values(account_id=account_id)
            ).rowcount  # type: ignore[attr-defined]
            return bool(changed == 1)

    def owners_of(self, game_id: str) -> dict[int, str | None]:
        with self._sessions() as session:
            rows = session.execute(select(SeatRow.seat, SeatRow.account_id).where(SeatRow.game_id == game_id))
            return {seat: account_id for seat, account_id in rows}

    def games_of(self, account_id: str, limit: int) -> list[tuple[GameData, int]]:
        """The account's games and its seat in each: its turn first, then unfinished, then
        finished, each most recently changed first."""
        running = GameRow.status != "finished"
        rank = case((and_(running, GameRow.to_move == SeatRow.seat), 0), (running, 1), else_=2)
        with self._sessions() as session:
            rows = list(session.execute(
                select(GameRow, SeatRow.seat)
                .join(SeatRow, SeatRow.game_id == GameRow.id)
                .where(SeatRow.account_id == account_id)
                .order_by(rank, GameRow.updated_at.desc())
                .limit(limit)
            ))
            return _with_seats(session, [(_game_data(row), seat) for row, seat in rows])

    def filtered_games(
        self, status: str | None, game: str | None, players: int | None, speed: str | None, limit: int,
        ratings: RatingRange = (None, None),
    ) -> list[GameData]:
        """The lobby's games matching its filters, most recently changed first. A rating range keeps
        the games whose table rating (`table_rating`) lies in it."""
        query = select(GameRow).outerjoin(TableRow, TableRow.game_id == GameRow.id)
        if status is not None:
            query = query.where(GameRow.status == status)
        if game is not None:
            query = query.where(GameRow.game == game)
        if players is not None:
            query = query.where(GameRow.players == players)
        if speed == "none":
            query = query.where(TableRow.clock_seconds.is_(None))
        elif speed == "clock":
            query = query.where(TableRow.clock_seconds.is_not(None))
        elif speed is not None:
            query = query.where(TableRow.clock_seconds == int(speed))
        low, high = ratings
        if low is not None or high is not None:
            rating = table_rating()
            query = query.where(rating.is_not(None))
            if low is not None:
                query = query.where(rating >= low)
            if high is not None:
                query = query.where(rating <= high)
        with self._sessions() as session:
            rows = session.scalars(query.order_by(GameRow.updated_at.desc()).limit(limit))
            return [data for data, _ in _with_seats(session, [(_game_data(row), 0) for row in rows])]


NEWCOMER_RATING = shown(*new_skill())
RatingRange = tuple[int | None, int | None]
"""The lobby's rating filter: (lowest, highest), either end open (None)."""


def table_rating() -> Any:
    """A game's table rating, as an SQL expression: the mean shown rating of the accounts seated
    at it, in its game at its player count (a player not rated there yet counts as a newcomer);
    NULL for a game where no account has a seat."""
    key = literal("account:") + SeatRow.account_id
    rated = and_(
        RATINGS.c.player == key, RATINGS.c.game == GameRow.game, RATINGS.c.players == GameRow.players
    )
    return (
        select(func.avg(func.coalesce(RATINGS.c.shown, NEWCOMER_RATING)))
        .select_from(SeatRow)
        .outerjoin(RATINGS, rated)
        .where(SeatRow.game_id == GameRow.id, SeatRow.account_id.is_not(None))
        .scalar_subquery()
    )


def _with_seats(session: Any, games: list[tuple[GameData, int]]) -> list[tuple[GameData, int]]:
    by_id = {data.id: data for data, _ in games}
    if by_id:
        query = select(SeatRow).where(SeatRow.game_id.in_(list(by_id))).order_by(SeatRow.seat)
        for row in session.scalars(query):
            by_id[row.game_id].seats.append(_seat_data(row))
    return games


# -- the service ----------------------------------------------------------------------------------


class Seats:
    """The accounts' seats; one per application (`app.state.seats`)."""

    def __init__(self, manager: GameManager, store: Store, limits: ServerLimits, rates: RateLimits) -> None:
        self.manager = manager
        self.owners = SeatOwners(store)
        self.rates = rates
        self._unknown_names = TokenBuckets(limits.signin_failures_per_address_minute)

    async def account_seat(self, connection: HTTPConnection, live: LiveGame) -> int | None:
        """The seat of the game that belongs to the signed-in account (None: a guest, or an
        account with no seat here). With other servers on the database, a seat given there a
        moment ago is looked up there."""
        account = await current_account(connection)
        if account is None:
            return None
        seat = owned_seat(live, account.id)
        if seat is None and self.manager.cluster is not None:
            for number, account_id in (await asyncio.to_thread(self.owners.owners_of, live.id)).items():
                if 0 <= number < len(live.seats):
                    live.seats[number].account_id = account_id
            seat = owned_seat(live, account.id)
        return seat

    async def give(self, live: LiveGame, seat: int, account: Account) -> bool:
        """Give the seat to the account, if it belongs to nobody and the account holds no other
        seat of the game; True if the seat is the account's now."""
        if live.seats[seat].account_id == account.id:
            return True
        if live.seats[seat].account_id is not None or owned_seat(live, account.id) is not None:
            return False
        async with live.lock:
            given = await asyncio.to_thread(self.owners.give, live.id, seat, account.id)
            if given:
                live.seats[seat].account_id = account.id
        return given

    async def give_to_signed_in(self, connection: HTTPConnection, live: LiveGame, seat: int) -> None:
        """A seat just claimed or joined: the signed-in account's from now on."""
        account = await current_account(connection)
        if account is not None:
            await self.give(live, seat, account)

    async def owners_for(self, body: CreateGame, connection: HTTPConnection, address: str) -> Owners:
        """The seats of a new game that name an account: each with the account's id and name.
        422 (`account_unknown`, counted like a failed sign-in) for a name no account has."""
        named = {index: seat.account for index, seat in enumerate(body.seats) if seat.account is not None}
        if not named:
            return {}
        if await current_account(connection) is None:
            raise ApiError(401, "sign in first: only a signed-in player names accounts for seats",
                           code="not_signed_in")
        keys = {index: name_key(name) for index, name in named.items()}
        if len(set(keys.values())) < len(keys):
            raise bad_request("an account takes one seat of a game", "account_twice")
        if not self._unknown_names.has(address):
            raise too_many("too many unknown user names from your address", self._unknown_names.wait(address))
        found = await asyncio.to_thread(self.owners.accounts_named, sorted(set(keys.values())))
        for index, key in keys.items():
            if key not in found:
                self._unknown_names.take(address)
                name = quoted(named[index])
                raise bad_request(f"no account is named {name}", "account_unknown", name=name)
        return {index: found[key] for index, key in keys.items()}

    async def hand_over(self, account: Account, proofs: list[SeatProof], address: str) -> dict[str, Any]:
        """Give the account the seats these tokens prove (a seat's private token, or the token
        that acts for the only person's seat of a game), when they belong to nobody."""
        given: list[dict[str, Any]] = []
        refused: list[dict[str, Any]] = []
        for proof in proofs:
            self.rates.check("token", address)
            try:
                live = await self.manager.get(proof.game_id)
                seat = self.manager.authenticate(live, proof.token)
            except ApiError as error:
                if error.status == 403:
                    self.rates.hit("token", address)
                refused.append({"game_id": proof.game_id, "reason": "token"})
                continue
            assert seat is not None
            if await self.give(live, seat, account):
                given.append({"game_id": live.id, "seat": seat})
            else:
                refused.append({"game_id": live.id, "reason": "owned"})
        return {"given": given, "refused": refused}

    async def games_of(self, account: Account, limit: int) -> list[dict[str, Any]]:
        rows = await asyncio.to_thread(self.owners.games_of, account.id, limit)
        table = self.manager.table
        finished = [data.id for data, _ in rows if data.status == "finished"]
        resigned = await asyncio.to_thread(table.db.resigned_seats, finished) if table and finished else {}
        out = []
        for data, seat in rows:
            summary = views.game_summary(data, _game_or_none(data.game), resigned.get(data.id, frozenset()))
            your_turn = data.status != "finished" and data.to_move == seat
            summary["links"]["play"] = f"/play/{data.id}"
            out.append({**summary, "seat": seat, "your_turn": your_turn})
        return out

    async def filtered_games(
        self, status: str | None, game: str | None, players: int | None, speed: str | None, limit: int,
        ratings: RatingRange = (None, None),
    ) -> list[dict[str, Any]]:
        rows = await asyncio.to_thread(
            self.owners.filtered_games, status, game, players, speed, limit, ratings
        )
        table = self.manager.table
        finished = [data.id for data in rows if data.status == "finished"]
        resigned = await asyncio.to_thread(table.db.resigned_seats, finished) if table and finished else {}
        return [views.game_summary(data, _game_or_none(data.game), resigned.get(data.id, frozenset()))
                for data in rows]


def owned_seat(live: LiveGame, account_id: str) -> int | None:
    return next((seat.seat for seat in live.seats if seat.account_id == account_id), None)


def _game_or_none(name: str) -> Any:
    try:
        return get_game(name)
    except KeyError:
        return None


def seats_of(connection: HTTPConnection) -> Seats:
    seats: Seats = connection.app.state.seats
    return seats


def address_of(connection: HTTPConnection) -> str:
    return connection.client.host if connection.client is not None else "unknown"


# -- the API --------------------------------------------------------------------------------------


class SeatProof(Strict):
    game_id: Annotated[str, Field(min_length=1, max_length=32)]
    token: Annotated[str, Field(min_length=1, max_length=200, description="the seat token the browser holds")]


class HandOverRequest(Strict):
    seats: Annotated[list[SeatProof], Field(max_length=MAX_HANDED_OVER)]


class GivenSeatOut(BaseModel):
    game_id: str
    seat: int


class RefusedSeatOut(BaseModel):
    game_id: str
    reason: Literal["token", "owned"] = Field(
        description='"token": no such game, or the token proves no seat of it; "owned": the seat '
                    "belongs to an account already, or the account holds another seat of the game")


class HandOverOut(BaseModel):
    given: list[GivenSeatOut] = Field(description="the seats that belong to the account now")
    refused: list[RefusedSeatOut]


class MyGameOut(GameSummaryOut):
    seat: int = Field(description="the account's seat in the game")
    your_turn: bool = Field(description="the game waits for the account's decision")


class MyGamesOut(BaseModel):
    account: str = Field(description="the account's name")
    games: list[MyGameOut]


ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"description": "not signed in"},
    403: {"description": "a signed-in request without its CSRF token"},
    422: {"description": "an invalid request"},
    429: {"description": "too many wrong seat tokens from your address: see Retry-After"},
}

router = APIRouter(prefix="/api/me", tags=["account"])


@router.get("/games", response_model=MyGamesOut, responses=ERRORS)
async def my_games(
    request: Request,
    account: Annotated[Account, Depends(require_account)],
    limit: Annotated[int, Query(ge=1, le=MY_GAMES_LIMIT)] = 100,
) -> dict[str, Any]:
    """Every game of the signed-in account (up to `limit`): those waiting for its decision first,
    then the others not finished (open or running), then the finished ones; each group most
    recently changed first. `links.play` opens the game at the account's seat on any device."""
    return {"account": account.name, "games": await seats_of(request).games_of(account, limit)}


@router.post("/seats", response_model=HandOverOut, responses=ERRORS)
async def hand_over_seats(
    request: Request, body: HandOverRequest, account: Annotated[Account, Depends(require_account)]
) -> dict[str, Any]:
    """Give the signed-in account the seats a browser held as a guest: each entry a game and the
    seat token the browser keeps for it (at most 50). Only a seat that its token proves (a claimed
    seat's private token, or the token of the only person's seat of a game) and that belongs to
    no account is given, and an account holds one seat of a game; the others are listed as
    refused. Wrong tokens count against the address as anywhere else."""
    return await seats_of(request).hand_over(account, body.seats, address_of(request))
