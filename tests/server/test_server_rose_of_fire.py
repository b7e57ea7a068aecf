"""The server with The Rose of Fire: no seat or spectator ever learns what it may not see.

The capture of test_server_leaks.py over whole games (two people playing through the page's
WebSocket and REST protocol, with undos and refused requests, and a random bot; a 2-player game
with the "No Strike" option too): every text any client received is searched for the faces of
other hands' cards and for the order of the decks, every state message on the record's line must
be exactly `view(seat)`, and every state message at all must show other seats' hands, influence
tokens and secret convictions face down, the red bag and the immigration tokens as counts only.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from eixample.core.registry import get_game
from eixample.games.rose_of_fire.state import RoseState
from tests.server.harness import ServerProcess
from tests.server.leakcheck import Capture, Traffic, check_traffic, play_and_capture, state_texts

SEED = 8675309123456789
SYMBOLS = {"crown", "colonies", "personalities"}


def hidden_from(state: Any, seat: int | None) -> set[str]:
    """The texts `seat` may not receive: the card objects of other hands (as the view writes a
    card of the own hand), and each deck's order (three cards in a row as a JSON list would)."""
    assert isinstance(state, RoseState)
    names = state.t.card_names
    secret = {
        f'"id":"{names[card]}","kind"'
        for player, hand in enumerate(state.hands)
        if player != seat
        for card in hand
    }
    for deck in (state.city_deck, state.pop_deck, state.prestige_deck):
        order = [names[card] for card in deck]
        secret |= {",".join(f'"{name}"' for name in order[k : k + 3]) for k in range(len(order) - 2)}
    return secret


def check_faces_down(traffic: Traffic) -> int:
    """Every state message any client got shows the others' secrets face down; returns how many
    secret convictions of another seat were seen (face down)."""
    secret_convictions = 0
    for capture in traffic.captures:
        for text in state_texts(traffic, capture.seat):
            view = json.loads(text)["view"]
            assert isinstance(view["red_bag"], int), "the red bag shows more than a count"
            assert set(view["immigration"]) == {"level", "round_track", "tokens_left"}
            assert isinstance(view["immigration"]["tokens_left"], int)
            for player, entry in enumerate(view["player_list"]):
                if player == capture.seat:
                    assert isinstance(entry["hand"], list)
                    continue
                where = f"seat {capture.seat} about seat {player}"
                assert entry["hand"] is None, f"{where}: a hand"
                assert entry["token_symbols"] is None, f"{where}: influence tokens face up"
                if entry["conviction"] == "hidden":
                    secret_convictions += 1
                elif entry["conviction"] is not None:
                    assert entry["conviction"] in SYMBOLS
                    assert entry["conviction_used"] or view["terminal"], f"{where}: a secret conviction"
    return secret_convictions


@pytest.fixture(scope="module")
def rose_traffic(server: ServerProcess) -> Traffic:
    seats: list[dict[str, Any]] = [{"kind": "person"}, {"kind": "person"}, {"kind": "bot", "bot": "random"}]
    return play_and_capture(server, "rose-of-fire", seats, seed=None, policy_seed=2)  # the server draws


@pytest.fixture(scope="module")
def rose_traffic_two(server: ServerProcess) -> Traffic:
    seats: list[dict[str, Any]] = [{"kind": "person"}, {"kind": "bot", "bot": "random"}]
    return play_and_capture(
        server, "rose-of-fire", seats, seed=SEED + 1, options={"no_strike": True}, policy_seed=5
    )


def test_no_client_sees_another_hand_a_deck_order_or_the_seed(rose_traffic: Traffic) -> None:
    # the record (seed included) may be fetched once the game is over: the seed is checked in
    # the state messages, which never hold it
    checked = check_traffic(rose_traffic, "rose-of-fire", hidden_from, check_seed=False)
    assert checked > 200
    for capture in rose_traffic.captures:
        assert not any(str(rose_traffic.seed) in text for text in state_texts(rose_traffic, capture.seat))


def test_others_tokens_and_secret_convictions_stay_face_down(rose_traffic: Traffic) -> None:
    assert check_faces_down(rose_traffic) > 100


def test_a_two_player_game_with_no_strike_leaks_nothing(rose_traffic_two: Traffic) -> None:
    assert check_traffic(rose_traffic_two, "rose-of-fire", hidden_from, check_seed=False) > 100
    assert check_faces_down(rose_traffic_two) > 50


def test_the_check_has_teeth(rose_traffic: Traffic) -> None:
    """Each seat saw its own hand written as the check looks for it, and a hand or a secret
    conviction planted in a message to another seat is caught."""
    state = get_game("rose-of-fire").new_game(3, rose_traffic.seed)
    seat_one_hand = hidden_from(state, 0) - hidden_from(state, 1)
    assert seat_one_hand
    assert any(marker in text for text in state_texts(rose_traffic, 1) for marker in seat_one_hand)

    message = json.loads(state_texts(rose_traffic, 0)[0])
    message["view"]["player_list"][1]["hand"] = state.view(1)["player_list"][1]["hand"]
    planted = Capture(0)
    planted.add(json.dumps(message, separators=(",", ":")))
    with pytest.raises(AssertionError, match="were sent to seat 0"):
        planted_traffic = Traffic(rose_traffic.game_id, rose_traffic.record, rose_traffic.seed, [planted])
        check_traffic(planted_traffic, "rose-of-fire", hidden_from)

    message = json.loads(state_texts(rose_traffic, 0)[0])
    message["view"]["player_list"][1].update(conviction="crown", conviction_used=False)
    planted = Capture(0)
    planted.add(json.dumps(message))
    with pytest.raises(AssertionError, match="a secret conviction"):
        check_faces_down(Traffic(rose_traffic.game_id, rose_traffic.record, rose_traffic.seed, [planted]))
