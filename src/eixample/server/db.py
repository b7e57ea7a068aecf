"""The game database: one row per game, one per seat, one per applied action.

An embedded SQLite file (WAL journal, full sync) in the data folder by default; the environment
variable DATABASE_URL switches to another SQLAlchemy URL (PostgreSQL) with no code change. Every
write is one transaction; a move is acknowledged only after its transaction has committed, so a
crash loses nothing that a player was told had happened. The schema changes only through the
migrations in server/migrations, applied when a store opens the database.

Seat tokens are stored as SHA-256 digests only: the plain token exists in the invitation link
(and, once a browser has claimed the seat, in that browser alone).

One server writes to an SQLite database: it is guarded by an exclusive lock file held for the
life of the process. Any number of servers may share a PostgreSQL database: there every write that
changes a game's actions first locks the game's row (`SELECT ... FOR UPDATE`) and checks, under
that lock, that the stored actions are exactly those the writing process's copy of the game holds
(a move number alone repeats across an undo and a new move); on either database it checks the
game's move number in the same transaction (compare-and-set), so the order of a game's moves is
kept by the database, whichever process writes. On PostgreSQL a game is read in one snapshot (a
REPEATABLE READ transaction), so a read never sees a move without its move number, and each
write that changes a game also notifies the other processes (`NOTIFY`, sent on commit: see
`server.cluster`), and bot leases say which process plays a game's bots.
"""

from __future__ import annotations

import hashlib
import os
import queue
import secrets
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from filelock import FileLock, Timeout
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    LargeBinary,
    String,
    create_engine,
    delete,
    event,
    false,
    insert,
    select,
    text,
    true,
    update,
)
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker

from eixample.server import migrations

SQLITE_FILE = "eixample.sqlite3"


def now() -> datetime:
    return datetime.now(UTC)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    players: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), index=True)
    move_count: Mapped[int] = mapped_column(Integer, default=0)
    to_move: Mapped[int] = mapped_column(Integer)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    seed_shown: Mapped[bool] = mapped_column(Boolean, default=False)
    creator_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    hints_allowed: Mapped[bool] = mapped_column(Boolean, default=False)
    rated: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())


class SeatRow(Base):
    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    name: Mapped[str] = mapped_column(String(64))
    bot: Mapped[str | None] = mapped_column(String(128), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    joined: Mapped[bool] = mapped_column(Boolean, default=False)
    claim_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    open: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    account_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    """The account the seat belongs to (None: a guest's seat, held by its tokens alone)."""


class ActionRow(Base):
    __tablename__ = "actions"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    idx: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(512))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


@dataclass
class SeatData:
    seat: int
    kind: str
    name: str
    bot: str | None
    token_hash: str | None
    joined: bool = False
    claim_hash: str | None = None
    """The digest of the private token of the browser that claimed the seat; None while unclaimed."""
    open: bool = False
    """A person's seat that anyone may join from the lobby while it is unclaimed."""
    account_id: str | None = None
    """The account the seat belongs to; None for a guest's seat."""


@dataclass
class GameData:
    """A game as stored: enough to rebuild its state by replaying the actions."""

    id: str
    game: str
    players: int
    seed: int
    options: dict[str, Any]
    status: str
    move_count: int
    to_move: int
    result: dict[str, Any] | None
    created_at: datetime
    updated_at: datetime
    seats: list[SeatData] = field(default_factory=list)
    actions: list[tuple[int, str]] = field(default_factory=list)
    seed_shown: bool = False
    creator_hash: str | None = None
    hints_allowed: bool = False
    """Created with hints allowed: every seat may ask the server's bot for advice."""
    rated: bool = True
    """Its end updates the players' ratings (server/ratings.py), if they are rated players."""


class AccountRow(Base):
    """A player's account (server/accounts.py). `name` is kept as typed; `name_key`, its
    normalised form, is what is unique and looked up. `email_key` is set once the address is
    verified: only a verified address belongs to one account."""

    __tablename__ = "accounts"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(32))
    name_key: Mapped[str] = mapped_column(String(128), unique=True, index=True)
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    email_key: Mapped[str | None] = mapped_column(String(254), nullable=True, unique=True, index=True)
    email_verified: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    password_hash: Mapped[str | None] = mapped_column(String(256), nullable=True)
    role: Mapped[str] = mapped_column(String(16), default="player", server_default="player")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    suspended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """Set while a moderator has suspended the account (server/admin.py): no sign-in, no session."""


