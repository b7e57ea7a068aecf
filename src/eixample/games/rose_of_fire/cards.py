"""Action cards (rulebook: Action cards): the abilities of Popularity and Prestige cards, the
events of event cards, cards that stay on the table, the Strike card, and the prestige reward."""

from __future__ import annotations

from typing import TYPE_CHECKING

from eixample.core.messages import vp
from eixample.games.rose_of_fire.components import EFFECTS, PERSONALITIES
from eixample.games.rose_of_fire.state import AS_EVENT, REWARD

if TYPE_CHECKING:
    from eixample.core.decisions import Frame
    from eixample.games.rose_of_fire.state import RoseState

REWARD_E, PRESTIGE_E, VP_E, TOKENS_E, CALM_E, BOMB_E, AGITATE_E, GUARD_E = range(len(EFFECTS))


def stays_on_table(s: RoseState, card: int, mode: int) -> bool:
    """A card whose ability stays on the table (the Civil Guard) is not discarded when played."""
    return mode != AS_EVENT and s.t.card_stays[card]


def ability_step(s: RoseState, f: Frame) -> None:
    """The card's ability, after the house and before the block's consequences."""
    apply_effects(s, f[1], s.t.card_ability[f[2]], in_turn=True)


def event_step(s: RoseState, f: Frame) -> None:
    """The card's event (instead of a tile, or after it with the Crown conviction)."""
    apply_effects(s, f[1], s.t.card_event[f[2]], in_turn=True)


def apply_effects(s: RoseState, p: int, effects: tuple[tuple[int, int], ...], in_turn: bool) -> None:
    from eixample.games.rose_of_fire.conflict import advance_bomb
    from eixample.games.rose_of_fire.turn import send_strikers

    who = s.seat_name(p)
    for effect, amount in effects:
        if effect == REWARD_E:
            for _ in range(amount):
                prestige_reward(s, p)
        elif effect == PRESTIGE_E:
            s.gain_prestige(p, amount)
            s._say(("rof.gainsPrestige", {"player": who, "count": amount}))
        elif effect == VP_E:
            s.score(p, amount, "cards")
            s._say(("rof.scores", {"player": who, "vp": [vp("cards", amount)]}))
        elif effect == TOKENS_E:
            got = 0
            for _ in range(amount):
                symbol = s.draw_token()
                if symbol >= 0:
                    s.tokens[3 * p + symbol] += 1
                    got += 1
            s._say(("rof.takesTokens", {"player": who, "count": got}))
        elif effect == CALM_E:
            back = min(amount, s.raval[p])
            s.raval[p] -= back
            s.supply[p] += back
            if back:
                s._say(("rof.calm", {"player": who, "count": back}))
            else:  # the ability is used all the same: the line says why nothing comes back
                s._say(("rof.calmNone", {"player": who}))
        elif effect == BOMB_E:
            advance_bomb(s, amount, in_turn, cause=("rof.cause.card", {"player": who}))
        elif effect == AGITATE_E:
            for step in range(1, s.n):
                send_strikers(s, (p + step) % s.n, amount)
        elif effect == GUARD_E:
            s._say(("rof.guard", {"player": who}))


def play_strike(s: RoseState, p: int) -> None:
    """The Strike card played in a turn: its printed VP are lost (more on a negative Auca space);
    no tile; the card goes back beside the board (ruling R14)."""
    loss = s.t.strike_vp_negative if s.prestige[p] < 0 else s.t.strike_vp
    lost = s.score(p, -loss, "strike")
    s._say(("rof.playsStrike", {"player": s.seat_name(p), "vp": [vp("strike", lost)]}))


# ---------------------------------------------------------------------- prestige reward
def reward_amount(s: RoseState, p: int) -> int:
    """+1 alone at the top of the Auca, +3 alone at the bottom, +2 otherwise (ties included)."""
    mine = s.prestige[p]
    others = [s.prestige[q] for q in range(s.n) if q != p]
    if all(mine > o for o in others):
        return 1
    if all(mine < o for o in others):
        return 3
    return 2


def prestige_reward(s: RoseState, p: int) -> None:
    """A player whose conviction token is still secret is asked first (whatever its symbol, so
    the question reveals nothing): the Personalities conviction makes any reward +3."""
    if s.conviction[p] >= 0:
        s.stack.append((REWARD, p))
        return
    give_reward(s, p, reward_amount(s, p))


def give_reward(s: RoseState, p: int, amount: int) -> None:
    s.gain_prestige(p, amount)
    s._say(("rof.reward", {"player": s.seat_name(p), "count": amount}))


def legal_reward(s: RoseState, f: Frame, texts: list[str], payloads: list[object]) -> None:
    texts.append("reward")
    payloads.append(False)
    if s.conviction[f[1]] == PERSONALITIES:
        texts.append("reward personalities")
        payloads.append(True)


def resolve_reward(s: RoseState, f: Frame, personalities: bool) -> None:
    p = f[1]
    if personalities:
        s.spend_conviction(p, ("rof.why.reward", {}))
        give_reward(s, p, 3)
    else:
        give_reward(s, p, reward_amount(s, p))


def describe_reward(s: RoseState, f: Frame) -> object:
    return ("rof.ask.reward", {"player": s.seat_name(f[1])})
