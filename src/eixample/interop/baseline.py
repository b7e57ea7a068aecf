"""Baseline learned agents: a small policy network per game, trained by policy gradient with
numpy alone, shipped as small weight files that load with numpy alone.

The network reads `Features`: the game's structured observation of the seat (`interop.encoding`,
`Game.observation_spec`) or, for a game without one, its view hashed into `FEATURES` numbers
(`interop.table.encode_view`), squashed by sign(x) log(1 + |x|). It has one hidden layer of ReLU
units and gives a logit per action of the game's `all_actions` list (illegal ones masked out) and a
value. Training is advantage actor-critic on whole games (REINFORCE with the value as baseline):
the learner's seat changes from game to game, the other seats are bots (several specs take turns,
game by game), the return is the learner's final utility (`interop.table.utility`), and Adam
updates after every batch of games. Everything is seeded: one command, one set of weights.

    python -m eixample.interop.baseline train --game tictactoe --games 3000 --out tictactoe.npz
    python -m eixample.interop.baseline evaluate --game tictactoe --weights tictactoe.npz --games 400
    python -m eixample.interop.baseline curve --game tictactoe      # the shipped network's curve
    python -m eixample.interop.baseline report --out benchmarks/results/baselines.md  # every game

`PolicyBot` plays a trained network (its most likely legal action, or a sample of its policy).
"""

from __future__ import annotations

import argparse
import json
import math
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from eixample.ai.base import Bot
from eixample.ai.match import derive_seed, play_out
from eixample.ai.specs import make_bot, named_spec
from eixample.ai.stats import wilson_interval
from eixample.ai.view import PlayerView
from eixample.core.protocol import Action, JsonDict, State
from eixample.interop.encoding import Observer
from eixample.interop.table import GameTable, encode_view, utility

FEATURES = 1024
"""Length of the hashed view, for a game without a structured observation (the hashed encoding's
own size is far larger; a small one keeps the network and its weight file small)."""
STRUCTURED = "structured"
"""`meta["features"]` of a network reading the game's structured observation (a number there is
the size of a hashed view)."""

Vector = npt.NDArray[np.float32]


def features(view: JsonDict, size: int = FEATURES) -> Vector:
    """The hashed view, squashed: what a network of a game without a structured observation reads."""
    return squash(encode_view(view, size=size))


def squash(encoded: Vector) -> Vector:
    """What the network reads of an observation (or a hashed view, or rows of them):
    sign(x) log(1 + |x|)."""
    return np.sign(encoded) * np.log1p(np.abs(encoded))


class Features:
    """What a network reads of one seat's position at a table: `kind` is `STRUCTURED` (the game's
    observation) or the size of a hashed view."""

    def __init__(self, table: GameTable, kind: str | int):
        self.kind = kind
        if kind == STRUCTURED:
            self.observer: Observer | None = Observer.of(table)
            self.size = self.observer.size
            self._buffer = np.empty(self.size, np.float32)
        elif isinstance(kind, int) and kind > 0:
            self.observer, self.size = None, kind
        else:
            raise ValueError(f"features are {STRUCTURED!r} or the size of a hashed view, not {kind!r}")

    @classmethod
    def best(cls, table: GameTable) -> Features:
        """The structured observation where the game has one, else the hashed view."""
        return cls(table, STRUCTURED if callable(getattr(table.game, "observation_spec", None)) else FEATURES)

    def of_state(self, state: State, seat: int) -> Vector:
        if self.observer is None:
            return features(state.view(seat), self.size)
        self.observer.write(state, seat, self._buffer)
        return squash(self._buffer)

    def of_view(self, view: PlayerView) -> Vector:
        if self.observer is None:
            return features(view.view(), self.size)
        view.write_observation(self._buffer)
        return squash(self._buffer)


