"""The HTTP connection before the app: head sizes, read deadlines, connections per address, and
malformed requests answered in JSON. Raw sockets, only to 127.0.0.1, a bounded number of them."""

from __future__ import annotations

import contextlib
import json
import socket
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from tests.server.harness import GENEROUS_LIMITS, ServerProcess

TIMEOUT = 15.0


def _open(server: ServerProcess, source: str = "127.0.0.1") -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.settimeout(TIMEOUT)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", server.port))
    return sock


def _answer(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """The status, headers and body of one HTTP answer (a socket timeout fails the test)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise AssertionError(f"the connection closed without an answer: {data[:200]!r}")
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *lines = head.decode().split("\r\n")
    headers = {}
    for line in lines:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    while len(body) < int(headers.get("content-length", "0")):
        chunk = sock.recv(65536)
        if not chunk:
            break
        body += chunk
    return int(status_line.split()[1]), headers, body


def _closed(sock: socket.socket) -> bool:
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:
        return True


def _json_error(answer: tuple[int, dict[str, str], bytes], status: int, *words: str) -> None:
    got, headers, body = answer
    assert got == status, (got, body[:200])
    assert headers["content-type"].startswith("application/json"), headers
    message = json.loads(body)["error"]
    for word in words:
        assert word in message, message


def _ask(sock: socket.socket, port: int, path: str = "/api/health") -> tuple[int, dict[str, str], bytes]:
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    return _answer(sock)


@contextlib.contextmanager
def _sockets() -> Iterator[list[socket.socket]]:
    opened: list[socket.socket] = []
    try:
        yield opened
    finally:
        for sock in opened:
            sock.close()


# -- head size --------------------------------------------------------------------------------------


def test_large_headers_are_refused_with_431(server: ServerProcess) -> None:
    with _open(server) as sock:  # a whole request whose one header holds 200 KB
        pad = "a" * 200_000
        sock.sendall(f"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: {pad}\r\n\r\n".encode())
        _json_error(_answer(sock), 431, "headers are larger than 32768 bytes")
        assert _closed(sock)
    with _open(server) as sock:  # many small headers add up the same
        pads = "".join(f"X-Pad-{index}: {'b' * 100}\r\n" for index in range(400))
        sock.sendall(f"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n{pads}\r\n".encode())
        _json_error(_answer(sock), 431)
    with _open(server) as sock:  # a header that never ends is refused once too long, not read on
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: ")
        sent = 0
        with contextlib.suppress(ConnectionError):
            while sent < 4_000_000:
                sock.sendall(b"c" * 16384)
                sent += 16384
        _json_error(_answer(sock), 431)
    with _open(server) as sock:  # headers within the limit are served
        sock.sendall(f"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: {'d' * 20_000}\r\n\r\n".encode())
        status, _headers, body = _answer(sock)
        assert status == 200 and json.loads(body) == {"ok": True}


# -- deadlines --------------------------------------------------------------------------------------


@pytest.fixture()
def impatient(new_server: Callable[..., ServerProcess]) -> ServerProcess:
    limits = {**GENEROUS_LIMITS, "header_timeout_seconds": 1.0, "body_timeout_seconds": 1.0}
    return new_server(limits=limits).start()


def test_a_silent_connection_is_closed(impatient: ServerProcess) -> None:
    with _open(impatient) as sock:
        _json_error(_answer(sock), 408, "headers did not arrive in time")
        assert _closed(sock)


def test_trickled_headers_are_cut_off(impatient: ServerProcess) -> None:
    with _open(impatient) as sock:
        request = f"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: {'e' * 60}\r\n\r\n".encode()
        started = time.monotonic()
        with contextlib.suppress(ConnectionError):
            for byte in request[:-4]:  # never the end of the headers
                sock.sendall(bytes([byte]))
                time.sleep(0.05)
        assert time.monotonic() - started < TIMEOUT
        _json_error(_answer(sock), 408, "headers did not arrive in time")


def test_a_body_that_never_comes_is_cut_off(impatient: ServerProcess) -> None:
    with _open(impatient) as sock:
        sock.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 100\r\n\r\n{\"game\":")
        _json_error(_answer(sock), 408, "body did not arrive in time")
        assert _closed(sock)
    with _open(impatient) as sock:  # a request in time is served, and the connection kept
        assert _ask(sock, impatient.port)[0] == 200
        time.sleep(1.5)  # longer than the head deadline, shorter than keep-alive
        assert _ask(sock, impatient.port)[0] == 200


# -- connections per address ------------------------------------------------------------------------


def test_one_address_cannot_take_every_connection(new_server: Callable[..., ServerProcess]) -> None:
    limits: dict[str, Any] = {**GENEROUS_LIMITS, "connections_per_address": 20,
                              "header_timeout_seconds": 60.0}
    server = new_server(limits=limits).start()
    with _sockets() as opened:
        for _ in range(20):  # silent connections, as many as one address may hold
            opened.append(_open(server))
        time.sleep(0.5)
        with _open(server) as one_more:
            _json_error(_answer(one_more), 503, "too many connections from your address")
        with _open(server, source="127.0.0.2") as other:  # another address is served
            assert _ask(other, server.port)[0] == 200
        opened.pop().close()
        time.sleep(0.5)
        with _open(server) as again:
            assert _ask(again, server.port)[0] == 200


def test_websockets_leave_the_connection_count(new_server: Callable[..., ServerProcess]) -> None:
    limits: dict[str, Any] = {**GENEROUS_LIMITS, "connections_per_address": 3}
    server = new_server(limits=limits).start()
    with httpx.Client(base_url=server.url, timeout=TIMEOUT) as api:
        created = api.post("/api/games", json={"game": "tictactoe", "seats": [{}, {}]}).json()
    with contextlib.ExitStack() as stack:
        for _ in range(6):  # twice the cap
            websocket = stack.enter_context(
                connect(f"{server.ws_url}/ws/games/{created['game_id']}", open_timeout=TIMEOUT)
            )
            websocket.send(json.dumps({"type": "hello", "token": None}))
            assert json.loads(websocket.recv(timeout=TIMEOUT))["type"] == "state"
        with _open(server) as sock:
            assert _ask(sock, server.port)[0] == 200


# -- malformed requests -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "length", [b"Content-Length: abc", b"Content-Length: 5, 6", b"Content-Length: 3\r\nContent-Length: 4"]
)
def test_a_bad_content_length_gets_a_json_400(server: ServerProcess, length: bytes) -> None:
    with _open(server) as sock:
        sock.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     + length + b"\r\n\r\n{}")
        _json_error(_answer(sock), 400, "not a valid HTTP request")


@pytest.mark.parametrize(
    "hosts",
    [["user@127.0.0.1:{port}"], ["evil.example@127.0.0.1"], ["127.0.0.1:{port}", "127.0.0.1:{port}"],
     ["127.0.0.1:{port}", "rebound.example"], ["127.0.0.1/path"]],
)
def test_host_headers_must_be_one_plain_name(server: ServerProcess, hosts: list[str]) -> None:
    lines = "".join(f"Host: {host.format(port=server.port)}\r\n" for host in hosts)
    with _open(server) as sock:
        sock.sendall(f"GET /api/health HTTP/1.1\r\n{lines}\r\n".encode())
        _json_error(_answer(sock), 400)
