"""Bot specs: a bot configuration as one short string.

Syntax: `NAME` or `NAME:KEY=VALUE[:KEY=VALUE...]`, for example `random`, `greedy`,
`greedy:samples=4`, `mcts`, `mcts:iterations=200`, `mcts:seconds=1`,
`mcts:iterations=400:depth=10:norm=rank`, `expert:seconds=1`. Specs contain no commas, so lists
of them are written comma-separated on the command line.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from eixample.ai.base import Bot
from eixample.ai.greedy import MAX_PLAN, GreedyBot
from eixample.ai.mcts import MctsBot, MctsSettings
from eixample.ai.parallel import MAX_WORKERS
from eixample.ai.random_bot import RandomBot
from eixample.ai.scoring import NORMS
from eixample.core.errors import EixampleError
from eixample.core.protocol import Game


class BotSpecError(EixampleError, ValueError):
    """A bot spec naming an unknown bot or parameter, or a parameter with a bad value."""


Parser = Callable[[str], Any]


@dataclass(frozen=True)
class Param:
    parse: Parser
    help: str


@dataclass(frozen=True)
class BotKind:
    name: str
    summary: str
    params: Mapping[str, Param]
    build: Callable[[str, int, dict[str, Any]], Bot]


def _number(kind: type[int] | type[float], minimum: float, strict: bool) -> Parser:
    word = "positive" if strict else "non-negative"
    noun = "integer" if kind is int else "number"

    def parse(text: str) -> int | float:
        try:
            value = kind(text)
        except ValueError:
            raise ValueError(f"must be a {word} {noun}, not '{text}'") from None
        if not math.isfinite(value) or value < minimum or (strict and value == minimum):
            raise ValueError(f"must be a {word} {noun}, not '{text}'")
        return value

    return parse


def _at_most(parse: Parser, maximum: int) -> Parser:
    def bounded(text: str) -> Any:
        value = parse(text)
        if value > maximum:
            raise ValueError(f"must be at most {maximum}, not '{text}'")
        return value

    return bounded


def _one_of(*choices: str) -> Parser:
    def parse(text: str) -> str:
        if text not in choices:
            raise ValueError(f"must be one of {', '.join(choices)}, not '{text}'")
        return text

    return parse


def _yes_no(text: str) -> bool:
    words = {"1": True, "yes": True, "true": True, "0": False, "no": False, "false": False}
    if text.lower() not in words:
        raise ValueError(f"must be yes or no (1 or 0), not '{text}'")
    return words[text.lower()]


_POSITIVE_INT = _number(int, 0, strict=True)
_NON_NEGATIVE_INT = _number(int, 0, strict=False)
_POSITIVE_FLOAT = _number(float, 0.0, strict=True)
_NON_NEGATIVE_FLOAT = _number(float, 0.0, strict=False)

MCTS_PARAMS: dict[str, Param] = {
    "iterations": Param(_POSITIVE_INT, "iterations per decision (default 500)"),
    "seconds": Param(_POSITIVE_FLOAT, "seconds per decision (not deterministic)"),
    "c": Param(_NON_NEGATIVE_FLOAT, "UCT exploration constant (default 0.7; 0.2 for expert)"),
    "depth": Param(_NON_NEGATIVE_INT, "random moves before evaluating (default 0)"),
    "norm": Param(_one_of(*NORMS), "evaluation to reward: minmax, rank or sigmoid (default)"),
    "scale": Param(_POSITIVE_FLOAT, "sigmoid margin scale in points (default 10)"),
    "reuse": Param(_yes_no, "keep the subtree of the chosen action for the next decision when the "
                            "view is the one expected (default no; yes for expert)"),
    "skip": Param(_yes_no, "no tree node for decisions with one legal action (default no; yes for expert)"),
    "fpu": Param(_NON_NEGATIVE_FLOAT, "first-play urgency: an untried action is worth the node's mean "
                                      "minus this (default: every action tried once first)"),
    "spread": Param(_yes_no, "scale c at each decision by the spread of its actions' mean rewards "
                             "(default no)"),
    "redraw": Param(_POSITIVE_INT, "a fresh determinization every N iterations, copies in between "
                                   "(default 1)"),
    "cpu": Param(_POSITIVE_FLOAT, "CPU seconds of the process per decision, for fair matches on a busy "
                                  "machine (not deterministic)"),
    "stop": Param(_yes_no, "end the search once more iterations could not change the most visited "
                           "action (default no)"),
    "leaf": Param(_one_of("evaluation", "learned"), "judge leaves by the evaluation margin (default) or by "
                                                    "the game's learned win estimate where it has one"),
    "implicit": Param(_at_most(_NON_NEGATIVE_FLOAT, 1), "implicit minimax backups: the share of a child's "
                                                          "best-play estimate in its value (default 0)"),
    "replies": Param(_at_most(_NON_NEGATIVE_INT, 8), "with finish: the next N moves are also played greedily "
                                                     "before a leaf is judged (default 0, at most 8)"),
    "workers": Param(_at_most(_POSITIVE_INT, MAX_WORKERS),
                     f"processes searching each decision, each its own tree with the whole budget "
                     f"(default 1, at most {MAX_WORKERS})"),
    "finish": Param(_NON_NEGATIVE_INT, "before judging a leaf, the seat that chose its last action makes up "
                                       "to N more decisions of its own greedily (default 0)"),
    "expand": Param(_one_of("random", "greedy"), "which untried action a node expands next: random "
                                                 "(default) or greedy (best margin one step ahead first)"),
    "widen": Param(_at_most(_NON_NEGATIVE_FLOAT, 100), "progressive widening: at most ceil(N * sqrt(visits)) "
                                                       "children per node, the best margin one step ahead "
                                                       "first (default 0: off)"),
    "stage": Param(_yes_no, "end each rollout where the game's stage (such as a phase) changes, within "
                            "depth moves (default no)"),
    "policy": Param(_one_of("random", "greedy"), "how the rollout of depth moves chooses: random "
                                                 "(default) or greedy (each its best margin one step ahead)"),
}

EXPERT = MctsSettings(c=0.2, reuse=True, skip=True)
"""The settings of the `expert` bot before its spec's own parameters."""

