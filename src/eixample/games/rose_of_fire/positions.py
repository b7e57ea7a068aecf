"""Whether a restored state is a position the rules can reach: what `from_json` checks beyond
each field's type and range and the conservation of pieces, so that a saved state from outside
can never leave a game with no legal action or break a move halfway.

`position_problem(s)` returns '' or what is wrong, in a few words."""

from __future__ import annotations

from collections.abc import Callable

from eixample.core.decisions import Frame
from eixample.games.rose_of_fire.actions import MAX_HELD
from eixample.games.rose_of_fire.components import CITY, POPULARITY, PRESTIGE, STRIKE
from eixample.games.rose_of_fire.state import (
    ABILITY,
    AVAILABLE,
    BLOCK,
    BLOCK_SCORING,
    BUY,
    COMPLETE,
    DEAL,
    DROP,
    END_TURN,
    EVENT,
    EXTRA,
    FINAL_SCORING,
    FIRST_PLAYER,
    HOUSE,
    KEEP,
    LOST_TO_ANARCHY,
    NEXT_PHASE,
    NSRC,
    PLAY,
    POPULARITY_CARDS,
    PRESTIGE_CARD,
    RAVAL,
    REBELLION,
    REMOVED_BY_EVENT,
    REWARD,
    START_PHASE,
    STRIKE_CARD,
    SUPPRESSION,
    TILE,
    WHEN,
    RoseState,
)

TURN_FRAMES = frozenset({PLAY, TILE, HOUSE, BLOCK, BUY, ABILITY, COMPLETE, EVENT, WHEN, RAVAL})
"""Frames of one player's turn: they lie above that player's END_TURN."""
PHASE_STEPS = frozenset(
    {REBELLION, STRIKE_CARD, PRESTIGE_CARD, POPULARITY_CARDS, DEAL, FIRST_PLAYER, NEXT_PHASE,
     BLOCK_SCORING, SUPPRESSION, FINAL_SCORING}
)
"""Steps of the end-of-phase and end-of-period procedures: no seat (-1)."""
RULES_2_FRAMES = frozenset({WHEN, RAVAL})


def position_problem(s: RoseState) -> str:
    for check in CHECKS:
        problem = check(s)
        if problem:
            return problem
    return ""


def board_problem(s: RoseState) -> str:
    t = s.t
    for x in range(len(t.space_names)):
        colour, owner = s.tile[x], s.owner[x]
        if (owner >= 0) != (s.htype[x] >= 0):
            return f"space {t.space_names[x]} has a house owner without a type, or a type without one"
        if colour < 0 and (owner >= 0 or s.in_block[x] >= 0):
            return f"space {t.space_names[x]} holds a house or a block but no city tile"
        if colour >= 0 and t.space_district[x] not in s.districts_used:
            return f"space {t.space_names[x]} is in a district not used with {s.n} players"
        alone = all(s.tile[y] != colour for y in t.neighbours[x])
        if colour >= 0 and x not in t.start_spaces[colour] and alone:
            return f"the tile on {t.space_names[x]} touches no tile of its colour off a starting space"
        q = s.in_block[x]
        if q >= 0 and any(s.in_block[y] != q for y in t.squares[q]):
            return f"space {t.space_names[x]} is in a block whose four spaces are not all in it"
    if len(set(s.blocks)) != len(s.blocks):
        return "a block is listed twice"
    for q in s.blocks:
        if any(s.in_block[y] != q for y in t.squares[q]):
            return "a block with an obelisk is not made of its four spaces"
    if s.placed >= 0 and s.tile[s.placed] < 0:
        return "the space of the tile just placed is empty"
    return ""


def round_problem(s: RoseState) -> str:
    t = s.t
    if sorted(s.imm_pool + s.round_track) != sorted(t.immigration):
        return "the immigration tokens are not the game's"
    if s.phase < 1 or len(s.round_track) != s.phase:
        return "the round track does not hold one immigration token per phase played"
    if s.level != s.round_track[-1]:
        return "the immigration level is not the token of the current phase"
    if t.immigration_excluded in s.round_track[:4]:
        return f"an immigration {t.immigration_excluded} was drawn before the last phase"
    if any(len(hand) > s.limit for hand in s.hands):
        return f"a hand holds more than {s.limit} cards"
    if s.ended and (s.stack or s.phase != 5 or any(s.hands)):
        return "'ended' is true in a game not over"
    if s.floor > s.n_actions:
        return "the undo floor is beyond the actions taken"
    return ""


