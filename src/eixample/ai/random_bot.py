"""The random bot: any legal action, uniformly."""

from __future__ import annotations

from eixample.ai.base import Bot
from eixample.ai.view import PlayerView
from eixample.core.protocol import Action


class RandomBot(Bot):
    def decide(self, view: PlayerView) -> Action:
        return self.rng.choice(view.legal_actions())