KINDS: dict[str, BotKind] = {
    kind.name: kind
    for kind in (
        BotKind("random", "any legal action, uniformly", {},
                lambda spec, seed, values: RandomBot(spec, seed)),
        BotKind("greedy", "one decision ahead: best evaluation margin over the best opponent",
                {"samples": Param(_POSITIVE_INT, "determinizations averaged per decision (default 1)"),
                 "plan": Param(_at_most(_POSITIVE_INT, MAX_PLAN),
                               f"own decisions in a row looked through (default 1, at most {MAX_PLAN})")},
                lambda spec, seed, values: GreedyBot(spec, seed, **values)),
        BotKind("mcts", "Information-Set Monte Carlo Tree Search",
                MCTS_PARAMS, lambda spec, seed, values: MctsBot(spec, seed, MctsSettings(**values))),
        BotKind("expert", "the strongest search: mcts keeping its tree through its own turn (reuse=yes), "
                          "spending no iteration on forced moves (skip=yes), exploring less (c=0.2)",
                MCTS_PARAMS, lambda spec, seed, values: MctsBot(spec, seed, replace(EXPERT, **values))),
    )
}


LEVELS: dict[str, str] = {
    "beginner": "greedy",
    "intermediate": "mcts:iterations=200",
    "strong": "mcts:seconds=1",
    "strongest": "expert:seconds=1:fpu=0.1:implicit=0.4",
}
"""Plain names for players choosing an opponent, weakest first, each mapped to a bot spec
(docs/strength.md says how strong each is): the levels of a game that has none of its own
(`game_levels`)."""


def game_levels(game: Game | None = None) -> dict[str, str]:
    """The levels offered for `game`: its own where it has them (`Game.bot_levels`), else LEVELS."""
    own = game.bot_levels() if game is not None else {}
    return dict(own or LEVELS)


def named_spec(bot: str, game: Game | None = None) -> str:
    """A bot as a player names it: a level of `game` ("strong") stands for its spec, anything else
    is a spec already."""
    return game_levels(game).get(bot.strip().lower(), bot)


def level_spec(level: str, game: Game | None = None) -> str:
    """The bot spec of a level name (of `game`'s levels); BotSpecError naming the levels otherwise."""
    levels = game_levels(game)
    spec = levels.get(level.strip().lower())
    if spec is None:
        raise BotSpecError(f"unknown level '{level}' (known: {', '.join(levels)})")
    return spec


@dataclass(frozen=True)
class BotSpec:
    text: str
    name: str
    params: dict[str, str]


def bot_names() -> list[str]:
    return sorted(KINDS)


def parse_spec(text: str) -> BotSpec:
    """Split a spec into its bot name and raw parameters; check the shape, not the values."""
    text = text.strip()
    name, *parts = text.split(":")
    if name not in KINDS:
        shown = name or text
        raise BotSpecError(f"unknown bot '{shown}' (known: {', '.join(bot_names())})")
    params: dict[str, str] = {}
    for part in parts:
        key, sep, value = part.partition("=")
        if not sep or not key or not value:
            raise BotSpecError(f"bot '{text}': parameter '{part}' must be written KEY=VALUE")
        if key in params:
            raise BotSpecError(f"bot '{text}': parameter '{key}' given twice")
        params[key] = value
    return BotSpec(text, name, params)


def check_spec(text: str) -> dict[str, Any]:
    """The parameter values of a spec, parsed; BotSpecError naming the problem otherwise."""
    spec = parse_spec(text)
    kind = KINDS[spec.name]
    values: dict[str, Any] = {}
    for key, raw in spec.params.items():
        param = kind.params.get(key)
        if param is None:
            known = ", ".join(kind.params) or "none"
            raise BotSpecError(f"bot '{spec.text}': unknown parameter '{key}' (known: {known})")
        try:
            values[key] = param.parse(raw)
        except ValueError as error:
            raise BotSpecError(f"bot '{spec.text}': {key} {error}") from None
    return values


def make_bot(spec: str, seed: int) -> Bot:
    """A bot from its spec, seeded. BotSpecError with a clear message for a bad spec."""
    values = check_spec(spec)
    return KINDS[parse_spec(spec).name].build(spec.strip(), seed, values)


def describe_bots() -> list[tuple[str, str, list[tuple[str, str]]]]:
    """(name, summary, [(parameter, help)]) for every bot, for help texts."""
    return [(kind.name, kind.summary, [(key, param.help) for key, param in kind.params.items()])
            for kind in KINDS.values()]