def card_problem(s: RoseState) -> str:
    t = s.t
    piles = (
        (s.city_deck, CITY), (s.pop_deck, POPULARITY), (s.prestige_deck, PRESTIGE),
        (s.city_discard, CITY), (s.pop_discard, POPULARITY), (s.prestige_discard, PRESTIGE),
    )
    for pile, kind in piles:
        if any(t.card_kind[c] != kind for c in pile):
            return "a deck or discard pile holds a card of another kind"
    if any(not t.card_stays[c] for table in s.table for c in table):
        return "a card that does not stay on the table lies there"
    holders = [p for p in range(s.n) if any(t.card_kind[c] == STRIKE for c in s.hands[p])]
    if s.strike_shown >= 0 and (not s.options.get("no_strike") or holders):
        return "the Strike card is shown in front of a player without the No Strike rule"
    receiver = s.strike_to if s.strike_to >= 0 else s.first  # the receiver takes the first-player marker
    if holders and holders != [receiver]:
        return "the Strike card is in the hand of a player who did not receive it"
    return ""


def score_problem(s: RoseState) -> str:
    for p in range(s.n):
        if sum(s.vp_src[p * NSRC : (p + 1) * NSRC]) != s.vp[p]:
            return f"the VP of seat {p} are not the sum of their sources"
        if s.rules_version >= 2 and s.vp[p] < 0:
            return f"seat {p} has fewer than 0 VP"
        if s.raval[p] > s.raval_limit:
            return f"seat {p} has more than {s.raval_limit} strikers in Raval"
        secret, shown = s.conviction[p], s.conviction_shown[p]
        if (secret < 0 and shown < 0) or (secret >= 0 and shown >= 0 and (not s.ended or shown != secret)):
            return f"the conviction token of seat {p} is both secret and shown, or neither"
    return ""


def token_problem(s: RoseState) -> str:
    """Each symbol's tokens: on family cards, in the red bag, kept secret as a conviction, or
    drawn and waiting for a choice."""
    drawn = [0, 0, 0]
    for f in s.stack:
        if f[0] == KEEP and 0 <= f[2] <= 2 and 0 <= f[3] <= 2:
            drawn[f[2]] += 1
            drawn[f[3]] += 1
    for k in range(3):
        held = sum(s.tokens[3 * p + k] for p in range(s.n)) + s.red_bag[k] + drawn[k]
        held += sum(1 for symbol in s.conviction if symbol == k)
        if held != s.t.tokens_per_symbol[k]:
            return "the influence tokens of a symbol do not add up"
    return ""


def conflict_problem(s: RoseState) -> str:
    t = s.t
    for symbol in range(3):
        if s.fired[symbol] != (1 if s.bomb >= t.event_space[symbol] else 0):
            return "the events fired do not match the bomb's space"
    pending = s.pending_events
    if len(set(pending)) != len(pending) or any(not s.fired[k] for k in pending):
        return "an event waits that the bomb has not reached"
    if s.anarchy and s.bomb < t.anarchy_space:
        return "Anarchy without the bomb on its space"
    for k, owner in enumerate(s.influence_owner):
        symbol = t.influence_symbol[k]
        resolved = s.fired[symbol] and symbol not in pending
        if owner == AVAILABLE and resolved:
            return f"influence card {t.influence_ids[k]} is still available after its event"
        if owner == REMOVED_BY_EVENT and not resolved:
            return f"influence card {t.influence_ids[k]} was removed by an event that has not happened"
        if owner == LOST_TO_ANARCHY and not s.anarchy:
            return f"influence card {t.influence_ids[k]} was lost to an Anarchy that has not begun"
    return ""


def procedure(phase: int) -> list[int]:
    """The steps that follow a phase, bottom of the stack first (begin_end_of_phase)."""
    if phase == 5:
        steps = [FINAL_SCORING, BLOCK_SCORING]
    else:
        steps = [NEXT_PHASE, *((SUPPRESSION, BLOCK_SCORING) if phase % 2 == 0 else ()), FIRST_PLAYER, DEAL]
    return [*steps, POPULARITY_CARDS, PRESTIGE_CARD, STRIKE_CARD, REBELLION]


