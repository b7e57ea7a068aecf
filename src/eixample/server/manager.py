"""Games in play: creation, moves, undo, bots, replays and pushing changes to connected clients.

Each game has one asyncio lock. A move is checked (turn, expected move number, legality) and
applied to a copy of the state, committed to the database, and only then made current and
announced; so of two moves racing for the same decision exactly one is applied, and the other
gets a clear error. Bots think in worker threads on copies of the state and submit their
choice through the same path as people.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from eixample.core.errors import EixampleError, IllegalActionError
from eixample.core.protocol import Game, JsonDict, State
from eixample.core.records import replay as replay_record
from eixample.core.records import undo as undo_state
from eixample.core.registry import game_names, get_game
from eixample.server import bots, views
from eixample.server.db import GameData, SeatData, StaleWriteError, Store, now, token_digest
from eixample.server.errors import ApiError, bad_request, conflict, forbidden, not_found
from eixample.server.live import AUTOMA, SEAT_LETTERS, Connection, LiveGame
from eixample.server.schemas import CreateGame

log = logging.getLogger(__name__)

T = TypeVar("T")

SERVER_ONLY_OPTIONS = frozenset({"data_dir"})
"""Game options that name files or folders on the server: never accepted from a request."""


WEB_DIR = Path(__file__).resolve().parent.parent / "web"


def renderer_url(game_name: str) -> str | None:
    """The board renderer module of a game, if the page has one (web/games/<name>.js)."""
    return f"/static/games/{game_name}.js" if (WEB_DIR / "games" / f"{game_name}.js").is_file() else None


def derived_seed(seed: int, *parts: object) -> int:
    text = ":".join([str(seed), *map(str, parts)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


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


def result_of(state: State) -> dict[str, Any] | None:
    if not state.is_terminal():
        return None
    return {"scores": state.scores(), "winners": state.winners()}


class GameManager:
    def __init__(self, store: Store, *, bot_delay: float = 0.5) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.games: dict[str, LiveGame] = {}
        self._load_lock = asyncio.Lock()
        self._replay_cache: dict[str, tuple[int, State]] = {}
        self._closing = False

    async def _db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        return await asyncio.to_thread(fn, *args, **kwargs)

    # -- life cycle ---------------------------------------------------------------------------

    async def startup(self) -> None:
        """Load the unfinished games and let their bots go on."""
        for game_id in await self._db(self.store.unfinished_game_ids):
            try:
                live = await self.get(game_id)
            except Exception:
                log.exception("cannot restore game %s", game_id)
                continue
            self._schedule_bot(live)

    async def shutdown(self) -> None:
        self._closing = True
        tasks = [live.bot_task for live in self.games.values() if live.bot_task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
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
                    "renderer": renderer_url(game.name),
                    "automa": solo_opponents(game),
                }
            )
        return {"games": games, "bots": list(bots.SUGGESTED_SPECS), "bots_available": bots.ai_available()}

    async def list_games(self, status: str | None) -> list[JsonDict]:
        rows = await self._db(self.store.list_games, status)
        out = []
        for data in rows:
            try:
                game: Game | None = get_game(data.game)
            except KeyError:
                game = None
            out.append(views.game_summary(data, game))
        return out

    async def create(self, request: CreateGame) -> tuple[LiveGame, list[str | None]]:
        """Validate and store a new game; return it with the plain seat tokens (persons only)."""
        try:
            game = get_game(request.game)
        except KeyError as error:
            raise bad_request(str(error.args[0])) from error
        players = len(request.seats)
        if not game.min_players <= players <= game.max_players:
            raise bad_request(
                f"{game.title} is for {game.min_players} to {game.max_players} players, not {players}"
                if game.min_players != game.max_players
                else f"{game.title} is for {game.min_players} players, not {players}"
            )
        known = set(game.option_names()) - SERVER_ONLY_OPTIONS
        unknown = sorted(set(request.options) - known)
        if unknown:
            raise bad_request(
                f"unknown option(s) for {game.name}: {', '.join(unknown)}"
                f" (known: {', '.join(sorted(known)) or 'none'})"
            )
        for index, seat in enumerate(request.seats):
            if seat.kind == "bot":
                try:
                    bots.check_spec(seat.bot or "random")
                except ValueError as error:
                    raise bad_request(f"seat {SEAT_LETTERS[index]}: {error}") from error
        seed = request.seed if request.seed is not None else secrets.randbits(63)
        try:
            state = game.new_game(players, seed, **request.options)
        except (TypeError, ValueError, EixampleError) as error:
            raise bad_request(f"cannot set up {game.title} with these options: {error}") from error

        tokens: list[str | None] = []
        seats: list[SeatData] = []
        for index, spec in enumerate(request.seats):
            letter = SEAT_LETTERS[index]
            if spec.kind == "bot":
                bot = spec.bot or "random"
                tokens.append(None)
                seats.append(SeatData(index, "bot", spec.name or f"Bot {letter} ({bot})", bot, None, True))
            else:
                token = secrets.token_urlsafe(24)
                tokens.append(token)
                name = spec.name or f"Player {letter}"
                seats.append(SeatData(index, "person", name, None, token_digest(token)))
        # a solo game's opponent sits at the table with a seat of its own, played by the game
        for index, name in enumerate(views.automa_names(state, players), start=players):
            tokens.append(None)
            seats.append(SeatData(index, AUTOMA, name, None, None, True))

        game_id = secrets.token_urlsafe(8)
        while game_id in self.games or await self._db(self.store.game_exists, game_id):
            game_id = secrets.token_urlsafe(8)
        stamp = now()
        data = GameData(
            id=game_id,
            game=game.name,
            players=players,
            seed=seed,
            options=dict(request.options),
            status=status_of(seats, state.is_terminal()),
            move_count=0,
            to_move=state.current_player(),
            result=result_of(state),
            created_at=stamp,
            updated_at=stamp,
            seats=seats,
        )
        await self._db(self.store.create_game, data)
        live = self._live(data, game, state, [views.public_scores(state)])
        self.games[game_id] = live
        self._schedule_bot(live)
        return live, tokens

    # -- loading ------------------------------------------------------------------------------

    def _live(self, data: GameData, game: Game, state: State, history: list[list[float] | None]) -> LiveGame:
        return LiveGame(
            id=data.id,
            game_name=data.game,
            game=game,
            players=data.players,
            seed=data.seed,
            options=data.options,
            seats=data.seats,
            state=state,
            actions=list(data.actions),
            history=history,
            created_at=data.created_at,
            updated_at=data.updated_at,
        )

    def _rebuild(self, data: GameData) -> LiveGame:
        """Replay a stored game: its setup and every stored action, in order."""
        game = get_game(data.game)
        state = game.new_game(data.players, data.seed, **data.options)
        history = [views.public_scores(state)]
        for seat, action in data.actions:
            if state.current_player() != seat:
                log.warning("game %s: stored action %r by seat %d out of turn", data.id, action, seat)
            state.apply(action)
            history.append(views.public_scores(state))
        return self._live(data, game, state, history)

    async def get(self, game_id: str) -> LiveGame:
        live = self.games.get(game_id)
        if live is not None:
            return live
        if len(game_id) > 32:
            raise not_found(f"no game '{game_id[:32]}...'")
        async with self._load_lock:
            live = self.games.get(game_id)
            if live is not None:
                return live
            data = await self._db(self.store.load_game, game_id)
            if data is None:
                raise not_found(f"no game '{game_id}'")
            live = await self._db(self._rebuild, data)
            self.games[game_id] = live
            return live

    # -- seats --------------------------------------------------------------------------------

    @staticmethod
    def authenticate(live: LiveGame, token: str | None) -> int | None:
        """The seat a token belongs to; None (a spectator) without a token."""
        if token is None:
            return None
        digest = token_digest(token)
        for seat in live.seats:
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                return seat.seat
        raise forbidden("this seat token does not belong to this game")

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
            self._broadcast(live)

    # -- moves --------------------------------------------------------------------------------

    def _check_turn(self, live: LiveGame, seat: int, expected_move: int) -> None:
        if live.finished:
            raise conflict("the game is over")
        if expected_move != live.move_number:
            raise conflict(
                f"stale move: the game is at move {live.move_number}, this request was for move "
                f"{expected_move}; decide again on the current state"
            )
        current = live.state.current_player()
        if current != seat:
            raise conflict(f"it is not your turn: waiting for {live.seat_label(current)}")

    async def move(self, live: LiveGame, seat: int, action: str, expected_move: int) -> None:
        if live.seats[seat].kind != "person":
            raise forbidden("a bot's seat is played by the server")
        await self._apply(live, seat, action, expected_move)
        self._schedule_bot(live)

    async def _apply(self, live: LiveGame, seat: int, action: str, expected_move: int) -> None:
        async with live.lock:
            self._check_turn(live, seat, expected_move)
            next_state = live.state.clone()
            try:
                next_state.apply(action)
            except IllegalActionError as error:
                raise bad_request(f"illegal action: {error}") from error
            joining = seat if not live.seats[seat].joined else None
            seats = [SeatData(**{**vars(s), "joined": s.joined or s.seat == joining}) for s in live.seats]
            try:
                await self._db(
                    self.store.append_action,
                    live.id,
                    live.move_number,
                    seat,
                    action,
                    status=status_of(seats, next_state.is_terminal()),
                    to_move=next_state.current_player(),
                    result=result_of(next_state),
                    joined_seat=joining,
                )
            except StaleWriteError as error:
                raise conflict(f"stale move: the game has changed ({error}); decide again") from error
            live.state = next_state
            live.actions.append((seat, action))
            live.history.append(views.public_scores(next_state))
            if joining is not None:
                live.seats[joining].joined = True
            live.updated_at = now()
            self._broadcast(live)

    async def undo(self, live: LiveGame, seat: int, expected_move: int) -> None:
        async with live.lock:
            if live.finished:
                raise conflict("the game is over")
            if expected_move != live.move_number:
                raise conflict(
                    f"stale undo: the game is at move {live.move_number}, "
                    f"this request was for move {expected_move}"
                )
            if live.state.current_player() != seat:
                raise conflict("you can only undo within your own turn")
            if not live.undo_allowed(seat):
                raise conflict("nothing to undo: undo stops at a random draw or another player's decision")
            try:
                previous = undo_state(live.game, live.state)
            except IllegalActionError as error:
                raise conflict(str(error)) from error
            await self._db(
                self.store.remove_last_action,
                live.id,
                live.move_number - 1,
                status=status_of(live.seats, False),
                to_move=previous.current_player(),
            )
            live.state = previous
            live.actions.pop()
            live.history.pop()
            live.updated_at = now()
            self._broadcast(live)

    # -- bots ---------------------------------------------------------------------------------

    def _bot_seat(self, live: LiveGame) -> int | None:
        if live.finished:
            return None
        seat = live.state.current_player()
        return seat if 0 <= seat < len(live.seats) and live.seats[seat].kind == "bot" else None

    def _schedule_bot(self, live: LiveGame) -> None:
        if self._closing or self._bot_seat(live) is None:
            return
        if live.bot_task is not None and not live.bot_task.done():
            return
        live.bot_task = asyncio.create_task(self._bot_turns(live), name=f"bots-{live.id}")

    async def _bot_turns(self, live: LiveGame) -> None:
        """Play bot decisions until a person must decide or the game ends."""
        failures = 0
        while (seat := self._bot_seat(live)) is not None:
            if self.bot_delay > 0:
                await asyncio.sleep(self.bot_delay)
            async with live.lock:
                if self._bot_seat(live) != seat:
                    continue
                snapshot = live.state.clone()
                expected = live.move_number
            bot = live.bots.get(seat)
            if bot is None:
                bot = bots.make_bot(live.seats[seat].bot or "random", derived_seed(live.seed, "bot", seat))
                live.bots[seat] = bot
            fallback_seed = derived_seed(live.seed, "fallback", seat, expected)
            action = await asyncio.to_thread(bots.choose_safely, bot, snapshot, seat, fallback_seed)
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

    # -- connections --------------------------------------------------------------------------

    def _broadcast(self, live: LiveGame) -> None:
        """Push to every connected client the game as its own seat sees it."""
        messages: dict[int | None, JsonDict] = {}
        for conn in list(live.connections):
            if conn.closed:
                live.connections.discard(conn)
                continue
            if conn.seat not in messages:
                messages[conn.seat] = views.seat_message(live, conn.seat)
            conn.send(messages[conn.seat])

    async def connect(self, live: LiveGame, websocket: Any, seat: int | None) -> Connection:
        conn = Connection(websocket, seat)
        if seat is not None:
            await self.join(live, seat)
        async with live.lock:
            live.connections.add(conn)
            self._broadcast(live)
        return conn

    async def disconnect(self, live: LiveGame, conn: Connection) -> None:
        conn.close()
        live.connections.discard(conn)
        if self._closing:
            return
        async with live.lock:
            self._broadcast(live)

    # -- records and replays ------------------------------------------------------------------

    def record(self, live: LiveGame) -> JsonDict:
        if not live.finished:
            raise conflict("the record of a game is public once the game is over")
        return views.public_record(live)

    async def replay(self, live: LiveGame, step: int | None) -> JsonDict:
        if not live.finished:
            raise conflict("a game can be replayed once it is over")
        total = live.move_number
        if step is None:
            step = total
        if not 0 <= step <= total:
            raise bad_request(f"step must be between 0 and {total}")
        state = await self._db(self._state_at, live, step)
        return views.replay_message(live, step, state)

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
