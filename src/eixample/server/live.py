"""A game held in memory while the server runs: its state, seats, connections and lock."""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

import orjson

from eixample.core.protocol import Game, JsonDict, State
from eixample.core.records import can_undo
from eixample.server.bots import Bot
from eixample.server.db import SeatData

SEAT_LETTERS = "ABCDEFGH"
MAX_SEATS = len(SEAT_LETTERS)
"""The most seats a request may ask for; each game's own bounds are checked on creation."""
AUTOMA = "automa"
"""The kind of a seat the game plays itself (a solo game's opponent): it has no token and never
decides through the server."""
MAX_PENDING = 256
"""Messages a client may leave unread before the server drops it (it reconnects and gets the
whole current view)."""


def encode(message: JsonDict) -> str:
    """A message as compact JSON text (orjson: several times faster than the json module)."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


class Connection:
    """One WebSocket client of one game, as a seat (0-based) or as a spectator (None).

    Messages wait in a queue and a writer task sends them in order, so a slow client never
    holds up the game."""

    def __init__(self, websocket: Any, seat: int | None, address: str = "", *, patches: bool = False) -> None:
        self.websocket = websocket
        self.seat = seat
        self.address = address
        self.patches = patches
        """The client asked for changes as patches (after one whole state message)."""
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        self.too_slow = False
        self.close_code: tuple[int, str] | None = None

    def send(self, message: dict[str, Any]) -> None:
        self.send_text(encode(message))

    def send_text(self, text: str) -> None:
        """Queue a message already encoded (one encoding shared by many connections)."""
        if self.closed:
            return
        if self.queue.qsize() >= MAX_PENDING:
            self.too_slow = True
            self.close()
            return
        self.queue.put_nowait(text)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(None)

    def end(self, code: int, reason: str) -> None:
        """Close the connection from the server's side, with a close code and reason."""
        if not self.closed:
            self.close_code = (code, reason)
            self.close()

    async def writer(self) -> None:
        while True:
            message = await self.queue.get()
            if message is None:
                if self.too_slow:
                    self.close_code = (1013, "too many unread messages")
                if self.close_code is not None:
                    with contextlib.suppress(Exception):
                        await self.websocket.close(code=self.close_code[0], reason=self.close_code[1])
                return
            try:
                await self.websocket.send_text(message)
            except Exception:
                self.closed = True
                return


class StandIns(Protocol):
    stand_ins: dict[int, str]
    """seat -> why a bot plays it for its player ("resigned", "left" or "clock")."""


@dataclass
class _NoTable:
    stand_ins: dict[int, str] = field(default_factory=dict)


NO_TABLE = _NoTable()


@dataclass
class LiveGame:
    id: str
    game_name: str
    game: Game
    players: int
    seed: int
    options: dict[str, Any]
    seats: list[SeatData]
    state: State
    actions: list[tuple[int, str]]
    history: list[list[float] | None]
    created_at: datetime
    updated_at: datetime
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: set[Connection] = field(default_factory=set)
    bots: dict[int, Bot] = field(default_factory=dict)
    bot_task: asyncio.Task[None] | None = None
    seed_shown: bool = False
    creator_hash: str | None = None
    hints_allowed: bool = False
    rated: bool = True
    address: str = ""
    """The client address that created the game while this server holds it ("" for a game loaded
    from the database): its bots' searches take their turn with that address's other searches."""
    seat_links: dict[int, int] = field(default_factory=dict)
    """Open connections per seat, so that presence is known without walking the connections."""
    last_used: float = field(default_factory=time.monotonic)
    view_cache: tuple[State | None, dict[int | None, JsonDict]] = field(default_factory=lambda: (None, {}))
    version: int = 0
    """Counts the changes pushed to clients: each state message carries it, each patch says the
    version it applies to (`base`) and the one it makes, so a client sees when it missed one."""
    table: StandIns = field(default_factory=lambda: NO_TABLE)
    """The game's table (server.table), for who plays each seat: a stand-in's decisions are not
    its player's to take back."""
    resigned: frozenset[int] = frozenset()
    """Seats whose player resigned (kept by the table service from its stored stand-ins): a
    resigned seat never wins, whatever its stand-in bot scored."""
    pushed: dict[int | None, JsonDict] = field(default_factory=dict)
    """The state message last pushed to each seat's connections (None: the spectators'), as the
    clients hold it (presence changes included): what the next patch is made against."""

    def views_of(self, state: State) -> dict[int | None, JsonDict]:
        """The views of `state` built so far, by seat (None: a spectator's): each view of a state
        is built once however many clients and requests show it."""
        if self.view_cache[0] is not state:
            self.view_cache = (state, {})
        return self.view_cache[1]

    def touch(self) -> None:
        self.last_used = time.monotonic()

    def link_seat(self, seat: int) -> bool:
        """Count a new connection of `seat`; True if the seat was not connected before."""
        self.seat_links[seat] = self.seat_links.get(seat, 0) + 1
        return self.seat_links[seat] == 1

    def unlink_seat(self, seat: int) -> bool:
        """Count a connection of `seat` gone; True if it was the seat's last one."""
        left = self.seat_links.get(seat, 0) - 1
        if left > 0:
            self.seat_links[seat] = left
            return False
        self.seat_links.pop(seat, None)
        return True

    @property
    def move_number(self) -> int:
        return len(self.actions)

    @property
    def finished(self) -> bool:
        return self.state.is_terminal()

    @property
    def status(self) -> str:
        if self.finished:
            return "finished"
        if any(seat.kind == "person" and not seat.joined for seat in self.seats):
            return "open"
        return "running"

    def seat_label(self, seat: int) -> str:
        if not 0 <= seat < len(self.seats):
            return f"seat {SEAT_LETTERS[seat]}" if 0 <= seat < MAX_SEATS else f"seat {seat}"
        info = self.seats[seat]
        letter = SEAT_LETTERS[seat]
        if info.kind == "bot" and (info.name == f"Bot {letter}" or info.name.startswith(f"Bot {letter} (")):
            return info.name  # a bot's default name has its letter
        return f"{info.name} ({letter})"

    def connected_seats(self) -> set[int]:
        return set(self.seat_links)

    def undo_allowed(self, seat: int) -> bool:
        """The seat decides now and the last action is its own, taken back within its turn."""
        if self.finished or not self.actions:
            return False
        if self.state.current_player() != seat or self.actions[-1][0] != seat:
            return False
        if self.seats[seat].kind != "person" or seat in self.table.stand_ins:
            return False
        return can_undo(self.state)
