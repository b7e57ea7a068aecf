"""The greedy bot: looks one decision ahead and takes the best margin by the game's evaluation."""

from __future__ import annotations

from eixample.ai.base import Bot
from eixample.ai.scoring import margin
from eixample.ai.view import PlayerView
from eixample.core.protocol import Action

_TIE = 1e-9


class GreedyBot(Bot):
    """For each legal action: apply it to a copy of a determinization and score the result with
    `evaluation()[me]` minus the best opponent's. With `samples` > 1 the scores are summed over
    that many determinizations. Ties are broken by the bot's own generator."""

    def __init__(self, spec: str, seed: int, samples: int = 1) -> None:
        super().__init__(spec, seed)
        self.samples = samples

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
            for index, action in enumerate(legal):
                after = world.clone()
                after.apply(action)
                totals[index] += margin(after.evaluation(), me)
        return totals
