"""Bots for server seats, through `eixample.ai.make_bot(spec, seed)`, thinking in worker processes.

While that package is not available, every spec falls back to a seeded random choice, so the
server works with any game before the real bots exist. A bot that fails or answers an illegal
action is replaced by a random legal action for that one decision: a game never stalls.

A bot spec asked for over the network has ceilings (`CEILINGS`): a search may not ask for more
seconds, iterations or samples than those, and stops at the ceiling's seconds whatever its
iteration budget (`time_capped`). Searches run in a bounded pool of worker processes
(`BotPool`), never on the event loop or in the threads that serve requests; the pool's size is
also the cap on searches running at once. The workers run at a lower priority than the server,
ignore Ctrl-C (the server ends them) and are terminated when the server stops.

No game waits behind another's searches (`FairQueue`): a forced decision (one legal action) is
answered at once, quick decisions (random, greedy one step ahead) have a worker of their own, and
searches (bot decisions, hints, curve parts) take the search workers in turn by client address,
and within an address by game, rather than in the order they were asked for.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import functools
import importlib
import logging
import multiprocessing
import os
import random
import re
import signal
import threading
import time
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Protocol, TypeVar

from eixample.core.protocol import Action, State
from eixample.core.registry import get_game
from eixample.server import metrics

log = logging.getLogger(__name__)

T = TypeVar("T")

SUGGESTED_SPECS = ["random", "greedy", "mcts:seconds=1"]
SPEC_PATTERN = re.compile(r"^[A-Za-z][A-Za-z0-9_\-]*(:[A-Za-z0-9_.=\-]+)*$")
CEILINGS: dict[str, float] = {"seconds": 10.0, "iterations": 100_000, "samples": 64, "depth": 200,
                              "workers": 1}
"""The most a bot spec on the server may ask for, per parameter (the server's own pool of bot
processes is its parallelism: a search may not start processes of its own)."""
WORKER_NICENESS = 5
PR_SET_PDEATHSIG = 1


class Bot(Protocol):
    def choose(self, state: State, player: int) -> Action: ...


class SeededRandomBot:
    """Picks uniformly among the legal actions, from its own seeded generator."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def choose(self, state: State, player: int) -> Action:
        return self._rng.choice(state.legal_actions())


def _factory() -> Callable[[str, int], Any] | None:
    try:
        module = importlib.import_module("eixample.ai")
    except ImportError:
        return None
    factory = getattr(module, "make_bot", None)
    return factory if callable(factory) else None


def levels(game: str | None = None) -> list[dict[str, str]]:
    """The bot levels players choose from by name for the registered game named `game` (None: the
    platform's default levels), weakest first, each with its spec: those this server accepts
    (none while the bots are not available)."""
    return [dict(level) for level in _accepted_levels(game)]


@functools.cache
def _accepted_levels(game: str | None) -> tuple[dict[str, str], ...]:
    """Checked once per game: the levels and the ceilings do not change while the server runs."""
    specs = _specs()
    if specs is None:
        return ()
    found: list[dict[str, str]] = []
    for name, spec in specs.game_levels(None if game is None else get_game(game)).items():
        try:
            check_spec(spec)
        except ValueError:
            continue
        found.append({"name": name, "spec": spec})
    return tuple(found)


def spec_of(bot: str, game: str | None = None) -> str:
    """A seat's bot as a client names it: a level of `levels(game)` ("strong") stands for its
    spec, anything else is a spec already."""
    for level in _accepted_levels(game):
        if bot.strip().lower() == level["name"]:
            return level["spec"]
    return bot


def level_of(spec: str, game: str | None = None) -> str | None:
    """The name of the level of `game` whose spec `spec` is, or None (a spec of its own)."""
    for level in _accepted_levels(game):
        if spec == level["spec"]:
            return level["name"]
    return None


def ai_available() -> bool:
    return _factory() is not None


def make_bot(spec: str, seed: int) -> Bot:
    """A bot for `spec` ("random", "greedy", "mcts:seconds=1", ...). ValueError for a bad spec."""
    if not SPEC_PATTERN.match(spec):
        raise ValueError(f"bad bot spec '{spec}' (examples: {', '.join(SUGGESTED_SPECS)})")
    factory = _factory()
    if factory is None:
        return SeededRandomBot(seed)
    bot: Bot = factory(spec, seed)
    return bot


def _specs() -> Any:
    """The bots' spec grammar, `eixample.ai.specs`; None while the bots are not available."""
    try:
        return importlib.import_module("eixample.ai.specs")
    except ImportError:
        return None


