"""The player contract: every seat, whoever holds it, is one async ``act``."""

from __future__ import annotations

from typing import Protocol

from playeval.core.ask import Ask, Reply


class Player(Protocol):
    """A seat's occupant.

    ``kind`` is ``llm``, ``human`` or ``scripted``; ``model`` the model address
    for an LLM; ``max_retries`` how many times a rejected reply is re-asked
    before the seat forfeits.
    """

    @property
    def kind(self) -> str: ...

    @property
    def model(self) -> str | None: ...

    @property
    def max_retries(self) -> int: ...

    async def act(self, ask: Ask) -> Reply: ...
