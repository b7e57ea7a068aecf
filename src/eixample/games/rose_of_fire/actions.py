"""Action texts: short, stable words for every decision (documented in docs/formats.md).

    card c07            play a card to place a tile and build (City, Popularity, Prestige, Strike)
    event p29           play an event card for its event (no tile)
    both p29            tile, house and event, paying a Crown conviction
    discard c07         a card that can neither place a tile nor build
    tile LB3 Y          the city tile: space and colour (Y yellow, L lilac, G green)
    house U             the house: U upper, M middle, W working, L low-budget
    keep 1              the influence token kept of two drawn, by its place in the draw (1 or 2)
    drop 4              a token returned when the family card holds more than 6, by its place in a
                        secret random order of the family's tokens (1..); the seat's own view maps
                        each offered place to its symbol, and no place says anything to the others
    block LB3           the block (named by its top-left space) for the obelisk
    buy K2 with 2K1C    an influence card and the tokens paid ("+conv": with the conviction token)
    done                no more purchases for now (rules 2 also asks before the card)
    reward | reward personalities          a prestige reward, standard or +3 with the conviction
    extra none | extra colonies            the extra Popularity card of a Colonies conviction
    ability first | strikers first         rules 2: a card's ability calming Raval before or after
                                           the house's strikers go to Raval (ruling R21)

`all_actions(t, players)` lists every text that can ever be legal, in a fixed order: the global
action numbering of the reinforcement-learning adapters.
"""

from __future__ import annotations

from itertools import product

from eixample.games.rose_of_fire.components import (
    COLOUR_LETTERS,
    HOUSE_LETTERS,
    STRIKE,
    SYMBOL_LETTERS,
    Tables,
)


class Texts:
    """The action texts of one set of tables, built once."""

    def __init__(self, t: Tables) -> None:
        names = t.card_names
        self.card = tuple(f"card {c}" for c in names)
        self.event = tuple(f"event {c}" for c in names)
        self.both = tuple(f"both {c}" for c in names)
        self.discard = tuple(f"discard {c}" for c in names)
        self.tile = tuple(f"tile {x} {COLOUR_LETTERS[c]}" for x in t.space_names for c in range(3))
        self.block = tuple(f"block {x}" for x in t.space_names)


HOUSE = tuple(f"house {h}" for h in HOUSE_LETTERS)
MAX_HELD = 12
"""More tokens than a family card can ever hold at once (6, plus the largest single gain)."""
KEEP = tuple(f"keep {i}" for i in range(1, 3))
WHEN = ("ability first", "strikers first")
DROP = tuple(f"drop {i}" for i in range(1, MAX_HELD + 1))
_TEXTS: dict[int, Texts] = {}


def texts_for(t: Tables) -> Texts:
    found = _TEXTS.get(id(t))
    if found is None:
        found = _TEXTS[id(t)] = Texts(t)
    return found


def buy_text(ident: str, pay: tuple[int, int, int, int]) -> str:
    parts = "".join(f"{pay[k]}{SYMBOL_LETTERS[k]}" for k in range(3) if pay[k])
    if pay[3] >= 0:
        parts = f"{parts}+conv" if parts else "conv"
    return f"buy {ident} with {parts}"


def all_actions(t: Tables, players: int) -> list[str]:
    """Every action text that can be legal in a game of `players`, in a fixed order."""
    from eixample.games.rose_of_fire.influence import payments

    x = texts_for(t)
    out: list[str] = []
    for c in range(len(t.card_names)):
        out.append(x.card[c])
        if t.card_event[c]:
            out.extend((x.event[c], x.both[c]))
        if t.card_kind[c] != STRIKE:
            out.append(x.discard[c])
    used = [d for d in range(len(t.district_ids)) if players > 2 or t.district_two_players[d]]
    for i in range(len(t.space_names)):
        if t.space_district[i] in used:
            out.extend(x.tile[3 * i + c] for c in range(3))
    out.extend(HOUSE)
    out.extend(KEEP)
    out.extend(DROP)
    out.extend(x.block[q[0]] for q in t.squares if t.space_district[q[0]] in used)
    buys: set[str] = set()
    for k, ident in enumerate(t.influence_ids):
        for held in product(range(7), repeat=3):
            if sum(held) > 6:
                continue
            for conviction in (-1, 0, 1, 2):
                for pay in payments(t.influence_cost[k], held, conviction):
                    buys.add(buy_text(ident, pay))
    out.extend(sorted(buys))
    out.extend(("done", "reward", "reward personalities", "extra none", "extra colonies"))
    out.extend(WHEN)
    return out
