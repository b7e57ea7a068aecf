"""A player's turn (rulebook: Phase structure; Individual turns, steps I-IV).

Start of a phase: the first player draws the immigration level. A turn: play one card from hand;
a card played to place a tile goes through I. place a city tile, II. build a house (upper-class:
2 influence tokens, keep 1, bomb +1), III. striking workers to Raval (overflow to the barricades),
the card's ability, IV. an obelisk on a completed block. Then the free purchase of influence
cards, events of the social-conflict track triggered during the turn, and the next player.
Rules 2 also offer purchases before the card (R30) and, for an ability calming Raval, the choice
of resolving it before step III (R21).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from eixample.core.messages import Entry
from eixample.games.rose_of_fire import actions as txt
from eixample.games.rose_of_fire.cards import CALM_E, play_strike, stays_on_table
from eixample.games.rose_of_fire.components import (
    ANY_COLOUR,
    CROWN,
    STRIKE,
    UPPER,
)
from eixample.games.rose_of_fire.conflict import advance_bomb, resolve_event
from eixample.games.rose_of_fire.end_of_phase import begin_end_of_phase
from eixample.games.rose_of_fire.state import (
    A_HOUSE_ARGS,
    A_TILE_ARGS,
    ABILITY,
    AS_EVENT,
    BLOCK,
    BOTH,
    BUY,
    COMPLETE,
    END_TURN,
    EVENT,
    HOUSE,
    KEEP,
    KIND_ARGS,
    NORMAL,
    PLAY,
    RAVAL,
    TILE,
    WHEN,
    adjusted,
    open_to_tiles,
    secret_places,
)

if TYPE_CHECKING:
    from eixample.core.decisions import Frame
    from eixample.games.rose_of_fire.state import RoseState

DISCARD = 3  # a card that can do nothing is discarded (ruling R16)


# ---------------------------------------------------------------------- start of a phase
def start_phase(s: RoseState, frame: Frame) -> None:
    """1. Set the immigration level: a random token on the round track; in phases 1-4 a "6" is
    put back and another drawn."""
    s.phase += 1
    excluded = s.t.immigration_excluded
    pool = s.imm_pool
    allowed = [i for i, value in enumerate(pool) if s.phase == 5 or value != excluded]
    value = pool.pop(allowed[s._below(len(allowed))])
    s.round_track.append(value)
    s.level = value
    s._say(("rof.phase", {"phase": s.phase, "period": "I" * s.period, "level": value}))
    begin_turn(s, s.first)


def begin_turn(s: RoseState, p: int) -> None:
    """From rules 2 influence may be bought before the card too (ruling R30)."""
    if s.rules_version >= 2:
        s.stack.extend(((END_TURN, p), (BUY, p), (PLAY, p), (BUY, p)))
    else:
        s.stack.extend(((END_TURN, p), (BUY, p), (PLAY, p)))


# ---------------------------------------------------------------------- choosing a card
def legal_spaces(s: RoseState, colour: int) -> tuple[int, ...]:
    """I. An empty space next to a tile of the same colour (face up or complete) or a starting
    space of that colour, while tiles of it are left; Sant Martí is not used with 2 players."""
    return s.frontier[colour] if s.tiles_left[colour] > 0 else ()


def frontier_after_tile(s: RoseState, x: int, colour: int) -> tuple[tuple[int, ...], ...]:
    """The frontier once a tile of `colour` is on `x`: `x` is taken, and its empty neighbours
    in play join that colour's."""
    after = []
    for c, spaces in enumerate(s.frontier):
        if c == colour:
            grown = set(spaces)
            grown.discard(x)
            grown.update(y for y in s.t.neighbours[x] if open_to_tiles(s, y))
            spaces = tuple(sorted(grown))
        elif x in spaces:
            spaces = tuple(y for y in spaces if y != x)
        after.append(spaces)
    return tuple(after)


