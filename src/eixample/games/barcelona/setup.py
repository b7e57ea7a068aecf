"""Setting up a game of Barcelona (rulebook: GAME SETUP), restoring one, and resampling hidden
information for a player."""

from __future__ import annotations

from typing import Any

from eixample.core.errors import MalformedRecordError
from eixample.core.rng import Rng, check_seed
from eixample.games.barcelona import board, log, solo, turn
from eixample.games.barcelona.components import DIFFICULTIES
from eixample.games.barcelona.house_rules import MAX_SEAT_VP, balanced_seats_vp
from eixample.games.barcelona.state import FIELDS, NSRC, TUPLE_ITEM_FIELDS, BarcelonaState
from eixample.games.barcelona.tables import Tables, tables_for
from eixample.games.barcelona.versions import LATEST_RULES, RULES_VERSIONS

# difficulty: solo only; first_player_vp, turn_order_vp, rotate_first_player, seat_vp,
# balanced_seats: optional house rules, never in a solo game
OPTIONS = (
    "action_tiles",
    "first_player",
    "data_dir",
    "difficulty",
    "first_player_vp",
    "turn_order_vp",
    "rotate_first_player",
    "seat_vp",
    "balanced_seats",
)
SWITCHES = ("rotate_first_player", "balanced_seats")
"""The options that are true or false."""
HOUSE_RULES = ("first_player_vp", "turn_order_vp", "rotate_first_player", "seat_vp", "balanced_seats")
"""The options that are not printed rules (docs/barcelona/balance.md): the lobby shows them apart."""
ACTION_TILE_MODES = ("shuffled", "printed")
MAX_FIRST_PLAYER_VP = 20
"""The optional house rule first_player_vp (not a printed rule, docs/barcelona/balance.md): VP the first
player starts with, to offset that nobody can build on the game's first turn."""
MAX_TURN_ORDER_VP = 10
"""The optional house rule turn_order_vp (not a printed rule, docs/barcelona/balance.md): VP each player
starts with for every player who takes their turn after them in a round, to offset that later
seats build on fuller Citizen tracks and the last seat has the game's last turn."""
HOUSE_RULE_LIMITS = {"first_player_vp": MAX_FIRST_PLAYER_VP, "turn_order_vp": MAX_TURN_ORDER_VP}


def _check_house_rule(name: str, players: int, options: dict[str, Any]) -> int:
    extra, limit = options.get(name, 0), HOUSE_RULE_LIMITS[name]
    if not isinstance(extra, int) or isinstance(extra, bool) or not 0 <= extra <= limit:
        problem = f"must be a whole number of VP 0..{limit}, not {extra!r}"
        raise ValueError(f"{name} (house rule) {problem}")
    if players == 1 and extra:
        raise ValueError(f"{name} (house rule) is for games of 2 to 4 players, not a solo game")
    return extra


def _check_rotate_first_player(players: int, options: dict[str, Any]) -> bool:
    """The optional house rule rotate_first_player (not a printed rule, docs/barcelona/balance.md): the First
    Player token passes to the next player at the end of every round."""
    rotate = options.get("rotate_first_player", False)
    if not isinstance(rotate, bool):
        raise ValueError(f"rotate_first_player (house rule) must be true or false, not {rotate!r}")
    if rotate and players == 1:
        raise ValueError("rotate_first_player (house rule) is for games of 2 to 4 players, not a solo game")
    if rotate and options.get("turn_order_vp"):
        raise ValueError("turn_order_vp (house rule) is for a fixed turn order, not with rotate_first_player")
    return rotate


def _check_seat_vp(players: int, options: dict[str, Any]) -> list[int]:
    """The optional house rules seat_vp and balanced_seats (not printed rules, docs/barcelona/balance.md): the
    VP each seat starts with, in turn order (first player first); balanced_seats=true takes the
    measured values of data/house_rules.toml. Returns [] for none."""
    balanced = options.get("balanced_seats", False)
    if not isinstance(balanced, bool):
        raise ValueError(f"balanced_seats (house rule) must be true or false, not {balanced!r}")
    given = options.get("seat_vp")
    if balanced and given is not None:
        raise ValueError("balanced_seats (house rule) sets seat_vp itself: give one or the other")
    if not balanced and given is None:
        return []
    if players == 1:
        name = "balanced_seats" if balanced else "seat_vp"
        raise ValueError(f"{name} (house rule) is for games of 2 to 4 players, not a solo game")
    values = list(balanced_seats_vp(players)) if balanced else given
    if (
        not isinstance(values, list)
        or len(values) != players
        or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_SEAT_VP for v in values)
    ):
        shown = repr(values)[:60]
        raise ValueError(
            f"seat_vp (house rule) must list {players} whole numbers of VP 0..{MAX_SEAT_VP}, "
            f"one per seat in turn order, not {shown}"
        )
    if any(values) and options.get("rotate_first_player"):
        raise ValueError("seat_vp (house rule) is for a fixed turn order, not with rotate_first_player")
    return list(values) if any(values) else []


