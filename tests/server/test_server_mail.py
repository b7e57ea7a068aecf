"""Outgoing mail (server/mail.py): settings from the environment, messages handed to an SMTP
server off the event loop, a clear error (and no message text in the log) when that fails."""

from __future__ import annotations

import asyncio
import logging

import pytest

from eixample.server.mail import Mailer, MailError, MailSettings
from tests.server.harness import free_port
from tests.server.smtp import SmtpServer, smtp  # noqa: F401  (the fixture)


def test_settings_come_from_the_environment() -> None:
    settings = MailSettings.from_env({
        "EIXAMPLE_SMTP_HOST": "mail.example.test", "EIXAMPLE_SMTP_PORT": "2525",
        "EIXAMPLE_SMTP_USER": "eixample", "EIXAMPLE_SMTP_PASSWORD": "s3cret-pass",
        "EIXAMPLE_SMTP_FROM": "games@example.test", "EIXAMPLE_SMTP_STARTTLS": "no",
    })
    assert settings.enabled
    assert (settings.host, settings.port, settings.user, settings.sender, settings.starttls) == (
        "mail.example.test", 2525, "eixample", "games@example.test", False)
    assert settings.password == "s3cret-pass" and "s3cret-pass" not in repr(settings)


def test_no_host_means_no_mail() -> None:
    settings = MailSettings.from_env({})
    assert not settings.enabled and settings.starttls and settings.port == 587
    with pytest.raises(MailError, match="no mail"):
        asyncio.run(Mailer(settings).send("ana@example.test", "hello", "text"))


def test_a_bad_port_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="EIXAMPLE_SMTP_PORT"):
        MailSettings.from_env({"EIXAMPLE_SMTP_HOST": "x", "EIXAMPLE_SMTP_PORT": "smtp"})


def test_a_message_reaches_the_smtp_server(smtp: SmtpServer) -> None:  # noqa: F811
    mailer = Mailer(MailSettings.from_env(smtp.env()))
    asyncio.run(mailer.send("núria@example.test", "Verify your address", "Open https://example.test/v#abc"))
    message = smtp.mailbox.to("example.test")
    assert message["Subject"] == "Verify your address"
    assert message["From"] == "eixample@example.test"
    assert "https://example.test/v#abc" in message.get_content()
    assert mailer.sent == 1


def test_an_unreachable_server_is_a_mail_error_and_the_log_keeps_the_text_out(
    caplog: pytest.LogCaptureFixture,
) -> None:
    settings = MailSettings(host="127.0.0.1", port=free_port(), starttls=False)
    with caplog.at_level(logging.DEBUG), pytest.raises(MailError):
        asyncio.run(Mailer(settings).send("ana@example.test", "Reset", "secret-link-token-123"))
    assert "secret-link-token-123" not in caplog.text


def test_sending_does_not_block_the_event_loop(smtp: SmtpServer) -> None:  # noqa: F811
    mailer = Mailer(MailSettings.from_env(smtp.env()))
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0)

    async def main() -> None:
        ticker = asyncio.create_task(tick())
        await asyncio.gather(*(mailer.send(f"p{n}@example.test", "hi", "text") for n in range(3)))
        ticker.cancel()

    asyncio.run(main())
    assert ticks > 3 and len(smtp.messages) == 3
