"""Players' profiles and the leaderboards: `GET /api/players/{name}`, `GET /api/leaderboard`, and
their pages (/players/{name}, /leaderboard). Public, read-only: ratings, their history, games
played and won, recent games with their replays. A player is an account (by its user name) or a
bot level ("bot:strong")."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query
from fastapi.responses import HTMLResponse
from pydantic import BaseModel
from sqlalchemy import func, select
from sqlalchemy.engine import Connection

from eixample.core.registry import game_names, get_game
from eixample.server import bots
from eixample.server.accounts import name_key
from eixample.server.db import AccountRow, Base, Store
from eixample.server.errors import bad_request, not_found, quoted
from eixample.server.pages import page_html, serve_pages
from eixample.server.ratings import GONE, HISTORY, RATINGS
from eixample.server.table import TableRow
from eixample.server.views import without_resigned

BOT_PREFIX = "bot:"
HISTORY_SHOWN = 300
"""Points of each rating's history in a profile (the latest)."""
RECENT_SHOWN = 20
BOARD_SIZE = 100
GAMES_COUNTED = 10_000
"""An account's finished games counted in its profile's games played and won (the latest)."""

PlayerName = Annotated[
    str, Path(min_length=1, max_length=80, description='a user name, or a bot level "bot:strong"')
]


@dataclass(frozen=True)
class Player:
    key: str
    """The rating key: "account:<id>" or "bot:<level>"."""
    name: str
    kind: str
    """"account" or "bot"."""
    account_id: str | None = None


def _utc(moment: datetime) -> str:
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat()


def _title(game: str) -> str:
    try:
        return get_game(game).title
    except KeyError:
        return game


def bot_level_names() -> set[str]:
    names = {level["name"] for level in bots.levels()}
    for game in game_names():
        names.update(level["name"] for level in bots.levels(game))
    return names


def _find_player(connection: Connection, name: str) -> Player | None:
    if name.startswith(BOT_PREFIX):
        level = name[len(BOT_PREFIX) :]
        return Player(name, level, "bot") if level in bot_level_names() else None
    row = connection.execute(
        select(AccountRow.id, AccountRow.name)
        .where(AccountRow.name_key == name_key(name), AccountRow.deleted_at.is_(None))
    ).first()
    if row is None:
        return None
    return Player(f"account:{row.id}", str(row.name), "account", str(row.id))


def _names(connection: Connection, keys: Iterable[str]) -> dict[str, tuple[str, str]]:
    """Each rating key's shown name and kind; deleted accounts are left out."""
    out: dict[str, tuple[str, str]] = {}
    ids = []
    for key in keys:
        if key.startswith(BOT_PREFIX):
            out[key] = (key[len(BOT_PREFIX) :], "bot")
        elif key.startswith("account:"):
            ids.append(key.removeprefix("account:"))
    for start in range(0, len(ids), 500):
        rows = connection.execute(
            select(AccountRow.id, AccountRow.name)
            .where(AccountRow.id.in_(ids[start : start + 500]), AccountRow.deleted_at.is_(None))
        )
        for row in rows:
            out[f"account:{row.id}"] = (str(row.name), "account")
    return out


# -- the profile ----------------------------------------------------------------------------------


def profile(store: Store, name: str) -> dict[str, Any] | None:
    with store.engine.connect() as connection:
        player = _find_player(connection, name)
        if player is None:
            return None
        return {
            "name": player.name,
            "kind": player.kind,
            "key": player.key,
            "link": f"/players/{player.name if player.kind == 'account' else player.key}",
            "ratings": _ratings(connection, player),
            "games": _played(connection, player),
            "recent": _recent(connection, player),
        }


def _ratings(connection: Connection, player: Player) -> list[dict[str, Any]]:
    ratings, history = RATINGS, HISTORY
    rows = connection.execute(
        select(ratings).where(ratings.c.player == player.key).order_by(ratings.c.game, ratings.c.players)
    ).all()
    out = []
    for row in rows:
        points = connection.execute(
            select(history.c.game_id, history.c.finished_at, history.c.shown, history.c.place, history.c.won)
            .where(history.c.player == player.key, history.c.game == row.game,
                   history.c.players == row.players)
            .order_by(history.c.finished_at.desc(), history.c.game_id.desc())
            .limit(HISTORY_SHOWN)
        ).all()
        out.append({
            "game": row.game, "title": _title(row.game), "players": row.players,
            "rating": row.shown, "mu": round(row.mu, 3), "sigma": round(row.sigma, 3),
            "games": row.games, "wins": row.wins,
            "history": [
                {"game_id": point.game_id, "at": _utc(point.finished_at), "rating": point.shown,
                 "place": point.place, "won": point.won}
                for point in reversed(points)
            ],
        })
    return out


