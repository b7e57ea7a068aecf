"""Component data of The Rose of Fire, read from the TOML files in `data/` and checked on load.

Every printed value lives in `data/*.toml` (board.toml, tracks.toml, influence.toml, cards.toml),
each entry with its provenance: `rulebook`, `public` or `reconstruction` (then with a `reason`).
A bad file raises DataFileError naming the file, the entry and the problem; `new_game(...,
data_dir=...)` points the engine at a corrected copy of the folder.

Everything the rules read is turned into `Tables`: flat tuples of ints indexed by space, card or
player count, so the engine never touches a dict or a string while playing.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from eixample.core.errors import DataFileError

DATA_DIR = Path(__file__).parent / "data"
FILES = ("board.toml", "tracks.toml", "influence.toml", "cards.toml")
SOURCES = ("rulebook", "public", "reconstruction")

COLOURS = ("yellow", "lilac", "green")
COLOUR_LETTERS = ("Y", "L", "G")
ANY_COLOUR = -1
HOUSES = ("upper", "middle", "working", "low")
HOUSE_LETTERS = ("U", "M", "W", "L")
HOUSE_WORDS = ("upper-class", "middle-class", "working-class", "low-budget")


def with_article(word: str) -> str:
    """'an upper-class', 'a lilac': the English indefinite article by the word's first letter."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


UPPER, MIDDLE, WORKING, LOW = range(4)
SYMBOLS = ("crown", "colonies", "personalities")
SYMBOL_LETTERS = ("K", "C", "P")
CROWN, COLONIES, PERSONALITIES = range(3)
KINDS = ("city", "popularity", "prestige", "strike")
CITY, POPULARITY, PRESTIGE, STRIKE = range(4)
EFFECTS = ("reward", "prestige", "vp", "tokens", "calm", "bomb", "agitate", "guard")
CARD_COUNTS = {"city": 36, "popularity": 39, "prestige": 6, "strike": 1}
TOTAL_SPACES = 118
DISTRICTS = 3
MAX_EFFECT = 6

Effects = tuple[tuple[int, int], ...]
"""(effect index in EFFECTS, amount) pairs, in the order printed."""


@dataclass(frozen=True)
class Tables:
    """The game's printed data, ready for the rules."""

    # board
    space_names: tuple[str, ...]
    space_index: dict[str, int]
    space_district: tuple[int, ...]
    space_row: tuple[int, ...]
    space_col: tuple[int, ...]
    district_ids: tuple[str, ...]
    district_names: tuple[str, ...]
    district_rows: tuple[int, ...]
    district_cols: tuple[int, ...]
    district_two_players: tuple[bool, ...]
    start_colour: tuple[int, ...]  # per space: colour index of a starting space, or -1
    start_spaces: tuple[tuple[int, ...], ...]  # per colour: its starting spaces
    neighbours: tuple[tuple[int, ...], ...]
    squares: tuple[tuple[int, int, int, int], ...]  # 2x2 squares, top-left space first
    squares_of: tuple[tuple[int, ...], ...]  # per space: squares that contain it
    square_spaces_of: tuple[tuple[tuple[int, int, int, int], ...], ...]  # per space: those squares' spaces
    # pieces and limits
    tiles_per_colour: int
    houses_per_type: int
    strikers_per_player: int
    soldiers: int
    obelisks: int
    hand_limit: dict[int, int]
    raval_limit: dict[int, int]
    # tracks
    bomb_start: dict[int, int]
    event_space: tuple[int, int, int]  # per symbol
    anarchy_space: int
    auca_min: int
    auca_max: int
    auca_start: int
    immigration: tuple[int, ...]
    immigration_excluded: int
    soldiers_cap: int
    # scoring
    block_vp: tuple[int, int, int, int]
    reversed_vp: tuple[int, int, int, int]
    unused_token_vp: tuple[int, ...]
    strike_vp: int
    strike_vp_negative: int
    prestige_card_vp: int
    outside_vp: int
    majority_vp: int
    # influence
    tokens_per_symbol: tuple[int, int, int]
    influence_ids: tuple[str, ...]
    influence_names: tuple[str, ...]
    influence_symbol: tuple[int, ...]
    influence_cost: tuple[tuple[int, int, int], ...]
    influence_vp: tuple[int, ...]
    # action cards (ids 0..81: City, Popularity, Prestige, Strike)
    card_names: tuple[str, ...]
    card_index: dict[str, int]
    card_kind: tuple[int, ...]
    card_colour: tuple[int, ...]  # -1: any colour (wild); the Strike card has none
    card_houses: tuple[tuple[int, ...], ...]
    card_ability: tuple[Effects, ...]
    card_event: tuple[Effects, ...]
    card_title: tuple[str, ...]
    card_face: tuple[int, ...]  # the lowest id with the same printed face
    card_stays: tuple[bool, ...]  # its ability keeps it on the table (the Civil Guard)


