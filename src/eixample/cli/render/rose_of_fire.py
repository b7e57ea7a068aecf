"""The Rose of Fire table in the terminal, drawn from `view(seat)` alone.

From top to bottom: a status line (phase, period, immigration level, first player); the Eixample,
one grid per district, each space showing its tile colour and its house; the social-conflict
track; Raval, the barricades, the black bag and Montjuïc; the influence cards; every player
(VP, prestige, houses, strikers, tokens, conviction, hand); the scores by source at the end.

A space reads `y` (a yellow tile), `Y*` (a yellow starting space, empty), `y2M` (a yellow tile with
P2's middle-class house, underlined in a completed block), upper case once the tile shows its
complete side, and `#` marks an empty tile of a block. Track: K, C, P the events, A Anarchy,
@ the bomb. Players are P1..P4 in the Okabe-Ito colours; the text never relies on colour
alone.
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from eixample.cli.render import compact_renderer, register_help, renderer
from eixample.cli.render.words import influence_label, influence_short, say
from eixample.core.protocol import JsonDict

PLAYER_COLOURS = ("#E69F00", "#56B4E9", "#009E73", "#CC79A7")
TILE_STYLES = {"yellow": "bold #F0E442", "lilac": "bold #B39DDB", "green": "bold #66BB6A"}
SYMBOL_LETTERS = {"crown": "K", "colonies": "C", "personalities": "P"}

register_help("rose-of-fire", """\
The Rose of Fire moves, as typed (or choose by number): card c07, event p29,
both p29, discard c07, tile LB3 Y, house M, keep 1, drop 4, block LB3,
buy K2 with 2K1C, done, reward, extra none, ability first, strikers first.
Spaces: district L/R/S, row A-E, column; colours Y/L/G; houses U/M/W/L; symbols
K crown, C colonies, P personalities. Influence cards are named by symbol and
level ("personalities 1": P1 in a typed move).
A family's line: prest prestige, h houses left U/M/W/L, str strikers in
supply/Raval/barricades, tok influence tokens, conv conviction token, infl
influence cards.
"table" shows everything.""")


def _space(cell: dict[str, Any] | None) -> Text:
    if cell is None:
        return Text("    ")
    tile = cell["tile"]
    if tile is None:
        if cell["start"]:
            return Text(f"{cell['start'][0].upper()}*  ", style=TILE_STYLES[cell["start"]] + " dim")
        return Text(" .  ", style="dim")
    letter = tile[0].upper() if cell["complete"] else tile[0]
    text = Text(letter, style=TILE_STYLES[tile])
    house = cell["house"]
    if house:
        text.append(f"{house['owner'] + 1}{house['type']} ", style=PLAYER_COLOURS[house["owner"]])
    else:
        text.append("#  " if cell["block"] else "   ", style="dim")
    if house and cell["block"]:
        text.stylize("underline")
    return text


def _district(view: JsonDict, district: dict[str, Any]) -> Panel:
    cells = {c["space"]: c for c in view["eixample"] if c["district"] == district["id"]}
    grid = Table(box=None, show_header=True, padding=(0, 0), pad_edge=False)
    grid.add_column("", style="dim", no_wrap=True)
    for col in range(1, district["columns"] + 1):
        grid.add_column(f"{col}", justify="left", no_wrap=True, min_width=4)
    for row in range(district["rows"]):
        letter = chr(65 + row)
        grid.add_row(
            letter + " ",
            *(
                _space(cells.get(f"{district['id']}{letter}{col}"))
                for col in range(1, district["columns"] + 1)
            ),
        )
    return Panel(grid, title=f"{district['name']} ({district['id']})", box=box.ROUNDED, expand=False)


def _conflict(view: JsonDict) -> Text:
    c = view["conflict"]
    marks = {e["space"]: SYMBOL_LETTERS[name] for name, e in c["events"].items()}
    text = Text("Social conflict ")
    for i in range(c["anarchy_space"] + 1):
        label = "A" if i == c["anarchy_space"] else marks.get(i, "-")
        if i == c["bomb"]:
            text.append("@", style="bold red")
        else:
            done = any(e["space"] == i and e["fired"] for e in c["events"].values())
            text.append(label, style="dim" if done else "")
    fired = [name for name, e in c["events"].items() if e["fired"]]
    text.append(f"  bomb {c['bomb']}/{c['anarchy_space']}; events fired: {', '.join(fired) or 'none'}")
    if c["anarchy"]:
        text.append("  ANARCHY (reversed block scoring)", style="bold red")
    return text


def _streets(view: JsonDict) -> Table:
    table = Table(title="Raval and the barricades", box=box.SIMPLE)
    for column in ("", "supply", "Raval", "barricades", "black bag"):
        table.add_column(column, justify="right")
    for p in view["player_list"]:
        s = p["strikers"]
        table.add_row(
            Text(f"P{p['seat'] + 1}", style=PLAYER_COLOURS[p["seat"]]),
            str(s["supply"]),
            str(s["raval"]),
            str(s["barricades"]),
            str(s["bag"]),
        )
    table.add_row(
        "soldiers",
        f"Montjuïc {view['montjuic']}",
        "",
        str(view["barricade_soldiers"]),
        str(view["black_bag"]["soldiers"]),
    )
    return table


def _influence(view: JsonDict) -> Table:
    """The influence cards by name, symbol and level ("personalities 1"): their ids K1..P3 would
    read like the seats P1..P4."""
    table = Table(title="Influence cards", box=box.SIMPLE)
    for column in ("card", "cost", "VP", "status"):
        table.add_column(column)
    for card in view["influence_cards"]:
        table.add_row(influence_label(card), _cost(card), str(card["vp"]), _owner(card["status"]))
    return table


def _cost(card: dict[str, Any]) -> str:
    return ", ".join(f"{n} {s}" for s, n in card["cost"].items())


def _owner(status: Any) -> Text:
    if isinstance(status, int):
        return Text(say("rof.influence.owned", name=f"P{status + 1}"), style=PLAYER_COLOURS[status])
    return Text(str(status), style="dim" if status != "available" else "")


def _card(card: dict[str, Any]) -> str:
    houses = "/".join(card["houses"])
    extra = ""
    if card["ability"]:
        extra = " +" + ",".join(f"{k} {v}" for k, v in card["ability"].items())
    if card["event"]:
        extra = " event: " + ",".join(f"{k} {v}" for k, v in card["event"].items())
    if card["kind"] == "strike":
        return f"{card['id']} (Strike: -VP)"
    return f"{card['id']} {card['colour']} {houses}{extra}"


def _players(view: JsonDict) -> Table:
    table = Table(title="Families", box=box.SIMPLE, show_lines=False)
    for column in ("", "VP", "prestige", "houses U/M/W/L", "tokens", "conviction", "influence", "hand"):
        table.add_column(column)
    for p in view["player_list"]:
        seat = p["seat"]
        name = Text(
            f"P{seat + 1}" + (" *" if seat == view["first_player"] else ""), style=PLAYER_COLOURS[seat]
        )
        houses = "/".join(str(p["houses_left"][h]) for h in "UMWL")
        tokens = str(p["tokens"])
        if p["token_symbols"] and p["tokens"]:
            held = (f"{n}{SYMBOL_LETTERS[s]}" for s, n in p["token_symbols"].items() if n)
            tokens += " (" + " ".join(held) + ")"
        if p.get("secret_choice"):
            choices = p["secret_choice"].items()
            tokens += "; choose: " + ", ".join(f"{text} = {word}" for text, word in choices)
        if p["hand"] is not None:
            hand = "; ".join(_card(c) for c in p["hand"])
        else:
            hand = ", ".join(f"{n} {kind}" for kind, n in p["hand_counts"].items() if n)
        if p["table"]:
            hand += f" | on the table: {', '.join(p['table'])}"
        table.add_row(
            name,
            str(p["vp"]),
            str(p["prestige"]),
            houses,
            tokens,
            str(p["conviction"] or "-"),
            ", ".join(influence_short(card) for card in p["influence_cards"]) or "-",
            hand or "-",
        )
    return table


def _compact_grid(view: JsonDict, district: dict[str, Any], cell: int) -> Group:
    """A district without its frame, `cell` columns a space: its name, then a line per row."""
    cells = {c["space"]: c for c in view["eixample"] if c["district"] == district["id"]}
    columns = range(1, district["columns"] + 1)
    lines = [Text(f"{district['name']} ({district['id']})"[: 2 + cell * len(columns)], style="bold"),
             Text("  " + "".join(f"{col:<{cell}}" for col in columns), style="dim")]
    for row in range(district["rows"]):
        letter = chr(65 + row)
        line = Text(f"{letter} ", style="dim")
        for col in columns:
            space = _space(cells.get(f"{district['id']}{letter}{col}"))
            space.truncate(cell, pad=True)
            line.append_text(space)
        lines.append(line)
    return Group(*lines)


def _compact_player(view: JsonDict, p: dict[str, Any]) -> Text:
    seat = p["seat"]
    text = Text(f"P{seat + 1}", style="bold " + PLAYER_COLOURS[seat])
    if seat == view.get("viewer"):
        text.append(" you", style="bold")
    if seat == view["first_player"]:
        text.append(" 1st", style="dim")
    s = p["strikers"]
    tokens = str(p["tokens"])
    if p["token_symbols"] and p["tokens"]:
        tokens += " " + "".join(f"{n}{SYMBOL_LETTERS[k]}" for k, n in p["token_symbols"].items() if n)
    text.append(f" {p['vp']}VP", style="bold")
    text.append(f" prest {p['prestige']} h {'/'.join(str(p['houses_left'][h]) for h in 'UMWL')}"
                f" str {s['supply']}/{s['raval']}/{s['barricades']} tok {tokens}"
                f" conv {SHORT_SYMBOLS.get(p['conviction'], p['conviction'] or '-')}")
    if p["influence_cards"]:
        cards = (influence_short(card) for card in p["influence_cards"])
        text.append(" infl " + ", ".join(_shorter(card) for card in cards), style="dim")
    return text


SHORT_SYMBOLS = {"personalities": "pers.", "colonies": "colon."}


def _shorter(text: str) -> str:
    for word, short in SHORT_SYMBOLS.items():
        text = text.replace(word, short)
    return text


def _compact_hand(view: JsonDict) -> Text | None:
    me = view.get("viewer")
    if not isinstance(me, int):
        return None
    player = view["player_list"][me]
    if not player.get("hand"):
        return None
    return Text("Your hand: " + "; ".join(_card(card) for card in player["hand"]))


@compact_renderer("rose-of-fire")
def render_rose_of_fire_compact(view: JsonDict) -> RenderableType:
    """The status, the districts without frames, the conflict track, a line per family and the
    viewer's hand (`render_rose_of_fire`: everything; the choices name the influence cards)."""
    imm = view["immigration"]
    tiles = view["tiles_left"]
    status = Text(
        f"Phase {view['phase']}/5 (period {'I' * view['period']})  immigration {imm['level']}  "
        f"tiles Y{tiles['yellow']} L{tiles['lilac']} G{tiles['green']}  obelisks {view['obelisks']['left']}",
        style="bold",
    )
    parts: list[RenderableType] = [
        status,
        Columns([_compact_grid(view, d, 4 if len(view["districts"]) < 3 else 3) for d in view["districts"]],
                padding=(0, 1)),
        _conflict(view),
        *(_compact_player(view, p) for p in view["player_list"]),
    ]
    hand = _compact_hand(view)
    if hand is not None:
        parts.append(hand)
    return Group(*parts)


