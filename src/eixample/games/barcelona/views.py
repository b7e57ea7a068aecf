"""Per-player views: JSON-ready pictures of the table holding only what that player may know.

Hidden: the other players' hands (only their sizes are shown), the order of the bag (its contents
are public), the order of the face-down Modernisme stack, and the random generator.

The parts of a view that come from the printed game data alone (the tile catalogue, the printed
benefits, the fixed facts of each street space) are built once per set of tables (`Printed`);
each view gets its own copies of them (plain dict and list copies, the catalogue parsed from its
JSON), so a view is its caller's to change and shares nothing with other views.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import orjson

from eixample.games.barcelona import actions, board, construction, scoring
from eixample.games.barcelona.actions import benefit_json
from eixample.games.barcelona.components import ACTION_KINDS, SERVICE_EFFECTS
from eixample.games.barcelona.frames import ACTIONS, CITIZENS_CHOICE, ORDER
from eixample.games.barcelona.state import SOURCES
from eixample.games.barcelona.tables import BUILDING_TYPES, CITIZENS, Tables

if TYPE_CHECKING:
    from eixample.games.barcelona.state import BarcelonaState


def _copy(benefit: dict[str, Any] | None) -> dict[str, Any] | None:
    """A printed benefit's own copy for one view (its values are numbers and texts)."""
    return None if benefit is None else dict(benefit)


def _owner(value: int) -> int | None:
    return None if value < 0 else value


def _city(s: BarcelonaState) -> dict[str, Any]:
    t = s.t
    printed = _printed(t)
    return {
        "streets": [
            {**street, "action": ACTION_KINDS[s.street_action[i]]} for i, street in enumerate(printed.streets)
        ],
        "crossings": [
            {
                **crossing,
                "citizens": [CITIZENS[k] for k in s.cross_cit[x]],
                "intersection": _owner(s.cross_owner[x]),
            }
            for x, crossing in enumerate(printed.crossings)
        ],
        "spaces": [
            {
                **space,
                "benefit": _copy(space["benefit"]),
                "tile": _owner(s.space_owner[i]),
                "passenger": _owner(s.space_passenger[i]),
            }
            for i, space in enumerate(printed.spaces)
        ],
        "buildings": [
            {
                **building,
                "block": list(building["block"]),
                "crossings": list(building["crossings"]),
                "type": BUILDING_TYPES[s.bld_type[i]] if s.bld_type[i] >= 0 else None,
                "markers": list(s.bld_markers[i]),
            }
            for i, building in enumerate(printed.buildings)
        ],
        "row_bonus": [t.row_bonus_vp[r] if s.row_bonus[r] else 0 for r in range(4)],
        "trams": [board.SPACES[x] if x >= 0 else None for x in s.tram],
    }


def _tracks(s: BarcelonaState) -> dict[str, Any]:
    t = s.t
    return {
        CITIZENS[k]: {
            **{part: list(values) for part, values in _printed(t).tracks[k].items()},
            "filled": [bool(v) for v in s.track[k]],
            "off_board": s.off_board[k],
        }
        for k in range(3)
    }


def _player(s: BarcelonaState, p: int, viewer: int | None) -> dict[str, Any]:
    t = s.t
    printed = _printed(t)
    km, kn, kw, kk = len(t.modernisme_take), len(t.narrow_stacks), len(t.wide_stacks), len(t.marker_stacks)
    mine = viewer == p
    return {
        "seat": p,
        "vp": s.vp[p],
        "coins": s.coins[p],
        "cloth": s.cloth[p],
        "capacity": s.capacity(p),
        "cobblestones_left": len(t.cobblestone_vp) - 1 - s.cobbles[p],
        "cobblestone_vp_now": t.cobblestone_vp[s.cobbles[p]],
        "cerda": s.cerda[p],
        "cerda_multiplier": t.cerda_multiplier[s.cerda[p]],
        "sagrada": s.sagrada[p],
        "sagrada_tiles": [t.sagrada_ids[i] for i in s.sagrada_tiles[p]],
        "intersections": [
            {
                "cost": t.intersection_cost[i],
                "benefit": _copy(printed.intersection_benefits[i]),
                "built": i < s.inters[p],
            }
            for i in range(len(t.intersection_cost))
        ],
        "passengers": [
            {"coin": c, "cloth": cl, "placed": i < s.passengers[p]}
            for i, (c, cl) in enumerate(t.passenger_cost)
        ],
        "passenger_vp_now": t.passenger_vp[s.passengers[p]],
        "narrow_stacks": s.narrow_left[p * kn : (p + 1) * kn],
        "wide_stacks": s.wide_left[p * kw : (p + 1) * kw],
        "marker_stacks": s.markers_left[p * kk : (p + 1) * kk],
        "modernisme": [
            {
                "tile": t.modernisme_ids[s.mod_tile[p * km + i]] if s.mod_tile[p * km + i] >= 0 else None,
                "top": bool(s.mod_top[p * km + i]),
                "multiplier": scoring.modernisme_multiplier(s, p * km + i),
                "take_cloth": t.modernisme_take[i],
                "improve_cloth": t.modernisme_improve[i],
                "bottom": t.modernisme_bottom[i],
                "top_multiplier": t.modernisme_top[i],
            }
            for i in range(km)
        ],
        "services": [t.service_ids[i] for i in range(len(t.service_ids)) if s.services_built[p] >> i & 1],
        "tram": board.SPACES[s.tram[p]] if s.tram[p] >= 0 else None,
        "hand_size": len(s.hands[p]),
        "hand": [CITIZENS[k] for k in s.hands[p]] if mine else None,
        "score_breakdown": {name: s.vp_src[p * len(SOURCES) + i] for i, name in enumerate(SOURCES)},
    }


