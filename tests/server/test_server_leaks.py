"""No response or message, to anyone, ever holds another seat's hidden information.

Three checks:
- black box: whole games through a real server; every text each client received is searched
  for what that client may not know at that moment (other hands, the bag, the seed, to_json);
- the single path: in-process, every game message pushed to a seat or answered over REST is an
  output of `views.seat_message` for that very seat, and states are only read there;
- the source: only `views.py` reads a state for output.
"""

from __future__ import annotations

import ast
import json
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import jsonpatch
import pytest

import eixample.server
from eixample.core.protocol import State
from eixample.server import views
from eixample.server.app import create_app
from eixample.server.live import Connection
from tests.server import hiddencards
from tests.server.harness import InProcessServer, ServerProcess, create_game
from tests.server.leakcheck import Capture, Traffic, check_traffic, play_and_capture, state_texts

SEED = 8675309123456789


def hidden_cards(state: State, seat: int | None) -> set[str]:
    assert isinstance(state, hiddencards.HiddenCardsState)
    return hiddencards.hidden_from(state, seat)


def test_no_client_ever_sees_hidden_cards(server: ServerProcess) -> None:
    seats: list[dict[str, Any]] = [{"kind": "person"}, {"kind": "person"}, {"kind": "person"}]
    seats.append({"kind": "bot", "bot": "random"})
    traffic = play_and_capture(
        server, "hiddencards", seats, seed=SEED, seed_shown=True, options={"turns_each": 3}, policy_seed=3
    )
    # the seed is shown to everyone in this game (people chose it); the cards must stay hidden
    assert check_traffic(traffic, "hiddencards", hidden_cards, check_seed=False) > 100
    assert traffic.record["seed"] == SEED  # public once the game is over
    # the check has teeth: each seat did see its own hand, and a planted card is caught
    first_hand = hiddencards.GAME.new_game(4, SEED, turns_each=3).hands[1]
    assert any(first_hand[0] in text for text in state_texts(traffic, 1))
    planted = Capture(0)
    planted.add(json.dumps({"type": "state", "move_number": 0, "view": {"hand": first_hand}}))
    with pytest.raises(AssertionError, match="were sent to seat 0"):
        check_traffic(Traffic(traffic.game_id, traffic.record, SEED, [planted]), "hiddencards", hidden_cards)


def test_a_tictactoe_game_sends_no_seed(server: ServerProcess) -> None:
    # two people: the server draws the seed, and nobody sees it before the end
    traffic = play_and_capture(server, "tictactoe", [{"kind": "person"}, {"kind": "person"}], seed=None)
    assert check_traffic(traffic, "tictactoe", lambda _state, _seat: set()) > 10


