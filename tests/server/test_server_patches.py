"""WebSocket clients that ask for patches ({"type": "hello", ..., "patches": true}) get the whole
state once, then each change as JSON Patch operations on it with consecutive versions; the patched
copy is the state the server shows. A resync gives the whole state again; clients that do not ask
keep getting whole state messages."""

from __future__ import annotations

import json
import random
from typing import Any

import httpx
import jsonpatch

from tests.server.harness import ServerProcess, WsClient, create_game, seat_headers


def _two_people(api: httpx.Client, game: str = "barcelona") -> tuple[str, list[str]]:
    created = create_game(api, game, [{"kind": "person"}, {"kind": "person"}])
    return created["game_id"], [seat["token"] for seat in created["seats"]]


def _play(api: httpx.Client, gid: str, tokens: list[str], moves: int, rng: random.Random) -> None:
    """`moves` random legal moves, each by the seat whose turn it is."""
    for _ in range(moves):
        spectator = api.get(f"/api/games/{gid}/state").json()
        if spectator["status"] == "finished":
            return
        token = tokens[spectator["current_player"]]
        state = api.get(f"/api/games/{gid}/state", headers=seat_headers(token)).json()
        move = {"action": rng.choice(state["legal_actions"]), "expected_move": state["move_number"]}
        answer = api.post(f"/api/games/{gid}/moves", json=move, headers=seat_headers(token))
        assert answer.status_code == 200, answer.text


def _follow(ws: WsClient, held: dict[str, Any], until_version: int) -> int:
    """Apply the messages that come, in order, as the game page does (presence: the seats;
    patches: their operations), until `until_version`; the number of patches."""
    patches = 0
    while held["version"] < until_version:
        message = ws.recv_until(lambda m: m["type"] in ("patch", "state", "presence"))
        if message["type"] == "presence":
            held.update(seats=message["seats"], status=message["status"])
            continue
        assert message["type"] == "patch", "a whole state message instead of a patch"
        assert message["base"] == held["version"], "a patch that does not follow the last one"
        held.update(jsonpatch.apply_patch(held, message["ops"]))
        assert held["version"] == message["version"]
        patches += 1
    return patches


def _same(one: dict[str, Any], other: dict[str, Any]) -> None:
    assert json.dumps(one, sort_keys=True) == json.dumps(other, sort_keys=True)


def test_a_spectator_follows_a_game_through_patches(server: ServerProcess, api: httpx.Client) -> None:
    gid, tokens = _two_people(api)
    with server.ws(gid, patches=True) as ws:
        held = ws.state()
        start = held["version"]
        _play(api, gid, tokens, 30, random.Random(1))
        now = api.get(f"/api/games/{gid}/state").json()
        assert now["version"] == start + now["move_number"]
        assert _follow(ws, held, now["version"]) == now["move_number"]
        _same(held, now)
        sizes = [len(text) for text in ws.received[1:]]
        assert max(sizes) < len(ws.received[0]) / 4, "patches as large as the whole state"


def test_a_seat_follows_its_own_view_through_patches(server: ServerProcess, api: httpx.Client) -> None:
    gid, tokens = _two_people(api, "rose-of-fire")
    with server.ws(gid, tokens[1], patches=True) as ws:
        held = ws.state()
        assert held["seat"] == 1
        _play(api, gid, tokens, 25, random.Random(2))
        now = api.get(f"/api/games/{gid}/state", headers=seat_headers(tokens[1])).json()
        _follow(ws, held, now["version"])
        _same(held, now)


def test_presence_between_patches_keeps_the_copy_right(server: ServerProcess, api: httpx.Client) -> None:
    gid, tokens = _two_people(api)
    with server.ws(gid, patches=True) as watcher:
        held = watcher.state()
        with server.ws(gid, tokens[0]) as seat:
            seat.state()
            _play(api, gid, tokens, 3, random.Random(3))
            now = api.get(f"/api/games/{gid}/state").json()
            _follow(watcher, held, now["version"])
            _same(held, now)
            assert held["seats"][0]["connected"] is True
        left = watcher.recv_until(lambda m: m["type"] == "presence" and not m["seats"][0]["connected"])
        held.update(seats=left["seats"], status=left["status"])
        _play(api, gid, tokens, 2, random.Random(4))
        now = api.get(f"/api/games/{gid}/state").json()
        _follow(watcher, held, now["version"])
        _same(held, now)
        assert held["seats"][0]["connected"] is False


def test_a_resync_sends_the_whole_state_in_order(server: ServerProcess, api: httpx.Client) -> None:
    gid, tokens = _two_people(api)
    with server.ws(gid, patches=True) as ws:
        ws.state()
        _play(api, gid, tokens, 4, random.Random(5))
        ws.send({"type": "resync", "request_id": "r1"})
        whole = ws.recv_until(lambda m: m["type"] == "state")
        now = api.get(f"/api/games/{gid}/state").json()
        _same(whole, now)
        # the four patches came before it, in order
        patches = [json.loads(text) for text in ws.received if json.loads(text)["type"] == "patch"]
        assert [p["version"] for p in patches] == [p["base"] + 1 for p in patches]
        assert patches[-1]["version"] == whole["version"]


def test_clients_that_do_not_ask_get_whole_states(server: ServerProcess, api: httpx.Client) -> None:
    gid, tokens = _two_people(api)
    with server.ws(gid) as ws:
        first = ws.state()
        _play(api, gid, tokens, 2, random.Random(6))
        second = ws.state()
        third = ws.state()
        assert [first["version"] + 1, first["version"] + 2] == [second["version"], third["version"]]
        assert third["move_number"] == 2
        assert not any(json.loads(text)["type"] == "patch" for text in ws.received)