def card_colours(s: RoseState, card: int) -> tuple[int, ...]:
    colour = s.t.card_colour[card]
    return (0, 1, 2) if colour == ANY_COLOUR else (colour,)


def buildable(s: RoseState, p: int, card: int) -> bool:
    """II. The player still has a house of a type the card shows."""
    left = s.houses_left
    return any(left[4 * p + h] > 0 for h in s.t.card_houses[card])


def playable(s: RoseState, p: int, card: int) -> bool:
    if s.t.card_kind[card] == STRIKE or not buildable(s, p, card):
        return False
    return any(legal_spaces(s, colour) for colour in card_colours(s, card))


def legal_play(s: RoseState, f: Frame, texts: list[str], payloads: list[Any]) -> None:
    p = f[1]
    t = s.t
    seen: set[int] = set()
    crown = s.conviction[p] == CROWN
    for card in sorted(s.hands[p]):
        face = t.card_face[card]
        if face in seen:
            continue  # identical faces: one choice
        seen.add(face)
        if t.card_kind[card] == STRIKE:
            texts.append(s.x.card[card])
            payloads.append((card, NORMAL))
            continue
        can = playable(s, p, card)
        if can:
            texts.append(s.x.card[card])
            payloads.append((card, NORMAL))
        if t.card_event[card]:
            texts.append(s.x.event[card])
            payloads.append((card, AS_EVENT))
            if can and crown:
                texts.append(s.x.both[card])
                payloads.append((card, BOTH))
        elif not can:
            texts.append(s.x.discard[card])
            payloads.append((card, DISCARD))


def resolve_play(s: RoseState, f: Frame, payload: tuple[int, int]) -> None:
    p = f[1]
    card, mode = payload
    hand = s.hands[p]
    i = hand.index(card)
    s.hands[p] = hand[:i] + hand[i + 1 :]
    name = card_arg(s, card)
    if s.t.card_kind[card] == STRIKE:
        play_strike(s, p)
        return
    if mode == DISCARD:
        s.discard(card)
        s._say(("rof.discards", {"player": s.seat_name(p), "card": name}))
        return
    if mode == AS_EVENT:
        s._say(("rof.playsEvent", {"player": s.seat_name(p), "card": name}))
        s.discard(card)
        s.stack.append((EVENT, p, card))
        return
    if mode == BOTH:
        s.spend_conviction(p, ("rof.why.both", {"card": name}))
        s.stack.append((EVENT, p, card))
    else:
        s._say(("rof.plays", {"player": s.seat_name(p), "card": name}))
    if stays_on_table(s, card, mode):
        s.table[p] = s.table[p] + (card,)
    else:
        s.discard(card)
    s.stack.extend(((COMPLETE, p), (ABILITY, p, card), (TILE, p, card)))


# ---------------------------------------------------------------------- I. the city tile
def legal_tile(s: RoseState, f: Frame, texts: list[str], payloads: list[Any]) -> None:
    for colour in card_colours(s, f[2]):
        for x in legal_spaces(s, colour):
            texts.append(s.x.tile[3 * x + colour])
            payloads.append((x, colour))


def resolve_tile(s: RoseState, f: Frame, payload: tuple[int, int]) -> None:
    x, colour = payload
    s.tile[x] = colour
    s.square_open = adjusted(s.square_open, s.t.squares_of[x], 1)
    s.frontier = frontier_after_tile(s, x, colour)
    s.tiles_left[colour] -= 1
    s.placed = x
    s.stack.append((HOUSE, f[1], f[2]))


# ---------------------------------------------------------------------- II. the house
def legal_house(s: RoseState, f: Frame, texts: list[str], payloads: list[Any]) -> None:
    p = f[1]
    for h in s.t.card_houses[f[2]]:
        if s.houses_left[4 * p + h] > 0:
            texts.append(txt.HOUSE[h])
            payloads.append(h)


