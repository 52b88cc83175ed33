"""The sandbox's error and its reasons."""

from __future__ import annotations

from typing import Final, Literal, get_args

from playeval.core.errors import PlayevalError

SandboxReason = Literal["syntax", "forbidden", "timeout", "memory", "crashed", "output_too_large"]
REASONS: Final[frozenset[str]] = frozenset(get_args(SandboxReason))

_SUMMARY: Final[dict[str, str]] = {
    "syntax": "the code is not a valid rule",
    "forbidden": "the code reached for something the sandbox forbids",
    "timeout": "the code ran out of time",
    "memory": "the code ran out of memory",
    "crashed": "the code failed",
    "output_too_large": "the code's output is too large",
}


class SandboxError(PlayevalError):
    """Untrusted code could not produce a result; ``reason`` says why, ``detail`` says what happened.

    ``str(error)`` reads ``"<reason>: <summary>: <detail>"``, for instance
    ``"timeout: the code ran out of time: the code ran longer than 2 s and was killed"``.
    """

    reason: SandboxReason
    detail: str

    def __init__(self, reason: SandboxReason, detail: str) -> None:
        if reason not in REASONS:
            raise ValueError(f"unknown sandbox reason {reason!r}; expected one of {sorted(REASONS)}")
        super().__init__(reason, detail)
        self.reason = reason
        self.detail = detail

    def __str__(self) -> str:
        return f"{self.reason}: {_SUMMARY[self.reason]}: {self.detail}"


def as_reason(text: object) -> SandboxReason | None:
    """``text`` as a reason, or ``None`` when it is not one (a worker's answer is not trusted)."""
    for reason in get_args(SandboxReason):
        if text == reason:
            found: SandboxReason = reason
            return found
    return None