def _account_games(connection: Connection, account_id: str, limit: int) -> list[Any]:
    """An account's finished games, the latest first: id, game, players, end, result, seat, rated
    (a game where it held two seats once, by its first seat)."""
    tables = Base.metadata.tables
    games, seats = tables["games"], tables["seats"]
    rows = connection.execute(
        select(games.c.id, games.c.game, games.c.players, games.c.updated_at, games.c.result,
               games.c.rated, seats.c.seat)
        .join(seats, seats.c.game_id == games.c.id)
        .where(seats.c.account_id == account_id, games.c.status == "finished")
        .order_by(games.c.updated_at.desc(), games.c.id.desc(), seats.c.seat)
        .limit(limit)
    ).all()
    first: dict[str, Any] = {}
    for row in rows:
        first.setdefault(row.id, row)
    return list(first.values())


def _gone(connection: Connection, game_ids: list[str]) -> dict[str, frozenset[int]]:
    out = {}
    for start in range(0, len(game_ids), 500):
        rows = connection.execute(
            select(TableRow.game_id, TableRow.stand_ins)
            .where(TableRow.game_id.in_(game_ids[start : start + 500]))
        ).all()
        for game_id, stand_ins in rows:
            out[game_id] = frozenset(int(seat) for seat, why in (stand_ins or {}).items() if why in GONE)
    return out


def _won(result: Any, seat: int, gone: frozenset[int]) -> bool:
    if not isinstance(result, dict) or seat in gone:
        return False
    winners = without_resigned(result, gone).get("winners") or []
    return seat in winners


def _played(connection: Connection, player: Player) -> list[dict[str, Any]]:
    """Games played and won per game: all an account's finished games; a bot level's rated games."""
    counts: dict[str, list[int]] = {}
    if player.account_id is not None:
        rows = _account_games(connection, player.account_id, GAMES_COUNTED)
        gone = _gone(connection, [row.id for row in rows])
        for row in rows:
            count = counts.setdefault(row.game, [0, 0])
            count[0] += 1
            count[1] += _won(row.result, row.seat, gone.get(row.id, frozenset()))
    else:
        ratings = RATINGS
        for game, games, wins in connection.execute(
            select(ratings.c.game, func.sum(ratings.c.games), func.sum(ratings.c.wins))
            .where(ratings.c.player == player.key).group_by(ratings.c.game)
        ):
            counts[game] = [int(games), int(wins)]
    return [{"game": game, "title": _title(game), "played": played, "won": won}
            for game, (played, won) in sorted(counts.items())]


def _recent(connection: Connection, player: Player) -> list[dict[str, Any]]:
    """The latest finished games: every game of an account, a bot level's rated games."""
    history = HISTORY
    if player.account_id is not None:
        rows = _account_games(connection, player.account_id, RECENT_SHOWN)
        gone = _gone(connection, [row.id for row in rows])
        changes = {
            row.game_id: row
            for row in connection.execute(
                select(history).where(history.c.player == player.key,
                                      history.c.game_id.in_([row.id for row in rows]))
            )
        }
        games = [
            (row.id, row.game, row.players, row.updated_at, row.seat,
             _won(row.result, row.seat, gone.get(row.id, frozenset())), changes.get(row.id))
            for row in rows
        ]
    else:
        rated = connection.execute(
            select(history).where(history.c.player == player.key)
            .order_by(history.c.finished_at.desc(), history.c.game_id.desc()).limit(RECENT_SHOWN)
        ).all()
        games = [(row.game_id, row.game, row.players, row.finished_at, row.seat, row.won, row)
                 for row in rated]
    out = []
    for game_id, game, players, at, seat, won, change in games:
        out.append({
            "game_id": game_id, "game": game, "title": _title(game), "players": players,
            "finished_at": _utc(at), "seat": seat, "won": bool(won), "rated": change is not None,
            "place": change.place if change is not None else None,
            "rating_before": change.shown_before if change is not None else None,
            "rating": change.shown if change is not None else None,
            "replay": f"/replay/{game_id}",
        })
    return out


# -- the leaderboard ------------------------------------------------------------------------------


def leaderboard(store: Store, game: str, players: int | None, limit: int) -> dict[str, Any]:
    ratings = RATINGS
    with store.engine.connect() as connection:
        counts = [
            int(row[0]) for row in connection.execute(
                select(ratings.c.players).where(ratings.c.game == game).distinct().order_by(ratings.c.players)
            )
        ]
        if players is None:
            players = counts[0] if counts else max(2, get_game(game).min_players)
        rows = connection.execute(
            select(ratings).where(ratings.c.game == game, ratings.c.players == players)
            .order_by(ratings.c.shown.desc(), ratings.c.games.desc(), ratings.c.player).limit(limit * 2)
        ).all()
        names = _names(connection, [row.player for row in rows])
    entries: list[dict[str, Any]] = []
    for row in rows:
        if row.player not in names or len(entries) >= limit:
            continue
        name, kind = names[row.player]
        entries.append({
            "place": len(entries) + 1, "name": name, "kind": kind,
            "link": f"/players/{name if kind == 'account' else row.player}",
            "rating": row.shown, "mu": round(row.mu, 3), "sigma": round(row.sigma, 3),
            "games": row.games, "wins": row.wins,
        })
    return {"game": game, "title": _title(game), "players": players, "player_counts": counts,
            "entries": entries}