def _fail(file: str, entry: str, problem: str) -> DataFileError:
    return DataFileError(f"{file}: {entry}: {problem}")


class _Reader:
    """Reads one data file and names the file and entry in every problem it finds."""

    def __init__(self, folder: Path, file: str) -> None:
        self.file = file
        path = folder / file
        try:
            with path.open("rb") as handle:
                self.data = tomllib.load(handle)
        except FileNotFoundError:
            raise _fail(file, "file", f"not found in {folder}") from None
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
            raise _fail(file, "file", f"not valid TOML: {error}") from None

    def fail(self, entry: str, problem: str) -> DataFileError:
        return _fail(self.file, entry, problem)

    def table(self, parent: dict[str, Any], key: str, entry: str) -> dict[str, Any]:
        value = parent.get(key)
        if not isinstance(value, dict):
            raise self.fail(entry, f"'{key}' is missing or not a table")
        return value

    def section(self, key: str) -> dict[str, Any]:
        """A top-level table of the file that carries its own provenance ([key] with source)."""
        entry = f"[{key}]"
        value = self.table(self.data, key, entry)
        self.provenance(value, entry)
        return value

    def entries(self, key: str) -> list[dict[str, Any]]:
        value = self.data.get(key)
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise self.fail(f"[[{key}]]", "missing or not an array of tables")
        return value

    def integer(
        self, parent: dict[str, Any], key: str, entry: str, low: int = -1000, high: int = 1000
    ) -> int:
        value = parent.get(key)
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.fail(entry, f"'{key}' must be an integer, not {value!r}")
        if not low <= value <= high:
            raise self.fail(entry, f"'{key}' = {value} is outside {low}..{high}")
        return value

    def text(self, parent: dict[str, Any], key: str, entry: str) -> str:
        value = parent.get(key)
        if not isinstance(value, str) or not value:
            raise self.fail(entry, f"'{key}' must be a non-empty text")
        return value

    def choice(self, parent: dict[str, Any], key: str, entry: str, allowed: tuple[str, ...]) -> int:
        value = parent.get(key)
        if value not in allowed:
            raise self.fail(entry, f"'{key}' = {value!r} is not one of {', '.join(allowed)}")
        return allowed.index(value)

    def provenance(self, parent: dict[str, Any], entry: str) -> None:
        source = parent.get("source")
        if source not in SOURCES:
            raise self.fail(entry, f"'source' = {source!r} is not one of {', '.join(SOURCES)}")
        if source == "reconstruction" and not (
            isinstance(parent.get("reason"), str) and parent["reason"].strip()
        ):
            raise self.fail(entry, "a reconstruction needs a 'reason'")

    def per_players(
        self, parent: dict[str, Any], key: str, entry: str, low: int, high: int
    ) -> dict[int, int]:
        value = self.table(parent, key, entry)
        out = {}
        for n in (2, 3, 4):
            out[n] = self.integer(value, str(n), f"{entry}.{key}", low, high)
        return out

    def integers(
        self, parent: dict[str, Any], key: str, entry: str, length: int, low: int, high: int, meaning: str
    ) -> list[int]:
        """`parent[key]`: a list of `length` whole numbers from `low` to `high`."""
        value = parent.get(key)
        if not (
            isinstance(value, list)
            and len(value) == length
            and all(isinstance(x, int) and not isinstance(x, bool) and low <= x <= high for x in value)
        ):
            raise self.fail(entry, f"'{key}' must {meaning} ({low}..{high})")
        return value

    def counts(
        self, parent: dict[str, Any], key: str, entry: str, names: tuple[str, ...], low: int
    ) -> tuple[int, ...]:
        value = self.table(parent, key, entry)
        unknown = set(value) - set(names)
        if unknown:
            raise self.fail(entry, f"'{key}' names unknown {', '.join(sorted(unknown))}")
        return tuple(
            self.integer(value, name, f"{entry}.{key}", low, 99) if name in value else 0 for name in names
        )