def _tile(t: Tables, kind: str, i: int) -> dict[str, Any]:
    if kind == "cerda":
        cond, vp, ident = t.cerda_condition[i], t.cerda_vp[i], t.cerda_ids[i]
    else:
        cond, vp, ident = t.modernisme_condition[i], t.modernisme_vp[i], t.modernisme_ids[i]
    return {"id": ident, "condition": cond, "vp": vp, "text": f"{vp} VP: {t.condition_text[cond]}"}


def _sagrada_tile(t: Tables, i: int) -> dict[str, Any]:
    return {
        "id": t.sagrada_ids[i],
        "level": t.sagrada_level[i],
        "benefit": benefit_json(t.sagrada_benefit[i]),
    }


@dataclass(frozen=True)
class Printed:
    """The parts of a view that only the printed data decide, built once per set of tables."""

    catalogue: bytes
    """Every Modernisme and Sagrada Família tile of the game by id, as JSON (each view parses its
    own copy: faster than building it, and the view is the caller's to change)."""
    modernisme: tuple[dict[str, Any], ...]
    cerda: tuple[dict[str, Any], ...]
    sagrada: tuple[dict[str, Any], ...]
    spaces: tuple[dict[str, Any], ...]
    """Each street space's id, street, width and printed benefit."""
    streets: tuple[dict[str, Any], ...]
    crossings: tuple[dict[str, Any], ...]
    buildings: tuple[dict[str, Any], ...]
    tracks: tuple[dict[str, Any], ...]
    """Each citizen track's values, sections and trigger spaces."""
    sidewalk_benefits: tuple[dict[str, Any] | None, ...]
    intersection_benefits: tuple[dict[str, Any] | None, ...]

    @classmethod
    def of(cls, t: Tables) -> Printed:
        modernisme = tuple(_tile(t, "modernisme", i) for i in range(len(t.modernisme_ids)))
        sagrada = tuple(_sagrada_tile(t, i) for i in range(len(t.sagrada_ids)))
        return cls(
            catalogue=orjson.dumps(
                {
                    "modernisme": {tile["id"]: tile for tile in modernisme},
                    "sagrada": {tile["id"]: tile for tile in sagrada},
                }
            ),
            modernisme=modernisme,
            cerda=tuple(_tile(t, "cerda", i) for i in range(len(t.cerda_ids))),
            sagrada=sagrada,
            spaces=tuple(
                {
                    "id": name,
                    "street": board.STREETS[board.SPACE_STREET[i]],
                    "wide": t.space_wide[i],
                    "benefit": benefit_json(t.space_benefit[i]),
                }
                for i, name in enumerate(board.SPACES)
            ),
            streets=tuple(
                {"id": name, "width": "wide" if t.space_wide[board.STREET_SPACES[i][0]] else "narrow"}
                for i, name in enumerate(board.STREETS)
            ),
            crossings=tuple(
                {"id": name, "cost": t.crossing_cost[x]} for x, name in enumerate(board.CROSSINGS)
            ),
            buildings=tuple(
                {
                    "id": b.name,
                    "block": list(b.block),
                    "corner": b.corner,
                    "crossings": [board.CROSSINGS[x] for x in b.crossings],
                }
                for b in board.BUILDING_SPACES
            ),
            tracks=tuple(
                {
                    "values": list(t.track_values[k]),
                    "sections": list(t.track_section[k]),
                    "triggers": list(t.track_triggers[k]),
                }
                for k in range(3)
            ),
            sidewalk_benefits=tuple(benefit_json(t.sidewalk_benefit[i]) for i in range(len(board.SIDEWALK))),
            intersection_benefits=tuple(benefit_json(b) for b in t.intersection_benefit),
        )


