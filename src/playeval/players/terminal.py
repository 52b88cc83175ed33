"""A person at the terminal."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from playeval.core.ask import Ask, Reply

HUMAN_MAX_RETRIES = 1000
REFUSAL = "Not accepted: "
"""How ``Ask.retry`` opens a re-ask's display: the reason, then the ask as it was."""


def refusal_and_block(display: str) -> tuple[str | None, str]:
    """A re-ask's display split into its newest reason line and the ask it repeats (``Ask.retry`` puts one
    ``Not accepted: ...`` line above the display for each refusal); a first ask has no reason."""
    lines = display.split("\n")
    reasons = 0
    while reasons < len(lines) - 1 and lines[reasons].startswith(REFUSAL):
        reasons += 1
    return (lines[0] if reasons else None), "\n".join(lines[reasons:])


class TerminalPlayer:
    """Shows the ask and reads one line. Input and output are injectable for tests.

    An ask asked again after a refused reply shows the reason and the prompt, not the whole block again: the
    person has just read it."""

    kind = "human"
    model: str | None = None
    max_retries = HUMAN_MAX_RETRIES

    def __init__(self, name: str = "you", *, read: Callable[[str], str] = input,
                 write: Callable[[str], None] = print) -> None:
        self._name = name
        self._read = read
        self._write = write
        self._last: tuple[str, str] | None = None

    async def act(self, ask: Ask) -> Reply:
        reason, block = refusal_and_block(ask.display)
        shown = (block, ask.instructions)
        self._write("")
        if reason is not None and self._last == shown:
            self._write(reason)
        else:
            self._write(ask.display)
            self._write(f"  ({ask.instructions})")
        self._last = shown
        line = await asyncio.to_thread(self._read, f"{self._name}> ")
        return Reply(text=line.strip())
