"""A local SMTP server for tests (aiosmtpd, on a free loopback port) that keeps every message it
receives; the `smtp` fixture starts one per test. `env()` gives the settings that point a server
process's mail at it (server/mail.py)."""

from __future__ import annotations

import email
import email.policy
import threading
import time
from collections.abc import Callable, Iterator
from email.message import EmailMessage
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from tests.server.harness import free_port


class Mailbox:
    """The aiosmtpd handler: every message received, parsed."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self._arrived = threading.Condition()

    async def handle_DATA(self, _server: Any, _session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        with self._arrived:
            self.messages.append(message)
            self._arrived.notify_all()
        return "250 OK"

    def wait_for(self, check: Callable[[EmailMessage], bool], timeout: float = 15) -> EmailMessage:
        """The first message (received or to come) for which `check` holds."""
        deadline = time.monotonic() + timeout
        with self._arrived:
            while True:
                for message in self.messages:
                    if check(message):
                        return message
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError("no such message arrived in time")
                self._arrived.wait(left)

    def to(self, address: str, timeout: float = 15) -> EmailMessage:
        """The first message sent to `address`."""
        return self.wait_for(lambda message: address in str(message["To"]), timeout)


class SmtpServer:
    def __init__(self) -> None:
        self.mailbox = Mailbox()
        self.port = free_port()
        self.controller = Controller(self.mailbox, hostname="127.0.0.1", port=self.port)

    @property
    def messages(self) -> list[EmailMessage]:
        return self.mailbox.messages

    def env(self) -> dict[str, str]:
        """The environment of a server process that sends its mail here."""
        return {
            "EIXAMPLE_SMTP_HOST": "127.0.0.1",
            "EIXAMPLE_SMTP_PORT": str(self.port),
            "EIXAMPLE_SMTP_FROM": "eixample@example.test",
            "EIXAMPLE_SMTP_STARTTLS": "0",
        }

    def __enter__(self) -> SmtpServer:
        self.controller.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.controller.stop()


@pytest.fixture()
def smtp() -> Iterator[SmtpServer]:
    with SmtpServer() as server:
        yield server
