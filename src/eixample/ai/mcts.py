"""Information-Set Monte Carlo Tree Search (single observer).

Every iteration draws a determinization of the bot's information set with `resample(me, seed)`
and walks one shared tree of actions with it: UCT selection among the children legal in that
determinization (counting how often each was available), expansion of one untried action, an
optional random rollout of bounded depth (none by default: the game's evaluation judges the
leaf), then a reward vector (the winners share 1 if the game ended, otherwise the game's
`evaluation()` turned into [0, 1] by default with a logistic of the margin over the best
opponent) added along the path. Each node is
judged by the reward of the seat deciding there, so opponents play for themselves. With `skip`,
decisions with a single legal action get no node of their own: the descent applies them and goes
on, so no iteration is spent expanding a move nobody can choose. With `stop` and an iteration
budget, the search ends as soon as the most visited root action can no longer be overtaken by the
iterations left: the same choice, for less time.

With `reuse`, the bot keeps the subtree under the action it chose, with the view that action
led to in one determinization; if its next decision shows exactly that view (nothing new was
revealed and nobody else moved: the usual case inside a multi-step turn), the search continues
from that subtree instead of starting afresh. Equal views mean equal information sets, so the
kept statistics were gathered over the same determinizations.

Reference: Cowling, Powley, Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG
4(2), 2012.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from eixample.ai.base import Bot
from eixample.ai.parallel import RootStatistics, SearchHelpers
from eixample.ai.scoring import follow_forced, margins_after, normalise, outcome
from eixample.ai.view import PlayerView
from eixample.core.protocol import Action, JsonDict, State

DEFAULT_ITERATIONS = 500
LINE_VISITS = 10
SPREAD_FLOOR = 0.02
CPU_CHECK_EVERY = 4
"""With a CPU budget, the CPU clock is read every this many iterations: reading it is a system
call, and on a busy machine each one may give the processor away for a while."""
HELPER_SEED_STEP = 0x9E3779B97F4A7C15
"""Spaces the seeds of a bot's helper processes (see `workers`)."""
STOP_CHECK = 64
"""With `stop`, iterations between two checks of whether the search can still change its choice."""


def _back_up_best(path: list[SearchNode], reward: list[float]) -> None:
    """Implicit minimax backups: the leaf's estimate is its best-play value; each node above takes
    that of its child best for the seat deciding there."""
    path[-1].best = reward
    for node in reversed(path[:-1]):
        mover = node.mover
        found = [child.best for child in node.children.values() if child.best is not None]
        if mover < 0 or not found:
            return
        node.best = max(found, key=lambda values: values[mover])


def _decided(root: SearchNode, remaining: int) -> bool:
    """True when the most visited root action leads the next by more than the iterations left:
    no remaining iteration could change which action is the most visited."""
    first = second = 0
    for child in root.children.values():
        if child.visits > first:
            first, second = child.visits, first
        elif child.visits > second:
            second = child.visits
    return first - second > remaining