def _spec_values(spec: str) -> dict[str, Any]:
    specs = _specs()
    if specs is None:
        return {}
    values: dict[str, Any] = specs.check_spec(spec)
    return values


def check_spec(spec: str) -> None:
    """Raise ValueError with a clear message if `spec` names no bot or asks for more than a
    server allows (`CEILINGS`)."""
    try:
        make_bot(spec, 0)
        values = _spec_values(spec)
    except (ValueError, KeyError, TypeError) as error:
        message = str(error).strip("'\"") or f"bad bot spec '{spec}'"
        raise ValueError(message) from error
    for key, ceiling in CEILINGS.items():
        value = values.get(key)
        if isinstance(value, int | float) and value > ceiling:
            raise ValueError(f"bot '{spec}': {key} may be at most {ceiling:g} on this server")


def choose_safely(bot: Bot, state: State, player: int, fallback_seed: int) -> Action:
    """The bot's choice on a copy of the state; a random legal action if it fails."""
    legal = state.legal_actions()
    try:
        action = bot.choose(state.clone(), player)
    except Exception:
        log.exception("bot failed at seat %d; playing a random legal action instead", player)
        return random.Random(fallback_seed).choice(legal)
    if action not in legal:
        log.error("bot at seat %d chose illegal action %r; playing a random legal one", player, action)
        return random.Random(fallback_seed).choice(legal)
    return action


def time_capped(spec: str) -> str:
    """`spec` with the server's time ceiling as a stop when its bot takes a `seconds` budget and
    the spec names none: an iteration budget that other options make costly (greedy rollouts,
    replies) still ends within CEILINGS["seconds"] a decision. A search that spends its
    iterations sooner, the usual case, chooses as it would without the stop."""
    specs = _specs()
    if specs is None:
        return spec
    try:
        parsed = specs.parse_spec(spec)
    except ValueError:
        return spec
    if "seconds" not in specs.KINDS[parsed.name].params or "seconds" in parsed.params:
        return spec
    return f"{spec}:seconds={CEILINGS['seconds']:g}"


def think(spec: str, seed: int, state: State, player: int, fallback_seed: int) -> Action:
    """One bot decision, in a worker process: the bot is made afresh from its seed, so a decision
    depends only on the game and the move (a restarted server's bots resume identically), and
    searches for at most the server's time ceiling (`time_capped`)."""
    try:
        bot = make_bot(time_capped(spec), seed)
    except Exception:
        log.exception("bot spec %r cannot be built; playing a random legal action instead", spec)
        return random.Random(fallback_seed).choice(state.legal_actions())
    return choose_safely(bot, state, player, fallback_seed)


