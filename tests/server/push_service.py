"""A push service for tests: a plain HTTP server on 127.0.0.1 that takes Web Push messages the
way a browser vendor's service does, checks their VAPID token (RFC 8292: ES256 signature by the
key it names, audience, expiry, contact) and decrypts their body (RFC 8291, aes128gcm) with the
subscriber's keys, which it makes itself, as a browser would."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, utils


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def check_vapid(authorization: str, audience: str) -> tuple[str, dict[str, Any]]:
    """The public key a "vapid t=<jwt>,k=<key>" header names and its token's claims, once the
    token's signature by that key, its audience and its expiry are checked (AssertionError else)."""
    scheme, _, rest = authorization.partition(" ")
    assert scheme.lower() == "vapid", authorization[:20]
    parts = dict(part.strip().split("=", 1) for part in rest.split(","))
    header, claims, signature = parts["t"].split(".")
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(parts["k"]))
    raw = unb64url(signature)
    assert len(raw) == 64
    der = utils.encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
    assert json.loads(unb64url(header)) == {"typ": "JWT", "alg": "ES256"}
    body: dict[str, Any] = json.loads(unb64url(claims))
    assert body["aud"] == audience, body
    assert time.time() < body["exp"] <= time.time() + 24 * 3600, body
    assert str(body["sub"]).startswith(("mailto:", "https:")), body
    return parts["k"], body


class Subscriber:
    """A browser's side of one subscription: its key pair and authentication secret."""

    def __init__(self) -> None:
        self.private_key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)

    @property
    def keys(self) -> dict[str, str]:
        public = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {"p256dh": b64url(public), "auth": b64url(self.auth)}


class PushService:
    """Endpoints /push/<name>: a subscriber's messages are decrypted and kept; a name listed in
    `gone` answers 410 (an expired subscription)."""

    def __init__(self) -> None:
        self.subscribers: dict[str, Subscriber] = {}
        self.received: list[dict[str, Any]] = []
        self.gone: set[str] = set()
        self.calls: list[str] = []
        self._arrived = threading.Condition()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                name = self.path.rsplit("/", 1)[-1]
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length)
                service.calls.append(name)
                if name in service.gone:
                    self.send_response(410)
                    self.end_headers()
                    return
                audience = f"http://127.0.0.1:{service.port}"
                key, claims = check_vapid(self.headers["Authorization"], audience)
                assert self.headers["Content-Encoding"] == "aes128gcm"
                assert int(self.headers["TTL"]) > 0
                subscriber = service.subscribers[name]
                plain = http_ece.decrypt(body, private_key=subscriber.private_key,
                                         auth_secret=subscriber.auth, version="aes128gcm")
                with service._arrived:
                    service.received.append({"name": name, "key": key, "claims": claims,
                                             "payload": json.loads(plain)})
                    service._arrived.notify_all()
                self.send_response(201)
                self.end_headers()

            def log_message(self, *_args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def endpoint(self, name: str) -> tuple[str, dict[str, str]]:
        """A new subscription's endpoint and keys."""
        self.subscribers[name] = Subscriber()
        return f"http://127.0.0.1:{self.port}/push/{name}", self.subscribers[name].keys

    def wait_for(self, count: int, timeout: float = 15) -> list[dict[str, Any]]:
        deadline = time.monotonic() + timeout
        with self._arrived:
            while len(self.received) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"{len(self.received)} push message(s), not {count}")
                self._arrived.wait(left)
            return list(self.received)

    def __enter__(self) -> PushService:
        self.thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