@cache
def load_tables(data_dir: str | None = None) -> Tables:
    """Read and check the data files of `data_dir` (the game's own by default)."""
    folder = Path(data_dir) if data_dir else DATA_DIR
    if not folder.is_dir():
        raise DataFileError(f"{folder}: data folder not found")
    parts: dict[str, Any] = {}
    parts.update(_board(_Reader(folder, "board.toml")))
    parts.update(_tracks(_Reader(folder, "tracks.toml")))
    parts.update(_influence(_Reader(folder, "influence.toml")))
    parts.update(_cards(_Reader(folder, "cards.toml")))
    return Tables(**parts)


def _board(r: _Reader) -> dict[str, Any]:
    grid = r.section("grid")
    if grid.get("adjacency") != "orthogonal":
        raise r.fail("[grid]", "'adjacency' must be \"orthogonal\" (the only rule the engine knows)")
    districts = r.entries("district")
    if len(districts) != DISTRICTS:
        raise r.fail("[[district]]", f"{len(districts)} districts, the rulebook has {DISTRICTS}")
    names: list[str] = []
    district: list[int] = []
    rows: list[int] = []
    cols: list[int] = []
    start: list[int] = []
    d_ids, d_names, d_rows, d_cols, d_two = [], [], [], [], []
    for d, entry in enumerate(districts):
        label = f"district {d + 1}"
        r.provenance(entry, label)
        ident = r.text(entry, "id", label)
        label = f"district {ident}"
        if ident in d_ids or len(ident) != 1 or not ident.isupper():
            raise r.fail(label, "'id' must be one capital letter, different for each district")
        shape = entry.get("rows")
        if not isinstance(shape, list) or not shape or not all(isinstance(x, str) for x in shape):
            raise r.fail(label, "'rows' must be a list of texts")
        width = len(shape[0])
        if (
            len(shape) > 26
            or not 1 <= width <= 9
            or any(len(x) != width or set(x) - {"#", "."} for x in shape)
        ):
            raise r.fail(label, "'rows' must be equal-length texts of '#' and '.' (at most 26 rows of 9)")
        d_ids.append(ident)
        d_names.append(r.text(entry, "name", label))
        d_rows.append(len(shape))
        d_cols.append(width)
        two = entry.get("two_players")
        if not isinstance(two, bool):
            raise r.fail(label, "'two_players' must be true or false")
        d_two.append(two)
        for row, line in enumerate(shape):
            for col, mark in enumerate(line):
                if mark == "#":
                    names.append(f"{ident}{chr(65 + row)}{col + 1}")
                    district.append(d)
                    rows.append(row)
                    cols.append(col)
                    start.append(-1)
        starts = r.table(entry, "starts", label)
        if sorted(starts) != sorted(COLOURS):
            raise r.fail(label, f"'starts' must name one starting space for each of {', '.join(COLOURS)}")
        for colour, space in starts.items():
            if space not in names or district[names.index(space)] != d:
                raise r.fail(label, f"starting space {space!r} is not a space of this district")
            start[names.index(space)] = COLOURS.index(colour)
    if len(names) != TOTAL_SPACES:
        raise r.fail("[[district]]", f"{len(names)} spaces, the rulebook's Eixample has {TOTAL_SPACES}")
    if sum(d_two) != 2:
        raise r.fail("[[district]]", "exactly two districts are used in a 2-player game (rulebook)")
    index = {name: i for i, name in enumerate(names)}
    at = {(district[i], rows[i], cols[i]): i for i in range(len(names))}
    neighbours = []
    for i in range(len(names)):
        near = [
            at.get((district[i], rows[i] + dr, cols[i] + dc)) for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0))
        ]
        neighbours.append(tuple(j for j in near if j is not None))
    squares = []
    for i in range(len(names)):
        corner = [
            at.get((district[i], rows[i] + dr, cols[i] + dc)) for dr, dc in ((0, 0), (0, 1), (1, 0), (1, 1))
        ]
        if all(j is not None for j in corner):
            squares.append(tuple(j for j in corner if j is not None))
    squares_of = tuple(tuple(q for q, sq in enumerate(squares) if i in sq) for i in range(len(names)))
    return {
        "space_names": tuple(names),
        "space_index": index,
        "space_district": tuple(district),
        "space_row": tuple(rows),
        "space_col": tuple(cols),
        "district_ids": tuple(d_ids),
        "district_names": tuple(d_names),
        "district_rows": tuple(d_rows),
        "district_cols": tuple(d_cols),
        "district_two_players": tuple(d_two),
        "start_colour": tuple(start),
        "start_spaces": tuple(tuple(x for x in range(len(start)) if start[x] == c) for c in range(3)),
        "neighbours": tuple(neighbours),
        "squares": tuple(squares),
        "squares_of": squares_of,
        "square_spaces_of": tuple(tuple(squares[q] for q in of) for of in squares_of),
    }


