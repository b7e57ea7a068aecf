"""Games in play: creation, moves, undo, bots, replays and pushing changes to connected clients.

Each game has one asyncio lock. A move is checked (turn, expected move number, legality) and
applied to a copy of the state, committed to the database (compare-and-set on the move number),
and only then made current and announced; so of two moves racing for the same decision exactly
one is applied, and the other gets a clear error. Bots think in worker processes (`BotPool`) on
copies of the state and submit their choice through the same path as people.

Memory stays bounded: finished games nobody watches and games idle for a while leave memory, and
at most `ServerLimits.live_games` are held; any of them is rebuilt from the database when asked
for. A rebuild that fails is tried again on a fresh read (a few times): only a game whose stored
actions do not replay is logged once and answers 503 from then on.

With a `Cluster` (several processes on one PostgreSQL database), the per-game lock only orders
this process's requests: the database orders the writes of all processes (row lock,
compare-and-set on the move number, and a check that the stored actions are those of this copy).
A game held here catches up from the database whenever another process has changed it (a notice,
or a move that finds the game ahead), and its bots are played here only while this process holds
the game's bot lease.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from eixample.core.errors import EixampleError, IllegalActionError, MalformedRecordError
from eixample.core.protocol import Game, JsonDict, State
from eixample.core.records import make_record
from eixample.core.records import replay as replay_record
from eixample.core.records import undo as undo_state
from eixample.core.registry import game_names, get_game
from eixample.core.versions import (
    RULES_OPTION,
    is_versioned,
    match_rules,
    needs_matching,
    result_fits,
    rules_versions,
)
from eixample.server import bots, metrics, views
from eixample.server.cluster import Cluster
from eixample.server.db import (
    TABLE_CHANGED,
    GameData,
    SeatData,
    StaleWriteError,
    Store,
    fields_of,
    now,
    token_digest,
)
from eixample.server.errors import (
    ApiError,
    bad_request,
    conflict,
    forbidden,
    not_found,
    quoted,
    too_many,
    unavailable,
)
from eixample.server.limits import ServerLimits
from eixample.server.live import AUTOMA, SEAT_LETTERS, Connection, LiveGame, encode
from eixample.server.schemas import CreateGame
from eixample.server.tasks import cancel_and_wait

if TYPE_CHECKING:
    from eixample.server.table import TableService

log = logging.getLogger(__name__)

T = TypeVar("T")

SERVER_ONLY_OPTIONS = frozenset({"data_dir", RULES_OPTION})
"""Game options never accepted from a request: files or folders on the server, and the rules
version (a new game takes the newest; a stored game keeps its own)."""


UNLISTED_GAMES = frozenset({"tictactoe"})
"""Games kept out of the lobby's list: the smallest example, for tests and for reading."""

WEB_DIR = Path(__file__).resolve().parent.parent / "web"


def renderer_url(game_name: str) -> str | None:
    """The board renderer module of a game, if the page has one (web/games/<name>.js)."""
    return f"/static/games/{game_name}.js" if (WEB_DIR / "games" / f"{game_name}.js").is_file() else None