def house_rule_vp(players: int, first_player: int, options: dict[str, Any]) -> list[int]:
    """The VP each seat starts with under the optional house rules (all 0: the printed rules)."""
    extra = [0] * players
    seat_vp = options.get("seat_vp") or [0] * players
    for i in range(players):
        seat = (first_player + i) % players
        extra[seat] = options.get("turn_order_vp", 0) * (players - 1 - i) + seat_vp[i]
    extra[first_player] += options.get("first_player_vp", 0)
    return extra


def option_choices(players: int) -> dict[str, list[str | int]]:
    """The options with a few values, for `players` (a solo game: its difficulty, you start)."""
    if players == 1:
        return {"action_tiles": list(ACTION_TILE_MODES), "difficulty": list(DIFFICULTIES)}
    return {"action_tiles": list(ACTION_TILE_MODES), "first_player": [*range(players), "random"]}


def option_ranges(players: int) -> dict[str, tuple[int, int]]:
    """The options that are a whole number, with their limits, for `players`: the house rules'
    starting VP, which a solo game does not have."""
    return {} if players == 1 else {name: (0, limit) for name, limit in HOUSE_RULE_LIMITS.items()}


def check_rules(options: dict[str, Any]) -> int:
    """The rules version of the game (versions.py): given, or the newest for a new game."""
    rules = options.get("rules", LATEST_RULES)
    if not isinstance(rules, int) or isinstance(rules, bool) or rules not in RULES_VERSIONS:
        known = ", ".join(map(str, RULES_VERSIONS))
        raise ValueError(f"rules must be a Barcelona rules version ({known}), not {rules!r}")
    return rules


def check_options(players: int, options: dict[str, Any]) -> dict[str, Any]:
    unknown = set(options) - set(OPTIONS) - {"rules"}
    if unknown:
        raise ValueError(f"unknown option(s): {', '.join(sorted(unknown))}; known: {', '.join(OPTIONS)}")
    if not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= 4:
        raise ValueError(
            f"Barcelona is played by 1 to 4 players here (1: solo against {solo.NAME}), not {players!r}"
        )
    mode = options.get("action_tiles", "shuffled")
    if mode not in ACTION_TILE_MODES:
        raise ValueError(f"action_tiles must be one of {', '.join(ACTION_TILE_MODES)}, not {mode!r}")
    first = options.get("first_player", 0)
    if first != "random" and (
        not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < players
    ):
        raise ValueError(f"first_player must be a seat 0..{players - 1} or 'random', not {first!r}")
    data_dir = options.get("data_dir")
    if data_dir is not None and not isinstance(data_dir, str):
        raise ValueError("data_dir must be a folder path")
    checked: dict[str, Any] = {
        "rules": check_rules(options),
        "action_tiles": mode,
        "first_player": first,
        **({"data_dir": data_dir} if data_dir else {}),
    }
    for name in HOUSE_RULE_LIMITS:
        extra = _check_house_rule(name, players, options)
        if extra:  # left out at 0, so a game by the printed rules keeps the same record
            checked[name] = extra
    if _check_rotate_first_player(players, options):  # left out when false, as above
        checked["rotate_first_player"] = True
    seat_vp = _check_seat_vp(players, options)
    if seat_vp:  # balanced_seats is recorded as the values it gave, so a record never depends on the file
        checked["seat_vp"] = seat_vp
    # solo: one player against Gaudí's Assistant, who plays second
    difficulty = options.get("difficulty")
    if players != 1:
        if difficulty is not None:
            raise ValueError("difficulty is only for a solo game (players=1)")
        return checked
    if first != 0:
        raise ValueError(f"in a solo game you always start: first_player must be 0, not {first!r}")
    if difficulty is None:
        difficulty = "normal"
    if difficulty not in DIFFICULTIES:
        raise ValueError(f"difficulty must be one of {', '.join(DIFFICULTIES)}, not {difficulty!r}")
    return {**checked, "difficulty": difficulty}


