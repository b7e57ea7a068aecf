"""Passkeys through the API (server/passkeys.py): what a browser that is not the account's, or
an answer replayed or forged, gets. The ceremonies with a real authenticator are in
test_browser_accounts.py (Chromium's virtual authenticator)."""

from __future__ import annotations

import base64
import json

import httpx

from tests.server.harness import ServerProcess
from tests.server.signin import sign_up, unique_name


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def forged_assertion(challenge: str, origin: str) -> dict[str, object]:
    client_data = json.dumps({"type": "webauthn.get", "challenge": challenge, "origin": origin}).encode()
    return {
        "id": b64(b"no such key"), "rawId": b64(b"no such key"), "type": "public-key",
        "response": {"clientDataJSON": b64(client_data), "authenticatorData": b64(b"\0" * 37),
                     "signature": b64(b"\0" * 64), "userHandle": None},
        "clientExtensionResults": {},
    }


def test_the_options_name_this_host_and_require_user_verification(server: ServerProcess) -> None:
    with httpx.Client(base_url=f"http://localhost:{server.port}") as client:
        answer = client.post("/api/account/passkey-signin/options")
    assert answer.status_code == 200
    options = answer.json()["options"]
    assert options["rpId"] == "localhost" and options["userVerification"] == "required"
    assert len(options["challenge"]) >= 43


def test_an_unknown_or_forged_passkey_signs_nobody_in(server: ServerProcess) -> None:
    with httpx.Client(base_url=f"http://localhost:{server.port}") as client:
        begun = client.post("/api/account/passkey-signin/options").json()
        credential = forged_assertion(begun["options"]["challenge"], f"http://localhost:{server.port}")
        answer = client.post("/api/account/passkey-signin", json={"ceremony": begun["ceremony"],
                                                                   "credential": credential})
        assert answer.status_code == 401 and answer.json()["code"] == "passkey_failed"
        assert "eixample_session" not in answer.headers.get("set-cookie", "")
        again = client.post("/api/account/passkey-signin", json={"ceremony": begun["ceremony"],
                                                                  "credential": credential})
        assert again.status_code == 401  # a ceremony is used once
        made_up = client.post("/api/account/passkey-signin", json={"ceremony": "made-up", "credential": {}})
        assert made_up.status_code == 401


def test_a_passkey_sign_up_checks_the_name_first(server: ServerProcess) -> None:
    with sign_up(server) as taken, httpx.Client(base_url=server.url) as client:
        assert client.post("/api/account/passkey-signup/options",
                           json={"name": taken.name.lower()}).json()["code"] == "account_name_taken"
        assert client.post("/api/account/passkey-signup/options", json={"name": "x"}).status_code == 422
        fresh = client.post("/api/account/passkey-signup/options", json={"name": unique_name()})
        assert fresh.status_code == 200
        options = fresh.json()["options"]
        assert options["authenticatorSelection"]["residentKey"] == "required"
        assert options["rp"] == {"id": "127.0.0.1", "name": "Eixample"}


def test_passkeys_of_an_account_need_its_session(server: ServerProcess) -> None:
    with httpx.Client(base_url=server.url) as guest:
        assert guest.post("/api/account/passkeys/options").json()["code"] == "not_signed_in"
        assert guest.get("/api/account/passkeys").status_code == 401
    with sign_up(server) as player:
        assert player.get("/api/account/passkeys").json() == {"passkeys": []}
        begun = player.post("/api/account/passkeys/options").json()
        assert begun["options"]["user"]["name"] == player.name
        with sign_up(server) as other:  # another account cannot finish this one's ceremony
            finish = {"ceremony": begun["ceremony"], "credential": {}}
            answer = other.post("/api/account/passkeys", json=finish)
            assert answer.status_code == 401 and answer.json()["code"] == "passkey_failed"
        missing = player.post("/api/account/passkeys/delete", json={"id": "nothing"})
        assert missing.status_code == 404 and missing.json()["code"] == "no_such_passkey"