def test_every_game_message_comes_from_seat_message(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    produced: list[tuple[int | None, dict[str, Any]]] = []
    sent: list[tuple[int | None, dict[str, Any]]] = []
    sent_to: list[Connection] = []
    view_calls: list[tuple[str, int | None]] = []
    original_message = views.seat_message
    original_send = Connection.send_text
    original_view = hiddencards.HiddenCardsState.view
    original_record = hiddencards.HiddenCardsState.record

    def seat_message(live: Any, seat: int | None) -> dict[str, Any]:
        message = original_message(live, seat)
        produced.append((seat, message))
        return message

    def send_text(self: Connection, text: str) -> None:
        sent.append((self.seat, json.loads(text)))
        sent_to.append(self)
        original_send(self, text)

    def view(self: hiddencards.HiddenCardsState, player: int | None) -> dict[str, Any]:
        view_calls.append((sys._getframe(1).f_code.co_name, player))
        return original_view(self, player)

    def to_json(self: hiddencards.HiddenCardsState) -> dict[str, Any]:
        raise AssertionError("the server must never read to_json()")

    def record(self: hiddencards.HiddenCardsState) -> dict[str, Any]:
        caller = sys._getframe(1).f_code.co_name
        assert self.is_terminal() or caller in ("can_undo", "undo"), f"record() read by {caller} mid-game"
        return original_record(self)

    monkeypatch.setattr(views, "seat_message", seat_message)
    monkeypatch.setattr(Connection, "send_text", send_text)
    monkeypatch.setattr(hiddencards.HiddenCardsState, "view", view)
    monkeypatch.setattr(hiddencards.HiddenCardsState, "to_json", to_json)
    monkeypatch.setattr(hiddencards.HiddenCardsState, "record", record)

    rest_answers: list[tuple[int, dict[str, Any]]] = []
    app = create_app(database_url=f"sqlite:///{tmp_path / 'db.sqlite3'}", bot_delay=0)
    with InProcessServer(app) as server, httpx.Client(base_url=server.url, timeout=10) as client:
        seats: list[dict[str, Any]] = [{}, {}, {"kind": "bot", "bot": "random"}]
        created = create_game(client, "hiddencards", seats)
        gid = created["game_id"]
        tokens = [seat["token"] for seat in created["seats"][:2]]
        sockets = [server.ws(gid, tokens[0]), server.ws(gid, tokens[1]), server.ws(gid)]
        sockets += [server.ws(gid, tokens[1], patches=True), server.ws(gid, patches=True)]
        try:
            for _ in range(200):
                answers = [
                    client.get(f"/api/games/{gid}/state", headers={"X-Seat-Token": token}).json()
                    for token in tokens
                ]
                rest_answers.extend((seat, answer) for seat, answer in enumerate(answers))
                if answers[0]["status"] == "finished":
                    break
                deciding = [seat for seat, answer in enumerate(answers) if answer["your_turn"]]
                if not deciding:
                    time.sleep(0.01)
                    continue
                seat = deciding[0]
                answer = answers[seat]
                if answer["can_undo"] and answer["move_number"] % 3 == 0:
                    path, request = "undo", {"expected_move": answer["move_number"]}
                else:
                    path = "moves"
                    request = {"action": answer["legal_actions"][-1], "expected_move": answer["move_number"]}
                headers = {"X-Seat-Token": tokens[seat]}
                response = client.post(f"/api/games/{gid}/{path}", json=request, headers=headers)
                assert response.status_code == 200, response.text
                rest_answers.append((seat, response.json()))
            else:
                raise AssertionError("the game did not end")
            sockets[2].recv_until(lambda m: m["type"] == "state" and m["status"] == "finished")
            sockets[0].send({"type": "ping"})
            sockets[0].recv_until(lambda m: m["type"] == "pong")
        finally:
            for socket in sockets:
                socket.close()

    assert sent and produced
    held: dict[int, dict[str, Any]] = {}  # what each connection asking for patches holds
    for (seat, message), conn in zip(sent, sent_to, strict=True):
        if conn.patches and message["type"] == "presence" and id(conn) in held:
            held[id(conn)].update(seats=message["seats"], status=message["status"])
        if message["type"] == "state":
            assert any(s == seat and m == message for s, m in produced), (
                "a state was pushed without seat_message"
            )
            if conn.patches:
                held[id(conn)] = message
        elif message["type"] == "patch":  # what changed between two of the seat's messages
            assert conn.patches and message["base"] == held[id(conn)]["version"]
            held[id(conn)] = jsonpatch.apply_patch(held[id(conn)], message["ops"])
            assert any(s == seat and m == held[id(conn)] for s, m in produced), (
                "a patch gave what seat_message did not make"
            )
        elif message["type"] == "presence":  # who is at the table, nothing of the game
            assert set(message) == {"type", "game_id", "status", "seats"}
        else:
            assert message["type"] in ("ack", "error", "pong")
            assert set(message) <= {"type", "request_id", "move_number", "status", "error"}
    seats_pushed = {seat for seat, message in sent if message["type"] == "state"}
    assert seats_pushed == {0, 1, None}
    patched = {seat for seat, message in sent if message["type"] == "patch"}
    assert patched == {1, None}
    for seat, answer in rest_answers:
        assert any(s == seat and m == answer for s, m in produced), (
            "a REST answer did not come from seat_message"
        )
    allowed = {"_cached_view", "public_scores", "replay_message"}  # _cached_view: for seat_message
    assert {caller for caller, _player in view_calls} <= allowed
    assert all(player is None for caller, player in view_calls if caller != "_cached_view")


READERS = {
    "view",
    "to_json",
    "record",
    "legal_actions",
    "describe_decision",
    "scores",
    "winners",
    "score_breakdown",
    "resample",
    "evaluation",
}
# (file, method, function): reads outside views.py that never reach a client.
ALLOWED_ELSEWHERE = {
    ("bots.py", "legal_actions", "choose_safely"),  # the bot's fallback choice, applied, never sent
    ("bots.py", "legal_actions", "think"),  # the same, when a bot cannot be built
    ("bots.py", "legal_actions", "choose"),  # the seeded random stand-in bot
    ("manager.py", "record", "_state_at"),  # replays of finished games only
    ("manager.py", "scores", "result_of"),  # the result stored once the game is over
    ("manager.py", "winners", "result_of"),
    ("app.py", "record", "game_record"),  # GameManager.record: refuses while the game runs
}


class _Reads(ast.NodeVisitor):
    """Calls of state-reading methods, with the innermost function they are made in."""

    def __init__(self, filename: str) -> None:
        self.filename = filename
        self.stack: list[str] = ["<module>"]
        self.found: set[tuple[str, str, str]] = set()

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self.stack.append(node.name)
        self.generic_visit(node)
        self.stack.pop()

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self.stack.append(node.name)
        self.generic_visit(node)
        self.stack.pop()

    def visit_Call(self, node: ast.Call) -> None:
        if isinstance(node.func, ast.Attribute) and node.func.attr in READERS:
            self.found.add((self.filename, node.func.attr, self.stack[-1]))
        self.generic_visit(node)


def test_only_views_reads_states_for_output() -> None:
    package = Path(eixample.server.__file__).parent
    found: set[tuple[str, str, str]] = set()
    for path in sorted(package.glob("*.py")):
        source = path.read_text()
        assert ".to_json(" not in source, f"{path.name} calls to_json()"
        if path.name != "views.py":
            reads = _Reads(path.name)
            reads.visit(ast.parse(source))
            found |= reads.found
    assert found <= ALLOWED_ELSEWHERE, sorted(found - ALLOWED_ELSEWHERE)
