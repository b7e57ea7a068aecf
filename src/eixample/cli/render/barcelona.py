"""The Barcelona table in the terminal, drawn from `view(seat)` alone.

From top to bottom: a status line; the city (5x5 street crossings, the street spaces between them,
the blocks with their Buildings, each street's action at its end: V0..V4 at the top, H0..H4 at the
right, the diagonal D at the bottom right; the row bonus tiles at the right of each block row);
the citizen tracks; the Cerdà track and the three Cerdà Scoring tiles; the side board; every
player board; and, once the game is over, the final scores by source.

Players are written P1..P4, as in the game log, each in its own colour from the Okabe-Ito palette
(told apart by colour-blind people too); the text never relies on the colour alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from rich import box
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from eixample.cli.render import (
    choices_renderer,
    compact_renderer,
    details_renderer,
    group_choices,
    numbered_choices,
    register_help,
    register_hints,
    renderer,
)
from eixample.cli.render.words import has, say
from eixample.core.protocol import Action, JsonDict
from eixample.games.barcelona.board import BLOCKS, SIZE

PLAYER_COLOURS = ("#E69F00", "#56B4E9", "#009E73", "#CC79A7")
"""Okabe-Ito orange, sky blue, bluish green and reddish purple, for P1..P4."""

CROSSING_WIDTH = 10
SPACE_WIDTH = 14
RIGHT_WIDTH = 13
LEFT_WIDTH = 53
SIDEWALK_WIDTH = 12

BENEFIT_UNITS = (("coin", "$"), ("cloth", "cl"), ("vp", "VP"), ("cerda", "Ce"), ("sagrada", "SF"),
                 ("resource", "r"))

CONDITIONS = {
    "longest_block_line": "per block in your longest block line",
    "cloth_in_warehouse": "per cloth in your Warehouse (max 5)",
    "coins_in_warehouse": "per coin in your Warehouse (max 5)",
    "longest_narrow_line": "per tile in your longest Narrow line",
    "intersections_near_3_buildings": "per Intersection next to 3+ Buildings",
    "cerda_multiplier": "x your Cerdà multiplier",
    "longest_wide_line": "per tile in your longest Wide line",
    "public_services": "per Public Service you built",
    "narrow_tiles": "per Narrow Street tile",
    "passengers_near_2_buildings": "per Passenger next to 2+ Buildings",
    "wide_tiles": "per Wide Street tile",
    "modernisme_markers_top": "per Modernisme marker at its top",
    "passengers": "per Passenger",
    "cobblestones": "per cobblestone placed",
    "intersections": "per Intersection",
    "empty_marker_stacks": "per empty Building marker stack",
    "corner_buildings_different_blocks": "per Corner Building, one per block",
    "modernisme_tiles": "per Modernisme tile",
    "bottom_markers_non_corner": "per bottom marker, non-Corner Building",
}

CITIZEN_NAMES = {"W": "Working", "M": "Middle", "U": "Upper"}

LEGEND = (
    "Cxy crossing (row x, column y): $ cost to place, citizens bottom/top, ■Pn Intersection. "
    "═ ║ wide, ─ │ narrow street: Pn Street tile, Tn Tram and ●n Passenger of Pn, +benefit "
    "of an empty space; Vc.r on Vc between rows r and r+1, Hr.c on Hr between columns c and "
    "c+1, D.i on the diagonal. Bxy block: Building, markers bottom/top (BxxU, BxxL: Corner "
    "Buildings only). Benefits: $ coin, cl cloth, VP, Ce Cerdà step, SF Sagrada step, r coin "
    "or cloth."
)

Segment = tuple[str, str]


# -- small pieces ---------------------------------------------------------------------------------


def colour(seat: int) -> str:
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


def seat_name(seat: int) -> str:
    return f"P{seat + 1}"


def seat_style(seat: int) -> str:
    return f"bold {colour(seat)}"


def seat_text(seat: int, prefix: str = "") -> Text:
    return Text(f"{prefix}{seat_name(seat)}", style=seat_style(seat))


def seats_text(seats: Iterable[int], separator: str = " ") -> Text:
    return Text(separator).join(seat_text(seat) for seat in seats)


def action_label(kind: str, short: bool = False) -> str:
    """An action kind in the web app's words: "Cloth / Coins", or short "$/Cl"."""
    key = f"bcn.{'actionShort' if short else 'action'}.{kind}"
    return say(key) if has(key) else kind


def benefit_text(benefit: dict[str, Any] | None, short: bool = False) -> str:
    """A printed benefit in short: "+1$", "+1VP+1SF", "+tram"."""
    if not benefit:
        return ""
    parts = [f"+{benefit[key]}{unit}" for key, unit in BENEFIT_UNITS if benefit.get(key)]
    if benefit.get("action"):
        parts.append("+" + action_label(benefit["action"], short=True))
    return "".join(parts)


def condition_text(tile: dict[str, Any]) -> str:
    condition = tile.get("condition", "")
    return f"{tile.get('vp', '?')} VP {CONDITIONS.get(condition, condition.replace('_', ' '))}"


def _assemble(segments: Sequence[Segment]) -> Text:
    text = Text()
    for content, style in segments:
        text.append(content, style=style)
    return text


