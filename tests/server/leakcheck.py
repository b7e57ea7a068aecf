"""Play a whole game through a real server while recording every byte each client receives, then
check each message against the game's hidden information at the moment it was sent.

Game-agnostic: `play_and_capture` works for any registered game; the caller supplies
`hidden(state, seat)`, the strings `seat` must not see in `state` (None: a spectator).
"""

from __future__ import annotations

import bisect
import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from eixample.core.protocol import State
from eixample.core.records import replay
from eixample.core.registry import get_game
from eixample.server.views import decision_message
from tests.server.harness import ServerProcess, WsClient, create_game, seat_headers

Hidden = Callable[[State, int | None], set[str]]


@dataclass
class Text:
    at: float
    move_number: int | None
    is_state: bool
    text: str


@dataclass
class Capture:
    """Every text one client (a seat, or None for a spectator) received, with the time it arrived
    and the move number of the state it was about (None when it names none)."""

    seat: int | None
    texts: list[Text] = field(default_factory=list)

    def add(self, text: str, at: float | None = None) -> None:
        try:
            message = json.loads(text)
        except json.JSONDecodeError:
            message = None
        is_state = isinstance(message, dict) and message.get("type") == "state"
        number = message.get("move_number") if is_state and isinstance(message, dict) else None
        self.texts.append(Text(time.monotonic() if at is None else at, number, is_state, text))


@dataclass
class Traffic:
    game_id: str
    record: dict[str, Any]
    seed: int
    captures: list[Capture]


def play_and_capture(
    server: ServerProcess,
    game_name: str,
    seats: list[dict[str, Any]],
    *,
    seed: int | None,
    seed_shown: bool = False,
    options: dict[str, Any] | None = None,
    policy_seed: int = 0,
    max_steps: int = 3000,
) -> Traffic:
    """Play to the end: each person picks a random legal action over WebSocket, sometimes through
    REST instead, sometimes undoes, sometimes sends a stale or illegal request; everything every
    client receives (REST answers included) is captured."""
    rng = random.Random(policy_seed)
    with server.client() as api:
        chosen: dict[str, Any] = {} if seed is None else {"seed": seed, "seed_shown": seed_shown}
        created = create_game(api, game_name, seats, options=options or {}, **chosen)
        gid = created["game_id"]
        tokens: dict[int, str] = {s["seat"]: s["token"] for s in created["seats"] if s["token"]}
        captures = {seat: Capture(seat) for seat in tokens}
        watcher = Capture(None)
        watcher.add(json.dumps(created["state"]))
        clients = {seat: server.ws(gid, token) for seat, token in tokens.items()}
        spectator = server.ws(gid)

        def get(capture: Capture, path: str, token: str | None = None) -> None:
            capture.add(api.get(path, headers=seat_headers(token) if token else {}).text)

        latest = {seat: _latest_state(client, None, 0.05) for seat, client in clients.items()}
        try:
            for _ in range(max_steps):
                latest = {seat: _latest_state(client, latest[seat], 0.01) for seat, client in clients.items()}
                if any(state["status"] == "finished" for state in latest.values()):
                    break
                deciding = [seat for seat, state in latest.items() if state["your_turn"]]
                if not deciding:
                    continue
                if rng.random() < 0.2:  # while the game runs (afterwards the record is public)
                    other = rng.choice(list(tokens))
                    get(captures[other], f"/api/games/{gid}/state", tokens[other])
                    get(captures[other], f"/api/games/{gid}/record")
                    get(captures[other], f"/api/games/{gid}/replay")
                    get(watcher, f"/api/games/{gid}/state")
                    get(watcher, "/api/games")
                    get(watcher, f"/api/games/{gid}")
                seat = deciding[0]
                state, client, number = latest[seat], clients[seat], latest[seat]["move_number"]
                roll = rng.random()
                request: dict[str, Any] = {"type": "move", "expected_move": number}
                if roll < 0.1 and state["can_undo"]:
                    request = {"type": "undo", "expected_move": number}
                elif roll < 0.15:
                    request["action"] = "no such action"
                elif roll < 0.2:
                    request = {**request, "action": state["legal_actions"][0], "expected_move": number + 1}
                else:
                    request["action"] = rng.choice(state["legal_actions"])
                if roll >= 0.2 and roll < 0.35:
                    body = {"action": request["action"], "expected_move": number}
                    headers = seat_headers(tokens[seat])
                    captures[seat].add(api.post(f"/api/games/{gid}/moves", json=body, headers=headers).text)
                else:
                    client.send(request)
                    client.recv_until(lambda m: m["type"] in ("ack", "error"))
            else:
                raise AssertionError(f"{game_name} did not end within {max_steps} steps")
            _latest_state(spectator, None, 0.05)
        finally:
            for client in [*clients.values(), spectator]:
                client.close()
        for seat, client in clients.items():
            for text, at in zip(client.received, client.received_at, strict=True):
                captures[seat].add(text, at)
        for text, at in zip(spectator.received, spectator.received_at, strict=True):
            watcher.add(text, at)
        record = api.get(f"/api/games/{gid}/record")
        assert record.status_code == 200, record.text
    return Traffic(gid, record.json(), record.json()["seed"], [*captures.values(), watcher])


