"""Outgoing mail, by SMTP with the standard library, configured by the environment:

- `EIXAMPLE_SMTP_HOST`: the SMTP server; unset or empty, mail is disabled (the features that need
  it, such as e-mail verification and password reset, say so instead of sending).
- `EIXAMPLE_SMTP_PORT`: default 587 (465: TLS from the start).
- `EIXAMPLE_SMTP_USER`, `EIXAMPLE_SMTP_PASSWORD`: log in with these when the user is set.
- `EIXAMPLE_SMTP_FROM`: the sender's address (default `eixample@<host name of this machine>`).
- `EIXAMPLE_SMTP_STARTTLS`: "1" (default) upgrades the connection with STARTTLS before logging in;
  "0" for a local relay that speaks plain SMTP.

A message is sent in a worker thread, never on the event loop. A message's text is never logged
(it may hold a single-use link).

A message's words come from the web app's catalogs (`localized`): `<prefix>.subject` and
`<prefix>.text` in the reader's language (`language` picks it from what the request asked),
English where a language lacks them.
"""

from __future__ import annotations

import asyncio
import logging
import os
import smtplib
import socket
import ssl
from collections.abc import Mapping
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import make_msgid
from typing import Any

from eixample.core.messages import fill, whole_catalog

log = logging.getLogger(__name__)

DEFAULT_PORT = 587
TLS_PORT = 465
TIMEOUT_SECONDS = 20.0
FALSE_WORDS = ("0", "false", "no", "off")
LANGUAGES = ("en", "fr", "de", "ja", "cs")
"""The languages of the catalogs; a mail in any other is written in English."""
ACCEPT_LANGUAGE_ITEMS = 20
"""At most this many languages of an Accept-Language header are looked at."""


def language(asked: str | None, accept_language: str | None = None) -> str:
    """The language to write in: `asked` (a page's `lang`) if it is one of LANGUAGES, else the
    first of the Accept-Language header's (by quality) that is, else English."""
    if asked in LANGUAGES:
        return asked
    ranked: list[tuple[float, int, str]] = []
    for place, item in enumerate((accept_language or "").split(",")[:ACCEPT_LANGUAGE_ITEMS]):
        tag, _, quality = item.strip().partition(";")
        base = tag.strip().lower().replace("_", "-").split("-")[0]
        try:
            weight = float(quality.strip().removeprefix("q=")) if quality else 1.0
        except ValueError:
            weight = 0.0
        if base in LANGUAGES and weight > 0:
            ranked.append((-weight, place, base))
    return min(ranked)[2] if ranked else "en"


def localized(lang: str, key_prefix: str, args: dict[str, Any]) -> tuple[str, str]:
    """The subject and text of a message: the catalog's `<key_prefix>.subject` and
    `<key_prefix>.text` in `lang` (English where it lacks them), placeholders filled by `args`."""
    english = whole_catalog("en")
    catalog = whole_catalog(lang) if lang in LANGUAGES else english
    subject, text = (
        fill(catalog.get(f"{key_prefix}.{part}") or english[f"{key_prefix}.{part}"], args)
        for part in ("subject", "text")
    )
    return subject, text


class MailError(Exception):
    """The message could not be handed to the SMTP server (or mail is disabled)."""


@dataclass(frozen=True)
class MailSettings:
    host: str | None = None
    port: int = DEFAULT_PORT
    user: str | None = None
    password: str | None = field(default=None, repr=False)
    """Never shown (left out of the settings' repr, so out of logs and tracebacks)."""
    sender: str = "eixample@localhost"
    starttls: bool = True

    @property
    def enabled(self) -> bool:
        return bool(self.host)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> MailSettings:
        env = os.environ if env is None else env
        host = env.get("EIXAMPLE_SMTP_HOST", "").strip() or None
        port_text = env.get("EIXAMPLE_SMTP_PORT", "").strip()
        try:
            port = int(port_text) if port_text else DEFAULT_PORT
        except ValueError:
            raise ValueError(f"EIXAMPLE_SMTP_PORT must be a port number, not {port_text[:20]!r}") from None
        sender = env.get("EIXAMPLE_SMTP_FROM", "").strip() or f"eixample@{socket.getfqdn()}"
        return cls(
            host=host,
            port=port,
            user=env.get("EIXAMPLE_SMTP_USER", "").strip() or None,
            password=env.get("EIXAMPLE_SMTP_PASSWORD") or None,
            sender=sender,
            starttls=env.get("EIXAMPLE_SMTP_STARTTLS", "1").strip().lower() not in FALSE_WORDS,
        )


class Mailer:
    """Sends plain-text messages with the settings it was made with."""

    def __init__(self, settings: MailSettings | None = None) -> None:
        self.settings = settings if settings is not None else MailSettings.from_env()
        self.sent = 0

    @property
    def enabled(self) -> bool:
        return self.settings.enabled

    def message(self, to: str, subject: str, text: str) -> EmailMessage:
        message = EmailMessage()
        message["From"] = self.settings.sender
        message["To"] = to
        message["Subject"] = subject
        message["Message-ID"] = make_msgid(domain=self.settings.sender.rpartition("@")[2] or None)
        # quoted-printable keeps a text in any language 7-bit clean for relays without 8BITMIME
        if text.isascii():
            message.set_content(text)
        else:
            message.set_content(text, cte="quoted-printable")
        return message

    async def send(self, to: str, subject: str, text: str) -> None:
        """Hand one message to the SMTP server (in a worker thread); MailError if that fails."""
        self._check_enabled()
        await self.send_message(self.message(to, subject, text))

    async def send_message(self, message: EmailMessage) -> None:
        """`send` for a message already made by `message()`, with headers of its own added."""
        self._check_enabled()
        await asyncio.to_thread(self._send, message)
        self.sent += 1

    def _check_enabled(self) -> None:
        if not self.enabled:
            raise MailError("this server sends no mail (EIXAMPLE_SMTP_HOST is not set)")

    def _send(self, message: EmailMessage) -> None:
        settings = self.settings
        assert settings.host is not None
        try:
            if settings.port == TLS_PORT:
                context = ssl.create_default_context()
                with smtplib.SMTP_SSL(settings.host, settings.port, timeout=TIMEOUT_SECONDS,
                                      context=context) as smtp:
                    self._deliver(smtp, message)
            else:
                with smtplib.SMTP(settings.host, settings.port, timeout=TIMEOUT_SECONDS) as smtp:
                    if settings.starttls:
                        smtp.starttls(context=ssl.create_default_context())
                    self._deliver(smtp, message)
        except (OSError, smtplib.SMTPException) as error:
            log.warning("mail to the SMTP server %s:%s failed: %s", settings.host, settings.port,
                        type(error).__name__)
            raise MailError("the message could not be sent") from error

    def _deliver(self, smtp: smtplib.SMTP, message: EmailMessage) -> None:
        if self.settings.user:
            smtp.login(self.settings.user, self.settings.password or "")
        smtp.send_message(message)
