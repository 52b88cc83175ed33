"""Signal's scripted player: picks the symbol first in alphabetical order, the focal point a partner can find."""

from __future__ import annotations

from playeval.core import Ask, Reply


class FocalPlayer:
    kind = "scripted"
    model: str | None = None
    max_retries = 0

    async def act(self, ask: Ask) -> Reply:
        choices = ask.constraint.choices if ask.constraint is not None and ask.constraint.choices else ("",)
        return Reply(text=min(choices))