def _latest_state(client: WsClient, newest: dict[str, Any] | None, wait: float) -> dict[str, Any]:
    """Drain what has arrived and return the newest state message (`newest` if none came)."""
    for message in client.pending:
        if message["type"] == "state":
            newest = message
    client.pending.clear()
    while True:
        try:
            message = client.recv(timeout=wait if newest is not None else 10)
        except TimeoutError:
            assert newest is not None, "no state message from the server"
            return newest
        if message["type"] == "state":
            newest = message


def check_traffic(traffic: Traffic, game_name: str, hidden: Hidden, *, check_seed: bool = True) -> int:
    """Assert that no captured text holds anything its receiver may not know; return how many
    texts were checked.

    A state message about move n is checked against the state after the first n actions of the
    final record, unless an undo later took the game back below n (then its branch is not in the
    record). Those, and texts naming no move, are checked against what stayed hidden from that
    receiver all game long. A state message on the record's line must show exactly
    `view(seat)`, with legal actions and the decision only for the seat that decides. No text
    may hold the seed (unless `check_seed` is off) or a piece of `to_json()`."""
    game = get_game(game_name)
    record = traffic.record
    total = len(record["actions"])
    states = [replay(game, record, upto=n) for n in range(total + 1)]
    timeline = sorted(
        (text.at, text.move_number)
        for capture in traffic.captures
        for text in capture.texts
        if text.is_state and text.move_number is not None
    )

    times = [at for at, _number in timeline]
    lowest_after = [0] * (len(timeline) + 1)  # lowest move number seen from index i on
    lowest_after[-1] = 1 << 60
    for index in range(len(timeline) - 1, -1, -1):
        lowest_after[index] = min(lowest_after[index + 1], timeline[index][1])

    def superseded(at: float, number: int) -> bool:
        return lowest_after[bisect.bisect_right(times, at)] < number

    checked = 0
    for capture in traffic.captures:
        always_hidden = set.intersection(*(hidden(state, capture.seat) for state in states))
        for text in capture.texts:
            where = f"seat {capture.seat}, move {text.move_number}: {text.text[:300]}"
            if check_seed:
                assert str(traffic.seed) not in text.text, f"the seed was sent to {where}"
            for marker in ('"bag_order"', '"all_hands"'):
                assert marker not in text.text, f"to_json() was sent to {where}"
            number = text.move_number
            if number is None or number > total or superseded(text.at, number):
                secret = always_hidden
            else:
                secret = hidden(states[number], capture.seat)
            leaked = sorted(item for item in secret if item in text.text)
            assert not leaked, f"{leaked} were sent to {where}"
            if text.is_state and secret is not always_hidden:
                _check_exact(json.loads(text.text), states[number], capture.seat, where)
            checked += 1
    return checked


def state_texts(traffic: Traffic, seat: int | None) -> list[str]:
    capture = next(c for c in traffic.captures if c.seat == seat)
    return [text.text for text in capture.texts if text.is_state]


def _check_exact(message: dict[str, Any], state: State, seat: int | None, where: str) -> None:
    """A state message shows exactly `state.view(seat)`, and the legal actions and the decision in
    words only to the seat that decides."""
    assert message["seat"] == seat, where
    assert message["view"] == json.loads(json.dumps(state.view(seat))), f"not view({seat}): {where}"
    deciding = seat is not None and not state.is_terminal() and state.current_player() == seat
    assert message["your_turn"] == deciding, where
    if deciding:
        assert message["legal_actions"] == state.legal_actions(), where
        assert message["decision"] == decision_message(state), where
    else:
        assert message["legal_actions"] == [], where
        assert message["can_undo"] is False, where
        if not state.is_terminal():
            assert message["decision"]["key"] == "waiting", where
