"""Everything the server tells a client about a game is built here, and only here.

The rule that keeps hidden information hidden: a seat is only ever shown `state.view(seat)`, a
spectator `state.view(None)`; the pending decision in words and the legal actions go only to the
seat that must decide; the full state (`to_json()`) is never sent, and the record (with its seed)
only once the game is over (a game created with "seed shown" shows its seed from the start).
`seat_message` is the single function that builds a game message for a seat or a spectator;
REST answers and WebSocket pushes both come from it; `patch_message` carries only what changed
between two of them for the same seat; `presence_message` says only who is at the table.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from eixample.core.protocol import Game, JsonDict, State
from eixample.server import bots
from eixample.server.db import GameData, SeatData
from eixample.server.live import AUTOMA, SEAT_LETTERS, LiveGame
from eixample.server.patches import json_patch


def seat_message(live: LiveGame, seat: int | None) -> JsonDict:
    """The game as `seat` may see it (None: a spectator)."""
    state = live.state
    finished = state.is_terminal()
    current = state.current_player()
    deciding = seat is not None and not finished and current == seat
    if finished or deciding:
        decision = decision_message(state)
    else:
        decision = {"key": "waiting", "args": {"player": live.seat_label(current)}}
    return {
        "type": "state",
        "game_id": live.id,
        "game": live.game_name,
        "title": live.game.title,
        "seat": seat,
        "status": live.status,
        "move_number": live.move_number,
        "current_player": current,
        "your_turn": deciding,
        "decision": decision,
        "legal_actions": list(state.legal_actions()) if deciding else [],
        "can_undo": seat is not None and deciding and live.undo_allowed(seat),
        "seats": seats_public(live.seats, live.connected_seats(), game=live.game_name),
        "view": _cached_view(live, state, seat),
        "score_history": list(live.history),
        "result": final_result(state, live.resigned) if finished else None,
        "seed_shown": live.seed_shown,
        "seed": live.seed if live.seed_shown else None,
        "version": live.version,
    }


def patch_message(live: LiveGame, old: JsonDict, new: JsonDict) -> JsonDict:
    """The change from one state message of a seat to the next (both built by `seat_message` for
    the same seat, so it holds nothing the seat may not see), as JSON Patch operations (RFC 6902)
    on the state message: applied to `old` (version `base`) they give `new`."""
    return {
        "type": "patch",
        "game_id": live.id,
        "base": old["version"],
        "version": new["version"],
        "ops": json_patch(old, new),
    }


def decision_message(state: State) -> Any:
    """The pending decision as clients render it (`State.decision_message`)."""
    return state.decision_message()


def presence_message(live: LiveGame) -> JsonDict:
    """Who is at the table: the same small message for every client, sent when a seat connects,
    leaves, joins or is claimed (clients keep the rest of their last state message)."""
    return {
        "type": "presence",
        "game_id": live.id,
        "status": live.status,
        "seats": seats_public(live.seats, live.connected_seats(), game=live.game_name),
    }


def _cached_view(live: LiveGame, state: State, seat: int | None) -> JsonDict:
    cache = live.views_of(state)
    if seat not in cache:
        cache[seat] = state.view(seat)
    return cache[seat]


def public_scores(state: State, cache: dict[int | None, JsonDict] | None = None) -> list[float] | None:
    """The scores a spectator sees (`view(None)["scores"]`), for the score-over-time chart; the
    spectator's view is kept in `cache` (a LiveGame's `views_of(state)`) for the messages."""
    view = cache.get(None) if cache is not None else None
    if view is None:
        view = state.view(None)
        if cache is not None:
            cache[None] = view
    scores = view.get("scores")
    if isinstance(scores, list) and all(isinstance(s, int | float) for s in scores):
        return [float(s) for s in scores]
    return None


def final_result(state: State, resigned: frozenset[int] = frozenset()) -> JsonDict:
    """Scores, winners and points by source: public once the game is over."""
    if not state.is_terminal():
        raise ValueError("the result of a running game is not public")
    scores, winners, breakdown = state.scores(), state.winners(), state.score_breakdown()
    return without_resigned({"scores": scores, "winners": winners, "score_breakdown": breakdown}, resigned)


def without_resigned(result: JsonDict, resigned: frozenset[int]) -> JsonDict:
    """The result with no resigned seat among its winners: resigning is a loss, whatever the
    stand-in bot scored. When a resigned seat won, the best score among the other seats wins
    (seats level on it share the win). Computed from the stored result and stand-ins on every
    read, so finished games stored before this rule show it too and nothing stored changes."""
    winners = result.get("winners")
    scores = result.get("scores")
    if not resigned or not isinstance(winners, list) or not resigned.intersection(winners):
        return result
    if isinstance(scores, list) and all(isinstance(score, int | float) for score in scores):
        others = [seat for seat in range(len(scores)) if seat not in resigned]
        best = max((scores[seat] for seat in others), default=None)
        winners = [seat for seat in others if scores[seat] == best]
    else:
        winners = [seat for seat in winners if seat not in resigned]
    return {**result, "winners": winners}


def public_record(live: LiveGame) -> JsonDict:
    """The game record (seed included): public once the game is over."""
    if not live.finished:
        raise ValueError("the record of a running game is not public")
    record = dict(live.state.record())
    record["seats"] = seats_public(live.seats)
    record["result"] = final_result(live.state, live.resigned)
    return record


def replay_message(live: LiveGame, step: int, state: State) -> JsonDict:
    """Step `step` of a finished game, as a spectator sees it."""
    if not live.finished:
        raise ValueError("only a finished game can be replayed")
    return {
        "type": "replay",
        "game_id": live.id,
        "game": live.game_name,
        "title": live.game.title,
        "step": step,
        "steps": live.move_number,
        "actions": [action for _seat, action in live.actions],
        "action_seats": [seat for seat, _action in live.actions],
        "seats": seats_public(live.seats, game=live.game_name),
        "view": state.view(None),
        "decision": (
            decision_message(state)
            if state.is_terminal()
            else {"key": "toDecide", "args": {"player": live.seat_label(state.current_player())}}
        ),
        "current_player": state.current_player(),
        "score_history": list(live.history),
        "result": final_result(live.state, live.resigned),
    }


def spectator_view(state: State) -> JsonDict:
    """What a spectator sees of a state: nothing hidden (a finished game's replay)."""
    return state.view(None)


def record_seats(record: JsonDict, state: State) -> list[JsonDict]:
    """The seats of a record opened from a file: the names it carries when they are short texts
    (they are shown, never trusted), otherwise "Player A"...; the automa's seats by their names."""
    given = record.get("seats")
    listed = given if isinstance(given, list) else []
    players = int(record["players"])
    out: list[JsonDict] = []
    for seat in range(players):
        entry = listed[seat] if seat < len(listed) and isinstance(listed[seat], dict) else {}
        name = entry.get("name")
        bot = entry.get("bot")
        is_bot = entry.get("kind") == "bot" and isinstance(bot, str) and len(bot) <= 128
        out.append({
            "seat": seat, "letter": SEAT_LETTERS[seat], "kind": "bot" if is_bot else "person",
            "name": name if isinstance(name, str) and 0 < len(name) <= 40 else f"Player {SEAT_LETTERS[seat]}",
            "bot": bot if is_bot else None, "joined": True, "claimed": False, "open": False,
        })
    for seat, name in enumerate(automa_names(state, players), start=players):
        out.append({"seat": seat, "letter": SEAT_LETTERS[seat], "kind": AUTOMA, "name": name, "bot": None,
                    "joined": True, "claimed": False, "open": False})
    return out


def seats_public(
    seats: list[SeatData], connected: set[int] | None = None, *, game: str | None = None
) -> list[JsonDict]:
    """The seats as every client may see them; with `game`, a bot seat says which of the game's
    levels its spec is (`level`, None for a spec of its own), for pages to name it by its level."""
    out: list[JsonDict] = []
    for info in seats:
        played_here = info.kind in ("bot", AUTOMA)
        entry: JsonDict = {
            "seat": info.seat,
            "letter": SEAT_LETTERS[info.seat],
            "kind": info.kind,
            "name": info.name,
            "bot": info.bot,
            "joined": info.joined or played_here,
            "claimed": info.claim_hash is not None,
            "open": info.open,
        }
        if game is not None:
            entry["level"] = bots.level_of(info.bot, game) if info.kind == "bot" and info.bot else None
        if connected is not None:
            entry["connected"] = played_here or info.seat in connected
        out.append(entry)
    return out


def automa_names(state: State, seats: int) -> list[str]:
    """The seats a game plays itself: a solo game has more players at the table
    (`state.num_players`) than seats were asked for. Each is named as its `player_list` entry of
    the public view names it, if the view has one."""
    extra = range(seats, min(state.num_players, len(SEAT_LETTERS)))
    if not extra:
        return []
    players = state.view(None).get("player_list")
    names = []
    for seat in extra:
        entry = players[seat] if isinstance(players, list) and seat < len(players) else None
        name = entry.get("name") if isinstance(entry, dict) else None
        names.append(str(name)[:40] if isinstance(name, str) and name else f"Automa {SEAT_LETTERS[seat]}")
    return names


def _utc(moment: datetime) -> str:
    """ISO 8601 in UTC (SQLite hands back naive datetimes; they were stored in UTC)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat()


def game_summary(data: GameData, game: Game | None, resigned: frozenset[int] = frozenset()) -> JsonDict:
    """A line of the lobby's list: public facts only (no seed, no tokens, no hidden state);
    `resigned`: the seats whose player resigned (none of them wins)."""
    finished = data.status == "finished"
    summary: dict[str, Any] = {
        "game_id": data.id,
        "game": data.game,
        "title": game.title if game is not None else data.game,
        "status": data.status,
        "players": data.players,
        "move_number": data.move_count,
        "current_player": data.to_move,
        "seats": seats_public(data.seats, game=data.game),
        "created_at": _utc(data.created_at),
        "updated_at": _utc(data.updated_at),
        "result": without_resigned(data.result, resigned) if data.result and finished else None,
        "seed_shown": data.seed_shown,
        "seed": data.seed if data.seed_shown else None,
        "hints_allowed": data.hints_allowed,
        "rated": data.rated,
        "links": {
            "watch": f"/play/{data.id}",
            "replay": f"/replay/{data.id}" if data.status == "finished" else None,
        },
    }
    return summary