@dataclass(frozen=True)
class MctsSettings:
    """Search settings. Without `iterations` or `seconds`, the budget is DEFAULT_ITERATIONS;
    with both, the search stops at whichever comes first."""

    iterations: int | None = None
    seconds: float | None = None
    cpu: float | None = None
    """CPU seconds of this process per decision (time.process_time, counted from the start of
    the decision): a budget that other work on a shared machine hardly changes, for matches at
    equal time. Not deterministic, like `seconds`."""
    c: float = 0.7
    depth: int = 0
    norm: str = "sigmoid"
    scale: float = 10.0
    reuse: bool = False
    skip: bool = False
    fpu: float | None = None
    """First-play urgency: None tries every legal action of a node once before choosing among
    them; a number values an untried action as a child with one visit whose mean is the node's
    mean reward for the seat deciding there minus `fpu` (so with the exploration bonus of one
    visit): a good action can be followed before every poor one has been tried."""
    spread: bool = False
    """Scale the exploration constant at each decision by the spread of its children's mean
    rewards for the seat deciding there (highest minus lowest, at least SPREAD_FLOOR): where
    the actions differ by hundredths, the search still tells them apart."""
    redraw: int = 1
    """Draw a fresh determinization every `redraw` iterations; in between, search copies of the
    last one (a copy costs far less than a draw)."""
    stop: bool = False
    leaf: str = "evaluation"
    """How a leaf that is not the end is judged: "evaluation" (the logistic of the evaluation
    margin, by `norm` and `scale`) or "learned" (the game's `win_estimate()`, each seat's learned
    chance to win, where the game has one for the position; the evaluation otherwise)."""
    workers: int = 1
    """Processes searching each decision, this one included (root parallelisation,
    `eixample.ai.parallel`): each searches its own tree with the whole budget, and the action
    most visited over all the trees is chosen."""
    finish: int = 0
    """Before judging a leaf, let the seat that made the leaf's last decision make up to this
    many more decisions of its own in a row greedily (the best `evaluation()` margin, forced
    moves followed for free): the leaf is judged once that seat's move is complete rather than
    half made, where an evaluation has to guess what the pending steps will bring."""
    implicit: float = 0.0
    """Implicit minimax backups (Lanctot, Winands, Pepels, Sturtevant 2014): each node also keeps
    the leaf estimates backed up by best play (the child best for the seat deciding there), and
    selection values a child by this share of that value plus the rest of its mean reward. A
    refutation found deep in the tree then counts at once instead of after many visits."""
    policy: str = "random"
    """How the rollout of `depth` moves chooses: "random" (any legal action) or "greedy" (each
    seat deciding takes its best evaluation margin one step ahead): a rollout that plays as a
    sensible player would, so the leaf is judged where the next moves are likely to lead."""
    expand: str = "random"
    """Which untried action of a node is expanded next: "random" (any) or "greedy" (the best
    evaluation margin one step ahead for the seat deciding there, ranked once, when the node is
    first reached): among many actions, such as a tile's spaces, the search tries the ones a
    sensible player would consider first, rather than whichever its few visits happen to draw."""
    widen: float = 0.0
    """Progressive widening (0: off): a node visited n times has at most ceil(widen * sqrt(n))
    children (at least one), expanded in the order of `expand=greedy` (implied); past that, the
    search chooses among the children it has. Where a tile has 44 spaces and a decision gets a
    few hundred iterations, the visits go to the likeliest actions instead of one each to all."""
    stage: bool = False
    """End a rollout early where the game's stage changes (`State.stage()`, such as a phase): the
    leaf is judged right after the checkpoint, once what it hands out is known, instead of part
    way into the next stage; `depth` still bounds the rollout."""
    replies: int = 0
    """With `finish`, after the move is complete, the next this many moves (each up to `finish`
    decisions of the seat deciding) are played greedily too before the leaf is judged: a leaf is
    judged after the opponents' best immediate answers, which the evaluation cannot foresee."""

    def iteration_limit(self) -> int:
        if self.iterations is not None:
            return self.iterations
        return DEFAULT_ITERATIONS if self.seconds is None and self.cpu is None else sys.maxsize


def finish_move(state: State, mover: int, decisions: int) -> None:
    """Let `mover` make up to `decisions` decisions in a row on `state` (in place), each the
    action with the best evaluation margin one step ahead; forced moves cost no decision."""
    while decisions > 0 and (actions := follow_forced(state, mover)) is not None:
        decisions -= 1
        state.apply(greedy_action(state, actions))
    follow_forced(state, mover)


def greedy_action(state: State, actions: list[Action]) -> Action:
    """Of `actions`, legal on `state`, the one with the best evaluation margin one step ahead for
    the seat deciding (the first of equals)."""
    values = margins_after(state, actions, state.current_player())
    return actions[values.index(max(values))]


