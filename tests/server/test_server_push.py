"""Web Push of "your turn" notices: the VAPID key made at the first start and kept (0600) in the
data folder, subscriptions checked and stored for the signed-in account, the notice encrypted and
sent to each subscription's push service with a VAPID token, an expired subscription dropped."""

from __future__ import annotations

from pathlib import Path

import httpx

from tests.server.harness import ServerProcess, create_claimed_game, wait_for
from tests.server.notices import NOTICE_LIMITS, move, notices_of, own_seat, run_sql
from tests.server.push_service import PushService
from tests.server.signin import sign_up

PEOPLE = [{"kind": "person", "name": "Ana"}, {"kind": "person", "name": "Biel"}]


def test_a_turn_is_pushed_encrypted_to_the_account_s_browsers_and_an_expired_one_is_dropped(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    server = ServerProcess(folder, limits=NOTICE_LIMITS).start()
    try:
        key = httpx.get(f"{server.url}/api/push/key").json()["key"]
        key_file = folder / "vapid-private.pem"
        assert key_file.stat().st_mode & 0o777 == 0o600
        with PushService() as push, sign_up(server) as biel, server.client() as api:
            good, good_keys = push.endpoint("good")
            gone, gone_keys = push.endpoint("gone")
            push.gone.add("gone")
            _, local_keys = push.endpoint("local")
            local = f"https://localhost:{push.port}/push/local"  # a name for a machine around the server
            for endpoint, keys in ((good, good_keys), (gone, gone_keys), (local, local_keys)):
                answer = biel.post("/api/push/subscriptions", json={"endpoint": endpoint, "keys": keys})
                assert answer.status_code == 201, answer.text
            game = create_claimed_game(api, "tictactoe", PEOPLE, turn_days=7)
            own_seat(server, game["game_id"], 1, biel.account["id"])
            move(api, game["game_id"], game["seats"][0]["token"], "mark 4", 0)
            (message,) = push.wait_for(1)
            assert message["name"] == "good" and message["key"] == key
            assert message["payload"]["title"] == "Your turn"
            assert message["payload"]["url"] == f"/play/{game['game_id']}"
            assert message["payload"]["body"] == "Tic-tac-toe against Ana"
            wait_for(lambda: notices_of(server, game["game_id"]) == [(1, 1, "sent", None)],
                     what="the notice marked sent")
            assert sorted(push.calls) == ["gone", "good"]  # never to the host that is not on the internet
            left = run_sql(server, "SELECT endpoint FROM push_subscriptions ORDER BY id")
            assert left == [(good,), (local,)]  # the expired one is dropped
        server.stop()
        server.start()
        assert httpx.get(f"{server.url}/api/push/key").json()["key"] == key  # kept across restarts
    finally:
        server.stop()


def test_subscriptions_are_checked_and_need_a_signed_in_account(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    server = ServerProcess(folder, limits={**NOTICE_LIMITS, "push_to_loopback": False}).start()
    try:
        with PushService() as push, sign_up(server) as ana:
            endpoint, keys = push.endpoint("one")
            https = "https://push.example.test/subscription/one"
            subscription = {"endpoint": https, "keys": keys}
            anonymous = httpx.post(f"{server.url}/api/push/subscriptions", json=subscription)
            assert anonymous.status_code == 401
            no_csrf = httpx.post(f"{server.url}/api/push/subscriptions", json=subscription,
                                 cookies=ana.cookies)
            assert no_csrf.status_code == 403
            elsewhere = "https://push.example.test/x"
            for body, status in (
                ({"endpoint": endpoint, "keys": keys}, 422),  # plain http, loopback not allowed here
                ({"endpoint": endpoint.replace("http://", "https://"), "keys": keys}, 422),  # loopback
                ({"endpoint": "https://10.1.2.3/x", "keys": keys}, 422),  # a private address
                ({"endpoint": "https://[::1]:8443/x", "keys": keys}, 422),
                ({"endpoint": elsewhere, "keys": {**keys, "p256dh": keys["auth"]}}, 422),
                ({"endpoint": elsewhere, "keys": {**keys, "auth": keys["p256dh"][:40]}}, 422),
                ({"endpoint": "https://push.example.test/" + "x" * 1100, "keys": keys}, 422),
                ({"endpoint": "https://push.example.test/x", "keys": keys, "extra": 1}, 422),
            ):
                answer = ana.post("/api/push/subscriptions", json=body)
                assert answer.status_code == status, (body, answer.text)
            assert run_sql(server, "SELECT endpoint FROM push_subscriptions") == []
            assert ana.post("/api/push/subscriptions", json=subscription).status_code == 201
            gone = ana.request("DELETE", "/api/push/subscriptions", json={"endpoint": https})
            assert gone.status_code == 200
            assert run_sql(server, "SELECT endpoint FROM push_subscriptions") == []
    finally:
        server.stop()