def stack_problem(s: RoseState) -> str:
    stack = s.stack
    turn_seat = stack[0][1] if stack and stack[0][0] == END_TURN else None
    steps = [f[0] for f in stack if f[0] in PHASE_STEPS]
    if stack and turn_seat is None:
        if steps != procedure(s.phase)[: len(steps)] or not steps or stack[0][0] != steps[0]:
            return "the stack is neither a turn nor what remains of an end-of-phase procedure"
    elif steps:
        return "an end-of-phase step lies in a turn"
    if steps and any(f[0] not in PHASE_STEPS for f in stack[: len(steps)]):
        return "a decision lies under the end-of-phase steps"
    if turn_seat is None and s.placed >= 0:
        return "a tile is marked as just placed outside a turn"
    for i, frame in enumerate(stack):
        problem = frame_problem(s, frame)
        if problem:
            return f"stack frame {list(frame)}: {problem}"
        kind = frame[0]
        if kind == END_TURN and i != 0:
            return "the end of a turn lies above another frame"
        if kind in TURN_FRAMES and frame[1] != turn_seat:
            return f"stack frame {list(frame)} is not part of the turn under way"
        if kind == DROP and i != len(stack) - 1:
            return "a token to return waits under another decision"
        if kind == WHEN and (i == 0 or stack[i - 1][:3] != (ABILITY, frame[1], frame[2])):
            return "the choice of when an ability resolves lies over no ability"
    return ""


def frame_problem(s: RoseState, f: Frame) -> str:
    """The frame's length, seat and arguments for its kind."""
    kind, args = f[0], f[2:]
    shape = ARGUMENTS.get(kind)
    if shape is None or len(args) != len(shape):
        return "unknown kind or wrong length"
    if kind in RULES_2_FRAMES and s.rules_version < 2:
        return "a decision of later rules"
    seat_ok = f[1] == -1 if kind in PHASE_STEPS else 0 <= f[1] < s.n
    if not seat_ok:
        return "wrong seat"
    for value, allowed in zip(args, shape, strict=True):
        if not allowed(s, value):
            return "an argument out of range"
    if kind in (PLAY, TILE) and s.placed >= 0:
        return "a tile is marked as just placed before the card's tile"
    if kind == HOUSE and (s.placed < 0 or s.owner[s.placed] >= 0):
        return "a house to build with no empty tile just placed"
    if kind == KEEP and not _keep_places_fit(f):
        return "the places do not fit the two tokens drawn"
    if kind == DROP and not _drop_places_fit(s, f):
        return "the places do not fit the tokens held"
    if kind in (TILE, HOUSE, ABILITY, WHEN) and s.t.card_kind[f[2]] == STRIKE:
        return "the Strike card places no tile"
    return ""


def _keep_places_fit(f: Frame) -> bool:
    drawn = (f[2], f[3])
    for symbol in range(3):
        place = f[4 + symbol]
        if symbol not in drawn:
            if place != 0:
                return False
        elif place not in (1, 2) or drawn[place - 1] != symbol:
            return False
    return True


def _drop_places_fit(s: RoseState, f: Frame) -> bool:
    p = f[1]
    held = s.token_count(p)
    if held <= 6:
        return False
    places = [f[2 + k] for k in range(3) if s.tokens[3 * p + k] > 0]
    absent = [f[2 + k] for k in range(3) if s.tokens[3 * p + k] == 0]
    return all(1 <= place <= held for place in places) and len(set(places)) == len(places) and not any(absent)


Check = Callable[[RoseState, int], bool]


def _card(s: RoseState, value: int) -> bool:
    return 0 <= value < len(s.t.card_names)


def _space(s: RoseState, value: int) -> bool:
    return 0 <= value < len(s.t.space_names)


def _symbol(s: RoseState, value: int) -> bool:
    return 0 <= value <= 2


def _place(s: RoseState, value: int) -> bool:
    return 0 <= value <= MAX_HELD


def _house(s: RoseState, value: int) -> bool:
    return 0 <= value <= 3


ARGUMENTS: dict[int, tuple[Check, ...]] = {
    PLAY: (),
    TILE: (_card,),
    HOUSE: (_card,),
    KEEP: (_symbol, _symbol, _place, _place, _place),
    DROP: (_place, _place, _place),
    BLOCK: (_space,),
    BUY: (),
    REWARD: (),
    EXTRA: (),
    WHEN: (_card, _house),
    START_PHASE: (),
    ABILITY: (_card,),
    COMPLETE: (),
    EVENT: (_card,),
    END_TURN: (),
    RAVAL: (_house,),
    **{kind: () for kind in PHASE_STEPS},
}

CHECKS: tuple[Callable[[RoseState], str], ...] = (
    board_problem,
    round_problem,
    card_problem,
    score_problem,
    token_problem,
    conflict_problem,
    stack_problem,
)