class SearchNode:
    """One decision of the search tree: visits, reward totals per seat, and a child per action tried."""

    __slots__ = ("avail", "best", "children", "mover", "ranked", "totals", "visits")

    def __init__(self, players: int) -> None:
        self.children: dict[Action, SearchNode] = {}
        self.best: list[float] | None = None
        """With implicit minimax backups: each seat's estimate along best play from here."""
        self.mover = -1
        """The seat deciding at this node (-1: not known yet)."""
        self.ranked: list[Action] | None = None
        """With `expand=greedy`: the node's actions, best first, as ranked when first reached."""
        self.visits = 0
        self.avail = 1
        self.totals = [0.0] * players

    def mean(self, seat: int) -> float:
        return self.totals[seat] / self.visits if self.visits else 0.0

    def principal(self) -> list[float]:
        """Mean rewards at the end of the most visited line from here (while its nodes have at
        least LINE_VISITS visits): closer to what best play gives than the mean over every
        reply the search tried."""
        node = self
        while node.children:
            child = max(node.children.values(), key=lambda candidate: candidate.visits)
            if child.visits < LINE_VISITS:
                break
            node = child
        return [total / node.visits for total in node.totals]


@dataclass(frozen=True)
class ActionEstimate:
    """What the search learnt about one legal action at the root."""

    action: Action
    visits: int
    rewards: list[float]
    """Each seat's mean reward along the most visited line after this action."""


