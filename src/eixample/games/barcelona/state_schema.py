"""Validation of a saved Barcelona state (`to_json()`) before `from_json` restores it.

A saved state comes from outside (a file, a network peer) and is checked in three steps, each
raising MalformedRecordError that names the field ("state.coins[2]: ..."):

1. Shape: `format`, `players`, `seed`, `options`, `actions`, `log` (all required, as
   `to_json()` has always written them) and every field of `state`:
   its type, its length (by the number of seats and the game's tables) and the range of each value.
2. Piece counts: every Citizen of each class is in exactly one place (bag, hands, crossings, tracks,
   off the board); building tiles in stock and in the city never exceed the printed count; no
   Modernisme tile is in two places; each seat's VP by source add up to its VP.
3. History: the state must be the one its own actions lead to from its seed and options, so no
   state that play cannot reach is accepted (the first field that differs is named).

Nothing but MalformedRecordError leaves `validate_saved_state`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from eixample.core.errors import EixampleError, IllegalActionError, MalformedRecordError
from eixample.core.messages import english
from eixample.core.rng import SEED_LIMIT
from eixample.games.barcelona import board
from eixample.games.barcelona.components import ACTION_KINDS
from eixample.games.barcelona.frames import AUTOMA, BUILD_PHASE, DECISION_NAMES, END_TURN
from eixample.games.barcelona.state import FIELDS, NSRC
from eixample.games.barcelona.tables import BUILDING_TYPES, Tables, tables_for
from eixample.games.barcelona.versions import UNVERSIONED_RULES

SAVED_FORMAT = 1
MAX_ACTIONS = 100_000
MAX_ACTION_TEXT = 200
MAX_LOG_LINE = 2_000
MAX_COUNT = 10_000
"""Ceiling of open-ended counters (VP, coins, turns...): far above any real game."""
MAX_STACK = 64
U64 = 2**64
SOLO_CARDS = 8
FRAME_KINDS = frozenset({*DECISION_NAMES, BUILD_PHASE, END_TURN, AUTOMA})
OPTIONAL_SOLO_FIELDS = frozenset({"solo", "solo_meeple", "solo_deck", "solo_drawn"})


def _fail(where: str, problem: str) -> MalformedRecordError:
    return MalformedRecordError(f"saved Barcelona state: {where}: {problem}")


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:40]}…"


def _integer(value: Any, where: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise _fail(where, f"must be an integer, not {_shown(value)}")
    if not low <= value <= high:
        raise _fail(where, f"must be from {low} to {high}, not {value}")
    return value


def _boolean(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise _fail(where, f"must be true or false, not {_shown(value)}")
    return value


def _list(value: Any, where: str, length: int | None = None, most: int = MAX_COUNT) -> list[Any]:
    if not isinstance(value, list):
        raise _fail(where, f"must be a list, not {_shown(value)}")
    if length is not None and len(value) != length:
        raise _fail(where, f"must hold {length} entries, not {len(value)}")
    if len(value) > most:
        raise _fail(where, f"must hold at most {most} entries, not {len(value)}")
    return value


def _integers(value: Any, where: str, low: int, high: int, length: int | None = None, most: int = MAX_COUNT
              ) -> list[int]:
    items = _list(value, where, length, most)
    return [_integer(item, f"{where}[{i}]", low, high) for i, item in enumerate(items)]


def _nested(value: Any, where: str, length: int, low: int, high: int, most: int) -> list[list[int]]:
    items = _list(value, where, length)
    return [_integers(item, f"{where}[{i}]", low, high, most=most) for i, item in enumerate(items)]


# -- step 1: the shape of every field ---------------------------------------------------------------


def _check_header(data: Any) -> tuple[int, int, dict[str, Any]]:
    """players, seats inside (2 for solo), and the checked options."""
    from eixample.games.barcelona.setup import check_options

    if not isinstance(data, dict):
        raise MalformedRecordError("saved Barcelona state: must be a JSON object")
    unknown = sorted(str(key) for key in set(data) - {"format", "players", "seed", "options", "state",
                                                      "actions", "log"})
    if unknown:
        raise _fail(unknown[0][:40], "is not a field of a saved state")
    for key in ("format", "players", "seed", "options", "state", "actions", "log"):
        if key not in data:
            raise _fail(key, "is missing")
    _integer(data["format"], "format", SAVED_FORMAT, SAVED_FORMAT)
    players = _integer(data["players"], "players", 1, 4)
    _integer(data["seed"], "seed", 0, SEED_LIMIT - 1)
    options = data["options"]
    if not isinstance(options, dict):
        raise _fail("options", f"must be an object, not {_shown(options)}")
    try:
        checked = check_options(players, dict(options))
    except (ValueError, TypeError) as error:
        raise _fail("options", str(error)[:200]) from None
    actions = _list(data["actions"], "actions", most=MAX_ACTIONS)
    for i, action in enumerate(actions):
        if not isinstance(action, str) or not 0 < len(action) <= MAX_ACTION_TEXT:
            raise _fail(f"actions[{i}]", f"must be an action text of 1 to {MAX_ACTION_TEXT} characters")
    log = _list(data["log"], "log", most=4 * MAX_ACTIONS)
    for i, line in enumerate(log):
        if isinstance(line, dict) and isinstance(line.get("key"), str):
            line = json.dumps(line)  # a structured entry (core/messages.py): bounded by its size
        if not isinstance(line, str) or len(line) > MAX_LOG_LINE:
            raise _fail(f"log[{i}]", f"must be a text or an entry of at most {MAX_LOG_LINE} characters")
    if not isinstance(data["state"], dict):
        raise _fail("state", f"must be an object, not {_shown(data['state'])}")
    return players, 2 if players == 1 else players, checked


FieldCheck = Callable[[Any, str], Any]


def _field_checks(t: Tables, n: int, solo: bool) -> dict[str, FieldCheck]:
    """For each field of the state: the check of its shape and ranges."""
    seat = n - 1
    citizens = max(t.citizen_counts)
    spaces, crossings, buildings = len(board.SPACES), len(board.CROSSINGS), len(board.BUILDING_SPACES)
    modernisme = len(t.modernisme_ids) - 1
    take = len(t.modernisme_take)

    def ints(low: int, high: int, length: int | None = None, most: int = MAX_COUNT) -> FieldCheck:
        return lambda value, where: _integers(value, where, low, high, length, most)

    def nested(length: int, low: int, high: int, most: int) -> FieldCheck:
        return lambda value, where: _nested(value, where, length, low, high, most)

    def one(low: int, high: int) -> FieldCheck:
        return lambda value, where: _integer(value, where, low, high)

    def stacks(sizes: tuple[int, ...]) -> FieldCheck:
        def check(value: Any, where: str) -> None:
            items = _integers(value, where, 0, max(sizes, default=0), n * len(sizes))
            for i, item in enumerate(items):
                _integer(item, f"{where}[{i}]", 0, sizes[i % len(sizes)])

        return check

    def track(value: Any, where: str) -> None:
        rows = _list(value, where, 3)
        for k, row in enumerate(rows):
            _integers(row, f"{where}[{k}]", 0, 1, len(t.track_values[k]))

    def frames(value: Any, where: str) -> None:
        for i, frame in enumerate(_list(value, where, most=MAX_STACK)):
            here = f"{where}[{i}]"
            items = _integers(frame, here, -1, MAX_COUNT, most=4)
            if len(items) < 2:
                raise _fail(here, "a decision needs its kind and its seat")
            if items[0] not in FRAME_KINDS:
                raise _fail(f"{here}[0]", f"is not a kind of decision: {items[0]}")
            _integer(items[1], f"{here}[1]", 0, seat)

    return {
        "rng": one(0, U64 - 1),
        "bag": lambda value, where: [
            _integer(item, f"{where}[{k}]", 0, t.citizen_counts[k])
            for k, item in enumerate(_list(value, where, 3))
        ],
        "hands": nested(n, 0, 2, 2),
        "cross_cit": nested(crossings, 0, 2, citizens),
        "cross_owner": ints(-1, seat, crossings),
        "space_owner": ints(-1, seat, spaces),
        "space_passenger": ints(-1, seat, spaces),
        "tram": ints(-1, spaces - 1, n),
        "bld_type": ints(-1, len(BUILDING_TYPES) - 1, buildings),
        "bld_tiles": nested(buildings, 0, len(BUILDING_TYPES) - 1, len(BUILDING_TYPES)),
        "bld_markers": nested(buildings, 0, seat, len(BUILDING_TYPES)),
        "bld_stock": lambda value, where: [
            _integer(item, f"{where}[{k}]", 0, t.building_count[k])
            for k, item in enumerate(_list(value, where, len(t.building_count)))
        ],
        "row_bonus": ints(0, 1, len(t.row_bonus_vp) if t.row_bonus_vp else 4),
        "track": track,
        "off_board": ints(0, citizens, 3),
        "street_action": ints(0, len(ACTION_KINDS) - 1, len(board.STREETS)),
        "cerda_tiles": ints(0, len(t.cerda_ids) - 1, 3),
        "cerda_scored": ints(0, 1, 3),
        "mod_stack": ints(0, modernisme, most=modernisme + 1),
        "mod_offer": ints(-1, modernisme, most=t.modernisme_offer),
        "mod_discard": ints(0, modernisme, most=modernisme + 1),
        "sagrada_offer": ints(0, 1, len(t.sagrada_ids)),
        "services": ints(0, len(t.service_ids) - 1, t.services_in_play),
        "service_left": ints(0, max(len(costs) for costs in t.service_costs), t.services_in_play),
        "sidewalk": ints(-2, seat, len(board.SIDEWALK)),
        "vp": ints(0, MAX_COUNT, n),
        "vp_src": ints(-MAX_COUNT, MAX_COUNT, n * NSRC),
        "coins": ints(0, MAX_COUNT, n),
        "cloth": ints(0, MAX_COUNT, n),
        "cobbles": ints(0, len(t.cobblestone_vp), n),
        "inters": ints(0, len(t.intersection_cost), n),
        "passengers": ints(0, len(t.passenger_vp), n),
        "cerda": ints(0, t.cerda_top, n),
        "sagrada": ints(0, t.sagrada_top, n),
        "sagrada_tiles": nested(n, 0, len(t.sagrada_ids) - 1, len(t.sagrada_ids)),
        "services_built": ints(0, 2 ** len(t.service_ids) - 1, n),
        "narrow_left": stacks(t.narrow_stacks),
        "wide_left": stacks(t.wide_stacks),
        "markers_left": stacks(t.marker_stacks),
        "mod_tile": ints(-1, modernisme, n * take),
        "mod_top": ints(0, 1, n * take),
        "turn_player": one(0, seat),
        "first_player": one(0, seat),
        "turns": one(0, MAX_COUNT),
        "end_triggered": _boolean,
        "ended": _boolean,
        "idle_turns": one(0, MAX_COUNT),
        "progress": _boolean,
        "stack": frames,
        "floor": one(0, MAX_ACTIONS),
        "last_actor": one(-1, seat),
        "n_actions": one(0, MAX_ACTIONS),
        "solo": lambda value, where: _boolean(value, where) == solo or _raise(where, f"must be {solo}"),
        "solo_meeple": one(-1, crossings - 1),
        "solo_deck": ints(0, SOLO_CARDS - 1, most=SOLO_CARDS),
        "solo_drawn": ints(0, SOLO_CARDS - 1, most=SOLO_CARDS),
    }


def _raise(where: str, problem: str) -> Any:
    raise _fail(where, problem)


def _check_fields(raw: dict[str, Any], t: Tables, n: int, solo: bool) -> None:
    unknown = sorted(str(key) for key in set(raw) - set(FIELDS))
    if unknown:
        raise _fail(f"state.{unknown[0][:40]}", "is not a field of a saved state")
    checks = _field_checks(t, n, solo)
    for name in FIELDS:
        if name not in raw:
            if name in OPTIONAL_SOLO_FIELDS and not solo:
                continue  # saved before the solo mode existed
            raise _fail(f"state.{name}", "is missing")
        checks[name](raw[name], f"state.{name}")


# -- step 2: piece counts ---------------------------------------------------------------------------


def _check_pieces(raw: dict[str, Any], t: Tables, n: int, actions: int) -> None:
    for k in range(3):
        places = (
            raw["bag"][k]
            + sum(hand.count(k) for hand in raw["hands"])
            + sum(crossing.count(k) for crossing in raw["cross_cit"])
            + sum(raw["track"][k])
            + raw["off_board"][k]
        )
        if places != t.citizen_counts[k]:
            raise _fail(
                "state.bag",
                f"{places} Citizens of class {'WMU'[k]} in bag, hands, crossings, tracks and off the "
                f"board, but the game has {t.citizen_counts[k]}",
            )
    for k, count in enumerate(t.building_count):
        built = sum(layers.count(k) for layers in raw["bld_tiles"])
        if raw["bld_stock"][k] + built != count:
            raise _fail("state.bld_stock", f"{raw['bld_stock'][k]} {BUILDING_TYPES[k]} in stock and {built} "
                        f"in the city, but the game has {count}")
    spaces = zip(raw["bld_type"], raw["bld_tiles"], raw["bld_markers"], strict=True)
    for b, (kind, layers, markers) in enumerate(spaces):
        if (layers[-1] if layers else -1) != kind:
            raise _fail(f"state.bld_type[{b}]", "is not the type of the top building tile of the space")
        if len(markers) > len(layers):
            raise _fail(f"state.bld_markers[{b}]", "more markers than building tiles")
    modernisme = [
        *raw["mod_stack"], *(m for m in raw["mod_offer"] if m >= 0), *raw["mod_discard"],
        *(m for m in raw["mod_tile"] if m >= 0),
    ]
    if len(modernisme) != len(set(modernisme)) or len(modernisme) != len(t.modernisme_ids) - 3:
        raise _fail("state.mod_stack", f"the {len(t.modernisme_ids) - 3} Modernisme tiles in play must each "
                    "be in exactly one place")
    sagrada = sum(raw["sagrada_offer"]) + sum(len(tiles) for tiles in raw["sagrada_tiles"])
    if sagrada != len(t.sagrada_ids):
        expected = len(t.sagrada_ids)
        raise _fail("state.sagrada_offer", f"{sagrada} Sagrada Família tiles, but the game has {expected}")
    per_stack = len(t.service_costs[0]) - (1 if n == 2 else 0)
    built_services = sum(bin(mask).count("1") for mask in raw["services_built"])
    if sum(raw["service_left"]) + built_services != per_stack * len(raw["services"]):
        raise _fail("state.service_left", "Public Services left and built do not add up to the stacks")
    _check_seats(raw, t, n)
    if len(set(raw["cerda_tiles"])) != 3:
        raise _fail("state.cerda_tiles", "the three Cerdà tiles must differ")
    if len(set(raw["services"])) != len(raw["services"]):
        raise _fail("state.services", "a Public Service is in play twice")
    if raw["n_actions"] != actions:
        raise _fail("state.n_actions", f"is {raw['n_actions']}, but the state holds {actions} actions")
    if raw["floor"] > actions:
        raise _fail("state.floor", f"is above the number of actions ({actions})")


def _check_seats(raw: dict[str, Any], t: Tables, n: int) -> None:
    """Each seat's pieces: streets, markers, intersections, passengers, cobblestones, VP."""
    km, kn, kw = len(t.marker_stacks), len(t.narrow_stacks), len(t.wide_stacks)
    for p in range(n):
        streets = sum(1 for owner in raw["space_owner"] if owner == p)
        left = sum(raw["narrow_left"][p * kn : (p + 1) * kn]) + sum(raw["wide_left"][p * kw : (p + 1) * kw])
        if streets + left != sum(t.narrow_stacks) + sum(t.wide_stacks):
            raise _fail(f"state.narrow_left[{p * kn}]", f"seat {p}'s street tiles do not add up")
        markers = sum(owners.count(p) for owners in raw["bld_markers"])
        if markers + sum(raw["markers_left"][p * km : (p + 1) * km]) != sum(t.marker_stacks):
            raise _fail(f"state.markers_left[{p * km}]", f"seat {p}'s building markers do not add up")
        for field, board_field in (("inters", "cross_owner"), ("passengers", "space_passenger"),
                                   ("cobbles", "sidewalk")):
            on_board = sum(1 for owner in raw[board_field] if owner == p)
            if on_board != raw[field][p]:
                problem = f"is {raw[field][p]}, but seat {p} has {on_board} on the board"
                raise _fail(f"state.{field}[{p}]", problem)
        if sum(raw["vp_src"][p * NSRC : (p + 1) * NSRC]) != raw["vp"][p]:
            raise _fail(f"state.vp[{p}]", "does not equal the sum of the seat's VP by source")