def _tracks(r: _Reader) -> dict[str, Any]:
    pieces = r.section("pieces")
    limits = r.section("limits")
    conflict = r.section("conflict")
    auca = r.section("auca")
    immigration = r.section("immigration")
    rebellion = r.section("rebellion")
    scoring = r.section("scoring")
    anarchy = r.integer(conflict, "anarchy", "[conflict]", 5, 60)
    events = r.counts(conflict, "events", "[conflict]", SYMBOLS, 1)
    if len(set(events)) != 3 or not all(0 < e < anarchy for e in events):
        raise r.fail("[conflict]", "the three event spaces must differ and lie before the Anarchy space")
    bomb_start = r.per_players(conflict, "start", "[conflict]", 0, anarchy - 1)
    if max(bomb_start.values()) >= min(events):
        raise r.fail("[conflict]", "the bomb must start before the first event space")
    tokens = r.integers(immigration, "tokens", "[immigration]", 7, 0, 9,
                        "list the 7 immigration tokens' values")
    excluded = r.integer(immigration, "excluded_before_last_phase", "[immigration]", 0, 9)
    if excluded not in tokens or sum(1 for x in tokens if x != excluded) < 4:
        raise r.fail(
            "[immigration]",
            "the excluded value must be a token, and 4 other tokens must remain for phases 1-4",
        )
    low, high = r.integer(auca, "min", "[auca]", -20, 0), r.integer(auca, "max", "[auca]", 1, 40)
    unused = r.integers(scoring, "unused_tokens", "[scoring]", 7, 0, 20, "give the VP for 0..6 unused tokens")
    if (unused[3], unused[5], unused[6]) != (1, 2, 3):
        raise r.fail("[scoring]", "'unused_tokens' must give 1, 2 and 3 VP for 3, 5 and 6 tokens (rulebook)")
    block_vp = r.counts(scoring, "normal", "[scoring]", HOUSES, 0)
    reversed_vp = r.counts(scoring, "reversed", "[scoring]", HOUSES, 0)
    if tuple(reversed(block_vp)) != reversed_vp:
        raise r.fail("[scoring]", "'reversed' must be the 'normal' table in reverse order")
    return {
        "tiles_per_colour": r.integer(pieces, "tiles_per_colour", "[pieces]", 1, 99),
        "houses_per_type": r.integer(pieces, "houses_per_type", "[pieces]", 1, 20),
        "strikers_per_player": r.integer(pieces, "strikers_per_player", "[pieces]", 1, 99),
        "soldiers": r.integer(pieces, "soldiers", "[pieces]", 1, 99),
        "obelisks": r.integer(pieces, "obelisks", "[pieces]", 1, 99),
        "hand_limit": r.per_players(limits, "hand", "[limits]", 1, 9),
        "raval_limit": r.per_players(limits, "raval", "[limits]", 1, 20),
        "bomb_start": bomb_start,
        "event_space": events,
        "anarchy_space": anarchy,
        "auca_min": low,
        "auca_max": high,
        "auca_start": r.integer(auca, "start", "[auca]", low, high),
        "immigration": tuple(tokens),
        "immigration_excluded": excluded,
        "soldiers_cap": r.integer(rebellion, "soldiers_cap", "[rebellion]", 1, 16),
        "block_vp": block_vp,
        "reversed_vp": reversed_vp,
        "unused_token_vp": tuple(unused),
        "strike_vp": r.integer(scoring, "strike_vp", "[scoring]", 0, 20),
        "strike_vp_negative": r.integer(scoring, "strike_vp_negative_prestige", "[scoring]", 0, 20),
        "prestige_card_vp": r.integer(scoring, "prestige_card_vp", "[scoring]", 0, 20),
        "outside_vp": r.integer(scoring, "house_outside_block_vp", "[scoring]", 0, 20),
        "majority_vp": r.integer(scoring, "popularity_majority_vp", "[scoring]", 0, 20),
    }