def _centred(segments: Sequence[Segment], width: int, fill: str = " ", fill_style: str = "") -> Text:
    used = sum(len(content) for content, _ in segments)
    left = max(0, (width - used) // 2)
    right = max(0, width - used - left)
    return _assemble([(fill * left, fill_style), *segments, (fill * right, fill_style)])


def _lines(*lines: Text) -> Text:
    return Text("\n").join(lines)


def _markers(seats: Sequence[int]) -> list[Segment]:
    """A marker stack, bottom first: P1/P2."""
    segments: list[Segment] = []
    for index, seat in enumerate(seats):
        if index:
            segments.append(("/", "dim"))
        segments.append((seat_name(seat), seat_style(seat)))
    return segments


def _tile_or_benefit(space: dict[str, Any]) -> tuple[str, list[Segment]]:
    """The style of a space's lines and what it shows: its tile's owner, else its benefit."""
    owner = space.get("tile")
    if owner is not None:
        return colour(owner), [(seat_name(owner), seat_style(owner))]
    benefit = benefit_text(space.get("benefit"))
    return "dim", [(benefit, "")] if benefit else []


def _riders(space: dict[str, Any], trams: dict[str, int]) -> list[Segment]:
    """The Tram(s) and Passenger on a street space: "T1", "●2"."""
    segments: list[Segment] = []
    if space["id"] in trams:
        seat = trams[space["id"]]
        segments.append((f"T{seat + 1}", seat_style(seat)))
    if space.get("passenger") is not None:
        seat = space["passenger"]
        segments.append((f"●{seat + 1}", seat_style(seat)))
    return segments


def _spaced(segments: list[Segment]) -> list[Segment]:
    out: list[Segment] = []
    for segment in segments:
        if out:
            out.append((" ", ""))
        out.append(segment)
    return out


def _by_id(items: Iterable[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {item["id"]: item for item in items}


# -- the city -------------------------------------------------------------------------------------


class _City:
    def __init__(self, view: JsonDict) -> None:
        city = view["city"]
        self.crossings = _by_id(city["crossings"])
        self.spaces = _by_id(city["spaces"])
        self.streets = _by_id(city["streets"])
        self.buildings = _by_id(city["buildings"])
        self.row_bonus: list[int] = city.get("row_bonus", [])
        self.trams = {space: seat for seat, space in enumerate(city.get("trams", [])) if space}

    def table(self) -> Table:
        grid = Table.grid(padding=0)
        for column in range(SIZE):
            grid.add_column(width=CROSSING_WIDTH, no_wrap=True, overflow="crop")
            if column < BLOCKS:
                grid.add_column(width=SPACE_WIDTH, no_wrap=True, overflow="crop")
        grid.add_column(width=RIGHT_WIDTH, no_wrap=True, overflow="crop")
        grid.add_row(*self._top_row())
        for row in range(SIZE):
            grid.add_row(*self._crossing_row(row))
            if row < BLOCKS:
                grid.add_row(*self._block_row(row))
        diagonal = self.streets.get("D")
        if diagonal:
            blank = [Text("")] * (2 * SIZE - 1)
            grid.add_row(*blank, _lines(self._street_head("╲ D", diagonal), self._action(diagonal, "  ")))
        return grid

    def _street_head(self, label: str, street: dict[str, Any]) -> Text:
        return _assemble([(label, "bold"), (" " + street["width"], "dim")])

    def _action(self, street: dict[str, Any], prefix: str) -> Text:
        return Text(prefix + action_label(street["action"], short=True), style="bold")

    def _top_row(self) -> list[Text]:
        cells: list[Text] = []
        for column in range(SIZE):
            street = self.streets[f"V{column}"]
            cells.append(_lines(self._street_head(f"V{column}▼", street), self._action(street, "")))
            if column < BLOCKS:
                cells.append(Text(""))
        cells.append(Text(""))
        return cells

    def _crossing_row(self, row: int) -> list[Text]:
        cells: list[Text] = []
        for column in range(SIZE):
            cells.append(self._crossing(self.crossings[f"C{row}{column}"]))
            if column < BLOCKS:
                cells.append(self._horizontal(self.spaces[f"H{row}.{column}"]))
        street = self.streets[f"H{row}"]
        cells.append(_lines(self._street_head(f"◀ H{row}", street), self._action(street, "  ")))
        return cells

    def _crossing(self, crossing: dict[str, Any]) -> Text:
        first = _assemble([(crossing["id"], "dim"), (f" ${crossing['cost']}", "")])
        citizens = crossing["citizens"]
        segments: list[Segment] = [("/".join(citizens), "bold") if citizens else ("·", "dim")]
        owner = crossing.get("intersection")
        if owner is not None:
            segments += [(" ", ""), (f"■{seat_name(owner)}", seat_style(owner))]
        return _lines(first, _assemble(segments))

    def _horizontal(self, space: dict[str, Any]) -> Text:
        fill = "═" if space["wide"] else "─"
        owner = space.get("tile")
        if owner is not None:
            line = _centred([(f" {seat_name(owner)} ", seat_style(owner))], SPACE_WIDTH, fill, colour(owner))
        else:
            benefit = benefit_text(space.get("benefit"))
            line = _centred([(f" {benefit} ", "")] if benefit else [], SPACE_WIDTH, fill, "dim")
        riders = _spaced([(space["id"], "dim"), *_riders(space, self.trams)])
        return _lines(line, _centred(riders, SPACE_WIDTH))

    def _block_row(self, row: int) -> list[Text]:
        cells: list[Text] = []
        for column in range(SIZE):
            cells.append(self._vertical(self.spaces[f"V{column}.{row}"]))
            if column < BLOCKS:
                cells.append(self._diagonal_block(row) if row == column else self._block(row, column))
        bonus = self.row_bonus[row] if row < len(self.row_bonus) else 0
        cells.append(_lines(Text(""), Text(f"row bonus {bonus}" if bonus else "row bonus -",
                                           style="" if bonus else "dim")))
        return cells

    def _vertical(self, space: dict[str, Any]) -> Text:
        bar = "║" if space["wide"] else "│"
        bar_style, content = _tile_or_benefit(space)
        return _lines(
            _assemble([(bar + " ", bar_style), *content]),
            _assemble([(bar + " ", bar_style), (space["id"], "dim")]),
            _assemble([(bar + " ", bar_style), *_spaced(_riders(space, self.trams))]),
        )

    def _block(self, row: int, column: int) -> Text:
        building = self.buildings[f"B{row}{column}"]
        kind = building.get("type")
        first = _assemble([(" " + building["id"], "dim"),
                           (f" {kind}", "bold") if kind else (" ·", "dim")])
        return _lines(first, _assemble([(" ", ""), *_markers(building["markers"])]), Text(""))

    def _diagonal_block(self, index: int) -> Text:
        upper = self.buildings[f"B{index}{index}U"]
        lower = self.buildings[f"B{index}{index}L"]
        space = self.spaces[f"D.{index}"]
        glyph_style, content = _tile_or_benefit(space)
        middle = _assemble([(" ╲", glyph_style), (" ", ""),
                            *_spaced([(space["id"], "dim"), *content, *_riders(space, self.trams)])])
        return _lines(
            _assemble([("╲ ", glyph_style), (upper["id"], "dim"), (" ", ""), *self._corner(upper)]),
            middle,
            _assemble([(lower["id"], "dim"), (" ", ""), *self._corner(lower), ("  ╲", glyph_style)]),
        )

    def _corner(self, building: dict[str, Any]) -> list[Segment]:
        """A corner space holds at most a Corner Building: its marker says whose it is."""
        if not building.get("type"):
            return [("·", "dim")]
        if building["type"] != "corner" or not building["markers"]:
            return [(str(building["type"]), "bold"), *_markers(building["markers"])]
        return _markers(building["markers"])


# -- tracks ---------------------------------------------------------------------------------------


def _citizen_tracks(view: JsonDict) -> RenderableType:
    lowest = view.get("lowest_visible")
    tracks: dict[str, dict[str, Any]] = view["tracks"]
    lines = [_assemble([("Citizen tracks", "bold"), (f"  lowest visible value {lowest}", ""),
                        ("  (VP for the next Building; ■ filled, ! trigger space of its section)",
                         "dim")])]
    for letter, track in tracks.items():
        segments: list[Segment] = [(f"{letter} {CITIZEN_NAMES.get(letter, letter):<8}", "bold")]
        triggers = set(track["triggers"])
        previous = None
        for index, (value, filled) in enumerate(zip(track["values"], track["filled"], strict=True)):
            section = track["sections"][index]
            if previous is not None and section != previous:
                segments.append((" │", "dim"))
            previous = section
            mark = "!" if index in triggers else " "
            if filled:
                segments.append((f"{'■':>3}", "dim"))
            else:
                segments.append((f"{value:>3}", "bold reverse" if value == lowest else ""))
            segments.append((mark, "bold"))
        if track.get("off_board"):
            segments.append((f"  +{track['off_board']} off board", "dim"))
        lines.append(_assemble(segments))
    return Group(*lines)


def _cerda(view: JsonDict) -> RenderableType:
    track = view["cerda_track"]
    positions: list[int] = track["positions"]
    heads: list[Segment] = [("Cerdà track ", "bold")]
    mults: list[Segment] = [("multiplier  ", "dim")]
    players: list[Segment] = [("players     ", "dim")]
    for position in range(track["top"] + 1):
        here = [seat for seat, at in enumerate(positions) if at == position]
        heads.append((f"{position:>4}", "underline" if position == track["start"] else ""))
        mults.append((f"{'x' + str(track['multipliers'][position]):>4}", ""))
        players.append((" " * (4 - len(here)), ""))
        players.extend((str(seat + 1), seat_style(seat)) for seat in here)
    heads.append((f"  after Scorings 1 and 2, anyone past {track['start']} goes back to it", "dim"))
    players.append(("  (player numbers)", "dim"))
    return Group(_assemble(heads), _assemble(mults), _assemble(players))


# -- the side board -------------------------------------------------------------------------------


def _side_board(view: JsonDict) -> RenderableType:
    """Two columns: the scoring tiles and the public services; the sidewalk and the supplies."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(width=LEFT_WIDTH)
    grid.add_column(width=SIDEWALK_WIDTH * SIZE + SIZE - 1)
    grid.add_row(Group(_cerda_tiles(view), _modernisme_offer(view), _services(view)),
                 Group(_sidewalk(view), _sagrada_offer(view), _supplies(view)))
    return grid


def _cerda_tiles(view: JsonDict) -> RenderableType:
    lines = [_assemble([("Cerdà Scoring tiles", "bold"), ("  (✓ scored)", "dim")])]
    for index, tile in enumerate(view.get("cerda_scoring", [])):
        scored = bool(tile.get("scored"))
        lines.append(_assemble([("✓ " if scored else "  ", "bold"), (f"{index + 1} {tile['id']} ", "bold"),
                                (condition_text(tile), "dim" if scored else "")]))
    return Group(*lines)


def _modernisme_offer(view: JsonDict) -> RenderableType:
    modernisme = view.get("modernisme", {})
    lines = [_assemble([("Modernisme offer", "bold"),
                        (f"  (stack {modernisme.get('stack', 0)}, discarded "
                         f"{len(modernisme.get('discard', []))})", "dim")])]
    for tile in modernisme.get("offer", []):
        lines.append(Text(f"{tile['id']} {condition_text(tile)}") if tile else Text("(empty)", style="dim"))
    return Group(*lines)


def _services(view: JsonDict) -> RenderableType:
    lines = [_assemble([("Public services", "bold"), ("  (next cost>VP, tiles left, built by)", "dim")])]
    for service in view.get("public_services", []):
        offer = (f"${service['next_cost']}>{service['next_vp']}VP x{service['left']}"
                 if service.get("left") else "none left")
        built = [(seat_name(seat), seat_style(seat)) for seat in service.get("built_by", [])]
        lines.append(_assemble([(f"{service['id']:<11}", "bold"), (f"{service['effect']:<12}", "dim"),
                                (f"{offer:<12}", ""), *_spaced(built)]))
    return Group(*lines)


def _supplies(view: JsonDict) -> Text:
    stock = view.get("building_stock", {})
    bag = view.get("bag", {})
    return _assemble([("Buildings left ", "bold"),
                      (", ".join(f"{kind} {count}" for kind, count in stock.items()), ""),
                      ("  Bag ", "bold"), (" ".join(f"{k} {n}" for k, n in bag.items()), "")])


def _sagrada_offer(view: JsonDict) -> RenderableType:
    by_level: dict[int, list[str]] = {}
    for tile in view.get("sagrada_offer", []):
        by_level.setdefault(tile["level"], []).append(f"{tile['id']}{benefit_text(tile['benefit'])}")
    title = Text("Sagrada Família tiles left", style="bold")
    if not by_level:
        return Text.assemble(title, (" none", "dim"))
    lines = [Text.assemble((f"{level}: ", "bold"), " ".join(by_level[level])) for level in sorted(by_level)]
    return Group(title, *lines)


def _sidewalk(view: JsonDict) -> RenderableType:
    squares = _by_id(view.get("sidewalk", []))
    grid = Table.grid(padding=(0, 1))
    for _ in range(SIZE):
        grid.add_column(width=SIDEWALK_WIDTH, no_wrap=True, overflow="crop")
    for row in range(SIZE):
        cells: list[Text] = []
        for column in range(SIZE):
            square = squares.get(f"S{row}{column}")
            if square is None:
                cells.append(Text(""))
                continue
            stone = square.get("cobblestone")
            if stone == "start":
                content: Segment = ("start", "bold")
            elif stone is not None:
                content = (f"■{seat_name(stone)}", seat_style(stone))
            else:
                content = (benefit_text(square.get("benefit"), short=True) or "-", "")
            cells.append(_assemble([(square["id"], "dim"), (" ", ""), content]))
        grid.add_row(*cells)
    return Group(Text("Sidewalk  (■Pn cobblestone, else the space's benefit)", style="bold"), grid)


# -- player boards --------------------------------------------------------------------------------


def _player_board(view: JsonDict, player: dict[str, Any]) -> Panel:
    seat = player["seat"]
    rows: list[RenderableType] = []
    hand = player.get("hand")
    if hand is not None:
        hand_text = f"hand {' '.join(hand) if hand else '(empty)'}"
    else:
        hand_text = f"hand: {player['hand_size']} hidden" if player.get("hand_size") else "no hand"
    rows.append(_assemble([(f"coins {player['coins']}  cloth {player['cloth']}", "bold"),
                           (f" (Warehouse {player['coins'] + player['cloth']}/{player['capacity']})  ", ""),
                           (hand_text, "bold" if hand is not None else "dim")]))
    rows.append(Text(f"cobblestones left {player['cobblestones_left']} "
                     f"(now {player['cobblestone_vp_now']} VP)"
                     f"  Cerdà {player['cerda']} (x{player['cerda_multiplier']})"))
    tiles = " ".join(player.get("sagrada_tiles", [])) or "-"
    rows.append(Text(f"Sagrada {player['sagrada']}/{view.get('sagrada_track', {}).get('top', '?')}"
                     f"  tiles {tiles}"))
    rows.append(_intersections(player))
    rows.append(_passengers(player))
    rows.append(Text(f"Streets left narrow {'+'.join(map(str, player['narrow_stacks']))}, "
                     f"wide {'+'.join(map(str, player['wide_stacks']))}; markers "
                     f"{' '.join(map(str, player['marker_stacks']))}"))
    services = ", ".join(player.get("services", [])) or "-"
    rows.append(Text(f"services {services}"))
    rows.append(_modernisme(player))
    title = Text.assemble((seat_name(seat), seat_style(seat)))
    if player.get("name"):
        title.append(f" {player['name']}", style=seat_style(seat))
    solo = view.get("solo")
    if isinstance(solo, dict) and solo.get("seat") == seat:
        title.append(f"  {solo['automa_vp']} VP", style="bold")
        title.append(f" ({player['vp']} x {solo['multiplier_percent']}%)", style="dim")
    else:
        title.append(f"  {player['vp']} VP", style="bold")
    if view.get("current_player") == seat:
        title.append("  deciding", style="bold reverse")
    if view.get("first_player") == seat:
        title.append("  first player", style="dim")
    if view.get("viewer") == seat:
        title.append("  (you)", style="bold")
    return Panel(Group(*rows), title=title, title_align="left", border_style=colour(seat),
                 box=box.ROUNDED, padding=(0, 1))


def _intersections(player: dict[str, Any]) -> Text:
    slots = player.get("intersections", [])
    built = sum(1 for slot in slots if slot["built"])
    segments: list[Segment] = [(f"Intersections {built}/{len(slots)}: ", "")]
    for slot in slots:
        mark = "■" if slot["built"] else "□"
        segments.append((f"{mark}{benefit_text(slot['benefit'])} ", "bold" if slot["built"] else "dim"))
    if built < len(slots):
        segments.append((f"next ${slots[built]['cost']}", ""))
    return _assemble(segments)


def _passengers(player: dict[str, Any]) -> Text:
    slots = player.get("passengers", [])
    placed = sum(1 for slot in slots if slot["placed"])
    segments: list[Segment] = [
        (f"Passengers {placed}/{len(slots)} (now {player['passenger_vp_now']} VP)", "")]
    if placed < len(slots):
        cost = slots[placed]
        price = "+".join(part for part in (f"{cost['coin']}$" if cost["coin"] else "",
                                           f"{cost['cloth']}cl" if cost["cloth"] else "") if part)
        segments.append((f", next {price or 'free'}", ""))
    tram = player.get("tram")
    segments.append((f"  Tram {tram}" if tram else "  Tram not placed", "" if tram else "dim"))
    return _assemble(segments)


def _modernisme(player: dict[str, Any]) -> Table:
    spaces = player.get("modernisme", [])
    table = Table.grid(padding=(0, 1))
    table.add_column(style="dim", no_wrap=True)
    for _ in spaces:
        table.add_column(justify="center", no_wrap=True, min_width=6)
    table.add_row("Modernisme", *(Text(str(n), style="dim") for n in range(1, len(spaces) + 1)))
    table.add_row("tile", *(Text(space["tile"] or "-", style="bold" if space["tile"] else "dim")
                            for space in spaces))
    table.add_row("x now/top", *(Text(f"x{space['multiplier']}" + (" top" if space["top"] else
                                                                   f"/{space['top_multiplier']}"))
                                 for space in spaces))
    table.add_row("cloth take/up", *(Text(f"{space['take_cloth']}/{space['improve_cloth']}", style="dim")
                                     for space in spaces))
    return table


def _player_boards(view: JsonDict) -> RenderableType:
    panels = [_player_board(view, player) for player in view.get("player_list", [])]
    grid = Table.grid(padding=(0, 1))
    grid.add_column(width=59)
    grid.add_column(width=59)
    for index in range(0, len(panels), 2):
        grid.add_row(*panels[index:index + 2])
    return grid


# -- status and the end ---------------------------------------------------------------------------


def _status(view: JsonDict) -> Text:
    solo = view.get("solo")
    if isinstance(solo, dict):
        segments: list[Segment] = [(f"Barcelona, solo against {solo['opponent']} ({solo['difficulty']})  ",
                                    "bold")]
    else:
        segments = [(f"Barcelona, {view['players']} players  ", "bold")]
    if view.get("terminal"):
        segments.append(("game over  ", "bold"))
    else:
        segments.append((f"round {view['round']}  ", ""))
        turn = view.get("turn_player")
        if isinstance(turn, int):
            segments += [("turn of ", ""), (seat_name(turn), seat_style(turn)), ("  ", "")]
    if view.get("end_triggered") and not view.get("terminal"):
        segments.append(("last round  ", "bold"))
    if isinstance(solo, dict) and not view.get("terminal"):
        return _assemble(segments)  # the scores are on the solo line, and the line fits 80 columns
    segments.append(("VP ", "dim"))
    for seat, score in enumerate(view.get("scores", [])):
        segments += [(seat_name(seat), seat_style(seat)), (f" {score}  ", "")]
    return _assemble(segments)


def _solo(view: JsonDict) -> Text | None:
    """The solo opponent: its card, meeple and deck, and its score with the difficulty applied."""
    solo = view.get("solo")
    if not isinstance(solo, dict):
        return None
    seat = solo.get("seat", 1)
    segments: list[Segment] = [(f"{solo['opponent']} ", seat_style(seat)), (f"(P{seat + 1}): ", "dim")]
    card = solo.get("card")
    if card:
        segments.append((f"card {card['number']} {card['title']} ({card['direction']}), ", ""))
    segments.append((f"meeple on {solo['meeple']}, {solo['deck_left']} cards left in the deck", ""))
    if solo.get("drawn"):
        segments.append((f" (drawn {' '.join(map(str, solo['drawn']))})", "dim"))
    segments.append((f"; score {solo['automa_vp_before_multiplier']} VP x {solo['multiplier_percent']}% = "
                     f"{solo['automa_vp']}, your margin {solo['margin']:+d}", "bold"))
    if solo.get("result"):
        segments.append((f"; you {solo['result']}", "bold"))
    return _assemble(segments)


@renderer("barcelona")
def render_barcelona(view: JsonDict) -> RenderableType:
    solo = _solo(view)
    parts: list[RenderableType] = [
        _status(view),
        *([solo] if solo is not None else []),
        _City(view).table(),
        Text(LEGEND, style="dim"),
        _citizen_tracks(view),
        _cerda(view),
        _side_board(view),
        _player_boards(view),
    ]
    # the final scores by source are printed once by the command, under the table (cli/tables.py)
    return Group(*parts)


# -- the compact table: what a decision needs, on 80 x 24 ------------------------------------------

COMPACT_CROSSING = 8
COMPACT_SPACE = 7


class _CompactCity(_City):
    """The city in 10 lines of at most 80 columns: a row of crossings, then a row of blocks."""

    def lines(self) -> list[Text]:
        head: list[Segment] = [("  ", "")]
        for column in range(SIZE):
            street = self.streets[f"V{column}"]
            label = f"V{column} {action_label(street['action'], short=True)}"
            if column < BLOCKS:
                label = f"{label:<{COMPACT_CROSSING + COMPACT_SPACE}}"[:COMPACT_CROSSING + COMPACT_SPACE]
            head.append((label, "bold" if street["width"] == "wide" else ""))
        diagonal = self.streets.get("D")
        if diagonal:
            head.append((f" D {action_label(diagonal['action'], short=True)}",
                         "bold" if diagonal["width"] == "wide" else ""))
        lines = [_assemble(head)]
        for row in range(SIZE):
            lines.append(self._crossing_line(row))
            if row < BLOCKS:
                lines.append(self._block_line(row))
        return lines

    def _crossing_line(self, row: int) -> Text:
        segments: list[Segment] = [(f"{row} ", "dim")]
        for column in range(SIZE):
            segments += self._compact_crossing(self.crossings[f"C{row}{column}"])
            if column < BLOCKS:
                segments += self._compact_space(self.spaces[f"H{row}.{column}"], horizontal=True)
        street = self.streets[f"H{row}"]
        segments.append((f"H{row} {action_label(street['action'], short=True)}",
                         "bold" if street["width"] == "wide" else ""))
        return _assemble(segments)

    def _compact_crossing(self, crossing: dict[str, Any]) -> list[Segment]:
        citizens = "".join(crossing["citizens"][-3:])
        segments: list[Segment] = [(f"${crossing['cost']}", "dim"),
                                   (citizens or "·", "bold" if citizens else "dim")]
        owner = crossing.get("intersection")
        if owner is not None:
            segments.append((f"■{owner + 1}", seat_style(owner)))
        used = sum(len(text) for text, _ in segments)
        return [*segments, (" " * max(1, COMPACT_CROSSING - used), "")]

    def _compact_space(self, space: dict[str, Any], horizontal: bool) -> list[Segment]:
        owner = space.get("tile")
        content: list[Segment]
        if owner is not None:
            content = [(seat_name(owner), seat_style(owner))]
        else:
            benefit = benefit_text(space.get("benefit"), short=True)
            content = [(benefit, "")] if benefit else []
        riders = _riders(space, self.trams)
        if riders and owner is None:  # room for the Tram and the Passenger before the benefit
            content = []
        content += riders
        if horizontal:
            fill = "═" if space["wide"] else "─"
            used = sum(len(text) for text, _ in content)
            left = max(0, (COMPACT_SPACE - used) // 2)
            fill_style = colour(owner) if owner is not None else "dim"
            right = max(0, COMPACT_SPACE - used - left)
            return [(fill * left, fill_style), *content, (fill * right, fill_style)]
        bar = "║" if space["wide"] else "│"
        return [(bar, colour(owner) if owner is not None else "dim"), *content]

    def _block_line(self, row: int) -> Text:
        segments: list[Segment] = [("  ", "")]
        for column in range(SIZE):
            cell = _clip(self._compact_space(self.spaces[f"V{column}.{row}"], horizontal=False),
                         COMPACT_CROSSING - 1)
            used = sum(len(text) for text, _ in cell)
            segments += [*cell, (" " * max(1, COMPACT_CROSSING - used), "")]
            if column < BLOCKS:
                block = self._compact_diagonal(row) if row == column else self._compact_block(row, column)
                block = _clip(block, COMPACT_SPACE)
                used = sum(len(text) for text, _ in block)
                segments += [*block, (" " * max(0, COMPACT_SPACE - used), "")]
        bonus = self.row_bonus[row] if row < len(self.row_bonus) else 0
        if bonus:
            segments.append((f" bonus {bonus}", ""))
        return _assemble(segments)

    def _compact_block(self, row: int, column: int) -> list[Segment]:
        building = self.buildings[f"B{row}{column}"]
        if not building.get("type"):
            return []
        return [(say(f"bcn.buildingShort.{building['type']}") + " ", "bold"),
                *[(str(seat + 1), seat_style(seat)) for seat in building["markers"]]]

    def _compact_diagonal(self, index: int) -> list[Segment]:
        space = self.spaces[f"D.{index}"]
        owner = space.get("tile")
        content = [(seat_name(owner), seat_style(owner))] if owner is not None else [
            (benefit_text(space.get("benefit"), short=True), "")]
        corners = [(str(seat + 1), seat_style(seat)) for corner in "UL"
                   for seat in self.buildings[f"B{index}{index}{corner}"]["markers"]]
        riders = _riders(space, self.trams)
        if owner is None and (riders or corners):  # the pieces before the printed benefit
            content = []
        return [("╲", colour(owner) if owner is not None else "dim"), *content,
                *riders, *([(" ", "")] if corners else []), *corners]


def _clip(segments: list[Segment], width: int) -> list[Segment]:
    """The segments cut to `width` characters, so that the columns of the map stay aligned."""
    out: list[Segment] = []
    left = width
    for text, style in segments:
        if left <= 0:
            break
        out.append((text[:left], style))
        left -= len(text[:left])
    return out


def _compact_player(view: JsonDict, player: dict[str, Any]) -> Text:
    seat = player["seat"]
    hand = player.get("hand")
    hand_text = ("".join(hand) or "-") if hand is not None else f"{player.get('hand_size', 0)} hidden"
    built = sum(1 for slot in player.get("intersections", []) if slot["built"])
    placed = sum(1 for slot in player.get("passengers", []) if slot["placed"])
    segments: list[Segment] = [(seat_name(seat), seat_style(seat))]
    if view.get("viewer") == seat:
        segments.append((" you", "bold"))
    solo = view.get("solo")
    vp = solo["automa_vp"] if isinstance(solo, dict) and solo.get("seat") == seat else player["vp"]
    segments += [
        (f" {vp}VP", "bold"),
        (f" ${player['coins']} cl{player['cloth']}", ""),
        (f" ({player['coins'] + player['cloth']}/{player['capacity']})", "dim"),
        (f" hand {hand_text}", "bold" if hand is not None else "dim"),
        (f" Ce{player['cerda']}x{player['cerda_multiplier']} SF{player['sagrada']}", ""),
        (f" cob{player['cobblestones_left']} int{built} pas{placed}", "dim"),
        (f" tram {player.get('tram') or '-'}", "dim"),
    ]
    if view.get("first_player") == seat:
        segments.append((" 1st", "dim"))
    return _assemble(segments)


@compact_renderer("barcelona")
def render_barcelona_compact(view: JsonDict) -> RenderableType:
    """The status, the city in 10 lines and a line per player; `render_barcelona` is the whole
    table (tracks, tiles, services, player boards)."""
    solo = _solo(view)
    parts: list[RenderableType] = [
        _status(view),
        *_CompactCity(view).lines(),
        *(_compact_player(view, player) for player in view.get("player_list", [])),
        *([_compact_solo(view)] if solo is not None else []),
    ]
    return Group(*parts)


def _compact_solo(view: JsonDict) -> Text:
    """The solo opponent in one line: its card, meeple, deck and score."""
    solo = view["solo"]
    seat = solo.get("seat", 1)
    segments: list[Segment] = [(f"{solo['opponent']} ", seat_style(seat))]
    card = solo.get("card")
    if card:
        segments.append((f"card {card['number']} ({card['direction']}) ", ""))
    segments.append((f"meeple {solo['meeple']} deck {solo['deck_left']} ", "dim"))
    segments.append((f"{solo['automa_vp']} VP, margin {solo['margin']:+d}", "bold"))
    if solo.get("result"):
        segments.append((f"; you {solo['result']}", "bold"))
    return _assemble(segments)


# -- the choices ----------------------------------------------------------------------------------


HINTS = {
    "place": "Both citizens go on one empty crossing (pay its $ cost; free on an Intersection); then "
             "you may take the action of each street through it, shown at the street's end.",
    "order": "The citizen on top is the one a Building takes first from this crossing.",
    "intersection_benefits": "benefits 1+3: the benefits of your 1st and 3rd built Intersections "
                             "(as on your player board, left to right).",
    "actions": "Each street through the crossing gives its action once, in any order.",
    "cloth_or_coins": "gain cloth: 1 cloth and 3 VP; gain coins: 2 coins.",
    "cobblestone": "A cobblestone gives the space's benefit and frees a Warehouse space.",
    "street_kind": "Wide: 1 tile scoring 2 VP per tile in its line; narrow: 2 tiles scoring 1 VP "
                   "per tile in line. An empty space's benefit is gained too.",
    "street": "Vc.r: street Vc between rows r and r+1; Hr.c: street Hr between columns c and c+1; "
              "D.i: the diagonal.",
    "intersection": "Citizens on an Intersection cost nothing; when anyone places there, you take "
                    "Intersection benefits. You gain the benefits of its empty street spaces.",
    "improve_modernisme": "Pays cloth to move that project space's marker to its top multiplier.",
    "take_modernisme": "take TILE into N: an offered tile into your project space N (pays its cloth).",
    "public_service": "Pays the next tile's coins for its VP and effect.",
    "tram": "First placed on any space without a Tram or Passenger; then it moves 1 or 2 spaces "
            "(your own Street tiles are free), never back, never onto another Tram.",
    "passenger": "A Passenger costs the next price on your board, scores the Street tile under it "
                 "again and gives the street's action.",
    "passenger_action": "The action of the street where the Passenger got on.",
    "sagrada_tile": "Choose one of the tiles of this level still in the offer.",
    "resources": "Split the resources between coins and cloth.",
    "discard": "Coins and cloth together may not exceed your Warehouse capacity.",
    "build": "build TYPE SPACE: the Building and where; then you choose the citizens it takes.",
    "building_citizens": "use Cxy+...: the crossings whose top citizens move to their tracks; you "
                         "score the lowest visible value after they do.",
}

register_hints("barcelona", HINTS)

_GRID_ARGUMENT = re.compile(r"^([CS])(\d)(\d)$")
_SPACE_ARGUMENT = re.compile(r"^([VH]\d|D)\.\d$")


@choices_renderer("barcelona")
def render_barcelona_choices(view: JsonDict, actions: list[Action]) -> RenderableType:
    """The choices: crossings and sidewalk spaces laid out as on the board, street spaces by
    street, anything else grouped by its first word (what the decision means: help)."""
    parts: list[RenderableType] = []
    me = view.get("viewer")
    if isinstance(me, int) and view.get("decision_kind") == "place":
        hand = view["player_list"][me].get("hand") or []
        parts.append(Text(f"Your citizens: {' and '.join(hand) or 'none'}.", style="bold"))
    groups = group_choices(actions)
    arguments = [rest for _, items in groups for _, rest in items]
    if len(groups) == 1 and all(_GRID_ARGUMENT.match(rest) for rest in arguments) and len(actions) > 4:
        parts.append(_grid_choices(view, *groups[0]))
    elif len(groups) == 1 and all(_SPACE_ARGUMENT.match(rest) for rest in arguments) and len(actions) > 4:
        parts.append(_street_choices(*groups[0]))
    else:
        parts.append(numbered_choices(view, actions, "barcelona"))
    return Group(*parts)


def _grid_choices(view: JsonDict, word: str, items: list[tuple[int, str]]) -> RenderableType:
    costs = {c["id"]: c["cost"] for c in view.get("city", {}).get("crossings", [])}
    placed: dict[tuple[int, int], Text] = {}
    for number, rest in items:
        match = _GRID_ARGUMENT.match(rest)
        assert match is not None
        cost = costs.get(rest) if word == "place" else None
        label = f"{number:>2}) {rest}" + (f" ${cost}" if cost else "")
        placed[int(match.group(2)), int(match.group(3))] = Text(label)
    grid = Table.grid(padding=(0, 2))
    for _ in range(SIZE):
        grid.add_column(min_width=10, no_wrap=True)
    for row in range(SIZE):
        cells = [placed.get((row, column), Text("   ·", style="dim")) for column in range(SIZE)]
        if any(cell.plain.strip() != "·" for cell in cells):
            grid.add_row(*cells)
    return grid  # the decision's own line says what they are


def _street_choices(word: str, items: list[tuple[int, str]]) -> RenderableType:
    streets: dict[str, list[tuple[int, str]]] = {}
    for number, rest in items:
        streets.setdefault(rest.split(".")[0], []).append((number, rest))
    cells = [Text(" ".join(f"{n:>2}) {rest:<4}" for n, rest in entries)) for entries in streets.values()]
    return Columns(cells, padding=(0, 3))  # one street a cell; the decision's line says what they are


# -- long texts and help --------------------------------------------------------------------------


@details_renderer("barcelona")
def render_barcelona_details(view: JsonDict) -> RenderableType:
    lines: list[Text] = [Text("Cerdà Scoring tiles", style="bold")]
    for index, tile in enumerate(view.get("cerda_scoring", [])):
        done = " (scored)" if tile.get("scored") else ""
        lines.append(Text(f"  {index + 1}. {tile['id']}{done}: {tile.get('text', '')}"))
    lines.append(Text("Modernisme offer", style="bold"))
    for tile in view.get("modernisme", {}).get("offer", []):
        if tile:
            lines.append(Text(f"  {tile['id']}: {tile.get('text', '')}"))
    lines.append(Text("Public services", style="bold"))
    for service in view.get("public_services", []):
        lines.append(Text(f"  {service['id']}: {service.get('name', '')} ({service.get('effect', '')})"))
    return Group(*lines)


register_help("barcelona", """\
Barcelona moves, as typed (or choose them by number):
  place C23             your two citizens on crossing C23 (row 2, column 3)
  top M                 which citizen goes on top (W, M or U)
  act V2 streets        the action of street V2 (at its end); end actions: stop
  benefits 1+3          your 1st and 3rd Intersections' benefits; benefits none
  gain cloth            1 cloth and 3 VP (gain coins: 2 coins)
  cobble S12            a cobblestone on sidewalk space S12
  streets wide          then: street V2.1 (V2 between rows 1 and 2);
                        streets narrow: 2 tiles
  intersection C12      an Intersection on crossing C12
  improve 3             Modernisme project space 3 to its top position
  take MT07 into 2      Modernisme tile MT07 into your project space 2
  service station       a Public Service, by its id
  decline               refuse a costly action a benefit granted
  tram H1.2             place or move your Tram; then passenger / no passenger;
                        then act .. / skip action
  sagrada SF05          a Sagrada Família tile
  mix coin 2 cloth 1    how to take resources; discard coin / discard cloth
                        when over capacity
  build L2 B12          a Building; then use C12+C13: the crossings whose top
                        citizens it takes
Names: Cxy crossing; Vc.r and Hr.c street spaces; D.i the diagonal; Bxy block
(BxxU/BxxL beside the diagonal); Sxy sidewalk; MTnn Modernisme tile; SFnn
Sagrada Família tile.
The compact table: $cost and citizens (bottom first) of each crossing, ■n an
Intersection of Pn; ─ │ narrow, ═ ║ wide street spaces: Pn a Street tile, Tn a
Tram, ●n a Passenger, +benefit of an empty space; L1..L3 and C a Building with
its markers' seats; each street's action at its end (V0..V4 at the top, H0..H4
at the right, D the diagonal). "table" shows everything.""")