def new_game(players: int = 4, seed: int = 0, **options: Any) -> BarcelonaState:
    """A new game, set up step by step as in the rulebook, from the game's own seeded RNG."""
    check_seed(seed)
    options = check_options(players, options)
    t = tables_for(options.get("data_dir"))
    rng = Rng(seed)
    s = object.__new__(BarcelonaState)
    s.t, s.n, s.seed, s.options = t, players, seed, options
    s.rules_version = options["rules"]
    s.solo = players == 1
    if s.solo:  # the Assistant takes seat 1 with a player board of its own
        s.n = players = 2
    _prepare_main_board(s, t, rng, options["action_tiles"])
    _prepare_side_board(s, t, rng)
    _prepare_player_boards(s, t)
    first = options["first_player"]
    s.first_player = rng.below(players) if first == "random" else first
    s.hands = [()] * players
    s._init_decisions(rng.state)
    for i in range(players):
        p = (s.first_player + i) % players
        if not (s.solo and p == solo.AUTOMA):  # the Assistant draws when its turn begins
            s.hands[p] = (s._draw_citizen(), s._draw_citizen())
    if s.solo:
        solo.setup(s)
    else:
        solo.no_solo(s)
    s.turns = 0
    s.end_triggered = False
    s.idle_turns = 0
    if s.solo:
        s._say(("bcn.newSolo", {"difficulty": (f"bcn.difficulty.{options['difficulty']}", {})}))
    else:
        s._say(("newGame", {"players": players, "first": log.seat(s, s.first_player)}))
    for p, extra in enumerate(house_rule_vp(players, s.first_player, options)):
        if extra:
            s._score(p, extra, "house_rule")
            s._say(("bcn.houseRule", {"player": log.seat(s, p), "vp": log.parts(("house_rule", extra))}))
    turn.start_turn(s, s.first_player)
    s._settle()
    return s


def _prepare_main_board(s: BarcelonaState, t: Tables, rng: Rng, mode: str) -> None:
    s.cross_cit = [()] * 25
    s.cross_owner = [-1] * 25
    s.space_owner = [-1] * 44
    s.space_passenger = [-1] * 44
    s.bld_type = [-1] * len(board.BUILDING_SPACES)
    s.bld_tiles = [()] * len(board.BUILDING_SPACES)
    s.bld_markers = [()] * len(board.BUILDING_SPACES)
    s.bld_stock = list(t.building_count)
    s.row_bonus = [1, 1, 1, 1]
    if mode == "printed":
        s.street_action = t.printed_actions
    else:
        tiles = list(t.action_tiles)
        rng.shuffle(tiles)
        s.street_action = tuple(tiles)
    # citizen tracks, pre-filled for fewer than 4 players
    s.track = []
    s.bag = list(t.citizen_counts)
    for k in range(3):
        marks = t.track_prefill[k]
        filled = [1 if (m == 3 and s.n <= 3) or (m == 2 and s.n == 2) else 0 for m in marks]
        if s.solo:  # solo: the marks of solo.toml
            filled = [1 if m in t.solo.prefill else 0 for m in marks]
        s.bag[k] -= sum(filled)
        s.track.append(filled)
    s.off_board = [0, 0, 0]
    s.cerda_tiles = tuple(rng.sample(list(range(len(t.cerda_ids))), 3))
    s.cerda_scored = [0, 0, 0]


def _prepare_side_board(s: BarcelonaState, t: Tables, rng: Rng) -> None:
    removed = {t.cerda_twin[c] for c in s.cerda_tiles}
    stack = [i for i in range(len(t.modernisme_ids)) if i not in removed]
    rng.shuffle(stack)
    s.mod_stack = stack
    s.mod_discard = []
    s.mod_offer = [s.mod_stack.pop() for _ in range(t.modernisme_offer)]
    services = rng.sample(list(range(len(t.service_ids))), t.services_in_play)
    s.services = tuple(sorted(services))
    per_stack = [len(t.service_costs[i]) - (1 if s.n == 2 else 0) for i in s.services]
    s.service_left = per_stack
    s.sagrada_offer = [1] * len(t.sagrada_ids)
    s.sidewalk = [-1] * 25
    s.sidewalk[t.sidewalk_start] = -2