class SessionRow(Base):
    """A signed-in browser: the SHA-256 digest of its session cookie's random id (the id itself
    is never stored) and the CSRF token its pages send with every change."""

    __tablename__ = "sessions"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    csrf: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class AccountTokenRow(Base):
    """A single-use token sent to a player (e-mail verification, password reset) or held by a
    browser during a passkey ceremony: its SHA-256 digest only, with what it is for and until when."""

    __tablename__ = "account_tokens"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    purpose: Mapped[str] = mapped_column(String(16))
    account_id: Mapped[str | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True, index=True
    )
    data: Mapped[str | None] = mapped_column(String(1024), nullable=True)
    """The address being verified, or the ceremony's challenge."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PasskeyRow(Base):
    """A passkey (WebAuthn credential) of an account: its id (base64url), public key and counter."""

    __tablename__ = "passkeys"

    id: Mapped[str] = mapped_column(String(1400), primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    public_key: Mapped[bytes] = mapped_column(LargeBinary)
    sign_count: Mapped[int] = mapped_column(BigInteger)
    transports: Mapped[list[str]] = mapped_column(JSON)
    name: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class ThrottleRow(Base):
    """One token bucket of an account limit (server/throttle.py), shared by every process."""

    __tablename__ = "throttle_buckets"

    bucket: Mapped[str] = mapped_column(String(96), primary_key=True)
    """The kind, a colon, and the SHA-256 digest of the key (hex)."""
    tokens: Mapped[float] = mapped_column(Float)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    """When `tokens` was counted: the bucket has refilled since at `capacity / period` a second."""


class BotLeaseRow(Base):
    """Which server process plays a game's bots, until when (PostgreSQL only: see server.cluster)."""

    __tablename__ = "bot_leases"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    holder: Mapped[str] = mapped_column(String(64))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


SCHEMA_LOCK_KEY = 0x45697861
"""The PostgreSQL advisory lock held while a starting server migrates the schema."""
SCHEMA_LOCK = text("SELECT pg_advisory_xact_lock(:key)")
SEATS_CHANGED = -1
"""The move number notified for a change of a game's seats (a claim, a release, a join)."""
TABLE_CHANGED = -2
"""The move number notified for a change of the table around a game (server/table.py: a chat
line, a stand-in bot, the clock's deadline, a rematch)."""
NOTIFY_CHANNEL = "eixample_games"
"""The PostgreSQL channel on which a committed change of a game is announced: the payload is
"<origin> <game id> <move number>" (origin: the writing process's id)."""


Actions = Sequence[tuple[int, str]]
"""A game's actions in order, each with the seat that took it."""


def fields_of(data: object, names: Iterable[str]) -> dict[str, Any]:
    """`data`'s attributes of these names, as keyword arguments: a game's stored row, its
    GameData and its LiveGame name their shared fields alike."""
    return {name: getattr(data, name) for name in names}


class StaleWriteError(Exception):
    """The stored game is not at the expected move, or not the writer's copy of it (another
    writer got there first)."""


class DatabaseInUseError(Exception):
    """Another server process holds the database's lock file."""


def database_url(data_dir: str | os.PathLike[str], explicit: str | None = None) -> str:
    """The URL to use: an explicit one, else $DATABASE_URL, else SQLite in the data folder."""
    url = explicit or os.environ.get("DATABASE_URL", "").strip()
    if url:
        if url.startswith("postgres://"):
            url = "postgresql://" + url[len("postgres://") :]
        return url
    folder = Path(data_dir)
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{(folder / SQLITE_FILE).resolve()}"


def _make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=FULL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


def sqlite_path(url: str) -> Path | None:
    """The file of an SQLite URL; None for another database or an in-memory one."""
    if not url.startswith("sqlite"):
        return None
    database = make_url(url).database
    return Path(database).resolve() if database and database != ":memory:" else None


def lock_database(path: Path) -> FileLock | None:
    """Take the lock file of the SQLite database `path` without waiting (the lock, to release
    when done); None while another process holds it."""
    lock = FileLock(f"{path}.lock", is_singleton=False)
    try:
        lock.acquire(timeout=0)
    except Timeout:
        return None
    return lock