_PRINTED: dict[int, tuple[Tables, Printed]] = {}
"""Printed parts by the identity of their tables (kept alive here, so an id is never reused);
`tables_for` holds one set of tables per data folder, so this stays as small as that."""


def _printed(t: Tables) -> Printed:
    entry = _PRINTED.get(id(t))
    if entry is None or entry[0] is not t:
        entry = (t, Printed.of(t))
        _PRINTED[id(t)] = entry
    return entry[1]


def _decision_target(s: BarcelonaState) -> dict[str, str] | None:
    """The crossing or building space the pending decision is about, if any."""
    if s.ended or not s.stack:
        return None
    frame = s.stack[-1]
    if frame[0] in (ORDER, ACTIONS):
        return {"crossing": board.CROSSINGS[frame[2]]}
    if frame[0] == CITIZENS_CHOICE:
        return {"building": board.BUILDING_SPACES[frame[3]].name, "type": BUILDING_TYPES[frame[2]]}
    return None


def make_view(s: BarcelonaState, viewer: int | None) -> dict[str, Any]:
    t = s.t
    printed = _printed(t)
    if viewer is not None and not (isinstance(viewer, int) and 0 <= viewer < s.n):
        raise ValueError(f"no seat {viewer!r} in a {s.n}-player game")
    view: dict[str, Any] = {
        "game": "barcelona",
        "players": s.n,
        "viewer": viewer,
        "current_player": s.current_player(),
        "decision": s.describe_decision(),
        "decision_kind": s.decision_kind(),
        "turn_player": s.turn_player,
        "first_player": s.first_player,
        "round": s.turns // s.n + 1,
        "turns": s.turns,
        "end_triggered": s.end_triggered,
        "terminal": s.ended,
        "winners": s.winners(),
        "city": _city(s),
        "tracks": _tracks(s),
        "lowest_visible": construction.lowest_visible(s),
        "cerda_track": {
            "top": t.cerda_top,
            "start": t.cerda_start,
            "multipliers": list(t.cerda_multiplier),
            "positions": s.cerda[:],
        },
        "cerda_scoring": [
            dict(printed.cerda[tile], scored=bool(s.cerda_scored[k])) for k, tile in enumerate(s.cerda_tiles)
        ],
        "bag": {CITIZENS[k]: s.bag[k] for k in range(3)},
        "modernisme": {
            "offer": [dict(printed.modernisme[i]) if i >= 0 else None for i in s.mod_offer],
            "stack": len(s.mod_stack),
            "discard": [t.modernisme_ids[i] for i in s.mod_discard],
        },
        "public_services": [
            {
                "id": t.service_ids[i],
                "name": t.service_names[i],
                "effect": SERVICE_EFFECTS[t.service_effect[i]],
                "left": s.service_left[k],
                "next_cost": t.service_costs[i][actions.service_tile(s, k)] if s.service_left[k] else None,
                "next_vp": t.service_vp[i][actions.service_tile(s, k)] if s.service_left[k] else None,
                "built_by": [p for p in range(s.n) if s.services_built[p] >> i & 1],
            }
            for k, i in enumerate(s.services)
        ],
        "sidewalk": [
            {
                "id": name,
                "benefit": _copy(printed.sidewalk_benefits[i]),
                "cobblestone": None
                if s.sidewalk[i] == -1
                else ("start" if s.sidewalk[i] == -2 else s.sidewalk[i]),
            }
            for i, name in enumerate(board.SIDEWALK)
        ],
        "sagrada_offer": [
            {**printed.sagrada[i], "benefit": _copy(printed.sagrada[i]["benefit"])}
            for i in range(len(t.sagrada_ids))
            if s.sagrada_offer[i]
        ],
        "sagrada_track": {"top": t.sagrada_top, "slots": list(t.sagrada_slot_level)},
        "player_board": {"cobblestone_vp": list(t.cobblestone_vp), "passenger_vp": list(t.passenger_vp)},
        "tiles": orjson.loads(printed.catalogue),
        "decision_target": _decision_target(s),
        "building_stock": {BUILDING_TYPES[k]: s.bld_stock[k] for k in range(4)},
        "player_list": [_player(s, p, viewer) for p in range(s.n)],
        "scores": s.vp[:],
        "score_breakdown": s.score_breakdown(),
        "log": s.log(),
    }
    if s.solo:  # seat 1 is Gaudí's Assistant; scores carry its difficulty multiplier
        from eixample.games.barcelona import solo

        view["solo"] = solo.view(s)
        view["scores"] = s.scores()
        view["player_list"][solo.AUTOMA]["name"] = solo.NAME
    return view