@dataclass
class PolicyNetwork:
    """features -> ReLU hidden layer -> (a logit per action, a value)."""

    w1: Vector
    b1: Vector
    w2: Vector
    b2: Vector
    wv: Vector
    bv: Vector
    meta: dict[str, Any] = field(default_factory=dict)

    PARAMETERS = ("w1", "b1", "w2", "b2", "wv", "bv")

    @classmethod
    def initial(cls, inputs: int, hidden: int, actions: int, seed: int) -> PolicyNetwork:
        rng = np.random.default_rng(seed)
        return cls(
            w1=(rng.standard_normal((inputs, hidden)) * math.sqrt(2.0 / inputs)).astype(np.float32),
            b1=np.zeros(hidden, np.float32),
            w2=(rng.standard_normal((hidden, actions)) * 0.01).astype(np.float32),
            b2=np.zeros(actions, np.float32),
            wv=np.zeros(hidden, np.float32),
            bv=np.zeros(1, np.float32),
        )

    def forward(self, x: Vector) -> tuple[Vector, Vector, Vector]:
        """For inputs x (rows): hidden activations, logits, values."""
        hidden = np.maximum(x @ self.w1 + self.b1, 0.0)
        return hidden, hidden @ self.w2 + self.b2, hidden @ self.wv + self.bv[0]

    def policy(self, x: Vector, mask: npt.NDArray[np.bool_]) -> Vector:
        """The probabilities of the legal actions (zero for the others)."""
        _, logits, _ = self.forward(x[None, :])
        return masked_softmax(logits[0], mask)

    def save(self, path: Path) -> None:
        np.savez_compressed(path, meta=np.array(json.dumps(self.meta)),
                            **{name: getattr(self, name).astype(np.float16) for name in self.PARAMETERS})

    @classmethod
    def load(cls, path: Path | Any) -> PolicyNetwork:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name].astype(np.float32) for name in cls.PARAMETERS}
            return cls(**arrays, meta=json.loads(str(data["meta"])))


def masked_softmax(logits: Vector, mask: npt.NDArray[np.bool_]) -> Vector:
    shifted = np.where(mask, logits, -np.inf)
    shifted = shifted - shifted.max()
    weights = np.exp(shifted)
    return (weights / weights.sum()).astype(np.float32)


def shipped(game: str) -> PolicyNetwork:
    """The network shipped for a game (`eixample/interop/baselines/<game>.npz`)."""
    source = resources.files("eixample.interop").joinpath("baselines", f"{game}.npz")
    if not source.is_file():
        raise ValueError(f"no baseline agent is shipped for '{game}'")
    with source.open("rb") as stream:
        return PolicyNetwork.load(stream)


def network_features(network: PolicyNetwork, table: GameTable) -> Features:
    """What `network` was trained to read (a network saved before structured observations read
    the hashed view)."""
    return Features(table, network.meta.get("features", FEATURES))


class PolicyBot(Bot):
    """A trained network as a bot: its most likely legal action (or, with `sample`, a draw)."""

    def __init__(self, network: PolicyNetwork, table: GameTable, seed: int = 0, sample: bool = False):
        super().__init__("policy", seed)
        self.network, self.table, self.sample = network, table, sample
        self.features = network_features(network, table)
        self.draws = np.random.default_rng(seed)

    def decide(self, view: PlayerView) -> Action:
        mask = np.zeros(len(self.table.actions), bool)
        mask[[self.table.index[action] for action in view.legal_actions()]] = True
        probabilities = self.network.policy(self.features.of_view(view), mask)
        number = (int(self.draws.choice(len(probabilities), p=probabilities)) if self.sample
                  else int(np.argmax(probabilities)))
        return self.table.actions[number]


@dataclass
class Settings:
    game: str = "tictactoe"
    players: int = 2
    games: int = 3000
    opponents: str = "random"
    hidden: int = 64
    learning_rate: float = 3e-3
    batch: int = 16
    entropy: float = 0.01
    seed: int = 0


@dataclass
class Step:
    x: Vector
    mask: npt.NDArray[np.bool_]
    action: int


def train(settings: Settings, report: Callable[[PolicyNetwork, list[tuple[int, float]]], None] | None = None,
          every: int = 100) -> tuple[PolicyNetwork, list[tuple[int, float]]]:
    """A network trained by `settings`, and its learning curve: after every `every` games, the
    share of the last `every` games that the learner won (a shared win counts its share).
    `report` sees the network and the curve at each point: the network after n games is exactly
    the one that `games=n` would give (when n is a multiple of the batch)."""
    table = GameTable.build(settings.game, settings.players)
    reading = Features.best(table)
    network = PolicyNetwork.initial(reading.size, settings.hidden, len(table.actions), settings.seed)
    adam = _Adam(network, settings.learning_rate)
    draws = np.random.default_rng(derive_seed(settings.seed, 1))
    batch: list[tuple[list[Step], float]] = []
    curve: list[tuple[int, float]] = []
    won = 0.0
    for index in range(settings.games):
        seat = index % settings.players
        steps, state = _self_play(network, reading, table, settings, index, seat, draws)
        batch.append((steps, utility(state)[seat]))
        winners = state.winners()
        won += 1 / len(winners) if seat in winners else 0.0
        if len(batch) == settings.batch:
            adam.step(_gradients(network, batch, settings.entropy))
            batch = []
        if (index + 1) % every == 0:
            curve.append((index + 1, won / every))
            network.meta = _meta(settings, reading, index + 1, curve)
            if report is not None:
                report(network, curve)
            won = 0.0
    network.meta = _meta(settings, reading, settings.games, curve)
    return network, curve


