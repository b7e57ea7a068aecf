"""Player ratings: one per player, game and player count, updated by every rated game that ends.

A rated player is a signed-in account (key "account:<id>") or a bot level (key "bot:<level>",
e.g. "bot:strong": each level of each game is a player with its own rating). A finished game is
rated when it was created rated, every person's seat belongs to an account, every bot is one of
the game's levels, at least one account plays, no account holds two seats, and at least two
players take part; otherwise it is unrated (a guest's seat makes the whole game unrated: the
accounts at the table are then not rated on it either). A solo game's automa is no player.

Places: a seat still played by a stand-in bot at the end (its player resigned, left, or let the
clock run out) lost, whatever the bot scored: those seats share the last place. Among the others
the winners share the first place (a seat that resigned never wins: `views.without_resigned`),
then the rest by score, equal scores sharing a place. The update is openskill's Plackett-Luce;
the shown rating is conservative, `shown(mu, sigma)`.

The update is written in the transaction that records the game's last move (`Store.on_finish`),
so a finished game and its ratings are committed together; a game rates once: its history rows
say it is rated, and on PostgreSQL an advisory lock makes the rating updates of all processes
take turns. `recompute` rebuilds every rating from the stored games in the order they ended.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import Boolean, DateTime, Float, Index, Integer, String, delete, insert, select, text, update
from sqlalchemy.engine import Connection
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from eixample.server import bots
from eixample.server.db import Base, Store
from eixample.server.table import TableRow
from eixample.server.views import without_resigned

log = logging.getLogger(__name__)

RATINGS_LOCK_KEY = 0x45697872
"""The PostgreSQL advisory lock held by a transaction that changes ratings."""
SHOWN_BASE = 1000
SHOWN_SCALE = 40
"""The shown rating: SHOWN_BASE + SHOWN_SCALE * (mu - 3 sigma), rounded (a newcomer shows 1000)."""
GONE = frozenset({"resigned", "left", "clock"})
"""Why a stand-in bot may play a seat: at the end of a game every one of them is a loss."""

MODEL = PlackettLuce()


class RatingsBase(DeclarativeBase):
    pass


class RatingRow(RatingsBase):
    """A player's current rating in a game at a player count."""

    __tablename__ = "ratings"

    player: Mapped[str] = mapped_column(String(64), primary_key=True)
    game: Mapped[str] = mapped_column(String(64), primary_key=True)
    players: Mapped[int] = mapped_column(Integer, primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    shown: Mapped[int] = mapped_column(Integer)
    games: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (Index("ix_ratings_board", "game", "players", "shown"),)


class RatingHistoryRow(RatingsBase):
    """One player's rating after one rated game (the profile's chart, and the mark that a game is
    rated)."""

    __tablename__ = "rating_history"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    player: Mapped[str] = mapped_column(String(64), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    players: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    place: Mapped[int] = mapped_column(Integer)
    won: Mapped[bool] = mapped_column(Boolean)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    shown: Mapped[int] = mapped_column(Integer)
    shown_before: Mapped[int] = mapped_column(Integer)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (Index("ix_rating_history_player", "player", "game", "players", "finished_at"),)


RATINGS = RatingsBase.metadata.tables["ratings"]
HISTORY = RatingsBase.metadata.tables["rating_history"]


# -- the rating math ------------------------------------------------------------------------------


def shown(mu: float, sigma: float) -> int:
    """The rating players see: conservative (the skill is very likely above mu - 3 sigma)."""
    return round(SHOWN_BASE + SHOWN_SCALE * (mu - 3 * sigma))


@dataclass(frozen=True)
class SeatFacts:
    """What the rating needs of a seat: its kind, its bot spec and its account."""

    seat: int
    kind: str
    bot: str | None = None
    account_id: str | None = None


@dataclass(frozen=True)
class Entrant:
    player: str
    seat: int
    place: int
    won: bool


@dataclass(frozen=True)
class Finished:
    """A finished game as the rating sees it."""

    game_id: str
    game: str
    rated: bool
    result: dict[str, Any] | None
    seats: tuple[SeatFacts, ...]
    gone: frozenset[int]
    """The seats a stand-in bot played at the end (resigned, left, out of time)."""
    finished_at: datetime


def player_key(game: str, seat: SeatFacts) -> str | None:
    """The rated player of a seat: an account or a bot level; None for a guest or a bot spec of its own."""
    if seat.kind == "person":
        return account_key(seat.account_id) if seat.account_id else None
    if seat.kind == "bot":
        level = bots.level_of(seat.bot or "random", game)
        return f"bot:{level}" if level else None
    return None


def places(
    scores: Sequence[Any] | None, winners: Iterable[int], gone: frozenset[int], seats: int
) -> list[int]:
    """Per seat its place (1 = best): the winners, then by score (equal scores share a place),
    and every seat in `gone` last, together."""
    won = set(winners)
    numeric = isinstance(scores, list | tuple) and len(scores) >= seats and all(
        isinstance(scores[seat], int | float) for seat in range(seats)
    )

    def key(seat: int) -> tuple[bool, float]:
        score = float(scores[seat]) if numeric and scores is not None else 0.0
        return seat in won, score

    staying = [seat for seat in range(seats) if seat not in gone]
    out = []
    for seat in range(seats):
        if seat in gone:
            out.append(len(staying) + 1)
        else:
            out.append(1 + sum(key(other) > key(seat) for other in staying))
    return out


def entrants(finished: Finished) -> list[Entrant] | None:
    """The rated players of a finished game with their places; None when the game is unrated."""
    if not finished.rated or not finished.result:
        return None
    seats = [seat for seat in finished.seats if seat.kind in ("person", "bot")]
    keys = [player_key(finished.game, seat) for seat in seats]
    if len(seats) < 2 or any(key is None for key in keys) or len(set(keys)) != len(keys):
        return None
    if not any(seat.kind == "person" for seat in seats):
        return None
    gone = frozenset(seat.seat for seat in seats if seat.seat in finished.gone)
    result = without_resigned(finished.result, gone)
    winners = [w for w in result.get("winners") or [] if isinstance(w, int)]
    order = places(result.get("scores"), winners, gone, len(seats))
    return [
        Entrant(str(key), seat.seat, order[seat.seat], seat.seat in winners and seat.seat not in gone)
        for seat, key in zip(seats, keys, strict=True)
    ]


Skill = tuple[float, float]
"""A rating as (mu, sigma)."""


def rate(before: Sequence[Skill], order: Sequence[int]) -> list[Skill]:
    """The players' ratings after one game in which they took places `order` (1 = best, equal
    places tie)."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    after = MODEL.rate(teams, ranks=[float(place) for place in order])
    return [(float(team[0].mu), float(team[0].sigma)) for team in after]


def new_skill() -> Skill:
    return float(MODEL.mu), float(MODEL.sigma)


# -- reading finished games -------------------------------------------------------------------------


def _finished(connection: Connection, game_ids: list[str] | None) -> list[Finished]:
    """Finished games (all, or those of `game_ids`) in the order they ended."""
    tables = Base.metadata.tables
    games, seats = tables["games"], tables["seats"]
    query = select(games.c.id, games.c.game, games.c.result, games.c.updated_at, games.c.rated).where(
        games.c.status == "finished"
    )
    if game_ids is not None:
        query = query.where(games.c.id.in_(game_ids))
    rows = connection.execute(query.order_by(games.c.updated_at, games.c.id)).all()
    if not rows:
        return []
    ids = [row.id for row in rows]
    by_game: dict[str, list[SeatFacts]] = {game_id: [] for game_id in ids}
    for chunk in _chunks(ids):
        for seat in connection.execute(
            select(seats).where(seats.c.game_id.in_(chunk)).order_by(seats.c.game_id, seats.c.seat)
        ).mappings():
            by_game[seat["game_id"]].append(
                SeatFacts(seat["seat"], seat["kind"], seat["bot"], seat["account_id"])
            )
    gone: dict[str, frozenset[int]] = {}
    for chunk in _chunks(ids):
        for game_id, stand_ins in connection.execute(
            select(TableRow.game_id, TableRow.stand_ins).where(TableRow.game_id.in_(chunk))
        ).all():
            gone[game_id] = frozenset(int(seat) for seat, why in (stand_ins or {}).items() if why in GONE)
    return [
        Finished(row.id, row.game, bool(row.rated), row.result, tuple(by_game[row.id]),
                 gone.get(row.id, frozenset()), row.updated_at)
        for row in rows
    ]


def _chunks(ids: list[str], size: int = 500) -> Iterable[list[str]]:
    for start in range(0, len(ids), size):
        yield ids[start : start + size]


# -- writing ------------------------------------------------------------------------------------


def _take_lock(connection: Connection) -> None:
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": RATINGS_LOCK_KEY})


def _history_rows(finished: Finished, players: int, entries: list[Entrant], before: list[Skill],
                  after: list[Skill]) -> list[dict[str, Any]]:
    return [
        {
            "game_id": finished.game_id, "player": entry.player, "game": finished.game, "players": players,
            "seat": entry.seat, "place": entry.place, "won": entry.won, "mu": mu, "sigma": sigma,
            "shown": shown(mu, sigma), "shown_before": shown(*old), "finished_at": finished.finished_at,
        }
        for entry, old, (mu, sigma) in zip(entries, before, after, strict=True)
    ]


def rate_finished(connection: Connection, game_id: str) -> bool:
    """Rate a game that has just ended, inside the transaction that records its end; whether it
    was rated now (False: unrated, or rated already). Called by `Store.on_finish`."""
    _take_lock(connection)
    history = HISTORY
    if connection.execute(select(history.c.game_id).where(history.c.game_id == game_id).limit(1)).first():
        return False
    found = _finished(connection, [game_id])
    if not found:
        return False
    finished = found[0]
    try:
        entries = entrants(finished)
    except Exception:  # a result the rating cannot read must not cost the game its last move
        log.exception("game %s: its result cannot be rated", game_id)
        return False
    if not entries:
        return False
    players = len(entries)
    ratings = RATINGS
    keys = [entry.player for entry in entries]
    stored = {
        row.player: row
        for row in connection.execute(
            select(ratings).where(ratings.c.player.in_(keys), ratings.c.game == finished.game,
                                  ratings.c.players == players)
        )
    }
    before = [(stored[key].mu, stored[key].sigma) if key in stored else new_skill() for key in keys]
    after = rate(before, [entry.place for entry in entries])
    for entry, (mu, sigma) in zip(entries, after, strict=True):
        values = {"mu": mu, "sigma": sigma, "shown": shown(mu, sigma), "updated_at": finished.finished_at}
        row = stored.get(entry.player)
        if row is None:
            connection.execute(insert(ratings).values(
                player=entry.player, game=finished.game, players=players, games=1, wins=int(entry.won),
                **values,
            ))
        else:
            connection.execute(
                update(ratings)
                .where(ratings.c.player == entry.player, ratings.c.game == finished.game,
                       ratings.c.players == players)
                .values(games=row.games + 1, wins=row.wins + int(entry.won), **values)
            )
    connection.execute(insert(history), _history_rows(finished, players, entries, before, after))
    return True


@dataclass
class Recomputed:
    games: int
    players: int


def recompute(store: Store) -> Recomputed:
    """Every rating again from the stored finished games, in the order they ended (one transaction:
    the old ratings stay until the new ones are complete)."""
    ratings, history = RATINGS, HISTORY
    with store.engine.begin() as connection:
        _take_lock(connection)
        current: dict[tuple[str, str, int], dict[str, Any]] = {}
        rows: list[dict[str, Any]] = []
        rated = 0
        for finished in _finished(connection, None):
            entries = entrants(finished)
            if not entries:
                continue
            rated += 1
            players = len(entries)
            slots = [current.setdefault((entry.player, finished.game, players), {
                "player": entry.player, "game": finished.game, "players": players,
                "mu": new_skill()[0], "sigma": new_skill()[1], "games": 0, "wins": 0,
            }) for entry in entries]
            before = [(slot["mu"], slot["sigma"]) for slot in slots]
            after = rate(before, [entry.place for entry in entries])
            for slot, entry, (mu, sigma) in zip(slots, entries, after, strict=True):
                slot.update(mu=mu, sigma=sigma, shown=shown(mu, sigma), games=slot["games"] + 1,
                            wins=slot["wins"] + int(entry.won), updated_at=finished.finished_at)
            rows += _history_rows(finished, players, entries, before, after)
        connection.execute(delete(history))
        connection.execute(delete(ratings))
        for start in range(0, len(rows), 1000):
            connection.execute(insert(history), rows[start : start + 1000])
        values = list(current.values())
        for start in range(0, len(values), 1000):
            connection.execute(insert(ratings), values[start : start + 1000])
    return Recomputed(games=rated, players=len({key[0] for key in current}))


def account_key(account_id: str) -> str:
    """The rating key of an account."""
    return f"account:{account_id}"


def shown_ratings(connection: Connection, keys: Iterable[str], game: str, players: int) -> dict[str, int]:
    """The shown ratings of these players (rating keys) in `game` at `players` players; a player
    not rated there yet shows a newcomer's (for lists that show or filter by rating)."""
    wanted = list(dict.fromkeys(keys))
    found = {key: shown(*new_skill()) for key in wanted}
    for start in range(0, len(wanted), 500):
        rows = connection.execute(
            select(RATINGS.c.player, RATINGS.c.shown)
            .where(RATINGS.c.player.in_(wanted[start : start + 500]), RATINGS.c.game == game,
                   RATINGS.c.players == players)
        )
        for player, value in rows:
            found[player] = int(value)
    return found
