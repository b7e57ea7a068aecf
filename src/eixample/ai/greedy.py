"""The greedy bot: looks one decision ahead and takes the best margin by the game's evaluation."""

from __future__ import annotations

from eixample.ai.base import Bot
from eixample.ai.scoring import after, follow_forced, margin, margins_after
from eixample.ai.view import PlayerView
from eixample.core.protocol import Action, State

_TIE = 1e-9
MAX_PLAN = 4
"""The most own decisions in a row `plan` may look through (the search grows as a power of it)."""


class GreedyBot(Bot):
    """For each legal action: apply it to a copy of a determinization and score the result with
    `evaluation()[me]` minus the best opponent's. With `samples` > 1 the scores are summed over
    that many determinizations. With `plan` > 1, a result where the bot decides again is scored
    by its best continuation over up to `plan` of its own decisions in a row (the rest of a turn
    made of several small decisions), so a choice is judged by where the whole turn can lead
    rather than by the game's estimate of a half-made move. Ties are broken by the bot's own
    generator."""

    def __init__(self, spec: str, seed: int, samples: int = 1, plan: int = 1) -> None:
        super().__init__(spec, seed)
        self.samples = samples
        self.plan = plan

    def decide(self, view: PlayerView) -> Action:
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        totals = self._totals(view, legal)
        best = max(totals)
        return self.rng.choice([action for action, total in zip(legal, totals, strict=True)
                                if total >= best - _TIE])

    def _totals(self, view: PlayerView, legal: list[Action]) -> list[float]:
        me = view.player
        totals = [0.0] * len(legal)
        for _ in range(self.samples):
            world = view.resample(self.rng.next_u64())
            if self.plan == 1:
                values = margins_after(world, legal, me)
            else:
                values = [self._value(after(world, action), me, self.plan - 1) for action in legal]
            totals = [total + value for total, value in zip(totals, values, strict=True)]
        return totals

    def _value(self, state: State, me: int, plan: int) -> float:
        """The margin of `me` after its best `plan` decisions in a row from `state` (forced
        moves are followed for free)."""
        actions = follow_forced(state, me)
        if plan == 0 or actions is None:
            return margin(state.evaluation(), me)
        return max(self._value(after(state, action), me, plan - 1) for action in actions)
