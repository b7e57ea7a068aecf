"""Errors the API answers with: a status code and a clear message, sent as
{"error": "...", "code": "...", "args": {...}}: `error` in English for API clients, `code` (stable)
and `args` for pages to say it in their language (docs/api.md lists the codes)."""

from __future__ import annotations

from typing import Any

QUOTE_LENGTH = 40
"""Error messages quote at most this many characters of what a client sent."""


def quoted(text: str, length: int = QUOTE_LENGTH) -> str:
    """`text` for an error message: its first `length` characters, marked when cut."""
    return text if len(text) <= length else f"{text[:length]}… ({len(text)} characters)"


class ApiError(Exception):
    """A rejected request. Raised before anything is written, so a rejection changes nothing."""

    def __init__(
        self,
        status: int,
        message: str,
        headers: dict[str, str] | None = None,
        *,
        code: str | None = None,
        args: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers or {}
        self.code = code or STATUS_CODES.get(status, "error")
        self.params: dict[str, Any] = args or {}
        """The `args` of the answer (not Exception.args)."""


STATUS_CODES = {
    400: "bad_http",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "not_allowed",
    408: "timeout",
    409: "conflict",
    413: "too_large",
    422: "invalid",
    429: "too_many",
    431: "headers_too_large",
    500: "internal",
    503: "unavailable",
}
"""The code of an error that has none of its own: its status's."""


def bad_request(message: str, code: str | None = None, **args: Any) -> ApiError:
    return ApiError(422, message, code=code, args=args)


def not_found(message: str, code: str | None = None, **args: Any) -> ApiError:
    return ApiError(404, message, code=code, args=args)


def forbidden(message: str, code: str | None = None, **args: Any) -> ApiError:
    return ApiError(403, message, code=code, args=args)


def unauthorized(message: str, code: str | None = None, **args: Any) -> ApiError:
    return ApiError(401, message, code=code, args=args)


def conflict(message: str, code: str | None = None, **args: Any) -> ApiError:
    return ApiError(409, message, code=code, args=args)


def too_many(message: str, retry_after: int, code: str | None = None, **args: Any) -> ApiError:
    return ApiError(
        429, f"{message}; try again in {retry_after} s", {"Retry-After": str(retry_after)},
        code=code, args={"seconds": retry_after, **args},
    )


def unavailable(message: str, code: str | None = None, **args: Any) -> ApiError:
    return ApiError(503, message, code=code, args=args)
