"""`cpu_match.py` with the bot given clairvoyance: how much the hidden information is worth to it.

    python benchmarks/seer_match.py --seer all --game rose-of-fire \\
        --bot expert:cpu=2.8:fpu=0.1:finish=3:scale=5:depth=15:policy=greedy:widen=1 \\
        --against greedy:plan=3 --games 10 --seed 1060000 --out out/rof-seer.jsonl

The `--bot` seats search the real game instead of determinizations of what they can know:
`--seer all` hands them a copy of it, its generator included (they see the opponents' hands,
what the decks hold and every draw to come); `--seer present` draws the generator afresh for each
copy (they know every card as it is now, not the draws to come; for games whose state keeps its
generator in `rng`, as those built on `eixample.core.decisions` do). Not fair bots: upper bounds.
Played on the deals of a fair match (the same `--seed`), the difference is what a better
guess of the hidden parts could at most be worth, and `present` against `all` tells the part
a player could infer (what is held now) from the part nobody can (what will be drawn).
The file and the report are those of cpu_match.py.
"""

from __future__ import annotations

import argparse
import sys
from functools import partial
from typing import Any

from bot_match import match_main
from cpu_match import play_timed, timed_report

from eixample.ai import view as views
from eixample.ai.base import Bot
from eixample.ai.specs import make_bot
from eixample.core.protocol import Action, State
from eixample.core.rng import Rng

MODES = ("all", "present")


class SeerView(views.PlayerView):
    """A view whose determinizations are copies of the real game, generator included."""

    __slots__ = ()

    def resample(self, seed: int) -> State:
        return views._backing(self)[0].clone()


class PresentSeerView(SeerView):
    """A view whose determinizations are copies of the real game with the draws to come drawn
    afresh."""

    __slots__ = ()

    def resample(self, seed: int) -> State:
        state = super().resample(seed)
        state.rng = Rng(seed).next_u64()  # type: ignore[attr-defined]
        return state


class Seer:
    """A bot that decides with a `SeerView` of the game; its other attributes are the bot's."""

    def __init__(self, bot: Bot, present: bool) -> None:
        self.bot = bot
        self.present = present

    def choose(self, state: State, seat: int) -> Action:
        view = (PresentSeerView if self.present else SeerView)(state, seat)
        try:
            return self.bot.decide(view)
        finally:
            view.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.bot, name)


def make_seer(seer_spec: str, present: bool, spec: str, seed: int) -> Bot | Seer:
    bot = make_bot(spec, seed)
    return Seer(bot, present) if spec == seer_spec else bot


def main() -> None:
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--seer", choices=MODES, default="all")
    parser.add_argument("--bot")
    known, rest = parser.parse_known_args()
    sys.argv[1:] = rest + (["--bot", known.bot] if known.bot else [])
    play = partial(play_timed, make=partial(make_seer, known.bot, known.seer == "present"))
    match_main(__doc__, 90000, play, timed_report)


if __name__ == "__main__":
    main()