def _meta(settings: Settings, reading: Features, games: int,
          curve: list[tuple[int, float]]) -> dict[str, Any]:
    return {"game": settings.game, "players": settings.players, "features": reading.kind,
            "settings": {**settings.__dict__, "games": games}, "curve": list(curve)}


def opponent_specs(text: str) -> list[str]:
    """Bot specs separated by ';' (game g of a training plays against the spec g modulo their number)."""
    specs = [spec.strip() for spec in text.split(";") if spec.strip()]
    if not specs:
        raise ValueError("opponents: give at least one bot spec")
    return specs


def _self_play(network: PolicyNetwork, reading: Features, table: GameTable, settings: Settings, index: int,
               seat: int, draws: np.random.Generator) -> tuple[list[Step], State]:
    game_seed = derive_seed(settings.seed, 2, index)
    state = table.new_state(game_seed)
    specs = opponent_specs(settings.opponents)
    spec = specs[index % len(specs)]
    bots = {other: make_bot(spec, derive_seed(game_seed, other))
            for other in range(state.num_players) if other != seat}
    steps: list[Step] = []
    while not state.is_terminal():
        player = state.current_player()
        if player != seat:
            state.apply(bots[player].choose(state, player))
            continue
        x = reading.of_state(state, seat)
        mask = table.mask(state).astype(bool)
        probabilities = network.policy(x, mask)
        action = int(draws.choice(len(probabilities), p=probabilities))
        steps.append(Step(x, mask, action))
        table.apply(state, action)
    return steps, state


def _gradients(network: PolicyNetwork, batch: Sequence[tuple[list[Step], float]],
               entropy: float) -> dict[str, Vector]:
    """Gradients of the loss (to descend): -advantage log pi(a) + (value - return)^2 / 2
    - entropy * H(pi), averaged over the batch's decisions."""
    steps = [step for game, _ in batch for step in game]
    if not steps:
        return {name: np.zeros_like(getattr(network, name)) for name in network.PARAMETERS}
    returns = np.array([value for game, value in batch for _ in game], np.float32)
    x = np.stack([step.x for step in steps])
    masks = np.stack([step.mask for step in steps])
    actions = np.array([step.action for step in steps])
    hidden, logits, values = network.forward(x)
    shifted = np.where(masks, logits, -np.inf)
    shifted -= shifted.max(axis=1, keepdims=True)
    probabilities = np.exp(shifted)
    probabilities /= probabilities.sum(axis=1, keepdims=True)
    advantage = returns - values
    rows = np.arange(len(steps))
    chosen = np.zeros_like(probabilities)
    chosen[rows, actions] = 1.0
    d_logits = (probabilities - chosen) * advantage[:, None]
    log_p = np.where(masks, np.log(np.maximum(probabilities, 1e-12)), 0.0)
    plogp = probabilities * log_p
    d_logits += entropy * (plogp - probabilities * plogp.sum(axis=1, keepdims=True))
    d_values = values - returns
    count = len(steps)
    d_logits /= count
    d_values /= count
    d_hidden = d_logits @ network.w2.T + d_values[:, None] * network.wv[None, :]
    d_hidden *= hidden > 0
    return {
        "w1": x.T @ d_hidden, "b1": d_hidden.sum(axis=0),
        "w2": hidden.T @ d_logits, "b2": d_logits.sum(axis=0),
        "wv": hidden.T @ d_values, "bv": np.array([d_values.sum()], np.float32),
    }


class _Adam:
    def __init__(self, network: PolicyNetwork, rate: float, beta1: float = 0.9, beta2: float = 0.999):
        self.network, self.rate, self.beta1, self.beta2, self.t = network, rate, beta1, beta2, 0
        self.m = {name: np.zeros_like(getattr(network, name)) for name in network.PARAMETERS}
        self.v = {name: np.zeros_like(getattr(network, name)) for name in network.PARAMETERS}

    def step(self, gradients: dict[str, Vector]) -> None:
        self.t += 1
        for name, gradient in gradients.items():
            self.m[name] = self.beta1 * self.m[name] + (1 - self.beta1) * gradient
            self.v[name] = self.beta2 * self.v[name] + (1 - self.beta2) * gradient * gradient
            m_hat = self.m[name] / (1 - self.beta1 ** self.t)
            v_hat = self.v[name] / (1 - self.beta2 ** self.t)
            parameter = getattr(self.network, name)
            parameter -= (self.rate * m_hat / (np.sqrt(v_hat) + 1e-8)).astype(np.float32)


