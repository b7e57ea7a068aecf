"""Setting up a game of The Rose of Fire (rulebook: Setup), restoring a saved one, and drawing
afresh what one player cannot see (`resample`)."""

from __future__ import annotations

from array import array
from typing import Any

import eixample.games.rose_of_fire.rules  # noqa: F401  (fills the dispatch tables)
from eixample.core.errors import MalformedRecordError
from eixample.core.messages import key_and_args
from eixample.core.rng import SEED_LIMIT, Rng, check_seed
from eixample.games.rose_of_fire.actions import texts_for
from eixample.games.rose_of_fire.components import CITY, KINDS, POPULARITY, PRESTIGE, Tables, load_tables
from eixample.games.rose_of_fire.end_of_phase import house_counts
from eixample.games.rose_of_fire.positions import position_problem
from eixample.games.rose_of_fire.state import (
    DROP,
    FIELDS,
    KEEP,
    NSRC,
    SPACE_FIELDS,
    START_PHASE,
    TUPLE_FIELDS,
    TUPLE_LIST_FIELDS,
    RoseState,
    frontiers,
    open_squares,
    secret_places,
)
from eixample.games.rose_of_fire.versions import LATEST_RULES, RULES_VERSIONS, SAVED_WITHOUT_RULES

OPTIONS = ("first_player", "no_strike", "data_dir", "rules")
MAX_RNG_STATE = (1 << 64) - 1


def check_options(players: Any, options: dict[str, Any]) -> dict[str, Any]:
    unknown = set(options) - set(OPTIONS)
    if unknown:
        raise ValueError(
            f"unknown option(s): {', '.join(sorted(map(str, unknown)))}; known: {', '.join(OPTIONS)}"
        )
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 4:
        raise ValueError(f"The Rose of Fire is played by 2 to 4 players, not {players!r}")
    first = options.get("first_player", "random")
    if first != "random" and (
        not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < players
    ):
        raise ValueError(f"first_player must be a seat 0..{players - 1} or 'random', not {first!r}")
    no_strike = options.get("no_strike", False)
    if not isinstance(no_strike, bool):
        raise ValueError("no_strike must be true or false")
    if no_strike and players != 2:
        raise ValueError("the No Strike rule is an option of the 2-player game only")
    data_dir = options.get("data_dir")
    if data_dir is not None and not isinstance(data_dir, str):
        raise ValueError("data_dir must be a folder path")
    rules = options.get("rules", LATEST_RULES)
    if not isinstance(rules, int) or isinstance(rules, bool) or rules not in RULES_VERSIONS:
        known = ", ".join(map(str, sorted(RULES_VERSIONS)))
        raise ValueError(f"rules must be a rules version ({known}), not {rules!r}")
    checked: dict[str, Any] = {"first_player": first, "rules": rules}
    if no_strike:
        checked["no_strike"] = True
    if data_dir:
        checked["data_dir"] = data_dir
    return checked


def count_houses(s: RoseState) -> None:
    """Set the house lists the rules keep up to date (`house_spaces`, `house_count`) afresh
    from the board."""
    s.house_spaces = tuple(x for x, p in enumerate(s.owner) if p >= 0)
    s.house_count = tuple(house_counts(s))


def _bare(players: int, seed: int, options: dict[str, Any]) -> RoseState:
    t = load_tables(options.get("data_dir"))
    s = object.__new__(RoseState)
    s.t, s.x, s.n, s.seed, s.options = t, texts_for(t), players, seed, options
    s.rules_version = options["rules"]
    s.limit = t.hand_limit[players]
    s.raval_limit = t.raval_limit[players]
    s.districts_used = tuple(
        d for d in range(len(t.district_ids)) if players > 2 or t.district_two_players[d]
    )
    return s


