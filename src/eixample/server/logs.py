"""The server's log: one JSON object a line (or plain text, `log_format = "text"`), every event
of a request carrying the request's id, which the answer carries too (`X-Request-ID`) and the
page shows with an error (docs/deploy.md, Logs).

What is logged of a request is its method, path (never its query or headers), status, time and
client address: seat tokens, creator tokens and passwords travel in headers and bodies, which are
never logged.
"""

from __future__ import annotations

import contextvars
import itertools
import json
import logging
import secrets
import sys
import time
from datetime import UTC, datetime
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from eixample.server import metrics

REQUEST_ID: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)
HEADER = b"x-request-id"
FIELDS = ("event", "method", "path", "status", "ms", "client", "code", "game")
"""The extra fields an event may carry (`log.info(..., extra={"event": "request", ...})`)."""

access = logging.getLogger("eixample.access")


def request_id() -> str | None:
    """The id of the request being served, if any."""
    return REQUEST_ID.get()


class JsonLines(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        rid = getattr(record, "request_id", None) or REQUEST_ID.get()
        if rid:
            entry["request_id"] = rid
        for name in FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                entry[name] = value
        if record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


class Text(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        rid = getattr(record, "request_id", None) or REQUEST_ID.get()
        line = super().format(record)
        return f"{line} [{rid}]" if rid else line


class NoFrames(logging.Filter):
    """Drops the WebSocket library's debug lines that show each frame's content (a hello holds a
    seat token)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.levelno <= logging.DEBUG and str(record.msg).startswith(FRAME_MARKS))


FRAME_MARKS = ("< ", "> ", "% ")


def configure(level: str = "info", form: str = "json") -> None:
    """Send every log record (the server's, uvicorn's, SQLAlchemy's warnings) to stderr, one line
    each, from `level` up."""
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(NoFrames())
    if form == "json":
        handler.setFormatter(JsonLines())
    else:
        handler.setFormatter(Text("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers.clear()
        logger.propagate = True
        logger.setLevel(level.upper())
    logging.getLogger("uvicorn.access").disabled = True  # RequestLog below logs each request
    logging.getLogger("alembic").setLevel(max(logging.WARNING, root.level))  # its chatter at each start


def log_config() -> None:
    """uvicorn's `log_config`: none (configure() has set up logging already)."""
    return None


_PROCESS = secrets.token_hex(3)
_COUNT = itertools.count(1)


def next_request_id() -> str:
    """A request's id: this process's random prefix and its count of requests. It only has to
    tell requests apart in the logs (it is no secret), and a random id per request cost a system
    call, about 5% of the server's time per move."""
    return f"{_PROCESS}{next(_COUNT):06x}"


class RequestLog:
    """Gives each request an id (`X-Request-ID` on the answer), logs it when answered, and counts
    error answers (eixample_refusals_total). Pure ASGI, outermost."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        rid = next_request_id()
        token = REQUEST_ID.set(rid)
        started = time.perf_counter()
        answer: dict[str, int] = {}

        async def tagged(message: Message) -> None:
            kind = message["type"]
            if kind == "http.response.start":
                answer["status"] = int(message["status"])
                message = {**message, "headers": [*message.get("headers", []), (HEADER, rid.encode())]}
            elif kind == "websocket.accept":
                answer["status"] = 101
                message = {**message, "headers": [*message.get("headers", []), (HEADER, rid.encode())]}
            elif kind == "websocket.close":
                answer.setdefault("status", 403)  # closed before it was accepted: refused
                answer["code"] = int(message.get("code", 1000))
            await send(message)

        try:
            await self.app(scope, receive, tagged)
        except Exception:
            answer["status"] = 500
            raise
        finally:
            status = answer.get("status", 500 if scope["type"] == "http" else 0)
            if status >= 400:
                metrics.REFUSALS.labels(str(status)).inc()
            client = scope.get("client")
            access.info(
                "%s %s %s", scope.get("method", "WS"), scope.get("path", ""), status,
                extra={
                    "event": "request" if scope["type"] == "http" else "websocket",
                    "method": scope.get("method", "GET"), "path": scope.get("path", ""),
                    "status": status, "code": answer.get("code"),
                    "ms": round((time.perf_counter() - started) * 1000, 1),
                    "client": client[0] if client else None,
                },
            )
            REQUEST_ID.reset(token)