def _worker_started() -> None:
    """In each worker: leave the server's signal handling to the server, think at a lower priority,
    and end with the server, even a killed one (kill -9 gives it no chance to end its workers)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    with contextlib.suppress(ValueError, OSError):
        signal.set_wakeup_fd(-1)
    with contextlib.suppress(OSError, AttributeError):
        os.nice(WORKER_NICENESS)
    server = os.getppid()
    with contextlib.suppress(Exception):  # Linux: a signal the moment the server ends
        ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    threading.Thread(target=_end_with, args=(server,), daemon=True, name="end-with-server").start()


def _end_with(server: int) -> None:
    while os.getppid() == server:
        time.sleep(1.0)
    os._exit(0)


def _ready() -> bool:
    return True


@functools.lru_cache(maxsize=1024)
def is_quick(spec: str) -> bool:
    """A bot that decides without searching: random, or greedy looking one decision ahead with one
    sample (more samples or a longer plan make greedy a search). A spec the bots do not know plays
    random."""
    specs = _specs()
    if specs is None:
        return True
    try:
        name = specs.parse_spec(spec).name
        values = specs.check_spec(spec)
    except (ValueError, KeyError, TypeError):
        return True
    if name == "random":
        return True
    return bool(name == "greedy" and values.get("samples", 1) <= 1 and values.get("plan", 1) <= 1)


class FairQueue:
    """`slots` places, handed out in turn: by key (a client address), then within a key by game,
    first come first served within a game. An address with many games waiting gets one place in
    its turn like an address with one; a game with many requests waiting (hints) likewise."""

    def __init__(self, slots: int) -> None:
        self.free = max(1, slots)
        self._waiting: OrderedDict[str, OrderedDict[str, deque[asyncio.Future[None]]]] = OrderedDict()

    @contextlib.asynccontextmanager
    async def turn(self, address: str, game: str) -> AsyncIterator[None]:
        if self.free > 0 and not self._waiting:
            self.free -= 1
        else:
            future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._waiting.setdefault(address, OrderedDict()).setdefault(game, deque()).append(future)
            try:
                await future
            except asyncio.CancelledError:
                if future.done() and not future.cancelled():
                    self._hand_on()  # its place came as it was cancelled: the next one has it
                raise
        try:
            yield
        finally:
            self._hand_on()

    def _hand_on(self) -> None:
        """A place is free: to the first waiter of the next address's next game (the address and
        the game go to the back of their lines), or kept free."""
        while self._waiting:
            address, games = next(iter(self._waiting.items()))
            game, futures = next(iter(games.items()))
            future = futures.popleft()
            del games[game]
            if futures:
                games[game] = futures
            del self._waiting[address]
            if games:
                self._waiting[address] = games
            if not future.done():  # a waiter that gave up is skipped
                future.set_result(None)
                return
        self.free += 1

    @property
    def waiting(self) -> int:
        return sum(len(futures) for games in self._waiting.values() for futures in games.values())


class BotPool:
    """Worker processes for bot decisions: `workers` for searches (also the server-wide cap on
    searches running at once) and `quick_workers` for decisions that are no search, each shared
    fairly (`FairQueue`)."""

    def __init__(self, workers: int, quick_workers: int = 1) -> None:
        self.workers = max(1, workers)
        self.quick_workers = max(1, quick_workers)
        self._executor: ProcessPoolExecutor | None = None
        self._quick_executor: ProcessPoolExecutor | None = None
        self._searches = FairQueue(self.workers)
        self._quick = FairQueue(self.quick_workers)
        self.searching = 0

    def start(self) -> None:
        methods = multiprocessing.get_all_start_methods()
        # fork: the workers know every game registered in the server process
        context = multiprocessing.get_context("fork" if "fork" in methods else None)
        self._executor = ProcessPoolExecutor(self.workers, mp_context=context, initializer=_worker_started)
        self._quick_executor = ProcessPoolExecutor(self.quick_workers, mp_context=context,
                                                   initializer=_worker_started)
        for _ in range(self.workers):
            self._executor.submit(_ready)
        for _ in range(self.quick_workers):
            self._quick_executor.submit(_ready)

    async def choose(self, spec: str, seed: int, state: State, player: int, fallback_seed: int, *,
                     game: str = "", address: str = "") -> Action:
        """One bot decision for the game `game` created from `address`: a forced one at once (any
        bot chooses the only legal action), a quick one in the quick worker, a search in its turn."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        started = time.perf_counter()
        if is_quick(spec):
            async with self._quick.turn(address or game, game):
                executor = self._quick_executor
                if executor is None:
                    raise RuntimeError("the bot pool is stopped")
                action = await asyncio.get_running_loop().run_in_executor(
                    executor, think, spec, seed, state, player, fallback_seed
                )
            metrics.BOT_SECONDS.labels("quick").observe(time.perf_counter() - started)
            return action
        action = await self.run(think, spec, seed, state, player, fallback_seed, game=game, address=address)
        metrics.BOT_SECONDS.labels("search").observe(time.perf_counter() - started)
        return action

    @property
    def waiting_searches(self) -> int:
        return self._searches.waiting

    @property
    def waiting_quick(self) -> int:
        return self._quick.waiting

    async def run(self, work: Callable[..., T], *args: Any, game: str = "", address: str = "") -> T:
        """A search (a bot's, a hint, a part of a win-probability curve) in a search worker, in
        its turn among the searches waiting (by `address`, then by `game`): `work` and its
        arguments must pickle, and it must bound its own time."""
        async with self._searches.turn(address or game, game):
            if self._executor is None:
                raise RuntimeError("the bot pool is stopped")
            self.searching += 1
            try:
                return await asyncio.get_running_loop().run_in_executor(self._executor, work, *args)
            finally:
                self.searching -= 1

    def stop(self) -> None:
        """End every worker now (a search in progress is dropped; it runs again after a restart)."""
        executors = [executor for executor in (self._executor, self._quick_executor) if executor is not None]
        self._executor = self._quick_executor = None
        processes = []
        for executor in executors:
            processes += list((getattr(executor, "_processes", None) or {}).values())
            executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            with contextlib.suppress(Exception):
                process.terminate()
        for process in processes:
            with contextlib.suppress(Exception):
                process.join(timeout=1)
