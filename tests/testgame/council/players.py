"""Council's scripted players: instant and deterministic, for tests and ``--opponent scripted``."""

from __future__ import annotations

from playeval.core import Ask, Reply


class ScriptedSeat:
    """Gives a plain clue, and votes for the other team's seats in turn."""

    kind = "scripted"
    model: str | None = None
    max_retries = 0

    def __init__(self, seat: str) -> None:
        self._seat = seat

    async def act(self, ask: Ask) -> Reply:
        if ask.kind == "vote":  # west splits the blue vote, so that votes put seats out
            choices = ask.constraint.choices if ask.constraint and ask.constraint.choices else ("",)
            number = ask.display.split()[1].rstrip(":")
            turn = (int(number) if number.isdigit() else 0) + (1 if self._seat == "west" else 0)
            return Reply(text=choices[turn % len(choices)])
        return Reply(text=f"Something {self._seat} thinks of first")


class ScriptedJudge:
    """Finds every clue on topic."""

    kind = "scripted"
    model: str | None = None
    max_retries = 0

    async def act(self, ask: Ask) -> Reply:
        return Reply(text="fits")