@dataclass(frozen=True)
class Evaluation:
    opponent: str
    games: int
    wins: float
    """A shared win counts its share."""

    @property
    def win_rate(self) -> float:
        return self.wins / self.games

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)


def evaluate(network: PolicyNetwork, game: str, players: int, opponent: str, games: int,
             seed: int = 1) -> Evaluation:
    """`games` games of the network (its most likely action) against `opponent` in every other
    seat, the network's seat changing from game to game; game g has seed `seed + g`."""
    table = GameTable.build(game, players)
    wins = 0.0
    for index in range(games):
        seat = index % players
        game_seed = seed + index
        state = table.new_state(game_seed)
        bots: list[Bot] = [make_bot(opponent, derive_seed(game_seed, other))
                           for other in range(state.num_players)]
        bots[seat] = PolicyBot(network, table, derive_seed(game_seed, seat))
        winners = play_out(state, bots).winners()
        wins += 1 / len(winners) if seat in winners else 0.0
    return Evaluation(opponent, games, wins)


def _train_command(arguments: argparse.Namespace) -> None:
    settings = Settings(game=arguments.game, players=arguments.players, games=arguments.games,
                        opponents=arguments.opponents, hidden=arguments.hidden, seed=arguments.seed,
                        learning_rate=arguments.learning_rate, batch=arguments.batch)
    started = time.perf_counter()

    def report(network: PolicyNetwork, curve: list[tuple[int, float]]) -> None:
        games, rate = curve[-1]
        print(f"{games} games: won {rate:.1%} of the last {arguments.every} "
              f"({time.perf_counter() - started:.0f} s)", flush=True)
        if arguments.keep:  # the network so far, as `--games {games}` would give it
            network.save(arguments.out)

    network, _ = train(settings, report, arguments.every)
    network.save(arguments.out)
    print(f"saved {arguments.out}")


def _evaluate_command(arguments: argparse.Namespace) -> None:
    network = PolicyNetwork.load(arguments.weights) if arguments.weights else shipped(arguments.game)
    players = arguments.players or int(network.meta.get("players", 2))
    for opponent in arguments.opponents.split(";"):
        result = evaluate(network, arguments.game, players, opponent, arguments.games, arguments.seed)
        low, high = result.interval
        print(f"| {opponent} | {result.games} | {result.wins:g} | {result.win_rate:.1%} "
              f"| {low:.1%} - {high:.1%} |", flush=True)


def _curve_command(arguments: argparse.Namespace) -> None:
    network = PolicyNetwork.load(arguments.weights) if arguments.weights else shipped(arguments.game)
    settings = network.meta.get("settings", {})
    print(f"trained on {settings.get('games')} games of {settings.get('players')} players "
          f"against {settings.get('opponents')} (seed {settings.get('seed')})")
    print("| games | won (training, last stretch) |\n|---|---|")
    for games, rate in network.meta.get("curve", []):
        print(f"| {games} | {rate:.1%} |")


