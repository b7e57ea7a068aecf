"""Loaded into a test's server process: every "your turn" mail (one with an unsubscribe link)
waits a while before it is handed to the SMTP server, after leaving a file `mail-sending` in the
process's folder, so that a test can kill the process while it is sending."""

from __future__ import annotations

import time
from email.message import EmailMessage
from pathlib import Path

from eixample.server.mail import Mailer

PAUSE_SECONDS = 30.0
_send = Mailer._send


def _slow_send(self: Mailer, message: EmailMessage) -> None:
    if message["List-Unsubscribe"] is not None:
        Path("mail-sending").write_text(str(message["To"]))
        time.sleep(PAUSE_SECONDS)
    _send(self, message)


Mailer._send = _slow_send  # type: ignore[method-assign]