def resolve_house(s: RoseState, f: Frame, h: int) -> None:
    p = f[1]
    x = s.placed
    s.owner[x] = p
    s.htype[x] = h
    s.houses_left[4 * p + h] -= 1
    s.house_spaces = tuple(sorted((*s.house_spaces, x)))
    s.house_count = adjusted(s.house_count, ((p * 3 + s.t.space_district[x]) * 4 + h,), 1)
    s._say(("rof.builds", {"player": s.seat_name(p), "house": A_HOUSE_ARGS[h], "tile": A_TILE_ARGS[s.tile[x]],
                           "space": s.t.space_names[x]}))
    if s.rules_version >= 2 and ability_first_matters(s, p, f[2], h):
        s.stack.append((WHEN, p, f[2], h))
        return
    after_house(s, p, h)


def after_house(s: RoseState, p: int, h: int) -> None:
    """III. strikers to Raval; then the upper-class card text (*): 2 tokens, keep 1, bomb +1."""
    send_strikers(s, p, max(0, s.level - (h + 1)))
    if h == UPPER:  # the card's text (*): 2 influence tokens, keep 1; bomb +1
        a, b = s.draw_token(), s.draw_token()
        if a >= 0 and b >= 0:  # asked even for two alike, so others learn nothing of them
            s.stack.append((KEEP, p, a, b, *secret_places([a, b], s._below)))
        elif a >= 0:
            s.tokens[3 * p + a] += 1
        advance_bomb(s, 1, in_turn=True, cause=("rof.cause.upper", {}))


# ---------------------------------------------------------------------- the card's ability
def ability_first_matters(s: RoseState, p: int, card: int, h: int) -> bool:
    """Rules 2 (ruling R21): the ability may resolve at any time before the block's consequences.
    The order matters only for an ability calming Raval when the house sends strikers there;
    the player is then asked whether it comes before step III."""
    frame = s.stack[-1] if s.stack else None
    if frame is None or frame[0] != ABILITY or frame[2] != card:
        return False
    if not any(effect == CALM_E for effect, _ in s.t.card_ability[card]):
        return False
    return min(s.supply[p], s.level - (h + 1)) > 0


def legal_when(s: RoseState, f: Frame, texts: list[str], payloads: list[Any]) -> None:
    texts.extend(txt.WHEN)
    payloads.extend((True, False))


def resolve_when(s: RoseState, f: Frame, first: bool) -> None:
    """`ability first`: the ability, then step III; `strikers first`: step III, then the ability
    (as in rules 1). The ability frame lies just below."""
    p, card, h = f[1], f[2], f[3]
    if first:
        s.stack.pop()
        s.stack.extend(((RAVAL, p, h), (ABILITY, p, card)))
    else:
        after_house(s, p, h)


def raval_step(s: RoseState, f: Frame) -> None:
    after_house(s, f[1], f[2])


def describe_when(s: RoseState, f: Frame) -> Entry:
    return ("rof.ask.ability", {"player": s.seat_name(f[1]), "card": card_arg(s, f[2])})


# ---------------------------------------------------------------------- III. Raval
def send_strikers(s: RoseState, p: int, count: int) -> None:
    """Strikers of p's colour into Raval (as many as p's supply holds), then the Raval limit:
    while over it, 2 strikers leave Raval, 1 to the barricades and 1 back to the supply."""
    count = min(count, s.supply[p])
    if count <= 0:
        return
    s.supply[p] -= count
    s.raval[p] += count
    over = 0
    while s.raval[p] > s.raval_limit:
        s.raval[p] -= 2
        s.barricade[p] += 1
        s.supply[p] += 1
        over += 1
    if over:
        s._say(("rof.ravalOver", {"player": s.seat_name(p), "count": count, "over": over}))
    else:
        s._say(("rof.raval", {"player": s.seat_name(p), "count": count}))


