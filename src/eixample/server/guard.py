"""The first thing every request meets: host names, origins and body sizes (pure ASGI).

- The `Host` header must name one of the server's host names, so that a page on another site whose
  DNS name was pointed at this server (DNS rebinding) gets nothing: 400 otherwise, and for a
  `Host` with anything but a name and a port (user information, a path) or given twice.
- A WebSocket handshake, and any request that may change something (not GET/HEAD/OPTIONS), that
  carries an `Origin` must come from the server's own origin: 403 otherwise (WebSocket: the
  handshake is refused).
- A request body is read in pieces and refused with 413 as soon as it grows past the limit (or at
  once, by its `Content-Length`); it is never held in memory beyond the limit.
- Every answer gets the security headers (caching, no sniffing, no referrer, Content-Security-Policy
  except on the interactive API pages).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from eixample.server.errors import STATUS_CODES

LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")
UNSPECIFIED = ("0.0.0.0", "::", "")
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


def host_names(listen_host: str, extra: Iterable[str] = ()) -> frozenset[str]:
    """The names the server answers for: the address it listens on, localhost, and `extra`."""
    names = {*LOCAL_HOSTS, *(name.strip().lower().strip("[]") for name in extra)}
    if listen_host.strip("[]") not in UNSPECIFIED:
        names.add(listen_host.lower().strip("[]"))
    names.discard("")
    return frozenset(names)


HOST_PATTERN = re.compile(r"(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?")
"""A `Host` header as RFC 9110 allows it: a name, an IPv4 or a bracketed IPv6 address, and a
port; no user information (`user@host`), path or anything else."""


def _hostname(netloc: str) -> str | None:
    if not HOST_PATTERN.fullmatch(netloc):
        return None
    try:
        return urlsplit(f"//{netloc}").hostname
    except ValueError:
        return None


class Guard:
    def __init__(
        self, app: ASGIApp, *, allowed_hosts: frozenset[str], max_body_bytes: int, csp: str = ""
    ) -> None:
        self.app = app
        self.allowed_hosts = allowed_hosts
        self.max_body_bytes = max_body_bytes
        self.csp = csp.encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        hosts = headers.getlist("host")
        if len(hosts) > 1:
            await self._refuse(scope, send, 400, "a request must carry exactly one Host header")
            return
        host = hosts[0] if hosts else ""
        if _hostname(host) not in self.allowed_hosts:
            shown = host[:60]
            await self._refuse(scope, send, 400, f"this server does not answer for the host '{shown}'")
            return
        origin = headers.get("origin")
        unsafe = scope["type"] == "websocket" or scope["method"] not in SAFE_METHODS
        if unsafe and origin is not None and not self._same_origin(origin, host):
            await self._refuse(scope, send, 403, f"requests from the origin '{origin[:60]}' are refused")
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return
        await self._http(scope, receive, send, headers)

    def _same_origin(self, origin: str, host: str) -> bool:
        parts = urlsplit(origin)
        return (
            parts.scheme in ("http", "https")
            and parts.netloc.lower() == host.lower()
            and parts.hostname in self.allowed_hosts
        )

    async def _http(self, scope: Scope, receive: Receive, send: Send, headers: Headers) -> None:
        declared = headers.get("content-length")
        if declared is not None:
            if not declared.isdigit():
                await _send_json(send, 400, "Content-Length must be a number of bytes")
                return
            if int(declared) > self.max_body_bytes:
                await self._too_large(send)
                return
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client left
            body += message.get("body", b"")
            if len(body) > self.max_body_bytes:
                await self._too_large(send)
                return
            if not message.get("more_body", False):
                break
        pending: list[Message] = [{"type": "http.request", "body": bytes(body), "more_body": False}]

        async def replay() -> Message:
            return pending.pop() if pending else await receive()

        path = str(scope.get("path", ""))
        extra = [
            (b"cache-control", b"no-store" if path.startswith("/api/") else b"no-cache"),
            (b"x-content-type-options", b"nosniff"),
            (b"referrer-policy", b"no-referrer"),
        ]
        if self.csp and not path.startswith(("/docs", "/redoc")):
            extra.append((b"content-security-policy", self.csp))

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {name for name, _value in extra}
                headers = [(n, v) for n, v in message.get("headers", []) if n.lower() not in names]
                message = {**message, "headers": [*headers, *extra]}
            await send(message)

        await self.app(scope, replay, send_with_headers)

    async def _too_large(self, send: Send) -> None:
        await _send_json(send, 413, f"the request body is larger than {self.max_body_bytes} bytes")

    @staticmethod
    async def _refuse(scope: Scope, send: Send, status: int, message: str) -> None:
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": message[:100]})
        else:
            await _send_json(send, status, message)


async def _send_json(send: Send, status: int, message: str) -> None:
    body = json.dumps({"error": message, "code": STATUS_CODES.get(status, "error"), "args": {}}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"cache-control", b"no-store"),
                (b"x-content-type-options", b"nosniff"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