@renderer("rose-of-fire")
def render_rose_of_fire(view: JsonDict) -> RenderableType:
    imm = view["immigration"]
    tiles = view["tiles_left"]
    status = Text(
        f"Phase {view['phase']}/5 (period {'I' * view['period']})  immigration level {imm['level']} "
        f"(track {imm['round_track']})  first player P{view['first_player'] + 1}  "
        f"tiles left Y{tiles['yellow']} L{tiles['lilac']} G{tiles['green']}  "
        f"obelisks {view['obelisks']['left']}  decks City {view['decks']['city']} Popularity "
        f"{view['decks']['popularity']} Prestige {view['decks']['prestige']}",
        style="bold",
    )
    parts: list[RenderableType] = [
        status,
        Columns([_district(view, d) for d in view["districts"]]),
        _conflict(view),
        Columns([_streets(view), _influence(view)]),
        _players(view),
    ]
    if view["terminal"]:
        scores = Table(title="Final scores by source", box=box.SIMPLE)
        scores.add_column("source")
        for p in view["player_list"]:
            scores.add_column(f"P{p['seat'] + 1}", justify="right")
        for source in view["score_breakdown"][0]:
            scores.add_row(source, *(str(b[source]) for b in view["score_breakdown"]))
        parts.append(scores)
    parts.append(Text(view["decision"], style="italic"))
    return Group(*parts)