# ---------------------------------------------------------------------- IV. the obelisk
def completable(s: RoseState, x: int, square_open: tuple[int, ...] | None = None) -> list[int]:
    """2x2 squares holding x whose four tiles are down and in no block yet (by the counts
    `square_open`, the state's own by default)."""
    if square_open is None:
        square_open = s.square_open
    return [q for q in s.t.squares_of[x] if square_open[q] == 4]


def complete_step(s: RoseState, f: Frame) -> None:
    x = s.placed
    if x < 0:
        return
    squares = completable(s, x)
    if not squares:
        return
    if s.obelisks_left <= 0:
        s._say(("rof.noObelisk", {}))
        return
    if len(squares) == 1:
        complete_block(s, f[1], squares[0])
    else:
        s.stack.append((BLOCK, f[1], x))


def legal_block(s: RoseState, f: Frame, texts: list[str], payloads: list[Any]) -> None:
    for q in completable(s, f[2]):
        texts.append(s.x.block[s.t.squares[q][0]])
        payloads.append(q)


def resolve_block(s: RoseState, f: Frame, q: int) -> None:
    complete_block(s, f[1], q)


def complete_block(s: RoseState, p: int, q: int) -> None:
    """An obelisk on the block; +1 prestige to every player with a house in it, +1 more to the
    highest total status (general tie rule)."""
    spaces = s.t.squares[q]
    for y in spaces:
        s.in_block[y] = q
        s.square_open = adjusted(s.square_open, s.t.squares_of[y], -1)
    s.blocks.append(q)
    s.obelisks_left -= 1
    status = [0] * s.n
    for y in spaces:
        if s.owner[y] >= 0:
            status[s.owner[y]] += s.htype[y] + 1
    present = [r for r in range(s.n) if status[r] > 0]
    s._say(("rof.completes", {"player": s.seat_name(p), "space": s.t.space_names[spaces[0]]}))
    best = -1
    if present and s.rules_version >= 2:  # the tie by prestige before the block's +1 (R36)
        best = max(present, key=lambda r: (status[r], *s.tie_key(r)))
    for r in present:
        s.gain_prestige(r, 1)
    if present:
        if best < 0:  # rules 1: the prestige after the +1
            best = max(present, key=lambda r: (status[r], *s.tie_key(r)))
        s.gain_prestige(best, 1)
        seats = [s.seat_name(r) for r in present]
        s._say(("rof.blockPrestige", {"players": seats, "best": s.seat_name(best)}))


# ---------------------------------------------------------------------- end of the turn
def end_turn(s: RoseState, f: Frame) -> None:
    """Events of the track triggered during the turn resolve now; then the next player clockwise
    with cards in hand, or the end-of-phase procedure."""
    for symbol in s.pending_events:
        resolve_event(s, symbol)
    s.pending_events = []
    s.placed = -1
    p = f[1]
    for step in range(1, s.n + 1):
        q = (p + step) % s.n
        if s.hands[q]:
            begin_turn(s, q)
            return
    begin_end_of_phase(s)


def card_arg(s: RoseState, card: int) -> Entry:
    """A card as a log argument: its kind (translated) and its id."""
    return ("rof.card", {"kind": KIND_ARGS[s.t.card_kind[card]], "id": s.t.card_names[card]})


def describe_play(s: RoseState, f: Frame) -> Entry:
    return ("rof.ask.play", {"player": s.seat_name(f[1])})


def describe_tile(s: RoseState, f: Frame) -> Entry:
    return ("rof.ask.tile", {"player": s.seat_name(f[1]), "card": card_arg(s, f[2])})


def describe_house(s: RoseState, f: Frame) -> Entry:
    return ("rof.ask.house", {"player": s.seat_name(f[1]), "space": s.t.space_names[s.placed]})


def describe_block(s: RoseState, f: Frame) -> Entry:
    return ("rof.ask.block", {"player": s.seat_name(f[1])})
