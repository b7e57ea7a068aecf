"""Information-Set Monte Carlo Tree Search (single observer).

Every iteration draws a determinization of the bot's information set with `resample(me, seed)`
and walks one shared tree of actions with it: UCT selection among the children legal in that
determinization (counting how often each was available), expansion of one untried action, an
optional random rollout of bounded depth (none by default: the game's evaluation judges the
leaf), then a reward vector (the winners share 1 if the game ended, otherwise the game's
`evaluation()` turned into [0, 1] by default with a logistic of the margin over the best
opponent) added along the path. Each node is
judged by the reward of the seat deciding there, so opponents play for themselves.

Reference: Cowling, Powley, Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG
4(2), 2012.
"""

from __future__ import annotations

import math
import sys
import time
from dataclasses import dataclass

from eixample.ai.base import Bot
from eixample.ai.scoring import normalise, outcome
from eixample.ai.view import PlayerView
from eixample.core.protocol import Action, State

DEFAULT_ITERATIONS = 500


@dataclass(frozen=True)
class MctsSettings:
    """Search settings. Without `iterations` or `seconds`, the budget is DEFAULT_ITERATIONS;
    with both, the search stops at whichever comes first."""

    iterations: int | None = None
    seconds: float | None = None
    c: float = 0.7
    depth: int = 0
    norm: str = "sigmoid"
    scale: float = 10.0

    def iteration_limit(self) -> int:
        if self.iterations is not None:
            return self.iterations
        return DEFAULT_ITERATIONS if self.seconds is None else sys.maxsize


class _Node:
    __slots__ = ("avail", "children", "totals", "visits")

    def __init__(self, players: int) -> None:
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.avail = 1
        self.totals = [0.0] * players

    def mean(self, seat: int) -> float:
        return self.totals[seat] / self.visits if self.visits else 0.0


class MctsBot(Bot):
    def __init__(self, spec: str, seed: int, settings: MctsSettings | None = None) -> None:
        super().__init__(spec, seed)
        self.settings = settings or MctsSettings()
        self.last_iterations = 0

    def decide(self, view: PlayerView) -> Action:
        legal = view.legal_actions()
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        root = _Node(view.num_players)
        self.last_iterations = self._search(view, root)
        return self._best(root, legal, view.player)

    def _search(self, view: PlayerView, root: _Node) -> int:
        limit = self.settings.iteration_limit()
        seconds = self.settings.seconds
        deadline = math.inf if seconds is None else time.perf_counter() + seconds
        done = 0
        while done < limit and (done == 0 or time.perf_counter() < deadline):
            self._iterate(root, view.resample(self.rng.next_u64()))
            done += 1
        return done

    def _iterate(self, root: _Node, state: State) -> None:
        path = self._descend(root, state)
        self._rollout(state)
        reward = self._reward(state)
        for node in path:
            node.visits += 1
            totals = node.totals
            for seat, value in enumerate(reward):
                totals[seat] += value

    def _descend(self, root: _Node, state: State) -> list[_Node]:
        """Selection then expansion, applying the actions to `state`; returns the path."""
        node, path = root, [root]
        while not state.is_terminal():
            actions = state.legal_actions()
            children = node.children
            for action in actions:
                child = children.get(action)
                if child is not None:
                    child.avail += 1
            untried = [action for action in actions if action not in children]
            if untried:
                action = self.rng.choice(untried)
                node = children[action] = _Node(len(root.totals))
                state.apply(action)
                path.append(node)
                break
            action = self._select(node, actions, state.current_player())
            node = children[action]
            state.apply(action)
            path.append(node)
        return path

    def _select(self, node: _Node, actions: list[Action], mover: int) -> Action:
        c = self.settings.c
        best_action, best_value = actions[0], -math.inf
        for action in actions:
            child = node.children[action]
            value = child.totals[mover] / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
            if value > best_value:
                best_action, best_value = action, value
        return best_action

    def _rollout(self, state: State) -> None:
        for _ in range(self.settings.depth):
            if state.is_terminal():
                return
            state.apply(self.rng.choice(state.legal_actions()))

    def _reward(self, state: State) -> list[float]:
        if state.is_terminal():
            return outcome(state)
        return normalise(state.evaluation(), self.settings.norm, self.settings.scale)

    def _best(self, root: _Node, legal: list[Action], me: int) -> Action:
        """The most visited legal root action (then the best mean reward for `me`)."""
        explored = [action for action in legal if action in root.children]
        if not explored:
            return self.rng.choice(legal)
        children = root.children
        return max(explored, key=lambda action: (children[action].visits, children[action].mean(me)))
