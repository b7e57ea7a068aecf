"""Root parallelisation for the tree search: helper processes search the same decision.

Each helper process keeps its own search tree and draws its own determinizations; for every
decision the searching bot sends each helper one determinization of its information set (never
the real state: a state drawn with `resample`, whose hidden parts are already invented), every
process searches its own tree with the same budget, and the bot chooses the action with the most
visits over all the trees. With `reuse`, each helper keeps its own subtree under the action chosen
and goes on from it when the bot goes on from its own (the bot has checked that the new view is the
one it expected: the same information set for every process), so helpers compute no views. Every
process spends the whole budget: the iterations (games repeat), or its own
CPU seconds (`cpu`) counted from the moment it receives the decision, so that the machine's other
work does not change what the bot thinks; with a wall-clock budget (`seconds`) a helper also stops
when the bot's own search ends, so the decision takes the bot's time. On a machine with N free
cores a bot with N processes thinks about N times as much in the same time per decision.

Reference: Chaslot, Winands, van den Herik, "Parallel Monte-Carlo Tree Search", Computers and
Games 2008 (root parallelisation gave as much as one tree with the iterations of all the
processes).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import pickle
import time
import weakref
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection
from multiprocessing.synchronize import Event
from typing import TYPE_CHECKING

from eixample.ai.base import BotError
from eixample.ai.view import PlayerView
from eixample.core.protocol import Action, State

if TYPE_CHECKING:
    from eixample.ai.mcts import MctsSettings

MAX_WORKERS = 16
"""The most processes one bot may search with (itself included)."""


@dataclass(frozen=True)
class RootStatistics:
    """What one helper's tree holds at the root of a decision."""

    visits: dict[Action, int]
    rewards: dict[Action, float]
    """Total reward of each root action for the seat deciding."""
    iterations: int
    cpu: float
    """CPU seconds the helper spent on this decision, receiving it included."""


def pool_refusal(workers: int) -> str:
    """Why a bot searching with `workers` processes cannot play inside a process pool's worker."""
    return (f"a search with workers={workers} starts processes of its own, which a worker of a process "
            "pool may not: play such games one at a time (--workers 1), or give the bot workers=1")


class SearchHelpers:
    """Helper processes searching alongside a bot, started on first use, ended with the bot."""

    def __init__(self, settings: MctsSettings, seeds: list[int]) -> None:
        self._settings = replace(settings, workers=1)
        self._seeds = seeds
        self._connections: list[Connection] = []
        self._done: Event | None = None
        """Set when the bot's own search is over: helpers with a wall-clock budget stop then."""
        self.processes: list[multiprocessing.process.BaseProcess] = []

    def _started(self) -> list[Connection]:
        if not self._connections:
            if multiprocessing.current_process().daemon:
                raise BotError(pool_refusal(len(self._seeds) + 1))
            context = multiprocessing.get_context("spawn")
            self._done = context.Event()
            for seed in self._seeds:
                mine, theirs = context.Pipe()
                process = context.Process(target=_serve, args=(theirs, self._settings, seed, self._done),
                                          daemon=True)
                process.start()
                theirs.close()
                self._connections.append(mine)
                self.processes.append(process)
                weakref.finalize(self, _stop, mine, process)
        return self._connections

    def search(self, world: State, player: int, continued: bool) -> None:
        """Start every helper on the decision of `player` in `world` (a determinization);
        `continued`: the bot goes on from its kept subtree (the view it expected), so the
        helpers go on from theirs."""
        message = ("search", pickle.dumps(world, pickle.HIGHEST_PROTOCOL), player, continued)
        for connection in self._started():
            connection.send(message)

    def results(self) -> list[RootStatistics]:
        """Wait for the statistics of the search started last; with a wall-clock budget the
        helpers stop searching now, so that the decision takes the bot's own time."""
        assert self._done is not None
        self._done.set()
        found = [connection.recv() for connection in self._connections]
        self._done.clear()
        return found

    def chose(self, action: Action) -> None:
        """Tell the helpers the action chosen, so that they keep its subtree."""
        for connection in self._connections:
            connection.send(("chose", action))

    def forced(self, action: Action, continued: bool) -> None:
        """A decision with one legal action: the helpers keep their trees through it."""
        for connection in self._connections:
            connection.send(("forced", action, continued))


def _stop(connection: Connection, process: multiprocessing.process.BaseProcess) -> None:
    with contextlib.suppress(OSError):
        connection.send(("stop",))
    process.join(timeout=1)
    if process.is_alive():
        process.terminate()


def _serve(connection: Connection, settings: MctsSettings, seed: int, done: Event) -> None:
    """A helper's loop: search each decision it receives with its own tree."""
    from eixample.ai.mcts import MctsBot, SearchNode

    bot = MctsBot(f"helper {seed}", seed, settings)
    root: SearchNode | None = None
    kept: SearchNode | None = None
    while True:
        try:
            message = connection.recv()
        except EOFError:
            return
        kind = message[0]
        if kind == "stop":
            return
        if kind == "chose":
            kept = root.children.get(message[1]) if root is not None and settings.reuse else None
            root = None
            continue
        if kind == "forced":
            # the bot's rule (`_keep`): with `skip` a forced move has no node, the root stays
            here = kept if message[2] else None
            kept = (here if settings.skip else here.children.get(message[1])) if here is not None else None
            continue
        started = time.process_time()
        world: State = pickle.loads(message[1])
        view = PlayerView(world, message[2])
        root = kept if message[3] and kept is not None else SearchNode(view.num_players)
        kept = None
        bot.begin_decision(started)
        iterations = bot.search(view, root, done.is_set)
        connection.send(RootStatistics(
            visits={action: child.visits for action, child in root.children.items()},
            rewards={action: child.totals[view.player] for action, child in root.children.items()},
            iterations=iterations, cpu=time.process_time() - started))
        view.close()