# -- a game's rating changes ---------------------------------------------------------------------


def game_ratings(store: Store, game_id: str) -> dict[str, Any] | None:
    """The rating changes a finished game made, seat by seat (none for an unrated game); None
    when there is no such game."""
    games = Base.metadata.tables["games"]
    with store.engine.connect() as connection:
        game = connection.execute(select(games.c.rated).where(games.c.id == game_id)).first()
        if game is None:
            return None
        rows = connection.execute(
            select(HISTORY).where(HISTORY.c.game_id == game_id).order_by(HISTORY.c.seat)
        ).all()
        names = _names(connection, [row.player for row in rows])
    changes = []
    for row in rows:
        name, kind = names.get(row.player, ("", "account"))
        changes.append({
            "seat": row.seat, "name": name, "kind": kind,
            "link": (f"/players/{name if kind == 'account' else row.player}") if name else None,
            "place": row.place, "won": row.won, "rating_before": row.shown_before, "rating": row.shown,
        })
    return {"game_id": game_id, "rated": bool(game.rated), "changes": changes}


# -- HTTP -------------------------------------------------------------------------------------------


class RatingPointOut(BaseModel):
    game_id: str
    at: str
    rating: int
    place: int
    won: bool


class RatingOut(BaseModel):
    game: str
    title: str
    players: int
    rating: int
    mu: float
    sigma: float
    games: int
    wins: int
    history: list[RatingPointOut]


class PlayedOut(BaseModel):
    game: str
    title: str
    played: int
    won: int


class RecentGameOut(BaseModel):
    game_id: str
    game: str
    title: str
    players: int
    finished_at: str
    seat: int
    won: bool
    rated: bool
    place: int | None
    rating_before: int | None
    rating: int | None
    replay: str


class ProfileOut(BaseModel):
    name: str
    kind: str
    key: str
    link: str
    ratings: list[RatingOut]
    games: list[PlayedOut]
    recent: list[RecentGameOut]


class RatingChangeOut(BaseModel):
    seat: int
    name: str
    kind: str
    link: str | None
    place: int
    won: bool
    rating_before: int
    rating: int


class GameRatingsOut(BaseModel):
    game_id: str
    rated: bool
    changes: list[RatingChangeOut]


class BoardEntryOut(BaseModel):
    place: int
    name: str
    kind: str
    link: str
    rating: int
    mu: float
    sigma: float
    games: int
    wins: int


class LeaderboardOut(BaseModel):
    game: str
    title: str
    players: int
    player_counts: list[int]
    entries: list[BoardEntryOut]


def router(store: Store) -> APIRouter:
    routes = APIRouter()

    @routes.get("/api/players/{name}", response_model=ProfileOut, tags=["players"])
    async def player_profile(name: PlayerName) -> dict[str, Any]:
        """A player's profile: ratings per game and player count with their history, games played
        and won per game, recent games with their replays. `name`: a user name, or a bot level
        as "bot:<level>"."""
        found = await asyncio.to_thread(profile, store, name)
        if found is None:
            raise not_found(f"no player {quoted(name, 80)}")
        return found

    @routes.get("/api/leaderboard", response_model=LeaderboardOut, tags=["players"])
    async def game_leaderboard(
        game: Annotated[str, Query(min_length=1, max_length=64, description="a game name from /api/catalog")],
        players: Annotated[int | None, Query(ge=1, le=8, description="the player count (default: the "
                                                                      "smallest one rated)")] = None,
        limit: Annotated[int, Query(ge=1, le=BOARD_SIZE)] = BOARD_SIZE,
    ) -> dict[str, Any]:
        """The best-rated players of a game at a player count, best first."""
        if game not in game_names():
            raise bad_request(f"no game {quoted(game, 64)}")
        return await asyncio.to_thread(leaderboard, store, game, players, limit)

    @routes.get("/api/games/{game_id}/ratings", response_model=GameRatingsOut, tags=["players"])
    async def game_rating_changes(
        game_id: Annotated[str, Path(min_length=1, max_length=32)],
    ) -> dict[str, Any]:
        """The rating changes a finished game made, seat by seat: empty while it runs, and for a
        game that is not rated (created unrated, or with a guest: docs/ratings.md)."""
        found = await asyncio.to_thread(game_ratings, store, game_id)
        if found is None:
            raise not_found(f"no game {quoted(game_id, 32)}")
        return found

    @routes.get("/players/{name}", include_in_schema=False)
    async def profile_page(name: PlayerName) -> HTMLResponse:
        return HTMLResponse(page_html("profile"))

    serve_pages(routes, {"/leaderboard": "leaderboard"})

    return routes