def new_game(players: int = 4, seed: int = 0, **options: Any) -> RoseState:
    """A new game, set up in the rulebook's order, every random choice from the seeded RNG."""
    check_seed(seed)
    options = check_options(players, options)
    s = _bare(players, seed, options)
    t = s.t
    n = players
    s._init_decisions(seed)
    # 1. houses, strikers, markers of each colour
    s.houses_left = [t.houses_per_type] * (4 * n)
    s.supply = [t.strikers_per_player] * n
    s.raval, s.barricade, s.bag = [0] * n, [0] * n, [0] * n
    s.vp, s.vp_src = [0] * n, [0] * (n * NSRC)
    # 2. influence tokens in the red bag; each family draws its conviction
    s.red_bag = list(t.tokens_per_symbol)
    s.tokens = [0] * (3 * n)
    s.conviction = [s.draw_token() for _ in range(n)]
    s.conviction_shown = [-1] * n
    # 3. the bomb; 4. influence cards; 5. soldiers; 6. prestige and VP markers
    s.bomb, s.anarchy, s.fired, s.pending_events = t.bomb_start[n], 0, [0, 0, 0], []
    s.influence_owner = [-1] * len(t.influence_ids)
    s.montjuic, s.bag_soldiers, s.barricade_soldiers = t.soldiers, 0, 0
    s.prestige = [t.auca_start] * n
    # 7. city tiles; the empty Eixample
    s.tiles_left = [t.tiles_per_colour] * 3
    spaces = len(t.space_names)
    s.tile, s.in_block = array("b", [-1]) * spaces, array("b", [-1]) * spaces
    s.owner, s.htype = array("b", [-1]) * spaces, array("b", [-1]) * spaces
    s.blocks, s.placed, s.obelisks_left = [], -1, t.obelisks
    s.square_open, s.frontier = open_squares(s), frontiers(s)
    count_houses(s)
    # 8. the three decks (face down: the order is drawn card by card); the Strike card aside
    kinds = t.card_kind
    s.city_deck = tuple(c for c in range(len(kinds)) if kinds[c] == CITY)
    s.pop_deck = tuple(c for c in range(len(kinds)) if kinds[c] == POPULARITY)
    s.prestige_deck = tuple(c for c in range(len(kinds)) if kinds[c] == PRESTIGE)
    s.city_discard = s.pop_discard = s.prestige_discard = ()
    s.strike_shown, s.strike_to = -1, -1
    s.table = [()] * n
    # 9. immigration tokens, face down
    s.imm_pool = list(t.immigration)
    s.round_track, s.level, s.phase = [], 0, 0
    # 10. deal City cards; 12. the first player
    s.hands = [()] * n
    for p in range(n):
        s.hands[p] = tuple(s.draw_card(CITY) for _ in range(s.limit))
    first = options["first_player"]
    s.first = s._below(n) if first == "random" else first
    s._say(("newGame", {"players": n, "first": s.seat_name(s.first)}))
    s.stack = [(START_PHASE, s.first)]
    s._settle()
    return s


