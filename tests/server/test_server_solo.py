"""Solo Barcelona through the server: one person against Gaudí's Assistant.

The game's own bounds decide the seat count (Barcelona: 1 to 4), `difficulty` is taken for a solo
game and refused for more players, the Assistant has a seat of its own (kind "automa") that never
waits for anyone, and a whole game played over REST and WebSocket shows the person exactly
`view(0)` (a spectator `view(None)`): never the order of the solo deck or of the bag.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from eixample.core.messages import english
from eixample.core.protocol import State
from eixample.core.records import replay
from eixample.games import barcelona
from tests.server.harness import ServerProcess, create_game, seat_headers
from tests.server.leakcheck import Traffic, check_traffic, play_and_capture, state_texts

SEED = 424242
ASSISTANT = "Gaudí's Assistant"


def solo_secrets(state: State, _seat: int | None) -> set[str]:
    """What no client may see of a solo game: the order of the solo deck (as card indices or card
    numbers) and the generator that decides every draw from the bag."""
    data = state.to_json()["state"]
    secrets = {'"rng"', '"solo_deck"', str(data["rng"])}
    deck = list(data["solo_deck"])
    if len(deck) >= 4:  # shorter lists could match an unrelated list of the view
        for order in (deck, [card + 1 for card in deck]):
            secrets.add(json.dumps(order))
            secrets.add(json.dumps(order, separators=(",", ":")))
    return secrets


# -- creating a solo game ---------------------------------------------------------------------------


def test_barcelona_is_listed_for_one_to_four_players(api: httpx.Client) -> None:
    assert barcelona.GAME.min_players == 1
    assert barcelona.new_game(1, 0).num_players == 2  # the player and the Assistant
    games = {game["name"]: game for game in api.get("/api/catalog").json()["games"]}
    assert (games["barcelona"]["min_players"], games["barcelona"]["max_players"]) == (1, 4)
    assert games["barcelona"]["automa"] == [ASSISTANT]
    assert "difficulty" in games["barcelona"]["options"]
    assert games["tictactoe"]["automa"] == []


@pytest.mark.parametrize(
    ("game", "count", "message"),
    [
        ("barcelona", 5, "Barcelona is for 1 to 4 players, not 5"),
        ("tictactoe", 1, "Tic-tac-toe is for 2 players, not 1"),
        ("hiddencards", 1, "is for 2 to 4 players, not 1"),
        ("barcelona", 0, "seats: List should have at least 1 item"),
        ("barcelona", 9, "seats: List should have at most 8 items"),
    ],
)
def test_seat_counts_come_from_the_game(api: httpx.Client, game: str, count: int, message: str) -> None:
    response = api.post("/api/games", json={"game": game, "seats": [{"kind": "person"}] * count})
    assert response.status_code == 422
    assert message in response.json()["error"]


def test_difficulty_only_for_a_solo_game(api: httpx.Client) -> None:
    two = [{"kind": "person"}, {"kind": "bot", "bot": "random"}]
    body = {"game": "barcelona", "seats": two, "options": {"difficulty": "hard"}}
    response = api.post("/api/games", json=body)
    assert response.status_code == 422
    assert response.json()["error"] == (
        "cannot set up Barcelona with these options: difficulty is only for a solo game (players=1)"
    )
    response = api.post(
        "/api/games", json={"game": "barcelona", "seats": [{}], "options": {"difficulty": "extreme"}}
    )
    assert response.status_code == 422
    assert "difficulty must be one of easy, normal, hard" in response.json()["error"]


def test_create_a_solo_game(api: httpx.Client) -> None:
    created = create_game(api, "barcelona", [{"name": "Ana"}], options={"difficulty": "easy"}, seed=5)
    person, automa = created["seats"]
    assert (person["kind"], person["name"], person["joined"]) == ("person", "Ana", False)
    assert person["token"] and person["link"].endswith(f"#seat=0&token={person['token']}")
    assert automa == {
        "seat": 1, "letter": "B", "kind": "automa", "name": ASSISTANT, "bot": None, "joined": True,
        "connected": None, "claimed": False, "token": None, "link": None, "level": None, "open": False,
    }
    spectator = created["state"]
    assert spectator["view"] == json.loads(json.dumps(barcelona.new_game(1, 5, difficulty="easy").view(None)))
    assert spectator["decision"] == {"key": "waiting", "args": {"player": "Ana (A)"}}
    assert spectator["view"]["solo"]["difficulty"] == "easy"

    summary = api.get(f"/api/games/{created['game_id']}").json()
    assert (summary["players"], summary["status"]) == (1, "open")
    assert [seat["kind"] for seat in summary["seats"]] == ["person", "automa"]

    mine = api.get(f"/api/games/{created['game_id']}/state", headers=seat_headers(person["token"])).json()
    assert mine["your_turn"] and mine["legal_actions"] and mine["status"] == "running"
    assert mine["view"] == json.loads(json.dumps(barcelona.new_game(1, 5, difficulty="easy").view(0)))
    assert [seat["connected"] for seat in mine["seats"]][1] is True  # the automa is always there


# -- a whole game over REST and WebSocket ---------------------------------------------------------


@pytest.fixture(scope="module")
def solo_traffic(server: ServerProcess) -> Traffic:
    return play_and_capture(
        server, "barcelona", [{"kind": "person", "name": "Ana"}], seed=SEED, options={"difficulty": "hard"},
        policy_seed=3,
    )


def test_solo_game_shows_no_deck_or_bag_order(solo_traffic: Traffic) -> None:
    # every state message on the game's line is exactly view(0) (view(None) for the spectator)
    checked = check_traffic(solo_traffic, "barcelona", solo_secrets)
    assert checked > 50
    record = solo_traffic.record
    states = [replay(barcelona.GAME, record, upto=n) for n in range(len(record["actions"]) + 1)]
    # and view(0) says nothing about the hidden order: drawing it afresh changes nothing
    for state in states[:: max(1, len(states) // 12)]:
        for seed in (1, 2):
            assert state.resample(0, seed).view(0) == state.view(0)


def test_the_assistant_never_keeps_the_person_waiting(solo_traffic: Traffic) -> None:
    mine = [json.loads(text) for text in state_texts(solo_traffic, 0)]
    watched = [json.loads(text) for text in state_texts(solo_traffic, None)]
    assert mine and watched
    for message in mine:
        assert message["current_player"] in (0, -1)
        assert message["your_turn"] == (message["status"] != "finished")
        assert [seat["kind"] for seat in message["seats"]] == ["person", "automa"]
    for message in watched:
        if message["status"] != "finished":
            assert message["decision"] == {"key": "waiting", "args": {"player": "Ana (A)"}}
    # the Assistant's turns are in the log, one step a line, from the same move that ended mine
    final = mine[-1]
    log = [english(entry) for entry in final["view"]["log"]]
    assert sum(line.startswith(f"{ASSISTANT} draws card") for line in log) >= 5
    assert sum(line.startswith(f"{ASSISTANT} moves the meeple") for line in log) >= 5
    assert log[-1].startswith("Final scores: you ")


def test_solo_result_and_record_match_the_engine(solo_traffic: Traffic, api: httpx.Client) -> None:
    record = solo_traffic.record
    assert record["players"] == 1 and record["options"]["difficulty"] == "hard"
    assert [seat["kind"] for seat in record["seats"]] == ["person", "automa"]
    engine = barcelona.replay(record)
    assert engine.is_terminal()
    assert record["result"]["scores"] == engine.scores()
    assert record["result"]["winners"] == engine.winners()
    final = json.loads(state_texts(solo_traffic, 0)[-1])
    solo = final["view"]["solo"]
    assert solo["margin"] == engine.scores()[0] - engine.scores()[1]
    assert solo["result"] == {(0,): "won", (1,): "lost", (0, 1): "tied"}[tuple(engine.winners())]
    assert final["result"]["score_breakdown"][1]["difficulty"] == engine.scores()[1] - engine.vp[1]
    summary = api.get(f"/api/games/{solo_traffic.game_id}").json()
    assert summary["status"] == "finished" and summary["result"]["scores"] == engine.scores()
    replay = api.get(f"/api/games/{solo_traffic.game_id}/replay", params={"step": 3}).json()
    assert [seat["name"] for seat in replay["seats"]] == ["Ana", ASSISTANT]


def test_scripted_client_plays_a_solo_game_over_websocket(server: ServerProcess, api: httpx.Client) -> None:
    """Only the WebSocket: each of my moves comes back as one state message in which the
    Assistant has already played, and then an ack."""
    created = create_game(api, "barcelona", [{"name": "Biel"}], options={"difficulty": "normal"}, seed=77)
    token = created["seats"][0]["token"]
    rng = random.Random(9)
    with server.ws(created["game_id"], token) as client:
        state = client.state()
        draws = 0
        for request in range(1, 2000):
            if state["status"] == "finished":
                break
            assert state["your_turn"], state["decision"]
            action = rng.choice(state["legal_actions"])
            client.send({"type": "move", "action": action, "expected_move": state["move_number"],
                         "request_id": f"m{request}"})
            before = len(state["view"]["log"])
            state = client.state()
            ack = client.recv_until(lambda m: m["type"] in ("ack", "error"))
            assert ack == {"type": "ack", "request_id": f"m{request}", "move_number": state["move_number"]}
            new_lines = [english(entry) for entry in state["view"]["log"][before:]]
            draws += sum(line.startswith(f"{ASSISTANT} draws card") for line in new_lines)
        else:
            raise AssertionError("the solo game did not end")
    assert draws >= 5
    record = api.get(f"/api/games/{created['game_id']}/record").json()
    assert barcelona.replay(record).scores() == state["result"]["scores"]


def test_solo_game_survives_a_crash(new_server: Callable[..., ServerProcess]) -> None:
    server = new_server().start()
    with server.client() as api:
        created = create_game(api, "barcelona", [{"name": "Ana"}], options={"difficulty": "hard"}, seed=31)
        gid, token = created["game_id"], created["seats"][0]["token"]
        headers = seat_headers(token)
        state: dict[str, Any] = api.get(f"/api/games/{gid}/state", headers=headers).json()
        rng = random.Random(4)
        while state["view"]["turns"] < 6:
            body = {"action": rng.choice(state["legal_actions"]), "expected_move": state["move_number"]}
            state = api.post(f"/api/games/{gid}/moves", json=body, headers=headers).json()
    server.kill9()
    server.start()
    with server.client() as api:
        again = api.get(f"/api/games/{gid}/state", headers=headers).json()
    assert again["view"] == state["view"] and again["legal_actions"] == state["legal_actions"]
    assert [seat["kind"] for seat in again["seats"]] == ["person", "automa"]


def test_a_bot_can_take_the_solo_seat(api: httpx.Client) -> None:
    created = create_game(api, "barcelona", [{"kind": "bot", "bot": "random"}], seed=12)
    assert [seat["kind"] for seat in created["seats"]] == ["bot", "automa"]
    gid = created["game_id"]
    deadline = time.monotonic() + 30
    while (summary := api.get(f"/api/games/{gid}").json())["status"] != "finished":
        assert time.monotonic() < deadline, "the bot did not finish its solo game"
        time.sleep(0.1)
    record = api.get(f"/api/games/{gid}/record").json()
    assert summary["result"]["scores"] == barcelona.replay(record).scores()