class Store:
    """Synchronous data access; the server calls it from worker threads, and moves and undos go
    through one writer thread that commits those arriving together at once (`GroupWriter`).

    `exclusive` (the server's setting) takes the SQLite file's lock file for the life of the
    store: a second server on the same file gets DatabaseInUseError instead of a second writer."""

    def __init__(self, url: str, *, exclusive: bool = False) -> None:
        self.url = url
        self.is_postgres = make_url(url).get_backend_name() == "postgresql"
        self.origin = secrets.token_hex(8)
        """This process's id in notifications and bot leases."""
        self._lock: FileLock | None = None
        path = sqlite_path(url)
        if exclusive and path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            lock = lock_database(path)
            if lock is None:
                raise DatabaseInUseError(
                    f"another Eixample server is already using the database {path} "
                    f"(its lock file {path}.lock is held); stop that server or use another data folder"
                )
            self._lock = lock
        self.engine = _make_engine(url)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self.writer = GroupWriter(self._sessions)
        self.move_hooks: list[Callable[[Connection, str, int, int, int, str], None]] = []
        """Called in each move's transaction with (connection, game id, move number after it, the
        seat that moved, the seat to move, the game's status): what they write commits with the
        move or not at all (server/notices.py)."""
        self.on_finish: list[Callable[[Connection, str], Any]] = []
        """Called in the transaction that stores a game's last move (the ratings: server/ratings.py)."""
        try:
            self._migrate()
        except BaseException:
            self.close()
            raise

    def _migrate(self) -> None:
        """Bring the schema to this code's newest revision (server/migrations); refuse a database
        a newer release has upgraded (migrations.SchemaTooNewError), changing nothing."""
        where = make_url(self.url).render_as_string(hide_password=True)
        sqlite = make_url(self.url).get_backend_name() == "sqlite"
        with self.engine.connect() as connection:
            if sqlite:  # SQLite changes a table by copying it: dropping the old `games` must not
                # delete every seat and action (ON DELETE CASCADE), so foreign keys wait till the end
                connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
                connection.commit()
            try:
                with connection.begin():
                    if self.is_postgres:  # servers starting together migrate once, one after the other
                        connection.execute(SCHEMA_LOCK, {"key": SCHEMA_LOCK_KEY})
                    migrations.upgrade(connection, where)
                    if sqlite and connection.exec_driver_sql("PRAGMA foreign_key_check").first() is not None:
                        raise RuntimeError(f"the database {where} has rows that refer to missing games")
            finally:
                if sqlite:
                    connection.exec_driver_sql("PRAGMA foreign_keys=ON")
                    connection.commit()

    def close(self) -> None:
        self.writer.close()
        self.engine.dispose()
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    @contextmanager
    def _transaction(self) -> Iterator[Session]:
        with self._sessions() as session, session.begin():
            yield session

    def _lock_game(self, connection: Connection, game_id: str) -> None:
        """PostgreSQL: hold the game's row until the transaction ends, so that the writes to one
        game from any number of processes take their turns (the compare-and-set then decides)."""
        if self.is_postgres:
            games = Base.metadata.tables["games"]
            connection.execute(select(games.c.id).where(games.c.id == game_id).with_for_update())

    def _check_held(self, connection: Connection, game_id: str, held: Actions | None) -> None:
        """PostgreSQL, under the game's row lock: refuse (StaleWriteError) unless the stored actions
        are exactly `held`, the actions of the writing process's copy of the game. Another process
        may have undone a move and made another since that copy was read: the move number is then
        the same again, but the copy's state is not the stored one."""
        if not self.is_postgres or held is None:
            return
        seats, actions = connection.execute(
            text("SELECT array_agg(seat ORDER BY idx), array_agg(action ORDER BY idx) "
                 "FROM actions WHERE game_id = :game_id"),
            {"game_id": game_id},
        ).one()
        stored = list(zip(seats or [], actions or [], strict=True))
        if stored != list(held):
            raise StaleWriteError(f"game {game_id} has changed since this copy of it was read")

    def announce_table(self, connection: Connection, game_id: str) -> None:
        """PostgreSQL: tell the other processes that the table around a game has changed."""
        self._notify(connection, game_id, TABLE_CHANGED)

    def _notify(self, connection: Connection, game_id: str, move_number: int) -> None:
        """PostgreSQL: announce the change to every listening process, once this transaction commits."""
        if self.is_postgres:
            payload = f"{self.origin} {game_id} {move_number}"
            connection.execute(text("SELECT pg_notify(:channel, :payload)"),
                               {"channel": NOTIFY_CHANNEL, "payload": payload})

    # -- writes -------------------------------------------------------------------------------

    def create_game(self, data: GameData) -> None:
        with self._transaction() as session:
            session.add(GameRow(**fields_of(data, GameRow.__table__.columns.keys())))
            session.flush()
            seat_columns = [column.key for column in SeatRow.__table__.columns if column.key != "game_id"]
            for seat in data.seats:
                session.add(SeatRow(game_id=data.id, **fields_of(seat, seat_columns)))

    def game_exists(self, game_id: str) -> bool:
        with self._sessions() as session:
            return session.get(GameRow, game_id) is not None

    def append_action_later(
        self,
        game_id: str,
        idx: int,
        seat: int,
        action: str,
        *,
        status: str,
        to_move: int,
        result: dict[str, Any] | None,
        joined_seat: int | None = None,
        held: Actions | None = None,
    ) -> Future[None]:
        """Store action number `idx` (0-based) through the group writer if the game holds exactly
        `idx` actions (on PostgreSQL, exactly the actions `held`, when given): the future is done
        once committed (StaleWriteError if the game is not at that move)."""
        stamp = now()

        def write(session: Session) -> None:
            connection = session.connection()  # plain statements: the ORM adds nothing here
            tables = Base.metadata.tables
            games, seats = tables["games"], tables["seats"]
            self._lock_game(connection, game_id)
            self._check_held(connection, game_id, held)
            changed = connection.execute(
                update(games)
                .where(games.c.id == game_id, games.c.move_count == idx)
                .values(move_count=idx + 1, status=status, to_move=to_move, result=result, updated_at=stamp)
            ).rowcount
            if changed != 1:
                raise StaleWriteError(f"game {game_id} is not at move {idx}")
            row = {"game_id": game_id, "idx": idx, "seat": seat, "action": action, "created_at": stamp}
            connection.execute(insert(tables["actions"]).values(**row))
            if joined_seat is not None:
                joined = update(seats).where(seats.c.game_id == game_id, seats.c.seat == joined_seat)
                connection.execute(joined.values(joined=True))
            for on_move in self.move_hooks:
                on_move(connection, game_id, idx + 1, seat, to_move, status)
            if status == "finished":
                for hook in self.on_finish:
                    hook(connection, game_id)
            self._notify(connection, game_id, idx + 1)

        return self.writer.submit(write)

    def remove_last_action_later(
        self, game_id: str, idx: int, *, status: str, to_move: int, held: Actions | None = None
    ) -> Future[None]:
        """Delete action number `idx` through the group writer if it is the last one (on
        PostgreSQL, and the stored actions are exactly `held`, when given); the future raises
        StaleWriteError otherwise."""
        stamp = now()

        def write(session: Session) -> None:
            self._lock_game(session.connection(), game_id)
            self._check_held(session.connection(), game_id, held)
            changed = session.execute(
                update(GameRow)
                .where(GameRow.id == game_id, GameRow.move_count == idx + 1)
                .values(move_count=idx, status=status, to_move=to_move, result=None, updated_at=stamp)
            ).rowcount  # type: ignore[attr-defined]
            if changed != 1:
                raise StaleWriteError(f"game {game_id} is not at move {idx + 1}")
            session.execute(delete(ActionRow).where(ActionRow.game_id == game_id, ActionRow.idx == idx))
            self._notify(session.connection(), game_id, idx)

        return self.writer.submit(write)

    def keep_options(self, game_id: str, options: dict[str, Any]) -> None:
        """Store a game's options as completed on loading (a rules version matched)."""
        with self._transaction() as session:
            session.execute(update(GameRow).where(GameRow.id == game_id).values(options=options))

    def mark_joined(self, game_id: str, seat: int, status: str) -> None:
        with self._transaction() as session:
            session.execute(
                update(SeatRow).where(SeatRow.game_id == game_id, SeatRow.seat == seat).values(joined=True)
            )
            session.execute(update(GameRow).where(GameRow.id == game_id).values(status=status))
            self._notify(session.connection(), game_id, SEATS_CHANGED)

    def claim_seat(self, game_id: str, seat: int, claim_hash: str, status: str) -> bool:
        """Give an unclaimed seat its private token digest; False if it was claimed already."""
        with self._transaction() as session:
            changed = session.execute(
                update(SeatRow)
                .where(SeatRow.game_id == game_id, SeatRow.seat == seat, SeatRow.claim_hash.is_(None))
                .values(claim_hash=claim_hash, joined=True)
            ).rowcount  # type: ignore[attr-defined]
            if changed != 1:
                return False
            session.execute(update(GameRow).where(GameRow.id == game_id).values(status=status))
            self._notify(session.connection(), game_id, SEATS_CHANGED)
            return True

    def release_seat(self, game_id: str, seat: int) -> None:
        """Forget a seat's claim: its invitation token acts for it again."""
        with self._transaction() as session:
            session.execute(
                update(SeatRow)
                .where(SeatRow.game_id == game_id, SeatRow.seat == seat)
                .values(claim_hash=None)
            )
            self._notify(session.connection(), game_id, SEATS_CHANGED)

    # -- bot leases (PostgreSQL) ----------------------------------------------------------------

    def take_bot_lease(self, game_id: str, seconds: float) -> bool:
        """Hold the lease on the game's bots for `seconds` (the database's clock), if no other
        process holds it unexpired; True if this process holds it now."""
        with self._transaction() as session:
            holder = session.execute(
                text(
                    "INSERT INTO bot_leases (game_id, holder, expires_at) "
                    "VALUES (:game_id, :me, now() + make_interval(secs => :seconds)) "
                    "ON CONFLICT (game_id) DO UPDATE SET holder = EXCLUDED.holder, "
                    "expires_at = EXCLUDED.expires_at "
                    "WHERE bot_leases.holder = EXCLUDED.holder OR bot_leases.expires_at < now() "
                    "RETURNING holder"
                ),
                {"game_id": game_id, "me": self.origin, "seconds": seconds},
            ).scalar()
            return holder == self.origin

    def renew_bot_leases(self, game_ids: list[str], seconds: float) -> list[str]:
        """Extend this process's leases on these games; the games whose bots it still plays."""
        if not game_ids:
            return []
        with self._transaction() as session:
            rows = session.execute(
                text(
                    "UPDATE bot_leases SET expires_at = now() + make_interval(secs => :seconds) "
                    "WHERE holder = :me AND game_id = ANY(:ids) RETURNING game_id"
                ),
                {"me": self.origin, "seconds": seconds, "ids": list(game_ids)},
            )
            return [row[0] for row in rows]

    def release_bot_lease(self, game_id: str) -> None:
        with self._transaction() as session:
            session.execute(
                delete(BotLeaseRow).where(BotLeaseRow.game_id == game_id, BotLeaseRow.holder == self.origin)
            )

    def release_bot_leases(self) -> None:
        with self._transaction() as session:
            session.execute(delete(BotLeaseRow).where(BotLeaseRow.holder == self.origin))

    def games_awaiting_bots(self, limit: int = 100) -> list[str]:
        """Unfinished games where a bot is to move and no process holds an unexpired lease."""
        with self._sessions() as session:
            rows = session.execute(
                text(
                    "SELECT g.id FROM games g "
                    "JOIN seats s ON s.game_id = g.id AND s.seat = g.to_move AND s.kind = 'bot' "
                    "LEFT JOIN bot_leases l ON l.game_id = g.id "
                    "WHERE g.status <> 'finished' AND (l.game_id IS NULL OR l.expires_at < now()) "
                    "ORDER BY g.updated_at LIMIT :limit"
                ),
                {"limit": limit},
            )
            return [row[0] for row in rows]

    def bot_lease_holder(self, game_id: str) -> str | None:
        """The process holding an unexpired lease on the game's bots (None if nobody)."""
        with self._sessions() as session:
            row = session.execute(
                text("SELECT holder FROM bot_leases WHERE game_id = :game_id AND expires_at >= now()"),
                {"game_id": game_id},
            ).first()
            return None if row is None else str(row[0])

    # -- reads --------------------------------------------------------------------------------

    @contextmanager
    def _snapshot(self) -> Iterator[Session]:
        """A session whose reads all see the database at one moment: on PostgreSQL a read-only
        REPEATABLE READ transaction (its statements would otherwise each see the commits made
        since the one before, by any process). On SQLite the one server process writes a game only
        through the copy it holds in memory, and reads a game only while it holds none."""
        with self._sessions() as session:
            if self.is_postgres:
                session.execute(text("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY"))
            yield session

    def load_game(self, game_id: str) -> GameData | None:
        """A game as stored, its row, seats and actions read in one snapshot."""
        with self._snapshot() as session:
            row = session.get(GameRow, game_id)
            if row is None:
                return None
            data = _game_data(row)
            data.seats = [
                _seat_data(seat)
                for seat in session.scalars(
                    select(SeatRow).where(SeatRow.game_id == game_id).order_by(SeatRow.seat)
                )
            ]
            data.actions = [
                (action.seat, action.action)
                for action in session.scalars(
                    select(ActionRow).where(ActionRow.game_id == game_id).order_by(ActionRow.idx)
                )
            ]
            return data

    def list_games(
        self, status: str | None = None, limit: int = 100, ids: list[str] | None = None
    ) -> list[GameData]:
        """Games, most recently changed first (only those of `ids`, if given)."""
        with self._snapshot() as session:
            query = select(GameRow).order_by(GameRow.updated_at.desc()).limit(limit)
            if status is not None:
                query = query.where(GameRow.status == status)
            if ids is not None:
                query = query.where(GameRow.id.in_(ids))
            games = [_game_data(row) for row in session.scalars(query)]
            if not games:
                return games
            by_id = {game.id: game for game in games}
            seats = session.scalars(
                select(SeatRow).where(SeatRow.game_id.in_(list(by_id))).order_by(SeatRow.seat)
            )
            for seat in seats:
                by_id[seat.game_id].seats.append(_seat_data(seat))
            return games

    def unfinished_game_ids(self) -> list[str]:
        with self._sessions() as session:
            return list(session.scalars(select(GameRow.id).where(GameRow.status != "finished")))

    def dump(self) -> dict[str, list[dict[str, Any]]]:
        """Every row of every table (for tests that check a rejected request changed nothing)."""
        out: dict[str, list[dict[str, Any]]] = {}
        with self._sessions() as session:
            for table in Base.metadata.sorted_tables:
                rows = session.execute(select(table)).mappings()
                out[table.name] = sorted((dict(row) for row in rows), key=repr)
        return out


