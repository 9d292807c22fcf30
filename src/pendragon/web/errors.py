"""The error a table refuses a request with: :class:`TableError` (its code, message and HTTP
status travel unchanged to the page, over HTTP or the WebSocket)."""

from __future__ import annotations


class TableError(Exception):
    """A request the table refuses; ``code`` is machine-readable, ``status`` its HTTP code."""

    def __init__(self, code: str, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status

