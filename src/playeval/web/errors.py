"""The requests the arena refuses, each with its HTTP status and a message for the person."""

from __future__ import annotations

NO_SUCH_MATCH = "no such match"


class ArenaError(Exception):
    """A request the arena refuses; ``status`` is the HTTP status, ``detail`` the message for the person."""

    status = 400

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class NotFound(ArenaError):
    status = 404


class Forbidden(ArenaError):
    status = 403


class Conflict(ArenaError):
    status = 409


class Invalid(ArenaError):
    status = 422


class Busy(ArenaError):
    status = 429


class MoveRefused(Invalid):
    """A person's move the rules refused: the reason, and the log's seq after the refusal was recorded."""

    def __init__(self, detail: str, seq: int) -> None:
        super().__init__(detail)
        self.seq = seq
