"""Killing the server (SIGKILL) in the middle of games and starting it again loses nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx

from eixample.core.records import replay
from eixample.core.registry import get_game
from tests.server import hiddencards  # noqa: F401  (registers the test game here too)
from tests.server.harness import ServerProcess, create_game, seat_headers, wait_for

PEOPLE = [{"kind": "person", "name": "Ana"}, {"kind": "person", "name": "Biel"}]


def state(api: httpx.Client, gid: str, token: str | None = None) -> dict[str, Any]:
    response = api.get(f"/api/games/{gid}/state", headers=seat_headers(token) if token else {})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def move(api: httpx.Client, gid: str, token: str, action: str, expected: int) -> dict[str, Any]:
    body = {"action": action, "expected_move": expected}
    response = api.post(f"/api/games/{gid}/moves", json=body, headers=seat_headers(token))
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def without_presence(message: dict[str, Any]) -> dict[str, Any]:
    """The message less who is connected and its version (the count of one process's pushes)."""
    seats = [{k: v for k, v in seat.items() if k != "connected"} for seat in message["seats"]]
    return {**{k: v for k, v in message.items() if k != "version"}, "seats": seats}


def test_kill_9_and_restart_loses_nothing(new_server: Callable[..., ServerProcess]) -> None:
    server = new_server(bot_delay=0.1).start()
    with server.client() as api:
        # people only: three acknowledged moves
        people = create_game(api, "tictactoe", PEOPLE, seed=11, seed_shown=True)
        gid = people["game_id"]
        tokens = [seat["token"] for seat in people["seats"]]
        for number, action in enumerate(["mark 0", "mark 4", "mark 8"]):
            move(api, gid, tokens[number % 2], action, number)
        people_before = [state(api, gid, token) for token in [*tokens, None]]

        # hidden cards: a decision that can still be undone
        cards = create_game(api, "hiddencards", PEOPLE, seed=12, seed_shown=True)
        cards_gid, cards_tokens = cards["game_id"], [seat["token"] for seat in cards["seats"]]
        joined = [state(api, cards_gid, token) for token in cards_tokens]  # both seats taken
        hand = joined[0]["view"]["hand"]
        move(api, cards_gid, cards_tokens[0], f"play {hand[0]}", 0)
        cards_before = [state(api, cards_gid, token) for token in cards_tokens]
        assert cards_before[0]["can_undo"]

        # bots only, killed mid-game
        bots = create_game(
            api, "hiddencards", [{"kind": "bot", "bot": "random"}] * 3, seed=13, options={"turns_each": 2}
        )
        bots_gid = bots["game_id"]
        wait_for(lambda: state(api, bots_gid)["move_number"] >= 3, what="some bot moves")

        # a person against a bot, killed while the bot is to move
        versus = create_game(api, "tictactoe", [PEOPLE[0], {"kind": "bot", "bot": "random"}], seed=14)
        versus_gid, versus_token = versus["game_id"], versus["seats"][0]["token"]
        move(api, versus_gid, versus_token, "mark 4", 0)

        bots_before = state(api, bots_gid)
        assert bots_before["status"] == "running"
    server.kill9()

    server.start()
    with server.client() as api:
        after = [state(api, gid, token) for token in [*tokens, None]]
        assert [without_presence(m) for m in after] == [without_presence(m) for m in people_before]
        assert after[1]["your_turn"] and after[1]["move_number"] == 3
        move(api, gid, tokens[1], "mark 2", 3)
        assert state(api, gid)["view"]["board"] == ["X", ".", "O", ".", "O", ".", ".", ".", "X"]

        cards_after = [state(api, cards_gid, token) for token in cards_tokens]
        assert [without_presence(m) for m in cards_after] == [without_presence(m) for m in cards_before]
        undone = api.post(
            f"/api/games/{cards_gid}/undo", json={"expected_move": 1}, headers=seat_headers(cards_tokens[0])
        )
        assert undone.status_code == 200 and undone.json()["view"]["hand"] == hand

        wait_for(lambda: state(api, versus_gid, versus_token)["your_turn"], what="the bot to resume")
        assert state(api, versus_gid)["move_number"] == 2

        # the bot game goes on from where it was: its log (one line per action) extends the old one
        restarted = state(api, bots_gid)
        seen = bots_before["move_number"]
        assert restarted["move_number"] >= seen
        assert restarted["view"]["log"][:seen] == bots_before["view"]["log"]
        actions = [line.split(": ", 1)[1] for line in restarted["view"]["log"]]
        game = get_game("hiddencards")
        record = {"format": 1, "game": "hiddencards", "players": 3, "seed": 13, "options": {"turns_each": 2},
                  "actions": actions}
        engine = replay(game, record)
        assert engine.view(None) == restarted["view"]
        wait_for(
            lambda: (
                state(api, bots_gid)["move_number"] > restarted["move_number"]
                or state(api, bots_gid)["status"] == "finished"
            ),
            what="the bots to resume",
        )
