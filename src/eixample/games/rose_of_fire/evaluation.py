"""A sound estimate of each player's final VP, for bots that know nothing of the game.

Points already scored, plus what the table promises: houses in completed blocks at their table
value, other houses at a share of it (they may yet join a block, and score 1 VP at the end
otherwise), influence cards and the secret conviction's bonus (discounted when Anarchy is near),
tokens toward cards, prestige (the Prestige card, rewards, ties), cards in hand, and the prestige
that strikers in Raval and on the barricades will cost at the next rebellion.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from eixample.games.rose_of_fire.components import STRIKE

if TYPE_CHECKING:
    from eixample.games.rose_of_fire.state import RoseState

PRESTIGE_VP = 0.4
TOKEN_VP = 0.8
CARD_IN_HAND_VP = 1.5
RAVAL_VP = -0.3
BARRICADE_VP = -0.8
OPEN_HOUSE_SHARE = 0.5


def evaluate(s: RoseState) -> list[float]:
    t = s.t
    if s.ended:
        return [float(v) for v in s.vp]
    table = t.reversed_vp if s.anarchy else t.block_vp
    values = [float(v) for v in s.vp]
    for x, p in enumerate(s.owner):
        if p < 0:
            continue
        worth = table[s.htype[x]]
        values[p] += worth if s.in_block[x] >= 0 else max(t.outside_vp, OPEN_HOUSE_SHARE * worth + 0.5)
    danger = 0.0 if s.anarchy else max(0.0, 1.0 - (t.anarchy_space - s.bomb) / 8.0) * 0.5
    for k, owner in enumerate(s.influence_owner):
        if owner >= 0:
            symbol = t.influence_symbol[k]
            bonus = 2 if s.conviction[owner] == symbol else 0
            values[owner] += (t.influence_vp[k] + bonus) * (1.0 - danger)
    strike = t.card_index["strike"]
    for p in range(s.n):
        values[p] += TOKEN_VP * s.token_count(p) + PRESTIGE_VP * s.prestige[p]
        values[p] += RAVAL_VP * s.raval[p] + BARRICADE_VP * s.barricade[p]
        for c in s.hands[p]:
            if c == strike or t.card_kind[c] == STRIKE:
                values[p] -= t.strike_vp_negative if s.prestige[p] < 0 else t.strike_vp
            else:
                values[p] += CARD_IN_HAND_VP
    return values
