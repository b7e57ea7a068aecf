"""Errors the API answers with: a status code and a clear message, sent as {"error": "..."}."""

from __future__ import annotations


class ApiError(Exception):
    """A rejected request. Raised before anything is written, so a rejection changes nothing."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


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