def _influence(r: _Reader) -> dict[str, Any]:
    tokens = r.section("tokens")
    per_symbol = tuple(r.integer(tokens, name, "[tokens]", 1, 99) for name in SYMBOLS)
    if sum(per_symbol) != 36:
        raise r.fail("[tokens]", f"{sum(per_symbol)} tokens, the rulebook has 36")
    cards = r.entries("card")
    if len(cards) != 9:
        raise r.fail("[[card]]", f"{len(cards)} influence cards, the rulebook has 9")
    ids: list[str] = []
    names, symbols, costs, vps = [], [], [], []
    for k, entry in enumerate(cards):
        label = f"card {entry.get('id', k + 1)}"
        ids.append(_card_id(r, entry, label, ids))
        names.append(r.text(entry, "name", label))
        symbols.append(r.choice(entry, "symbol", label, SYMBOLS))
        cost = r.counts(entry, "cost", label, SYMBOLS, 0)
        if not 1 <= sum(cost) <= 6:
            raise r.fail(label, "a cost of 1 to 6 tokens (a family card holds 6)")
        costs.append(cost)
        vps.append(r.integer(entry, "vp", label, 0, 30))
    if sorted(symbols) != [0, 0, 0, 1, 1, 1, 2, 2, 2]:
        raise r.fail("[[card]]", "3 cards per symbol (rulebook)")
    return {
        "tokens_per_symbol": per_symbol,
        "influence_ids": tuple(ids),
        "influence_names": tuple(names),
        "influence_symbol": tuple(symbols),
        "influence_cost": tuple(costs),
        "influence_vp": tuple(vps),
    }


