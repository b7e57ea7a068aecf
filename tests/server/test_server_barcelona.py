"""The server with Barcelona: no seat ever sees another hand or the bag order.

The same capture as in test_server_leaks.py, over a whole Barcelona game (one person playing
through the page's WebSocket protocol, one random bot): every state message must be exactly
`view(seat)`, no `player_list` entry but the seat's own may show a hand, and the bag shows
counts only.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.server.harness import ServerProcess
from tests.server.leakcheck import Traffic, check_traffic, play_and_capture, state_texts

SEED = 8675309123456789


@pytest.fixture(scope="module")
def barcelona_traffic(server: ServerProcess) -> Traffic:
    seats: list[dict[str, Any]] = [{"kind": "person"}, {"kind": "bot", "bot": "random"}]
    return play_and_capture(server, "barcelona", seats, seed=SEED, policy_seed=1)


def test_barcelona_shows_no_other_hand_and_no_bag_order(barcelona_traffic: Traffic) -> None:
    checked = check_traffic(barcelona_traffic, "barcelona", lambda _state, _seat: set(), check_seed=False)
    assert checked > 100
    for capture in barcelona_traffic.captures:
        for text in state_texts(barcelona_traffic, capture.seat):
            view = json.loads(text)["view"]
            for player, entry in enumerate(view["player_list"]):
                if player != capture.seat:
                    assert entry["hand"] is None, f"seat {capture.seat} saw the hand of seat {player}"
                else:
                    assert isinstance(entry["hand"], list)
            assert all(isinstance(count, int) for count in view["bag"].values()), (
                "the bag shows more than counts"
            )


def test_barcelona_sends_no_seed(barcelona_traffic: Traffic) -> None:
    check_traffic(barcelona_traffic, "barcelona", lambda _state, _seat: set())
