"""The HTTP connection itself, before any request reaches the app: sizes, deadlines and how many.

uvicorn's httptools protocol, with what it leaves open closed (limits in `ServerLimits`):

- **Head size**: a request's line and headers together may hold at most `max_header_bytes`;
  more gets 431 and the connection is closed, counted as the bytes arrive (a header that never
  ends is refused as soon as it is too long, never held in memory beyond the limit).
- **Head deadline**: a request's line and headers must have arrived `header_timeout_seconds` after
  the connection opened or the request began; a connection that stays silent, or trickles its
  headers, is closed then (408).
- **Body deadline**: a request's body must have arrived `body_timeout_seconds` after its headers.
- **Connections per address**: at most `connections_per_address` HTTP connections open at once
  from one client address; one more gets 503 and is closed at once. A connection upgraded to a
  WebSocket leaves this count (WebSockets have their own caps). The setting `trusted_proxies`
  (reverse proxies that pass the client's address on) is not counted: the proxy's own limits
  apply there.
- **Malformed requests** (a bad `Content-Length`, a broken request line) get the documented JSON
  error (400), not uvicorn's plain text.

Between requests uvicorn closes a keep-alive connection after `timeout_keep_alive` seconds.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
from collections import Counter
from collections.abc import Iterable
from typing import Any

import httptools
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from eixample.server.errors import STATUS_CODES
from eixample.server.limits import ServerLimits

log = logging.getLogger(__name__)

REASONS = {400: "Bad Request", 408: "Request Timeout", 431: "Request Header Fields Too Large",
           503: "Service Unavailable"}


class AddressCount:
    """Open connections per client address, with a cap (addresses in the networks `exempt` are
    not counted)."""

    def __init__(self, cap: int, exempt: Iterable[str] = ()) -> None:
        self.cap = cap
        self.networks = [ipaddress.ip_network(name, strict=False) for name in exempt]
        self.exempt: set[str] = set()
        self.open: Counter[str] = Counter()

    def _exempt(self, address: str) -> bool:
        if address in self.exempt:
            return True
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        if any(ip in network for network in self.networks):
            self.exempt.add(address)
            return True
        return False

    def admit(self, address: str) -> bool:
        if self._exempt(address):
            return True
        if self.open[address] >= self.cap:
            return False
        self.open[address] += 1
        return True

    def release(self, address: str) -> None:
        if self._exempt(address):
            return
        self.open[address] -= 1
        if self.open[address] <= 0:
            del self.open[address]


def error_response(status: int, message: str) -> bytes:
    """A whole HTTP/1.1 answer with the documented JSON error body, closing the connection."""
    body = json.dumps({"error": message, "code": STATUS_CODES.get(status, "error"), "args": {}}).encode()
    head = (
        f"HTTP/1.1 {status} {REASONS[status]}\r\n"
        "content-type: application/json\r\n"
        f"content-length: {len(body)}\r\n"
        "cache-control: no-store\r\n"
        "x-content-type-options: nosniff\r\n"
        "connection: close\r\n\r\n"
    )
    return head.encode() + body


class GuardedHttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with the limits above; `guarded_http` makes one per server."""

    limits: ServerLimits = ServerLimits()
    count: AddressCount = AddressCount(ServerLimits().connections_per_address)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._address: str | None = None  # set while the connection is counted
        self._in_head = True
        self._head_bytes = 0
        self._deadline: asyncio.TimerHandle | None = None
        self._ended = False

    # -- the connection -----------------------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        address = self.client[0] if self.client else ""
        if not self.count.admit(address):
            self._end(503, f"too many connections from your address (at most {self.count.cap} at once)")
            return
        self._address = address
        self._arm(self.limits.header_timeout_seconds, "the request's headers did not arrive in time")

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._release()
        super().connection_lost(exc)

    def handle_websocket_upgrade(self) -> None:
        self._disarm()
        self._release()
        super().handle_websocket_upgrade()

    def _release(self) -> None:
        if self._address is not None:
            self.count.release(self._address)
            self._address = None

    # -- reading ------------------------------------------------------------------------------

    def data_received(self, data: bytes) -> None:
        if self._ended:
            return
        self._unset_keepalive_if_required()
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserUpgrade:
            if self._should_upgrade():
                self.handle_websocket_upgrade()
            else:
                self._unsupported_upgrade_warning()
            return
        except httptools.HttpParserError as error:
            if not self._ended:
                self._end(400, f"this is not a valid HTTP request: {str(error)[:80]}")
            return
        if self._in_head and not self._ended:
            self._head_bytes += len(data)
            if self._head_bytes > self.limits.max_header_bytes:
                self._too_long()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._in_head = True
        self._head_bytes = 0
        self._arm(self.limits.header_timeout_seconds, "the request's headers did not arrive in time")

    def on_headers_complete(self) -> None:
        self._in_head = False
        self._disarm()
        size = len(self.url) + sum(len(name) + len(value) + 4 for name, value in self.headers)
        if size > self.limits.max_header_bytes:
            self._too_long()
            return
        super().on_headers_complete()
        if self.cycle is not None and self.cycle.scope is self.scope and self.cycle.more_body:
            self._arm(self.limits.body_timeout_seconds, "the request's body did not arrive in time")

    def on_body(self, body: bytes) -> None:
        if not self._ended:
            super().on_body(body)

    def on_message_complete(self) -> None:
        self._disarm()
        if not self._ended:
            super().on_message_complete()

    # -- refusing -----------------------------------------------------------------------------

    def _too_long(self) -> None:
        self._end(431, f"the request's headers are larger than {self.limits.max_header_bytes} bytes")

    def _arm(self, seconds: float, message: str) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(seconds, self._late, message)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _late(self, message: str) -> None:
        self._deadline = None
        answering = self.cycle is not None and not self.cycle.response_complete
        if answering and self.cycle.response_started:
            self.transport.close()  # the app already answers: the answer cannot change now
            return
        self._end(408, message)

    def _end(self, status: int, message: str) -> None:
        """Answer with a JSON error and close: the request, if any, never reaches the app (or the
        app, waiting for the rest of a body, sees the client leave)."""
        self._ended = True
        self._disarm()
        if self.cycle is not None and not self.cycle.response_complete:
            self.cycle.disconnected = True  # the app's answer, if any, goes nowhere
            self.cycle.message_event.set()
        if not self.transport.is_closing():
            self.transport.write(error_response(status, message))
            self.transport.close()


def guarded_http(limits: ServerLimits, proxies: Iterable[str] = ()) -> type[GuardedHttpProtocol]:
    """The protocol class for one server: its limits and its own count of connections (the
    `proxies`' addresses or networks not counted)."""
    count = AddressCount(limits.connections_per_address, proxies)
    return type("GuardedHttp", (GuardedHttpProtocol,), {"limits": limits, "count": count})