class MctsBot(Bot):
    def __init__(self, spec: str, seed: int, settings: MctsSettings | None = None) -> None:
        super().__init__(spec, seed)
        self.settings = settings or MctsSettings()
        self.last_iterations = 0
        self._kept: tuple[JsonDict, SearchNode] | None = None
        self._cpu_start: float | None = None
        self._mover = -1
        """The seat that chose the last action of the current descent (-1: none yet)."""
        self._continued = False
        """Whether the last decision's search went on from the kept subtree."""
        self.last_helper_cpu = 0.0
        """CPU seconds the helper processes spent on the last decision (with `workers`)."""
        helper_seeds = [(seed + HELPER_SEED_STEP * k) % 2**63 for k in range(1, self.settings.workers)]
        self._helpers = SearchHelpers(self.settings, helper_seeds) if helper_seeds else None

    def decide(self, view: PlayerView) -> Action:
        self.begin_decision()
        legal = view.legal_actions()
        helpers = self._helpers
        root = self._root(view)
        if len(legal) == 1:
            self.last_iterations = 0
            action = legal[0]
            if helpers is not None:
                helpers.forced(action, self._continued)
        else:
            if helpers is not None:
                helpers.search(view.resample(self.rng.next_u64()), view.player, self._continued)
            self.last_iterations = self.search(view, root)
            others = helpers.results() if helpers is not None else []  # they stop now, with `seconds`
            self.last_iterations += sum(other.iterations for other in others)
            self.last_helper_cpu = sum(other.cpu for other in others)
            action = self._best(root, legal, view.player, others)
            if helpers is not None:
                helpers.chose(action)
        self._keep(view, root if self._skipped(legal) else root.children.get(action), action)
        return action

    def begin_decision(self, cpu_start: float | None = None) -> None:
        """Start the clock of a decision's CPU budget (now, or at `cpu_start`)."""
        if self.settings.cpu is None:
            self._cpu_start = None
        else:
            self._cpu_start = time.process_time() if cpu_start is None else cpu_start

    def _skipped(self, legal: list[Action]) -> bool:
        """True when the tree has no node for this decision's only action (with `skip`)."""
        return self.settings.skip and len(legal) == 1

    def estimates(self, view: PlayerView) -> list[ActionEstimate]:
        """Search the decision of `view` (even a forced one) and return every legal action's
        visits and mean rewards along its most visited line, most visited first. Does not touch
        a kept tree."""
        root = SearchNode(view.num_players)
        self.last_iterations = self.search(view, root)
        legal = view.legal_actions()
        if self._skipped(legal):  # the root stands for the position after the forced move
            return [ActionEstimate(legal[0], root.visits, root.principal())]
        found = []
        for action in legal:
            child = root.children.get(action)
            if child is None or child.visits == 0:
                found.append(ActionEstimate(action, 0, [0.0] * view.num_players))
            else:
                found.append(ActionEstimate(action, child.visits, child.principal()))
        found.sort(key=lambda estimate: (-estimate.visits, -estimate.rewards[view.player]))
        return found

    def position_value(self, view: PlayerView) -> list[float]:
        """Search the position of `view` (whoever decides there) and return each seat's mean
        reward along the most visited line. The position must not be finished."""
        root = SearchNode(view.num_players)
        self.last_iterations = self.search(view, root)
        return root.principal()

    def _root(self, view: PlayerView) -> SearchNode:
        """The kept subtree if `view` is the one it expected (`_continued` is then True), or a
        fresh node."""
        kept, self._kept = self._kept, None
        self._continued = kept is not None and view.shows(kept[0])
        return kept[1] if kept is not None and self._continued else SearchNode(view.num_players)

    def _keep(self, view: PlayerView, child: SearchNode | None, action: Action) -> None:
        """Remember the subtree `child` reached by `action`, and the view it leads to (with
        `reuse`)."""
        if not self.settings.reuse or child is None:
            return
        world = view.resample(self.rng.next_u64())
        world.apply(action)
        if not world.is_terminal():
            self._kept = (world.view(view.player), child)

    def search(self, view: PlayerView, root: SearchNode, stopped: Callable[[], bool] | None = None) -> int:
        """Iterate on `root` until the budget is spent (or, with a wall-clock budget, `stopped()`
        answers True: a helper process stops with the bot it helps)."""
        limit = self.settings.iteration_limit()
        seconds, cpu = self.settings.seconds, self.settings.cpu
        deadline = math.inf if seconds is None else time.perf_counter() + seconds
        cpu_start, self._cpu_start = self._cpu_start, None
        cpu_deadline = math.inf
        if cpu is not None:
            cpu_deadline = (time.process_time() if cpu_start is None else cpu_start) + cpu
        if seconds is None:
            stopped = None  # an iteration budget is spent whole (games repeat), a CPU budget too

        def time_left(done: int) -> bool:
            if done % CPU_CHECK_EVERY:
                return time.perf_counter() < deadline
            return (time.perf_counter() < deadline and (cpu is None or time.process_time() < cpu_deadline)
                    and (stopped is None or not stopped()))

        redraw = self.settings.redraw
        world: State | None = None
        done = 0
        while done < limit and (done == 0 or time_left(done)):
            if redraw == 1:
                self._iterate(root, view.resample(self.rng.next_u64()))
            else:
                if world is None or done % redraw == 0:
                    world = view.resample(self.rng.next_u64())
                self._iterate(root, world.clone())
            done += 1
            if self.settings.stop and done % STOP_CHECK == 0 and _decided(root, limit - done):
                break
        return done

    def _iterate(self, root: SearchNode, state: State) -> None:
        self._mover = -1
        path = self._descend(root, state)
        if self.settings.finish and self._mover >= 0:
            finish_move(state, self._mover, self.settings.finish)
            for _ in range(self.settings.replies):
                if state.is_terminal():
                    break
                finish_move(state, state.current_player(), self.settings.finish)
        self._rollout(state)
        reward = self.reward(state)
        for node in path:
            node.visits += 1
            totals = node.totals
            for seat, value in enumerate(reward):
                totals[seat] += value
        if self.settings.implicit:
            _back_up_best(path, reward)

    def _descend(self, root: SearchNode, state: State) -> list[SearchNode]:
        """Selection then expansion, applying the actions to `state`; returns the path."""
        node, path = root, [root]
        skip = self.settings.skip
        while not state.is_terminal():
            actions = state.legal_actions()
            if skip and len(actions) == 1:
                state.apply(actions[0])
                continue
            children = node.children
            for action in actions:
                child = children.get(action)
                if child is not None:
                    child.avail += 1
            untried = [action for action in actions if action not in children]
            mover = self._mover = node.mover = state.current_player()
            if untried and not self._room(node, len(actions) - len(untried)):
                action = self._select(node, [a for a in actions if a in children], mover)
            elif untried:
                tried = self._tried_first(node, actions, untried, mover)
                if tried is None:
                    action = self._untried(node, state, actions, untried)
                    node = children[action] = SearchNode(len(root.totals))
                    state.apply(action)
                    path.append(node)
                    break
                action = tried
            else:
                action = self._select(node, actions, mover)
            node = children[action]
            state.apply(action)
            path.append(node)
        return path

    def _room(self, node: SearchNode, tried: int) -> bool:
        """Whether a node whose `tried` children are legal here may expand another (see `widen`)."""
        widen = self.settings.widen
        return not widen or tried == 0 or tried < math.ceil(widen * math.sqrt(node.visits))

    def _untried(self, node: SearchNode, state: State, actions: list[Action],
                 untried: list[Action]) -> Action:
        """The untried action to expand (see `expand` and `widen`)."""
        if self.settings.expand != "greedy" and not self.settings.widen:
            return self.rng.choice(untried)
        if node.ranked is None:
            values = margins_after(state, actions, state.current_player())
            node.ranked = [action for _, action in sorted(zip(values, actions, strict=True),
                                                          key=lambda pair: -pair[0])]
        waiting = set(untried)
        for action in node.ranked:
            if action in waiting:
                return action
        return self.rng.choice(untried)  # a determinization with actions the ranking never saw

    def _tried_first(
        self, node: SearchNode, actions: list[Action], untried: list[Action], mover: int
    ) -> Action | None:
        """With first-play urgency, the best tried action when it looks better than an untried
        one; None when an untried action is to be expanded."""
        fpu = self.settings.fpu
        if fpu is None or node.visits == 0 or len(untried) == len(actions):
            return None
        tried = [action for action in actions if action in node.children]
        best = self._select(node, tried, mover)
        urgency = node.totals[mover] / node.visits - fpu + self.settings.c * math.sqrt(math.log(node.visits))
        return best if self._value(node.children[best], mover) > urgency else None

    def _value(self, child: SearchNode, mover: int) -> float:
        return self._worth(child, mover) + self.settings.c * math.sqrt(math.log(child.avail) / child.visits)

    def _worth(self, child: SearchNode, mover: int) -> float:
        """What the search thinks a child is worth to `mover`: its mean reward, mixed with its
        best-play estimate under implicit minimax backups."""
        mean = child.totals[mover] / child.visits
        share = self.settings.implicit
        if not share or child.best is None:
            return mean
        return (1.0 - share) * mean + share * child.best[mover]

    def _select(self, node: SearchNode, actions: list[Action], mover: int) -> Action:
        c = self.settings.c
        if self.settings.spread:
            means = [node.children[action].mean(mover) for action in actions]
            c *= max(max(means) - min(means), SPREAD_FLOOR)
        share = self.settings.implicit
        best_action, best_value = actions[0], -math.inf
        for action in actions:
            child = node.children[action]
            # the mean inline without implicit backups: this loop is the search's hot path
            worth = self._worth(child, mover) if share else child.totals[mover] / child.visits
            value = worth + c * math.sqrt(math.log(child.avail) / child.visits)
            if value > best_value:
                best_action, best_value = action, value
        return best_action

    def _rollout(self, state: State) -> None:
        greedy = self.settings.policy == "greedy"
        stage = state.stage() if self.settings.stage else None
        for _ in range(self.settings.depth):
            if state.is_terminal() or (stage is not None and state.stage() != stage):
                return
            actions = state.legal_actions()
            if greedy and len(actions) > 1:
                state.apply(greedy_action(state, actions))
            else:
                state.apply(self.rng.choice(actions))

    def reward(self, state: State) -> list[float]:
        """Each seat's reward in [0, 1] for a position the search reached."""
        if state.is_terminal():
            return outcome(state)
        if self.settings.leaf == "learned":
            learned = state.win_estimate()
            if learned is not None:
                return learned
        return normalise(state.evaluation(), self.settings.norm, self.settings.scale)

    def _best(self, root: SearchNode, legal: list[Action], me: int, others: list[RootStatistics]) -> Action:
        """The legal root action most visited over this tree and the helpers' (then the best
        mean reward for `me`)."""
        visits = {action: child.visits for action, child in root.children.items()}
        rewards = {action: child.totals[me] for action, child in root.children.items()}
        for other in others:
            for action, count in other.visits.items():
                visits[action] = visits.get(action, 0) + count
                rewards[action] = rewards.get(action, 0.0) + other.rewards[action]
        explored = [action for action in legal if visits.get(action)]
        if not explored:
            return self.rng.choice(legal)
        return max(explored, key=lambda action: (visits[action], rewards[action] / visits[action]))
