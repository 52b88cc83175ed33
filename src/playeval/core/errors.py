"""Error types shared across playeval.

Format errors (the reply could not be read) and rule violations (the reply was
read but is not a legal move) are kept apart, as the game-master template
needs to report them separately.
"""

from __future__ import annotations


class PlayevalError(Exception):
    """Base of every error playeval raises on purpose."""


class MoveError(PlayevalError):
    """A reply that cannot be applied; carries the reason shown to the player."""

    kind: str = "move"

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class FormatError(MoveError):
    """The reply does not follow the required format."""

    kind = "format"


class RuleViolation(MoveError):
    """The reply is well-formed but breaks a rule of the game."""

    kind = "rule"


class ConfigError(PlayevalError):
    """Bad user input: unknown game, level, model, option value."""


class NotFoundError(PlayevalError):
    """A run, match or record that does not exist."""