# ---------------------------------------------------------------------- restoring
def _int(value: Any, name: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise MalformedRecordError(f"saved Rose of Fire state: '{name}' must be an integer {low}..{high}")
    return value


def _ints(value: Any, name: str, length: int | None, low: int, high: int) -> list[int]:
    if not isinstance(value, list) or (length is not None and len(value) != length) or len(value) > 10_000:
        size = f"of {length} " if length is not None else ""
        raise MalformedRecordError(f"saved Rose of Fire state: '{name}' must be a list {size}of integers")
    return [_int(v, name, low, high) for v in value]


def _shapes(s: RoseState) -> dict[str, tuple[int | None, int, int]]:
    """Per list field: (length or None, lowest, highest value)."""
    t, n = s.t, s.n
    spaces, cards = len(t.space_names), len(t.card_names)
    big = 1_000_000
    return {
        "imm_pool": (None, 0, 9),
        "round_track": (None, 0, 9),
        "tile": (spaces, -1, 2),
        "in_block": (spaces, -1, len(t.squares) - 1),
        "owner": (spaces, -1, n - 1),
        "htype": (spaces, -1, 3),
        "blocks": (None, 0, len(t.squares) - 1),
        "tiles_left": (3, 0, t.tiles_per_colour),
        "houses_left": (4 * n, 0, t.houses_per_type),
        "supply": (n, 0, t.strikers_per_player),
        "raval": (n, 0, t.strikers_per_player),
        "barricade": (n, 0, t.strikers_per_player),
        "bag": (n, 0, t.strikers_per_player),
        "fired": (3, 0, 1),
        "pending_events": (None, 0, 2),
        "prestige": (n, t.auca_min, t.auca_max),
        "vp": (n, -big, big),
        "vp_src": (n * NSRC, -big, big),
        "tokens": (3 * n, 0, 36),
        "conviction": (n, -1, 2),
        "conviction_shown": (n, -1, 2),
        "red_bag": (3, 0, 36),
        "influence_owner": (len(t.influence_ids), -3, n - 1),
        "city_deck": (None, 0, cards - 1),
        "pop_deck": (None, 0, cards - 1),
        "prestige_deck": (None, 0, cards - 1),
        "city_discard": (None, 0, cards - 1),
        "pop_discard": (None, 0, cards - 1),
        "prestige_discard": (None, 0, cards - 1),
    }


def from_json(data: Any) -> RoseState:
    """Restore a state saved with `to_json()`; every field is checked, and so is the
    conservation of every piece, before the state is used."""
    if not isinstance(data, dict):
        raise MalformedRecordError("saved Rose of Fire state must be a JSON object")
    if data.get("game", "rose-of-fire") != "rose-of-fire":
        raise MalformedRecordError(f"saved state is for '{data.get('game')}', not 'rose-of-fire'")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise MalformedRecordError("saved Rose of Fire state: 'options' must be an object")
    if "rules" not in options:
        options = {**options, "rules": SAVED_WITHOUT_RULES}
    try:
        options = check_options(data.get("players"), options)
    except ValueError as error:
        raise MalformedRecordError(f"saved Rose of Fire state: {error}") from None
    seed = _int(data.get("seed"), "seed", 0, SEED_LIMIT - 1)
    raw = data.get("state")
    if not isinstance(raw, dict):
        raise MalformedRecordError("saved Rose of Fire state: 'state' must be an object")
    missing = [name for name in FIELDS if name not in raw]
    if missing:
        raise MalformedRecordError(f"saved Rose of Fire state: '{missing[0]}' is missing")
    s = _bare(data["players"], seed, options)
    n, t = s.n, s.t
    shapes = _shapes(s)
    for name in FIELDS:
        value = raw[name]
        if name in shapes:
            length, low, high = shapes[name]
            items = _ints(value, name, length, low, high)
            if name in SPACE_FIELDS:
                setattr(s, name, array("b", items))
            else:
                setattr(s, name, tuple(items) if name in TUPLE_FIELDS else items)
        elif name in TUPLE_LIST_FIELDS:
            if not isinstance(value, list) or (name != "stack" and len(value) != n) or len(value) > 1000:
                raise MalformedRecordError(f"saved Rose of Fire state: '{name}' must be a list of lists")
            high = len(t.card_names) - 1 if name != "stack" else 1_000
            setattr(s, name, [tuple(_ints(v, name, None, -1, high)) for v in value])
        elif name == "ended":
            if not isinstance(value, bool):
                raise MalformedRecordError("saved Rose of Fire state: 'ended' must be true or false")
            s.ended = value
        else:
            limits = {
                "phase": (0, 5),
                "first": (0, n - 1),
                "level": (0, 9),
                "placed": (-1, len(t.space_names) - 1),
                "obelisks_left": (0, t.obelisks),
                "bag_soldiers": (0, t.soldiers),
                "barricade_soldiers": (0, t.soldiers),
                "montjuic": (0, t.soldiers),
                "bomb": (0, t.anarchy_space),
                "anarchy": (0, 1),
                "strike_shown": (-1, n - 1),
                "strike_to": (-1, n - 1),
                "floor": (0, 10**7),
                "last_actor": (-1, n - 1),
                "n_actions": (0, 10**7),
                "rng": (0, MAX_RNG_STATE),
            }[name]
            setattr(s, name, _int(value, name, *limits))
    for frame in s.stack:
        if not frame or (frame[0] not in RoseState.LEGAL and frame[0] not in RoseState.STEPS):
            raise MalformedRecordError(
                f"saved Rose of Fire state: 'stack' holds an unknown frame {list(frame)}"
            )
    actions = data.get("actions", [])
    log = data.get("log", [])
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise MalformedRecordError("saved Rose of Fire state: 'actions' must be a list of texts")
    if not isinstance(log, list) or not all(isinstance(a, str) or key_and_args(a) for a in log):
        raise MalformedRecordError("saved Rose of Fire state: 'log' must be a list of texts and entries")
    if s.n_actions != len(actions):
        raise MalformedRecordError("saved Rose of Fire state: 'n_actions' does not match its actions")
    problem = conservation_problem(s) or position_problem(s)
    if problem:
        raise MalformedRecordError(f"saved Rose of Fire state: {problem}")
    s.square_open, s.frontier = open_squares(s), frontiers(s)
    count_houses(s)
    history: Any = None
    for action in actions:
        history = (history, action)
    s._history = history
    node: Any = None
    for line in log:
        node = (node, line)
    s._log = node
    s._legal, s._payloads = None, []
    if s.ended:
        s._legal = []
    elif not s.stack:
        raise MalformedRecordError("saved Rose of Fire state: 'stack' is empty in a game not over")
    else:
        try:
            s._compute_legal()
        except (IndexError, KeyError, ValueError) as error:
            raise MalformedRecordError(
                f"saved Rose of Fire state: 'stack' is inconsistent ({error})"
            ) from None
        if not s._legal:  # the rules never stop at a decision nobody can take
            raise MalformedRecordError("saved Rose of Fire state: the pending decision has no legal action")
    return s


def conservation_problem(s: RoseState) -> str:
    """'' when every piece is somewhere exactly once; else what is wrong."""
    t, n = s.t, s.n
    for p in range(n):
        if s.supply[p] + s.raval[p] + s.barricade[p] + s.bag[p] != t.strikers_per_player:
            return f"the strikers of seat {p} do not add up to {t.strikers_per_player}"
        for h in range(4):
            on_board = sum(1 for x in range(len(s.owner)) if s.owner[x] == p and s.htype[x] == h)
            if on_board + s.houses_left[4 * p + h] != t.houses_per_type:
                return f"the houses of seat {p} do not add up"
    if s.montjuic + s.bag_soldiers + s.barricade_soldiers != t.soldiers:
        return "the soldiers do not add up"
    for c in range(3):
        if sum(1 for v in s.tile if v == c) + s.tiles_left[c] != t.tiles_per_colour:
            return "the city tiles do not add up"
    if len(s.blocks) + s.obelisks_left != t.obelisks:
        return "the obelisks do not add up"
    keep = sum(2 for f in s.stack if f[0] == KEEP)
    tokens = sum(s.tokens) + sum(s.red_bag) + sum(1 for c in s.conviction if c >= 0) + keep
    if tokens != sum(t.tokens_per_symbol):
        return "the influence tokens do not add up"
    places: list[int] = [
        *s.city_deck,
        *s.pop_deck,
        *s.prestige_deck,
        *s.city_discard,
        *s.pop_discard,
        *s.prestige_discard,
    ]
    for hand in s.hands:
        places.extend(hand)
    for table in s.table:
        places.extend(table)
    strike = t.card_index["strike"]
    if strike not in places:
        places.append(strike)  # beside the board
    if sorted(places) != list(range(len(t.card_names))):
        return "the action cards do not add up"
    for p in range(n):
        if s.token_count(p) > 6 and not any(f[0] == DROP and f[1] == p for f in s.stack):
            return f"seat {p} holds more than 6 influence tokens"
    return ""


# ---------------------------------------------------------------------- resampling
def resample(state: RoseState, player: int, seed: int) -> RoseState:
    """A copy whose view for `player` is unchanged and whose hidden parts are drawn afresh from
    what `player` can know: the faces of the other hands (their counts by kind stay, as card
    backs show them), the decks, the other families' influence tokens and secret convictions, the
    red bag, and every future random draw."""
    if not isinstance(player, int) or not 0 <= player < state.n:
        raise ValueError(f"no seat {player!r} in a {state.n}-player game")
    s = state.clone()
    rng = Rng(seed)
    t = s.t
    others = [q for q in range(s.n) if q != player]
    decks = {CITY: "city_deck", POPULARITY: "pop_deck", PRESTIGE: "prestige_deck"}
    for kind, deck_name in decks.items():
        pool = list(getattr(s, deck_name))
        wanted = {}
        for q in others:
            mine = [c for c in s.hands[q] if t.card_kind[c] == kind]
            wanted[q] = len(mine)
            pool.extend(mine)
        pool.sort()
        rng.shuffle(pool)
        for q in others:
            kept = tuple(c for c in s.hands[q] if t.card_kind[c] != kind)
            s.hands[q], pool = kept + tuple(pool[: wanted[q]]), pool[wanted[q] :]
        setattr(s, deck_name, tuple(sorted(pool)))
    # influence tokens: the red bag, the other family cards, their secret convictions
    counts = s.red_bag[:]
    for q in others:
        for k in range(3):
            counts[k] += s.tokens[3 * q + k]
        if s.conviction[q] >= 0:
            counts[s.conviction[q]] += 1
    keep_frames = [i for i, f in enumerate(s.stack) if f[0] == KEEP and f[1] != player]
    for i in keep_frames:
        counts[s.stack[i][2]] += 1
        counts[s.stack[i][3]] += 1
    tokens = [k for k in range(3) for _ in range(counts[k])]
    rng.shuffle(tokens)
    for i in keep_frames:  # the two tokens another player is choosing between
        f = s.stack[i]
        a, b = tokens.pop(), tokens.pop()
        s.stack[i] = (f[0], f[1], a, b, *secret_places([a, b], rng.below))
    for q in others:
        if s.conviction[q] >= 0:
            s.conviction[q] = tokens.pop()
        held = s.token_count(q)
        for k in range(3):
            s.tokens[3 * q + k] = 0
        for _ in range(held):
            s.tokens[3 * q + tokens.pop()] += 1
    for i, f in enumerate(s.stack):  # the secret places of another family's tokens, drawn anew
        if f[0] == DROP and f[1] != player:
            order = [k for k in range(3) for _ in range(s.tokens[3 * f[1] + k])]
            rng.shuffle(order)
            s.stack[i] = (DROP, f[1], *secret_places(order, rng.below))
    s.red_bag = [tokens.count(k) for k in range(3)]
    s.rng = rng.next_u64()
    s._legal = None
    if not s.ended:
        s._compute_legal()
    return s


__all__ = ["KINDS", "OPTIONS", "Tables", "check_options", "from_json", "new_game", "resample"]