# -- step 3: the history ------------------------------------------------------------------------------


def _check_history(data: dict[str, Any], options: dict[str, Any]) -> None:
    from eixample.games.barcelona.setup import new_game

    try:
        state = new_game(data["players"], data["seed"], **options)
    except (ValueError, TypeError, EixampleError) as error:
        raise _fail("options", f"cannot set up the game: {str(error)[:200]}") from None
    for i, action in enumerate(data["actions"]):
        try:
            state.apply(action)
        except IllegalActionError:
            raise _fail(f"actions[{i}]", f"{_shown(action)} is not a legal action there") from None
    replayed = state.to_json()
    for name in FIELDS:
        if name in data["state"] and data["state"][name] != replayed["state"][name]:
            raise _fail(f"state.{name}", "is not what the state's own actions lead to")
    written_in_english = [english(entry) for entry in replayed["log"]]  # saved before structured entries
    # a log saved as plain lines is the wording of the release that wrote it, kept as written
    as_written = all(isinstance(line, str) for line in data["log"])
    if not as_written and data["log"] not in (replayed["log"], written_in_english):
        raise _fail("log", "is not the log of the state's own actions")


def _match_history(data: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    """The options of a state saved before versions, with the first rules version (newest first)
    under which its own actions lead to it."""
    first_failure: MalformedRecordError | None = None
    for version in range(UNVERSIONED_RULES, 0, -1):
        matched = {**options, "rules": version}
        try:
            _check_history(data, matched)
        except MalformedRecordError as error:
            first_failure = first_failure or error
            continue
        return matched
    assert first_failure is not None
    raise first_failure


def validate_saved_state(data: Any) -> dict[str, Any]:
    """Raise MalformedRecordError naming the field if `data` is not a saved Barcelona state that
    its own seed, options and actions lead to. Returns its checked options, with the rules version
    it is played under: a state saved before versions (no `rules`) is matched to the newest rules
    its own actions lead to it under."""
    try:
        players, n, options = _check_header(data)
        t = tables_for(options.get("data_dir"))
        raw = data["state"]
        _check_fields(raw, t, n, solo=players == 1)
        _check_pieces(raw, t, n, len(data["actions"]))
        if "rules" in data.get("options", {}):
            _check_history(data, options)
            return options
        return _match_history(data, options)
    except MalformedRecordError:
        raise
    except Exception as error:  # a shape the checks above missed: still the documented error
        raise MalformedRecordError(f"saved Barcelona state is malformed: {str(error)[:200]}") from None
