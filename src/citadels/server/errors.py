"""The errors a client is told about."""

from __future__ import annotations

from typing import Any


class ServerError(Exception):
    """An error a client is told about: a stable ``code``, a message, maybe a rule."""

    def __init__(
        self,
        code: str,
        message: str,
        status: int = 400,
        rule: str | None = None,
        retry_after: int | None = None,
    ):
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.rule = rule
        #: Seconds a refused client should wait (HTTP's ``Retry-After``), if it should.
        self.retry_after = retry_after

    def to_json(self) -> dict[str, Any]:
        """The error as the ``error`` message's fields."""
        return {"code": self.code, "message": self.message, "rule": self.rule}