def _card_id(r: _Reader, entry: dict[str, Any], label: str, taken: list[str]) -> str:
    """A card entry's id, after its provenance: one word, none of the ids `taken` before it."""
    r.provenance(entry, label)
    ident = r.text(entry, "id", label)
    if ident in taken or " " in ident:
        raise r.fail(label, "'id' must be one word, different for each card")
    return ident


def _effects(r: _Reader, entry: dict[str, Any], key: str, label: str) -> Effects:
    value = entry.get(key, {})
    if not isinstance(value, dict):
        raise r.fail(label, f"'{key}' must be a table of effect = amount")
    out = []
    for name, amount in value.items():
        if name not in EFFECTS:
            raise r.fail(label, f"unknown effect {name!r} (known: {', '.join(EFFECTS)})")
        if not isinstance(amount, int) or isinstance(amount, bool) or not 1 <= amount <= MAX_EFFECT:
            raise r.fail(label, f"effect {name} needs an amount 1..{MAX_EFFECT}, not {amount!r}")
        out.append((EFFECTS.index(name), amount))
    return tuple(out)


def _cards(r: _Reader) -> dict[str, Any]:
    names: list[str] = []
    kind: list[int] = []
    colour: list[int] = []
    houses: list[tuple[int, ...]] = []
    ability: list[Effects] = []
    event: list[Effects] = []
    title: list[str] = []
    for k, key in enumerate(KINDS):
        entries = r.entries(key)
        if len(entries) != CARD_COUNTS[key]:
            raise r.fail(f"[[{key}]]", f"{len(entries)} cards, the rulebook has {CARD_COUNTS[key]}")
        for n, entry in enumerate(entries):
            label = f"{key} card {entry.get('id', n + 1)}"
            names.append(_card_id(r, entry, label, names))
            kind.append(k)
            title.append(str(entry.get("title", key.capitalize())))
            if k == STRIKE:
                colour.append(ANY_COLOUR)
                houses.append(())
                ability.append(())
                event.append(())
                continue
            colour.append(
                -1
                if entry.get("colour") == "any" and k != CITY
                else r.choice(entry, "colour", label, COLOURS)
            )
            allowed = entry.get("houses")
            if (
                not isinstance(allowed, list)
                or not all(h in HOUSES for h in allowed)
                or len(set(allowed)) != len(allowed)
            ):
                raise r.fail(label, f"'houses' must list house types among {', '.join(HOUSES)}")
            if len(allowed) != (2 if k == CITY else 1):
                raise r.fail(label, "a City card shows two house types, other cards one")
            houses.append(tuple(sorted(HOUSES.index(h) for h in allowed)))
            ability.append(_effects(r, entry, "ability", label))
            event.append(_effects(r, entry, "event", label))
            if k == CITY and (ability[-1] or event[-1]):
                raise r.fail(label, "City cards have no ability or event")
            if k == POPULARITY and bool(ability[-1]) == bool(event[-1]):
                raise r.fail(label, "a Popularity card has either an ability or an event")
            if k == PRESTIGE and event[-1]:
                raise r.fail(label, "Prestige cards have no event")
            if k == PRESTIGE and dict(ability[-1]).get(EFFECTS.index("vp"), 0) < 1:
                raise r.fail(label, "Prestige cards always give VP (rulebook)")
    faces: list[int] = []
    for i in range(len(names)):
        face = (kind[i], colour[i], houses[i], ability[i], event[i])
        faces.append(
            next(j for j in range(i + 1) if (kind[j], colour[j], houses[j], ability[j], event[j]) == face)
        )
    return {
        "card_names": tuple(names),
        "card_index": {n: i for i, n in enumerate(names)},
        "card_kind": tuple(kind),
        "card_colour": tuple(colour),
        "card_houses": tuple(houses),
        "card_ability": tuple(ability),
        "card_event": tuple(event),
        "card_title": tuple(title),
        "card_face": tuple(faces),
        "card_stays": tuple(any(EFFECTS[e] == "guard" for e, _ in a) for a in ability),
    }
