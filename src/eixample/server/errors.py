"""Errors the API answers with: a status code and a clear message, sent as {"error": "..."}."""

from __future__ import annotations

QUOTE_LENGTH = 40
"""Error messages quote at most this many characters of what a client sent."""


def quoted(text: str, length: int = QUOTE_LENGTH) -> str:
    """`text` for an error message: its first `length` characters, marked when cut."""
    return text if len(text) <= length else f"{text[:length]}… ({len(text)} characters)"


class ApiError(Exception):
    """A rejected request. Raised before anything is written, so a rejection changes nothing."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers or {}


def bad_request(message: str) -> ApiError:
    return ApiError(422, message)


def not_found(message: str) -> ApiError:
    return ApiError(404, message)


def forbidden(message: str) -> ApiError:
    return ApiError(403, message)


def unauthorized(message: str) -> ApiError:
    return ApiError(401, message)


def conflict(message: str) -> ApiError:
    return ApiError(409, message)


def too_many(message: str, retry_after: int) -> ApiError:
    return ApiError(429, f"{message}; try again in {retry_after} s", {"Retry-After": str(retry_after)})


def unavailable(message: str) -> ApiError:
    return ApiError(503, message)