def derived_seed(seed: int, *parts: object) -> int:
    text = ":".join([str(seed), *map(str, parts)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


CANNOT_LOAD = "this game cannot be loaded"
BROKEN_REMEMBERED = 10_000
READ_TRIES = 3
"""How often a game is read and replayed before its stored actions are taken as not replaying."""
_STORED_AS_IS = ("id", "players", "seed", "options", "seats", "created_at", "updated_at",
                 "seed_shown", "creator_hash", "hints_allowed", "rated")
"""The fields a game in memory takes from its stored GameData unchanged."""
Replayed = tuple[State, list[list[float] | None]]
"""A game's state and the public scores after each of its moves."""


def status_of(seats: list[SeatData], finished: bool) -> str:
    if finished:
        return "finished"
    if any(seat.kind == "person" and not seat.joined for seat in seats):
        return "open"
    return "running"


_SOLO_OPPONENTS: dict[str, list[str]] = {}


def solo_opponents(game: Game) -> list[str]:
    """The names of the seats a one-seat game plays itself (empty if the game needs 2 players)."""
    if game.min_players > 1:
        return []
    if game.name not in _SOLO_OPPONENTS:
        try:
            names = views.automa_names(game.new_game(1, 0), 1)
        except Exception:
            log.exception("cannot set up a one-seat game of %s", game.name)
            names = []
        _SOLO_OPPONENTS[game.name] = names
    return list(_SOLO_OPPONENTS[game.name])


def with_newest_rules(game: Game, options: dict[str, Any]) -> dict[str, Any]:
    """The options to store for a new game: those asked for, and the rules version it is played
    under (the newest: `new_game` takes it when none is asked for), if the game has versions."""
    return {**options, RULES_OPTION: max(rules_versions(game))} if is_versioned(game) else dict(options)


def result_of(state: State) -> dict[str, Any] | None:
    if not state.is_terminal():
        return None
    return {"scores": state.scores(), "winners": state.winners()}


class GameManager:
    def __init__(
        self,
        store: Store,
        *,
        bot_delay: float = 0.5,
        limits: ServerLimits | None = None,
        cluster: Cluster | None = None,
    ) -> None:
        self.store = store
        self.cluster = cluster
        self.bot_delay = bot_delay
        self.limits = limits or ServerLimits()
        self.bot_pool = bots.BotPool(self.limits.bot_workers, self.limits.quick_bot_workers)
        self.games: dict[str, LiveGame] = {}
        self.broken: set[str] = set()
        self.connections_by_address: dict[str, int] = {}
        self._load_lock = asyncio.Lock()
        self._replay_cache: dict[str, tuple[int, State]] = {}
        self._file_cache: dict[str, FileReplay] = {}
        self._closing = False
        self._sweeper: asyncio.Task[None] | None = None
        self.table: TableService | None = None
        """Chat, clock, stand-in bots and rematches (server/table.py), when the app attaches it."""

    async def _db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        return await asyncio.to_thread(fn, *args, **kwargs)

    # -- life cycle ---------------------------------------------------------------------------

    async def startup(self) -> None:
        """Start the bot workers, then load the unfinished games and let their bots go on."""
        self.bot_pool.start()
        if self.cluster is not None:
            self.cluster.start(self.remote_change, self.catch_up_all, self.adopt_bots)
        for game_id in await self._db(self.store.unfinished_game_ids):
            try:
                await self.get(game_id)
            except ApiError:
                continue
        self._sweeper = asyncio.create_task(self._sweep_now_and_then(), name="sweeper")

    async def shutdown(self) -> None:
        self._closing = True
        self.bot_pool.stop()
        tasks = [live.bot_task for live in self.games.values() if live.bot_task is not None]
        if self._sweeper is not None:
            tasks.append(self._sweeper)
        await cancel_and_wait(tasks)
        if self.cluster is not None:
            await self.cluster.stop()
        for live in self.games.values():
            for conn in list(live.connections):
                conn.close()

    # -- catalogue and lobby ------------------------------------------------------------------

    @staticmethod
    def catalog() -> JsonDict:
        games = []
        for name in game_names():
            game = get_game(name)
            games.append(
                {
                    "name": game.name,
                    "title": game.title,
                    "min_players": game.min_players,
                    "max_players": game.max_players,
                    "options": [name for name in game.option_names() if name not in SERVER_ONLY_OPTIONS],
                    "switches": game.switch_options(),
                    "choices": {str(n): game.option_choices(n)
                                for n in range(game.min_players, game.max_players + 1)},
                    "ranges": {str(n): game.option_ranges(n)
                               for n in range(game.min_players, game.max_players + 1)},
                    "levels": bots.levels(game.name),
                    "renderer": renderer_url(game.name),
                    "automa": solo_opponents(game),
                    "listed": game.name not in UNLISTED_GAMES,
                    # optional parts of a game (not in the Game protocol): its house rules, and its
                    # options that list a whole number per seat
                    "house_rules": list(getattr(game, "house_rules", ())),
                    "seat_lists": dict(getattr(game, "seat_lists", {})),
                }
            )
        return {
            "games": games,
            "bots": list(bots.SUGGESTED_SPECS),
            "levels": bots.levels(),
            "bots_available": bots.ai_available(),
            "bot_ceilings": dict(bots.CEILINGS),
        }

    def _people_here(self) -> dict[str, int]:
        """Games in memory with people connected: how many of their seats are."""
        return {gid: len(live.seat_links) for gid, live in self.games.items() if live.seat_links}

    async def list_games(self, status: str | None) -> list[JsonDict]:
        """The lobby: games with people connected first (so a flood of new games cannot push them
        out of the list), then the most recently changed."""
        people = self._people_here()
        size = self.limits.lobby_size
        rows = await self._db(self.store.list_games, status, size)
        listed = {data.id for data in rows}
        missing = [gid for gid in sorted(people, key=people.__getitem__, reverse=True) if gid not in listed]
        if missing:
            rows += await self._db(self.store.list_games, status, size, missing[:size])
        rows.sort(key=lambda data: (-people.get(data.id, 0), -data.updated_at.timestamp()))
        rows = rows[:size]
        finished = [data.id for data in rows if data.status == "finished"]
        resigned = await self._db(self.table.db.resigned_seats, finished) if self.table and finished else {}
        out = []
        for data in rows:
            try:
                game: Game | None = get_game(data.game)
            except KeyError:
                game = None
            out.append(views.game_summary(data, game, resigned.get(data.id, frozenset())))
        return out

    async def create(
        self, request: CreateGame, owners: dict[int, tuple[str, str]] | None = None
    ) -> tuple[LiveGame, list[str | None], str]:
        """Validate and store a new game; return it with the plain seat tokens (persons only)
        and the creator's token. `owners`: seat -> (account id, name) of the seats that belong
        to accounts (server/seats.py): those have no token."""
        try:
            game = get_game(request.game)
        except KeyError as error:
            raise bad_request(quoted(str(error.args[0]), 80),
                              "unknown_game", game=quoted(request.game)) from error
        players = len(request.seats)
        if not game.min_players <= players <= game.max_players:
            raise bad_request(
                f"{game.title} is for {game.min_players} to {game.max_players} players, not {players}"
                if game.min_players != game.max_players
                else f"{game.title} is for {game.min_players} players, not {players}",
                "player_count", game=game.title, min=game.min_players, max=game.max_players, players=players,
            )
        known = set(game.option_names()) - SERVER_ONLY_OPTIONS
        unknown = sorted(set(request.options) - known)
        if unknown:
            raise bad_request(
                f"unknown option(s) for {game.name}: {quoted(', '.join(unknown))}"
                f" (known: {', '.join(sorted(known)) or 'none'})",
                "unknown_option", options=quoted(", ".join(unknown)),
            )
        specs: dict[int, str] = {}  # the bot seats' specs, a level name standing for its own
        for index, seat in enumerate(request.seats):
            if seat.kind == "bot":
                specs[index] = bots.spec_of(seat.bot or "random", game.name)
                try:
                    bots.check_spec(specs[index])
                except ValueError as error:
                    raise bad_request(
                        f"seat {SEAT_LETTERS[index]}: {quoted(str(error), 120)}", "bad_bot",
                        seat=SEAT_LETTERS[index], problem=quoted(str(error), 120),
                    ) from error
        people = sum(1 for seat in request.seats if seat.kind == "person")
        if request.seed is not None and people >= 2 and not request.seed_shown:
            raise bad_request(
                "seed: a game of two or more people does not take a seed chosen by a client, unless it "
                'is created with "seed_shown": true (the lobby and every seat then show it); '
                "leave the seed out and the server draws one",
                "seed_not_shown",
            )
        seed = request.seed if request.seed is not None else secrets.randbits(63)
        try:
            state = game.new_game(players, seed, **request.options)
        except (TypeError, ValueError, EixampleError) as error:
            problem = quoted(str(error), 120)
            raise bad_request(
                f"cannot set up {game.title} with these options: {problem}", "bad_options",
                game=game.title, problem=problem,
            ) from error

        tokens: list[str | None] = []
        seats: list[SeatData] = []
        for index, spec in enumerate(request.seats):
            letter = SEAT_LETTERS[index]
            if spec.kind == "bot":
                bot = specs[index]
                tokens.append(None)
                seats.append(SeatData(index, "bot", spec.name or f"Bot {letter}", bot, None, True))
            elif owners and index in owners:
                account_id, account_name = owners[index]
                tokens.append(None)
                name = spec.name or account_name
                seats.append(SeatData(index, "person", name, None, None, account_id=account_id))
            else:
                token = secrets.token_urlsafe(24)
                tokens.append(token)
                name = spec.name or f"Player {letter}"
                seats.append(SeatData(index, "person", name, None, token_digest(token), open=spec.open))
        # a solo game's opponent sits at the table with a seat of its own, played by the game
        for index, name in enumerate(views.automa_names(state, players), start=players):
            tokens.append(None)
            seats.append(SeatData(index, AUTOMA, name, None, None, True))
        creator_token = secrets.token_urlsafe(24)

        game_id = secrets.token_urlsafe(8)
        while game_id in self.games or await self._db(self.store.game_exists, game_id):
            game_id = secrets.token_urlsafe(8)
        stamp = now()
        data = GameData(
            id=game_id,
            game=game.name,
            players=players,
            seed=seed,
            options=with_newest_rules(game, request.options),
            status=status_of(seats, state.is_terminal()),
            move_count=0,
            to_move=state.current_player(),
            result=result_of(state),
            created_at=stamp,
            updated_at=stamp,
            seats=seats,
            seed_shown=request.seed_shown,
            creator_hash=token_digest(creator_token),
            hints_allowed=request.hints_allowed,
            rated=request.rated,
        )
        await self._db(self.store.create_game, data)
        live = self._live(data, game, state, [views.public_scores(state)])
        self.games[game_id] = live
        self._evict_over_cap()
        if self.table is not None:
            await self.table.created(live, request.clock_seconds, request.turn_days, request.time_out)
        self._schedule_bot(live)
        return live, tokens, creator_token

    # -- loading and leaving memory -----------------------------------------------------------

    def _live(self, data: GameData, game: Game, state: State, history: list[list[float] | None]) -> LiveGame:
        return LiveGame(
            game_name=data.game,
            game=game,
            state=state,
            actions=list(data.actions),
            history=history,
            **fields_of(data, _STORED_AS_IS),
        )

    def _rebuild(self, data: GameData) -> LiveGame:
        """Replay a stored game: its setup and every stored action, in order, each by the seat
        whose turn it was; any other stored action list is refused."""
        game = get_game(data.game)
        self._keep_rules(game, data)
        state = game.new_game(data.players, data.seed, **data.options)
        history = [views.public_scores(state)]
        for index, (seat, action) in enumerate(data.actions):
            if state.current_player() != seat:
                raise ValueError(f"stored action {index} {action!r} by seat {seat} out of turn")
            state.apply(action)
            history.append(views.public_scores(state))
        if len(data.actions) != data.move_count:
            raise ValueError(f"{len(data.actions)} stored actions, but the game is at move {data.move_count}")
        return self._live(data, game, state, history)

    def _keep_rules(self, game: Game, data: GameData) -> None:
        """A game stored before rules versions: matched to the rules it was played under (every
        stored action legal and made by the seat to move, and its stored result or the seat to
        move at the end the same), which it keeps."""
        if not needs_matching(game, data.options):
            return
        record = make_record(game.name, data.players, data.seed, data.options, [a for _, a in data.actions])
        fits = result_fits(data.result, None if data.result else data.to_move)
        version, _ = match_rules(game, record, fits, [seat for seat, _ in data.actions])
        data.options = {**data.options, RULES_OPTION: version}
        self.store.keep_options(data.id, data.options)

    async def get(self, game_id: str) -> LiveGame:
        live = self.games.get(game_id)
        if live is not None:
            live.touch()
            return live
        if len(game_id) > 32:
            raise not_found(f"no game '{game_id[:32]}...'", "no_game")
        if game_id in self.broken:
            raise unavailable(CANNOT_LOAD, "cannot_load")
        async with self._load_lock:
            live = self.games.get(game_id)
            if live is not None:
                return live
            live = await self._load(game_id)
            self.games[game_id] = live
            self._evict_over_cap()
            if self.table is not None:
                await self.table.loaded(live)
            self._schedule_bot(live)
            return live

    async def _load(self, game_id: str) -> LiveGame:
        """Read a stored game and rebuild it. A replay that fails is tried again on a fresh read
        (another process may have been writing the game); a game whose stored actions fail every
        time is remembered as broken and answers 503."""
        failure: Exception | None = None
        for _ in range(READ_TRIES):
            data = await self._db(self.store.load_game, game_id)
            if data is None:
                raise not_found(f"no game '{game_id}'", "no_game")
            try:
                return await self._db(self._rebuild, data)
            except Exception as error:
                failure = error
        log.error("game %s cannot be loaded; it answers 503 until the server restarts", game_id,
                  exc_info=failure)
        if len(self.broken) >= BROKEN_REMEMBERED:
            self.broken.pop()
        self.broken.add(game_id)
        raise unavailable(CANNOT_LOAD, "cannot_load")

    @staticmethod
    def _evictable(live: LiveGame) -> bool:
        busy = live.bot_task is not None and not live.bot_task.done()
        return not live.connections and not busy and not live.lock.locked()

    def _evict(self, live: LiveGame) -> None:
        if self.games.get(live.id) is live:
            del self.games[live.id]
            self._replay_cache.pop(live.id, None)
            if self.table is not None:
                self.table.tables.pop(live.id, None)

    def _evict_over_cap(self) -> None:
        excess = len(self.games) - self.limits.live_games
        if excess <= 0:
            return
        candidates = sorted((live for live in self.games.values() if self._evictable(live)), key=_last_used)
        for live in candidates[:excess]:
            self._evict(live)

    def sweep(self) -> None:
        """Let finished games nobody watches, and games idle too long, leave memory."""
        idle_since = time.monotonic() - self.limits.idle_seconds
        for live in list(self.games.values()):
            if self._evictable(live) and (live.finished or live.last_used <= idle_since):
                self._evict(live)
        self._evict_over_cap()

    async def _sweep_now_and_then(self) -> None:
        while True:
            await asyncio.sleep(self.limits.sweep_seconds)
            self.sweep()

    # -- seats --------------------------------------------------------------------------------

    @staticmethod
    def authenticate(live: LiveGame, token: str | None) -> int | None:
        """The seat a token belongs to; None (a spectator) without a token. A seat claimed by a
        browser answers only to that browser's private token, no longer to its invitation. In a
        game of two or more people an unclaimed invitation only claims its seat: the creator, who
        holds every invitation, cannot read a seat's hidden state or act for it before (or
        without) its player."""
        if token is None:
            return None
        digest = token_digest(token)
        for seat in live.seats:
            if seat.claim_hash is not None and hmac.compare_digest(seat.claim_hash, digest):
                return seat.seat
        for seat in live.seats:
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                if seat.claim_hash is not None:
                    raise forbidden(
                        f"seat {SEAT_LETTERS[seat.seat]} has been claimed by its player's browser: "
                        "this invitation no longer acts for it",
                        "invitation_claimed", seat=SEAT_LETTERS[seat.seat],
                    )
                if sum(1 for other in live.seats if other.kind == "person") >= 2:
                    raise forbidden(
                        f"seat {SEAT_LETTERS[seat.seat]}'s invitation only claims the seat: claim it "
                        f"(POST /api/games/{live.id}/claim), then use the seat token that answers",
                        "invitation_claims_only", seat=SEAT_LETTERS[seat.seat],
                    )
                return seat.seat
        raise forbidden("this seat token does not belong to this game", "seat_token_other_game")

    def is_creator(self, live: LiveGame, token: str) -> bool:
        return live.creator_hash is not None and hmac.compare_digest(live.creator_hash, token_digest(token))

    async def claim(self, live: LiveGame, invitation: str) -> tuple[int, str]:
        """Trade a seat's invitation token for a private seat token (the seat's only key from now)."""
        digest = token_digest(invitation)
        seat = next(
            (s for s in live.seats if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest)),
            None,
        )
        if seat is None:
            raise forbidden("this invitation token does not belong to this game", "invitation_other_game")
        return await self._claim(live, seat)

    async def join_open(self, live: LiveGame, seat_number: int) -> tuple[int, str]:
        """Give whoever asks an open seat (one its creator opened to anyone) while it is unclaimed:
        the same private token a claimed invitation gives."""
        if not 0 <= seat_number < len(live.seats) or live.seats[seat_number].kind != "person":
            raise bad_request(f"seat {seat_number} is not a person's seat of this game", "not_a_person_seat")
        seat = live.seats[seat_number]
        if not seat.open:
            raise forbidden(f"seat {SEAT_LETTERS[seat.seat]} is taken by invitation only", "invitation_only",
                            seat=SEAT_LETTERS[seat.seat])
        if live.finished:
            raise conflict("the game is over", "game_over")
        return await self._claim(live, seat)

    async def _claim(self, live: LiveGame, seat: SeatData) -> tuple[int, str]:
        if seat.claim_hash is not None:
            raise conflict(f"seat {SEAT_LETTERS[seat.seat]} has already been claimed", "seat_claimed",
                           seat=SEAT_LETTERS[seat.seat])
        private = secrets.token_urlsafe(24)
        async with live.lock:
            seats = [SeatData(**{**vars(s), "joined": s.joined or s is seat}) for s in live.seats]
            status = status_of(seats, live.finished)
            claimed = await self._db(self.store.claim_seat, live.id, seat.seat, token_digest(private), status)
            if not claimed:
                self._evict(live)
                raise conflict(f"seat {SEAT_LETTERS[seat.seat]} has already been claimed", "seat_claimed",
                           seat=SEAT_LETTERS[seat.seat])
            seat.claim_hash = token_digest(private)
            seat.joined = True
            self._end_seat_connections(live, seat.seat, "the seat has been claimed")
            self._announce_presence(live)
        return seat.seat, private

    async def claim_with(self, live: LiveGame, seat: int, claim_hash: str) -> None:
        """Claim a seat for a browser whose private token is known by its digest (a rematch)."""
        async with live.lock:
            seats = [SeatData(**{**vars(s), "joined": s.joined or s.seat == seat}) for s in live.seats]
            await self._db(self.store.claim_seat, live.id, seat, claim_hash, status_of(seats, live.finished))
            live.seats[seat].claim_hash = claim_hash
            live.seats[seat].joined = True

    async def release(self, live: LiveGame, seat: int) -> None:
        """Forget a seat's claim (its player lost the browser): the invitation acts for it again."""
        if not 0 <= seat < len(live.seats) or live.seats[seat].kind != "person":
            raise bad_request(f"seat {seat} is not a person's seat of this game", "not_a_person_seat")
        if live.seats[seat].claim_hash is None:
            raise conflict(f"seat {SEAT_LETTERS[seat]} is not claimed",
                           "seat_not_claimed", seat=SEAT_LETTERS[seat])
        async with live.lock:
            await self._db(self.store.release_seat, live.id, seat)
            live.seats[seat].claim_hash = None
            self._end_seat_connections(live, seat, "the seat has been released by the game's creator")
            self._announce_presence(live)

    @staticmethod
    def _end_seat_connections(live: LiveGame, seat: int, reason: str) -> None:
        for conn in list(live.connections):
            if conn.seat == seat:
                conn.send({"type": "error", "status": 403, "error": reason, "code": "forbidden", "args": {}})
                conn.end(4403, reason)

    async def join(self, live: LiveGame, seat: int) -> None:
        """Mark a person's seat as taken (its token was used)."""
        if live.seats[seat].joined:
            return
        async with live.lock:
            if live.seats[seat].joined:
                return
            seats = [SeatData(**{**vars(s), "joined": s.joined or s.seat == seat}) for s in live.seats]
            await self._db(self.store.mark_joined, live.id, seat, status_of(seats, live.finished))
            live.seats[seat].joined = True
            self._announce_presence(live)

    # -- moves --------------------------------------------------------------------------------

    @staticmethod
    def _check_at_move(live: LiveGame, expected_move: int, what: str, advice: str = "") -> None:
        """Refuse a `what` (a move, an undo) on a finished game, or one asked at another move."""
        if live.finished:
            raise conflict("the game is over", "game_over")
        if expected_move != live.move_number:
            raise conflict(
                f"stale {what}: the game is at move {live.move_number}, "
                f"this request was for move {expected_move}{advice}",
                "stale_move",
            )

    def _check_turn(self, live: LiveGame, seat: int, expected_move: int) -> None:
        self._check_at_move(live, expected_move, "move", "; decide again on the current state")
        current = live.state.current_player()
        if current != seat:
            raise conflict(f"it is not your turn: waiting for {live.seat_label(current)}", "not_your_turn",
                           player=live.seat_label(current))

    async def move(self, live: LiveGame, seat: int, action: str, expected_move: int) -> None:
        if live.seats[seat].kind != "person":
            raise forbidden("a bot's seat is played by the server", "bot_seat")
        if self.table is not None:
            self.table.check_move(live, seat)
        await self._apply(live, seat, action, expected_move)
        self._schedule_bot(live)

    async def _apply(self, live: LiveGame, seat: int, action: str, expected_move: int) -> None:
        started = time.perf_counter()
        async with live.lock:
            if self.cluster is not None and expected_move != live.move_number:
                await self._catch_up_and_tell(live)  # another process may have moved
            self._check_turn(live, seat, expected_move)
            next_state = live.state.clone()
            try:
                next_state.apply(action)
            except IllegalActionError as error:
                raise bad_request(f"illegal action: {quoted(str(error), 160)}", "illegal_action",
                                  action=quoted(action, 60)) from error
            joining = seat if not live.seats[seat].joined else None
            seats = [SeatData(**{**vars(s), "joined": s.joined or s.seat == joining}) for s in live.seats]
            written = self.store.append_action_later(
                live.id,
                live.move_number,
                seat,
                action,
                status=status_of(seats, next_state.is_terminal()),
                to_move=next_state.current_player(),
                result=result_of(next_state),
                joined_seat=joining,
                held=list(live.actions),
            )
            await self._stored(live, written, "move")
            live.state = next_state
            live.actions.append((seat, action))
            live.history.append(views.public_scores(next_state, live.views_of(next_state)))
            if joining is not None:
                live.seats[joining].joined = True
            live.updated_at = now()
            live.touch()
            self._broadcast(live)
        metrics.move_stored(live.game_name, started)

    async def _stored(self, live: LiveGame, written: Future[None], what: str) -> None:
        """Wait for a move's or an undo's write to commit; if the stored game has changed since
        this copy of it, catch up (`_fall_behind`) and refuse the `what` as stale."""
        try:
            await asyncio.wrap_future(written)
        except StaleWriteError as error:
            await self._fall_behind(live)
            raise conflict(f"stale {what}: the game has changed ({error}); decide again",
                           "stale_move") from error

    async def undo(self, live: LiveGame, seat: int, expected_move: int) -> None:
        if live.seats[seat].kind != "person":
            raise forbidden("a bot's seat is played by the server", "bot_seat")
        if self.table is not None:
            self.table.check_move(live, seat)  # a stand-in's decisions are not its player's to take back
        async with live.lock:
            if self.cluster is not None and expected_move != live.move_number:
                await self._catch_up_and_tell(live)
            self._check_at_move(live, expected_move, "undo")
            if live.state.current_player() != seat:
                raise conflict("you can only undo within your own turn", "undo_own_turn")
            if not live.undo_allowed(seat):
                raise conflict("nothing to undo: undo stops at a random draw or another player's decision",
                               "nothing_to_undo")
            try:
                previous = undo_state(live.game, live.state)
            except IllegalActionError as error:
                raise conflict(str(error), "nothing_to_undo") from error
            written = self.store.remove_last_action_later(
                live.id,
                live.move_number - 1,
                status=status_of(live.seats, False),
                to_move=previous.current_player(),
                held=list(live.actions),
            )
            await self._stored(live, written, "undo")
            live.state = previous
            live.actions.pop()
            live.history.pop()
            live.updated_at = now()
            live.touch()
            self._broadcast(live)

    # -- bots ---------------------------------------------------------------------------------

    def _bot_seat(self, live: LiveGame) -> int | None:
        if live.finished or (self.table is not None and self.table.is_ended(live)):
            return None
        seat = live.state.current_player()
        return seat if 0 <= seat < len(live.seats) and self._bot_spec(live, seat) is not None else None

    def _bot_spec(self, live: LiveGame, seat: int) -> str | None:
        """The bot that plays the seat: a bot's own, or the stand-in for a person who left."""
        if live.seats[seat].kind == "bot":
            return live.seats[seat].bot or "random"
        return self.table.stand_in(live, seat) if self.table is not None else None

    def schedule_bots(self, live: LiveGame) -> None:
        self._schedule_bot(live)

    def _schedule_bot(self, live: LiveGame) -> None:
        if self._closing or self._bot_seat(live) is None:
            return
        if live.bot_task is not None and not live.bot_task.done():
            return
        live.bot_task = asyncio.create_task(self._bot_turns(live), name=f"bots-{live.id}")

    async def _bot_turns(self, live: LiveGame) -> None:
        """Play bot decisions until a person must decide, the game ends, or this copy of the game
        is no longer the server's (a newer one was loaded from the database)."""
        failures = 0
        try:
            while self.games.get(live.id) is live and (seat := self._bot_seat(live)) is not None:
                if self.cluster is not None and not await self.cluster.hold_bots(live.id):
                    return  # another process plays this game's bots
                if self.bot_delay > 0:
                    await asyncio.sleep(self.bot_delay)
                async with live.lock:
                    if self._bot_seat(live) != seat:
                        continue
                    snapshot = live.state.clone()
                    expected = live.move_number
                spec = self._bot_spec(live, seat) or "random"
                seed = derived_seed(live.seed, "bot", seat, expected)
                fallback_seed = derived_seed(live.seed, "fallback", seat, expected)
                try:
                    action = await self.bot_pool.choose(spec, seed, snapshot, seat, fallback_seed,
                                                        game=live.id, address=live.address)
                except RuntimeError:
                    return  # the pool is stopped: the server is closing
                except Exception:
                    log.exception("game %s: bot worker failed; retrying", live.id)
                    await asyncio.sleep(1.0)
                    continue
                if self._bot_seat(live) != seat:
                    continue  # its player took the seat back while the stand-in thought
                try:
                    await self._apply(live, seat, action, expected)
                    failures = 0
                except ApiError as error:
                    failures += 1
                    log.warning("game %s: bot move %r rejected: %s", live.id, action, error.message)
                    if failures > 3:
                        await asyncio.sleep(min(5.0, 0.1 * failures))
                except Exception:
                    log.exception("game %s: bot move could not be stored; retrying", live.id)
                    await asyncio.sleep(1.0)
        finally:
            if self.cluster is not None and not self._closing and live.id in self.cluster.held:
                await self.cluster.let_go_of_bots(live.id)

    # -- other processes (a cluster on PostgreSQL) ----------------------------------------------

    async def _fall_behind(self, live: LiveGame) -> None:
        """A write found the database ahead of this copy of the game: alone, the next request
        rebuilds the game; in a cluster, the copy (with its connections) catches up now."""
        if self.cluster is None:
            self._evict(live)
        else:
            await self._catch_up_and_tell(live)

    async def _catch_up(self, live: LiveGame) -> tuple[bool, set[int]]:
        """Make this copy of the game the stored one (the caller holds its lock): whether its
        moves changed, and the seats whose claim changed."""
        read = await self._read_stored(live)
        if read is None:
            return False, set()
        data, replayed = read
        if replayed is not None:
            live.state, live.history = replayed
            live.actions = list(data.actions)
        claims = set()
        for seat, stored in zip(live.seats, data.seats, strict=False):
            if seat.claim_hash != stored.claim_hash:
                claims.add(seat.seat)
            seat.joined, seat.claim_hash = stored.joined, stored.claim_hash
        live.updated_at = data.updated_at
        return replayed is not None, claims

    async def _read_stored(self, live: LiveGame) -> tuple[GameData, Replayed | None] | None:
        """The stored game (None if it is gone) and, if its actions are not the copy's, its state
        and score history. A replay that fails is tried again on a fresh read: only stored actions
        that fail every time raise."""
        failure: Exception | None = None
        for _ in range(READ_TRIES):
            data = await self._db(self.store.load_game, live.id)
            if data is None:
                return None
            if data.actions == live.actions:
                return data, None
            try:
                return data, await self._replay_onto(live, data)
            except Exception as error:
                failure = error
        assert failure is not None
        raise failure

    async def _replay_onto(self, live: LiveGame, data: GameData) -> Replayed:
        """The state and score history of the stored game, from the copy's own when it only lacks
        some later actions."""
        known = len(live.actions)
        if data.actions[:known] == live.actions and data.move_count == len(data.actions):
            return await self._db(self._extend, live, data.actions[known:])
        rebuilt = await self._db(self._rebuild, data)  # an undo, or a copy too far behind
        return rebuilt.state, rebuilt.history

    @staticmethod
    def _extend(live: LiveGame, actions: list[tuple[int, str]]) -> tuple[State, list[list[float] | None]]:
        """The game's state after further stored actions, each by the seat whose turn it was."""
        state = live.state.clone()
        history = list(live.history)
        for seat, action in actions:
            if state.current_player() != seat:
                raise ValueError(f"stored action {action!r} by seat {seat} out of turn")
            state.apply(action)
            history.append(views.public_scores(state))
        return state, history

    async def _catch_up_and_tell(self, live: LiveGame) -> None:
        """Catch up (the caller holds the lock) and push what changed to this process's clients."""
        moved, claims = await self._catch_up(live)
        for seat in claims:
            self._end_seat_connections(live, seat, "the seat's claim has changed")
        if moved:
            live.touch()
            self._broadcast(live)
        elif claims:
            self._announce_presence(live)

    async def remote_change(self, game_id: str, move_number: int) -> None:
        """Another process changed a game (a notice): clients here see the change too."""
        live = self.games.get(game_id)
        if live is None or game_id in self.broken:
            return  # not held here: it is loaded from the database when asked for
        if move_number == TABLE_CHANGED:
            if self.table is not None:
                await self.table.remote_change(live)
            return
        async with live.lock:  # read even at the same move number: an undo and a move give one
            await self._catch_up_and_tell(live)
        # no bot scheduling here: the process that made the change plays the bots it calls for,
        # and if it dies, the lease scan (adopt_bots) hands them to another process

    async def catch_up_all(self) -> None:
        """Notices may have been missed: every game held here catches up."""
        for live in list(self.games.values()):
            with contextlib.suppress(Exception):
                await self.remote_change(live.id, -1)

    async def adopt_bots(self, game_ids: list[str]) -> None:
        """Games whose bots no process plays (their process died): play them here, if this
        process wins their lease."""
        for game_id in game_ids:
            try:
                live = await self.get(game_id)
            except ApiError:
                continue
            async with live.lock:
                await self._catch_up_and_tell(live)
            self._schedule_bot(live)

    async def refresh_seats(self, live: LiveGame, token: str | None) -> None:
        """In a cluster, a token this copy does not know may have been given out by another
        process a moment ago (a claim): catch up before it is judged."""
        if self.cluster is None or token is None:
            return
        digest = token_digest(token)
        for seat in live.seats:
            if seat.claim_hash is not None and hmac.compare_digest(seat.claim_hash, digest):
                return
            unclaimed = seat.token_hash is not None and seat.claim_hash is None
            if unclaimed and hmac.compare_digest(str(seat.token_hash), digest):
                return
        async with live.lock:
            await self._catch_up_and_tell(live)

    # -- connections --------------------------------------------------------------------------

    def _broadcast(self, live: LiveGame) -> None:
        """Push the change to every connected client, as its own seat sees the game: each seat's
        message is built once, and encoded once as a whole and once as a patch against the
        message pushed before; the same text goes to all of that seat's connections."""
        live.version += 1
        messages: dict[int | None, JsonDict] = {}
        texts: dict[tuple[int | None, bool], str] = {}
        for conn in list(live.connections):
            if conn.closed:
                live.connections.discard(conn)
                continue
            seat = conn.seat
            key = (seat, conn.patches and seat in live.pushed)
            if key not in texts:
                if seat not in messages:
                    messages[seat] = views.seat_message(live, seat)
                whole = messages[seat]
                texts[key] = encode(views.patch_message(live, live.pushed[seat], whole) if key[1] else whole)
            conn.send_text(texts[key])
        live.pushed = messages
        if self.table is not None:
            self.table.changed(live)

    def _announce_presence(self, live: LiveGame) -> None:
        """One small message, the same for everyone: which seats are taken and connected."""
        presence = views.presence_message(live)
        live.pushed = {  # as the clients apply it to what they hold
            seat: {**message, "seats": presence["seats"], "status": presence["status"]}
            for seat, message in live.pushed.items()
        }
        text = encode(presence)
        for conn in list(live.connections):
            conn.send_text(text)

    def admit(self, address: str) -> None:
        """Count a new WebSocket connection from `address`; 429 above the per-address cap."""
        count = self.connections_by_address.get(address, 0)
        if count >= self.limits.ws_per_address:
            raise too_many("too many open connections from your address", 10, "too_many_connections")
        self.connections_by_address[address] = count + 1

    def dismiss(self, address: str) -> None:
        left = self.connections_by_address.get(address, 0) - 1
        if left > 0:
            self.connections_by_address[address] = left
        else:
            self.connections_by_address.pop(address, None)

    async def connect(
        self, live: LiveGame, websocket: Any, seat: int | None, address: str = "", *, patches: bool = False
    ) -> Connection:
        """A new client: it alone gets the full view; the others hear of it only if a seat's
        presence changed (a small message), so a spectator joining costs the others nothing.
        With `patches`, later changes come as patches against the messages it holds."""
        if len(live.connections) >= self.limits.ws_per_game:
            raise too_many("this game has as many connections as it takes", 10, "game_full_of_connections")
        conn = Connection(websocket, seat, address, patches=patches)
        if seat is not None:
            await self.join(live, seat)
        async with live.lock:
            arrived = seat is not None and live.link_seat(seat)
            message = views.seat_message(live, seat)
            conn.send(message)
            live.pushed[seat] = message
            if arrived:
                self._announce_presence(live)
                if self.table is not None and seat is not None:
                    self.table.seat_here(live, seat)
            live.connections.add(conn)
            live.touch()
        return conn

    async def disconnect(self, live: LiveGame, conn: Connection) -> None:
        conn.close()
        if conn not in live.connections:
            return
        live.connections.discard(conn)
        live.touch()
        if conn.seat is not None and live.unlink_seat(conn.seat) and not self._closing:
            self._announce_presence(live)

    # -- records and replays ------------------------------------------------------------------

    def record(self, live: LiveGame) -> JsonDict:
        if not live.finished:
            raise conflict("the record of a game is public once the game is over", "record_not_over")
        return views.public_record(live)

    async def replay(self, live: LiveGame, step: int | None) -> JsonDict:
        if not live.finished:
            raise conflict("a game can be replayed once it is over", "replay_not_over")
        total = live.move_number
        if step is None:
            step = total
        if not 0 <= step <= total:
            raise bad_request(f"step must be between 0 and {total}", "bad_step", total=total)
        state = await self._db(self._state_at, live, step)
        return views.replay_message(live, step, state)

    async def replay_file(self, record: JsonDict, step: int | None) -> JsonDict:
        """Step `step` of a record sent by a client (a file it opened): checked and replayed like
        any record, never stored. The record must reach the end of its game."""
        return await self._db(self._replay_file, record, step)

    def _replay_file(self, record: JsonDict, step: int | None) -> JsonDict:
        name = record.get("game")
        try:
            game = get_game(name) if isinstance(name, str) else None
        except KeyError:
            game = None
        if game is None:
            raise bad_request(f"this record is not of a game this server knows ({quoted(str(name)[:40])})",
                              "record_unknown_game", game=quoted(str(name)[:40]))
        key = hashlib.sha256(encode(record).encode()).hexdigest()
        replayed = self._file_cache.pop(key, None) or _replay_whole(game, record)
        self._file_cache[key] = replayed  # the most recently used last
        if len(self._file_cache) > FILE_REPLAYS_KEPT:
            self._file_cache.pop(next(iter(self._file_cache)))
        start, actions, action_seats, history, final = replayed
        total = len(actions)
        step = total if step is None else step
        if not 0 <= step <= total:
            raise bad_request(f"step must be between 0 and {total}", "bad_step", total=total)
        state = start.clone()
        for action in actions[:step]:
            state.apply(action)
        seats = views.record_seats(record, start)
        to_move = state.current_player()
        return {
            "type": "replay", "game_id": "", "game": game.name, "title": game.title,
            "step": step, "steps": total,
            "actions": actions, "action_seats": action_seats, "seats": seats,
            "view": views.spectator_view(state),
            "decision": views.decision_message(state) if state.is_terminal() else {
                "key": "toDecide", "args": {"player": _seat_label(seats, to_move)}},
            "current_player": to_move, "score_history": history, "result": views.final_result(final),
        }

    def _state_at(self, live: LiveGame, step: int) -> State:
        cached = self._replay_cache.get(live.id)
        if cached is not None and cached[0] <= step:
            state = cached[1].clone()
            for _seat, action in live.actions[cached[0] : step]:
                state.apply(action)
        else:
            record = live.state.record()
            state = replay_record(live.game, record, upto=step)
        self._replay_cache[live.id] = (step, state.clone())
        if len(self._replay_cache) > 64:
            self._replay_cache.pop(next(iter(self._replay_cache)))
        return state


FILE_REPLAYS_KEPT = 16
"""Records opened from files kept replayed in memory, so that stepping through one is cheap."""
FileReplay = tuple[State, list[str], list[int], list[list[float] | None], State]
"""A record replayed: its first state, actions, the seat of each, the scores after each, its end."""


def _replay_whole(game: Game, record: JsonDict) -> FileReplay:
    try:
        start = replay_record(game, record, upto=0)
    except MalformedRecordError as error:
        raise bad_request(quoted(str(error), 240), "bad_record", problem=quoted(str(error), 240)) from error
    actions: list[str] = record["actions"]
    state = start.clone()
    seats: list[int] = []
    history = [views.public_scores(state)]
    for index, action in enumerate(actions):
        if state.is_terminal():
            raise bad_request(f"game record: action {index} comes after the end of the game",
                              "record_after_end", index=index)
        seats.append(state.current_player())
        try:
            state.apply(action)
        except IllegalActionError as error:
            raise bad_request(f"game record: action {index} {quoted(action, 60)} is illegal: "
                              f"{quoted(str(error), 160)}", "record_illegal_action",
                              index=index, action=quoted(action, 60)) from error
        history.append(views.public_scores(state))
    if not state.is_terminal():
        raise bad_request("game record: the game does not reach its end (only a finished game replays)",
                          "record_unfinished")
    return start, list(actions), seats, history, state


def _seat_label(seats: list[JsonDict], seat: int) -> str:
    return f"{seats[seat]['name']} ({SEAT_LETTERS[seat]})" if 0 <= seat < len(seats) else f"seat {seat}"


def _last_used(live: LiveGame) -> float:
    return live.last_used
