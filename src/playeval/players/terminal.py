"""A person at the terminal."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from playeval.core.ask import Ask, Reply

HUMAN_MAX_RETRIES = 1000


class TerminalPlayer:
    """Shows the ask and reads one line. Input and output are injectable for tests."""

    kind = "human"
    model: str | None = None
    max_retries = HUMAN_MAX_RETRIES

    def __init__(self, name: str = "you", *, read: Callable[[str], str] = input,
                 write: Callable[[str], None] = print) -> None:
        self._name = name
        self._read = read
        self._write = write

    async def act(self, ask: Ask) -> Reply:
        self._write("")
        self._write(ask.display)
        self._write(f"  ({ask.instructions})")
        line = await asyncio.to_thread(self._read, f"{self._name}> ")
        return Reply(text=line.strip())