def _report_command(arguments: argparse.Namespace) -> None:
    """Every game's network against each opponent, with its learning curve, as markdown."""
    from eixample.core.registry import get_game
    from eixample.interop.table import research_games

    lines = ["# Baseline agents: measured win rates", "",
             f"Printed by `python -m eixample.interop.baseline {shlex.join(arguments.argv)}`.",
             "A win shared by k seats counts 1/k; the interval is the 95% Wilson interval; the",
             "network plays its most likely legal action, its seat changing from game to game, game g",
             f"with seed {arguments.seed:,} + g; the other seats are all the opponent.", ""]
    games = arguments.games.split(",") if arguments.games else [g for g in research_games()]
    for game in games:
        network = (PolicyNetwork.load(arguments.weights / f"{game}.npz") if arguments.weights
                   else shipped(game))
        players = int(network.meta.get("players", 2))
        settings = network.meta.get("settings", {})
        title = get_game(game).title
        lines += [f"## {title} ({players} players)", "",
                  f"Trained on {settings.get('games')} games against `{settings.get('opponents')}` "
                  f"(seed {settings.get('seed')}, hidden {settings.get('hidden')}, reading "
                  f"{_reading(network.meta.get('features', FEATURES))}).", "",
                  "| opponent | spec | games | wins | win rate | 95% CI |", "|---|---|---|---|---|---|"]
        untrained = PolicyNetwork.initial(network.w1.shape[0], network.w1.shape[1], network.w2.shape[1],
                                          int(settings.get("seed", 0)))
        untrained.meta = {**network.meta, "curve": []}
        for entry in arguments.opponents.split(";"):
            name, _, count = entry.partition("@")
            spec = named_spec(name, get_game(game))
            count_games = int(count or arguments.per_opponent)
            rows = [(name, network)] + ([(f"{name}, untrained", untrained)] if name == "random" else [])
            for label, playing in rows:
                started = time.process_time()
                result = evaluate(playing, game, players, spec, count_games, arguments.seed)
                low, high = result.interval
                lines.append(f"| {label} | `{spec}` | {result.games} | {result.wins:g} "
                             f"| {result.win_rate:.1%} | {low:.1%} - {high:.1%} |")
                print(f"{game} {label}: {result.win_rate:.1%} of {result.games} "
                      f"({time.process_time() - started:.0f} CPU-s)", flush=True)
        curve = network.meta.get("curve", [])
        lines += ["", "Learning curve (share won of the training games since the point before, "
                  "sampling the policy):", "", "| games | won |", "|---|---|"]
        lines += [f"| {point} | {rate:.1%} |" for point, rate in curve]
        lines.append("")
    text = "\n".join(lines)
    if arguments.out:
        arguments.out.write_text(text)
        print(f"written {arguments.out}")
    else:
        print(text)


def _reading(kind: Any) -> str:
    return "the structured observation" if kind == STRUCTURED else f"the view hashed into {kind} numbers"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m eixample.interop.baseline",
                                     description="Train and evaluate the baseline agents.")
    commands = parser.add_subparsers(dest="command", required=True)
    training = commands.add_parser("train", help="train a network and save its weights")
    training.add_argument("--game", default="tictactoe")
    training.add_argument("--players", type=int, default=2)
    training.add_argument("--games", type=int, default=3000)
    training.add_argument("--opponents", default="random",
                          help="bot spec of the other seats (several, separated by ';', take turns)")
    training.add_argument("--hidden", type=int, default=64)
    training.add_argument("--learning-rate", type=float, default=3e-3)
    training.add_argument("--batch", type=int, default=16, help="games per update")
    training.add_argument("--seed", type=int, default=0)
    training.add_argument("--every", type=int, default=100, help="games per point of the learning curve")
    training.add_argument("--out", type=Path, required=True)
    training.add_argument("--keep", action="store_true",
                          help="save the network at every point of the learning curve too")
    training.set_defaults(run=_train_command)
    evaluation = commands.add_parser("evaluate", help="win rates against bots, with 95%% Wilson intervals")
    evaluation.add_argument("--game", default="tictactoe")
    evaluation.add_argument("--players", type=int, default=0, help="default: the players it was trained for")
    evaluation.add_argument("--weights", type=Path, help="default: the shipped network of the game")
    evaluation.add_argument("--opponents", default="random;greedy", help="bot specs separated by ';'")
    evaluation.add_argument("--games", type=int, default=400)
    evaluation.add_argument("--seed", type=int, default=1_000_000)
    evaluation.set_defaults(run=_evaluate_command)
    showing = commands.add_parser("curve", help="the learning curve kept with a network")
    showing.add_argument("--game", default="tictactoe")
    showing.add_argument("--weights", type=Path, help="default: the shipped network of the game")
    showing.set_defaults(run=_curve_command)
    reporting = commands.add_parser("report", help="every game's network against each opponent, as markdown")
    reporting.add_argument("--games", default="",
                           help="comma-separated game names (default: every research game)")
    reporting.add_argument("--weights", type=Path,
                           help="folder of <game>.npz (default: the shipped networks)")
    reporting.add_argument("--opponents", default="random;greedy",
                           help="bot specs or level names separated by ';', each with @N for its own number "
                                "of games (random is also played by the untrained network)")
    reporting.add_argument("--per-opponent", type=int, default=100, help="games per opponent without @N")
    reporting.add_argument("--seed", type=int, default=1_000_000)
    reporting.add_argument("--out", type=Path, help="markdown file to write (default: standard output)")
    reporting.set_defaults(run=_report_command)
    arguments = parser.parse_args(argv)
    arguments.argv = list(argv) if argv is not None else sys.argv[1:]
    arguments.run(arguments)


if __name__ == "__main__":
    main()
