"""What one seat (or a spectator) may know of the table (schema: docs/schemas/rose-of-fire-view.schema.json).

Hidden and never here: the faces of other players' cards (their counts by kind are shown, as the
card backs differ by kind), the other families' influence tokens (face down: only their number)
and secret conviction tokens, the contents of the red bag, the order of the decks and of the
immigration tokens, the two tokens another player is choosing between (and which action names
which of one's own tokens in a secret choice), the random generator.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from eixample.games.rose_of_fire.components import (
    ANY_COLOUR,
    COLOURS,
    EFFECTS,
    HOUSE_LETTERS,
    HOUSES,
    KINDS,
    SYMBOLS,
)
from eixample.games.rose_of_fire.influence import secret_choice
from eixample.games.rose_of_fire.state import AVAILABLE, LOST_TO_ANARCHY, REMOVED_BY_EVENT

if TYPE_CHECKING:
    from eixample.games.rose_of_fire.state import RoseState


def card_json(s: RoseState, c: int) -> dict[str, Any]:
    t = s.t
    colour = t.card_colour[c]
    return {
        "id": t.card_names[c],
        "kind": KINDS[t.card_kind[c]],
        "title": t.card_title[c],
        "colour": "any" if colour == ANY_COLOUR else COLOURS[colour],
        "houses": [HOUSE_LETTERS[h] for h in t.card_houses[c]],
        "ability": {EFFECTS[e]: a for e, a in t.card_ability[c]},
        "event": {EFFECTS[e]: a for e, a in t.card_event[c]},
    }


def _influence_status(owner: int) -> str | int:
    if owner == AVAILABLE:
        return "available"
    if owner == REMOVED_BY_EVENT:
        return "removed"
    if owner == LOST_TO_ANARCHY:
        return "lost"
    return owner


def _player(s: RoseState, p: int, viewer: int | None) -> dict[str, Any]:
    t = s.t
    own = viewer == p
    hand_counts = {kind: 0 for kind in KINDS}
    for c in s.hands[p]:
        hand_counts[KINDS[t.card_kind[c]]] += 1
    conviction: str | None
    if s.conviction_shown[p] >= 0:
        conviction = SYMBOLS[s.conviction_shown[p]]
    elif s.conviction[p] >= 0:
        conviction = SYMBOLS[s.conviction[p]] if own else "hidden"
    else:
        conviction = None
    return {
        "seat": p,
        "vp": s.vp[p],
        "prestige": s.prestige[p],
        "houses_left": {HOUSE_LETTERS[h]: s.houses_left[4 * p + h] for h in range(4)},
        "strikers": {
            "supply": s.supply[p],
            "raval": s.raval[p],
            "barricades": s.barricade[p],
            "bag": s.bag[p],
        },
        "tokens": s.token_count(p),
        "token_symbols": {SYMBOLS[k]: s.tokens[3 * p + k] for k in range(3)} if own else None,
        "secret_choice": secret_choice(s, p) if own else None,
        "conviction": conviction,
        "conviction_used": s.conviction[p] < 0 and s.conviction_shown[p] >= 0 and not s.ended,
        "hand": [card_json(s, c) for c in sorted(s.hands[p])] if own else None,
        "hand_counts": hand_counts,
        "table": [t.card_names[c] for c in s.table[p]],
        "influence_cards": [t.influence_ids[k] for k, o in enumerate(s.influence_owner) if o == p],
        "strike_in_front": s.strike_shown == p,
    }


def make_view(s: RoseState, viewer: int | None) -> dict[str, Any]:
    if viewer is not None and not (
        isinstance(viewer, int) and not isinstance(viewer, bool) and 0 <= viewer < s.n
    ):
        raise ValueError(f"no seat {viewer!r} in a {s.n}-player game")
    t = s.t
    spaces = []
    for x, name in enumerate(t.space_names):
        if t.space_district[x] not in s.districts_used:
            continue
        q = s.in_block[x]
        spaces.append(
            {
                "space": name,
                "district": t.district_ids[t.space_district[x]],
                "start": COLOURS[t.start_colour[x]] if t.start_colour[x] >= 0 else None,
                "tile": COLOURS[s.tile[x]] if s.tile[x] >= 0 else None,
                "complete": s.complete_side(x),
                "block": t.space_names[t.squares[q][0]] if q >= 0 else None,
                "house": {"owner": s.owner[x], "type": HOUSE_LETTERS[s.htype[x]]}
                if s.owner[x] >= 0
                else None,
            }
        )
    return {
        "game": "rose-of-fire",
        "players": s.n,
        "viewer": viewer,
        "options": {k: v for k, v in s.options.items() if k != "data_dir"},
        "current_player": s.current_player(),
        "decision": s.describe_decision(),
        "decision_kind": s.decision_kind() or "over",
        "terminal": s.ended,
        "winners": s.winners(),
        "scores": s.scores(),  # the VP track is public: the score-over-time chart reads it
        "phase": s.phase,
        "period": s.period,
        "first_player": s.first,
        "immigration": {"level": s.level, "round_track": s.round_track[:], "tokens_left": len(s.imm_pool)},
        "districts": [
            {
                "id": t.district_ids[d],
                "name": t.district_names[d],
                "rows": t.district_rows[d],
                "columns": t.district_cols[d],
            }
            for d in s.districts_used
        ],
        "eixample": spaces,
        "obelisks": {"blocks": [t.space_names[t.squares[q][0]] for q in s.blocks], "left": s.obelisks_left},
        "tiles_left": {COLOURS[c]: s.tiles_left[c] for c in range(3)},
        "conflict": {
            "bomb": s.bomb,
            "anarchy_space": t.anarchy_space,
            "events": {SYMBOLS[k]: {"space": t.event_space[k], "fired": bool(s.fired[k])} for k in range(3)},
            "anarchy": bool(s.anarchy),
        },
        "montjuic": s.montjuic,
        "black_bag": {"strikers": s.bag[:], "soldiers": s.bag_soldiers},
        "barricade_soldiers": s.barricade_soldiers,
        "red_bag": sum(s.red_bag),
        "influence_cards": [
            {
                "id": t.influence_ids[k],
                "name": t.influence_names[k],
                "symbol": SYMBOLS[t.influence_symbol[k]],
                "cost": {SYMBOLS[j]: t.influence_cost[k][j] for j in range(3) if t.influence_cost[k][j]},
                "vp": t.influence_vp[k],
                "status": _influence_status(s.influence_owner[k]),
            }
            for k in range(len(t.influence_ids))
        ],
        "decks": {"city": len(s.city_deck), "popularity": len(s.pop_deck), "prestige": len(s.prestige_deck)},
        "discards": {
            "city": [t.card_names[c] for c in sorted(s.city_discard)],
            "popularity": [t.card_names[c] for c in sorted(s.pop_discard)],
            "prestige": [t.card_names[c] for c in sorted(s.prestige_discard)],
        },
        "house_types": list(HOUSES),
        "scoring": {"blocks": list(t.reversed_vp if s.anarchy else t.block_vp)},
        "player_list": [_player(s, p, viewer) for p in range(s.n)],
        "score_breakdown": s.score_breakdown(),
        "log": s.log(),
    }
