"""Influence (rulebook: Influence): tokens on the family card (at most 6), the family conviction
token, and buying influence cards as a free action of one's own turn.

A payment covers each token a card asks for with one token of that symbol, or with two tokens of
one other symbol. The secret conviction token may take part in a payment (it is then revealed and
spent). Buying is offered at the end of each of the buyer's turns, before the events triggered in
the turn resolve, and from rules 2 also at its start, before the card (ruling R30), as often as the
player can pay.
"""

from __future__ import annotations

from functools import cache
from itertools import product
from typing import TYPE_CHECKING, Any

from eixample.games.rose_of_fire import actions as txt
from eixample.games.rose_of_fire.components import SYMBOLS
from eixample.games.rose_of_fire.state import AVAILABLE, BUY, DROP, KEEP, SYMBOL_ARGS

if TYPE_CHECKING:
    from eixample.core.decisions import Frame
    from eixample.games.rose_of_fire.state import RoseState

TOKEN_LIMIT = 6
Payment = tuple[int, int, int, int]
"""Tokens paid from the family card by symbol, and the conviction token's symbol (or -1)."""


@cache
def payments(cost: tuple[int, int, int], held: tuple[int, int, int], conviction: int) -> tuple[Payment, ...]:
    """Every distinct way to pay `cost` from `held` tokens (and the conviction token if >= 0)."""
    found: set[Payment] = set()
    for use_conviction in (False, True) if conviction >= 0 else (False,):
        have = list(held)
        if use_conviction:
            have[conviction] += 1
        for used in _uses(cost):
            if used[0] > have[0] or used[1] > have[1] or used[2] > have[2]:
                continue
            if not use_conviction:
                found.add((used[0], used[1], used[2], -1))
            elif used[conviction] > 0:
                paid = list(used)
                paid[conviction] -= 1
                found.add((paid[0], paid[1], paid[2], conviction))
    return tuple(sorted(found))


@cache
def _uses(cost: tuple[int, int, int]) -> tuple[tuple[int, int, int], ...]:
    """Every distinct count of tokens by symbol that pays `cost`, whatever is held: each token asked
    for is paid with one token of its symbol or two of one other."""
    units = [s for s in range(3) for _ in range(cost[s])]
    found: set[tuple[int, int, int]] = set()
    for payers in product(range(3), repeat=len(units)):
        used = [0, 0, 0]
        for need, payer in zip(units, payers, strict=True):
            used[payer] += 1 if payer == need else 2
        found.add((used[0], used[1], used[2]))
    return tuple(sorted(found))


def legal_buy(s: RoseState, f: Frame, texts: list[str], payloads: list[Any]) -> None:
    """Asked whenever the player's token count (public) reaches the cheapest card left, so that
    whether the question comes says nothing of the symbols (hidden); "done" is always legal."""
    p = f[1]
    held = (s.tokens[3 * p], s.tokens[3 * p + 1], s.tokens[3 * p + 2])
    conviction = s.conviction[p]
    t = s.t
    wealth = sum(held) + (1 if conviction >= 0 else 0)
    costs = [sum(t.influence_cost[k]) for k, owner in enumerate(s.influence_owner) if owner == AVAILABLE]
    if not costs or wealth < min(costs):
        return
    for k, owner in enumerate(s.influence_owner):
        if owner != AVAILABLE or sum(t.influence_cost[k]) > wealth:
            continue
        for pay in payments(t.influence_cost[k], held, conviction):
            texts.append(txt.buy_text(t.influence_ids[k], pay))
            payloads.append((k, pay))
    texts.append("done")
    payloads.append(None)


def resolve_buy(s: RoseState, f: Frame, payload: tuple[int, Payment] | None) -> None:
    if payload is None:
        return
    p = f[1]
    k, pay = payload
    for symbol in range(3):
        s.tokens[3 * p + symbol] -= pay[symbol]
        s.red_bag[symbol] += pay[symbol]
    if pay[3] >= 0:
        s.spend_conviction(p, ("rof.why.buy", {"card": s.t.influence_ids[k]}))
    s.influence_owner[k] = p
    paid = [("rof.tokens", {"count": pay[j], "symbol": SYMBOL_ARGS[j]}) for j in range(3) if pay[j]]
    s._say(("rof.buys", {"player": s.seat_name(p), "card": s.t.influence_ids[k], "worth": s.t.influence_vp[k],
                         "paid": paid or [("rof.noToken", {})]}))
    s.stack.append((BUY, p))  # another purchase may follow


def legal_keep(s: RoseState, f: Frame, texts: list[str], payloads: list[Any]) -> None:
    _offer_places(f, txt.KEEP, (f[2], f[3]), texts, payloads)


def resolve_keep(s: RoseState, f: Frame, symbol: int) -> None:
    p, a, b = f[1], f[2], f[3]
    other = b if symbol == a else a
    s.tokens[3 * p + symbol] += 1
    s.red_bag[other] += 1
    s._say(("rof.keeps", {"player": s.seat_name(p)}))


def legal_drop(s: RoseState, f: Frame, texts: list[str], payloads: list[Any]) -> None:
    p = f[1]
    held = tuple(k for k in range(3) if s.tokens[3 * p + k] > 0)
    _offer_places(f, txt.DROP[: s.token_count(p)], held, texts, payloads)


def _offer_places(
    f: Frame, words: tuple[str, ...], symbols: tuple[int, ...], texts: list[str], payloads: list[Any]
) -> None:
    """A secret choice of tokens: one action per symbol at hand, named by the place the frame
    drew for it (`secret_places`), never by the symbol."""
    places = f[-3:]
    offered = sorted((places[k], k) for k in set(symbols))
    if len({place for place, _ in offered}) != len(offered) or any(
        not 1 <= place <= len(words) for place, _ in offered
    ):
        raise ValueError(f"the places {list(places)} do not fit the tokens at hand")
    for place, symbol in offered:
        texts.append(words[place - 1])
        payloads.append(symbol)


def resolve_drop(s: RoseState, f: Frame, symbol: int) -> None:
    p = f[1]
    s.tokens[3 * p + symbol] -= 1
    s.red_bag[symbol] += 1
    s._say(("rof.drops", {"player": s.seat_name(p), "limit": TOKEN_LIMIT}))


def secret_choice(s: RoseState, p: int) -> dict[str, str] | None:
    """For the seat choosing tokens in secret, each offered action and the symbol it names."""
    if s.ended or not s.stack or s.stack[-1][0] not in (KEEP, DROP) or s.stack[-1][1] != p:
        return None
    return {text: SYMBOLS[symbol] for text, symbol in zip(s.legal_actions(), s._payloads, strict=True)}


def describe_buy(s: RoseState, f: Frame) -> Any:
    return ("rof.ask.buy", {"player": s.seat_name(f[1])})


def describe_keep(s: RoseState, f: Frame) -> Any:
    return ("rof.ask.keep", {"player": s.seat_name(f[1])})


def describe_drop(s: RoseState, f: Frame) -> Any:
    return ("rof.ask.drop", {"player": s.seat_name(f[1]), "limit": TOKEN_LIMIT})