Write = Callable[[Session], Any]


class GroupWriter:
    """One thread makes the moves' writes: writes that arrive while a commit is under way share
    the next transaction and its single commit (one flush to disk for many moves: group commit).
    Each write's future is done only after that commit, so "acknowledged" still means "durable".

    A write refuses (StaleWriteError) before it changes anything, so a refused write leaves the
    shared transaction clean; any other failure rolls the batch back and runs its writes again one
    by one, so that only the faulty write fails."""

    MAX_BATCH = 64

    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self._sessions = sessions
        self._queue: queue.SimpleQueue[tuple[Write, Future[Any]] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._start = threading.Lock()
        self.commits = 0

    def submit(self, write: Write) -> Future[Any]:
        future: Future[Any] = Future()
        with self._start:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="group-writer", daemon=True)
                self._thread.start()
        self._queue.put((write, future))
        return future

    def close(self) -> None:
        with self._start:
            thread, self._thread = self._thread, None
        if thread is not None:
            self._queue.put(None)
            thread.join(timeout=10)

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            stopping = False
            while len(batch) < self.MAX_BATCH:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stopping = True
                    break
                batch.append(item)
            self._commit(batch)
            if stopping:
                return

    def _commit(self, batch: list[tuple[Write, Future[Any]]]) -> None:
        outcomes: list[tuple[Future[Any], Any, BaseException | None]] = []
        try:
            with self._sessions() as session, session.begin():
                for write, future in batch:
                    try:
                        outcomes.append((future, write(session), None))
                    except StaleWriteError as refusal:
                        outcomes.append((future, None, refusal))
        except Exception as error:
            if len(batch) == 1:
                if isinstance(error, IntegrityError):  # a row another writer made first
                    stale = StaleWriteError("the game has changed")
                    stale.__cause__ = error
                    error = stale
                batch[0][1].set_exception(error)
                return
            for one in batch:
                self._commit([one])
            return
        self.commits += 1
        for future, value, refused in outcomes:
            if refused is None:
                future.set_result(value)
            else:
                future.set_exception(refused)


def _game_data(row: GameRow) -> GameData:
    return GameData(
        id=row.id,
        game=row.game,
        players=row.players,
        seed=row.seed,
        options=dict(row.options or {}),
        status=row.status,
        move_count=row.move_count,
        to_move=row.to_move,
        result=row.result,
        created_at=row.created_at,
        updated_at=row.updated_at,
        seed_shown=bool(row.seed_shown),
        creator_hash=row.creator_hash,
        hints_allowed=bool(row.hints_allowed),
        rated=bool(row.rated),
    )


def _seat_data(row: SeatRow) -> SeatData:
    return SeatData(
        seat=row.seat, kind=row.kind, name=row.name, bot=row.bot, token_hash=row.token_hash,
        joined=row.joined, claim_hash=row.claim_hash, open=bool(row.open), account_id=row.account_id,
    )