def _prepare_player_boards(s: BarcelonaState, t: Tables) -> None:
    n = s.n
    s.tram = [-1] * n
    s.vp = [0] * n
    s.vp_src = [0] * (n * NSRC)
    s.coins = [t.start_coin] * n
    s.cloth = [t.start_cloth] * n
    s.cobbles = [0] * n
    s.inters = [0] * n
    s.passengers = [0] * n
    s.cerda = [t.cerda_start] * n
    s.sagrada = [0] * n
    s.sagrada_tiles = [()] * n
    s.services_built = [0] * n
    s.narrow_left = list(t.narrow_stacks) * n
    s.wide_left = list(t.wide_stacks) * n
    s.markers_left = list(t.marker_stacks) * n
    s.mod_tile = [-1] * (n * len(t.modernisme_take))
    s.mod_top = [0] * (n * len(t.modernisme_take))


SOLO_DEFAULTS: dict[str, Any] = {"solo": False, "solo_meeple": -1, "solo_deck": (), "solo_drawn": ()}


def from_json(data: Any) -> BarcelonaState:
    """Restore a state saved with `to_json()` (hidden parts included)."""
    from eixample.games.barcelona.state_schema import validate_saved_state

    data = _with_house_rule_source(data)
    # every field, piece counts and history (MalformedRecordError naming it); the rules version
    options = validate_saved_state(data)
    try:
        raw = data["state"]
        s = object.__new__(BarcelonaState)
        s.t = tables_for(options.get("data_dir"))
        s.n, s.seed, s.options = data["players"], data["seed"], options
        s.rules_version = options["rules"]
        if data["players"] == 1:  # solo: two seats inside
            s.n = 2
        for name in FIELDS:
            if name in SOLO_DEFAULTS and name not in raw:  # saved before the solo mode existed
                setattr(s, name, SOLO_DEFAULTS[name])
                continue
            value = raw[name]
            if name in TUPLE_ITEM_FIELDS:
                value = [tuple(v) for v in value]
            elif name == "track":
                value = [list(v) for v in value]
            elif name in ("street_action", "cerda_tiles", "services", "solo_deck", "solo_drawn"):
                value = tuple(value)
            elif isinstance(value, list):
                value = list(value)
            setattr(s, name, value)
        history: Any = None
        for action in data.get("actions", []):
            history = (history, action)
        s._history = history
        log: Any = None
        for line in data.get("log", []):
            log = (log, line)
        s._log = log
        s._legal = None
        s._payloads = []
    except (KeyError, TypeError, ValueError) as error:
        raise MalformedRecordError(f"saved Barcelona state is malformed: {error}") from error
    if s.n_actions != len(data.get("actions", [])):
        raise MalformedRecordError("saved Barcelona state: action count does not match its actions")
    if not s.ended:
        s._compute_legal()
    else:
        s._legal, s._payloads = [], []
    return s


def _with_house_rule_source(data: Any) -> Any:
    """A state saved before the house_rule VP source existed, with that source added at 0."""
    try:
        seats = 2 if data["players"] == 1 else data["players"]
        old = data["state"]["vp_src"]
        if not isinstance(seats, int) or not isinstance(old, list) or len(old) != seats * (NSRC - 1):
            return data
    except (KeyError, TypeError):
        return data  # the validation names the problem
    width = NSRC - 1
    padded = [v for p in range(seats) for v in [*old[p * width : (p + 1) * width], 0]]
    return {**data, "state": {**data["state"], "vp_src": padded}}


def resample(state: BarcelonaState, player: int, rng_seed: int) -> BarcelonaState:
    """A copy whose view for `player` is unchanged but whose hidden parts are drawn afresh:
    the split of citizens among the other players' hands, the order of the bag and of the
    face-down Modernisme stack, of the solo card deck in a solo game, and every future random draw.

    The bag's contents are public (ruling 4), so the citizens in the other hands, taken together,
    are known too; only who holds which is hidden."""
    s = state.clone()
    rng = Rng(rng_seed)
    others = [q for q in range(s.n) if q != player]
    pool = sorted(kind for q in others for kind in s.hands[q])  # from what the player can know only
    rng.shuffle(pool)
    for q in others:
        size = len(s.hands[q])
        s.hands[q], pool = tuple(pool[:size]), pool[size:]
    s.rng = rng.next_u64()
    rng = Rng(s.rng)
    s.mod_stack.sort()
    rng.shuffle(s.mod_stack)
    s.rng = rng.next_u64()
    if s.solo:  # the order of the solo card deck
        solo.resample_deck(s, rng.next_u64())
    s._legal = None
    if not s.ended:
        s._compute_legal()
    return s
