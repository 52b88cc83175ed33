"""Undercover's scripted players: instant and deterministic, for tests and ``--opponent scripted``."""

from __future__ import annotations

from playeval.core import Ask, Reply

_SENTENCES: tuple[str, ...] = (
    "You come across it more often than you might think",
    "Most people could picture it without much effort",
    "It tends to show up in everyday conversation",
    "Children usually learn about it fairly early",
    "It can look rather different from one place to another",
    "People have opinions about it",
)


class ScriptedSeat:
    """Says a plain sentence (a different one each round and seat) and votes for the first seat offered."""

    kind = "scripted"
    model: str | None = None
    max_retries = 0

    def __init__(self, seat: str) -> None:
        self._seat = seat

    async def act(self, ask: Ask) -> Reply:
        if ask.kind == "vote":
            choices = ask.constraint.choices if ask.constraint and ask.constraint.choices else ("",)
            return Reply(text=choices[0])
        number = int("".join(ch for ch in self._seat if ch.isdigit()) or 0)
        round_ = int(ask.display.split()[1].rstrip(".:")) if ask.display.startswith("Round") else 1
        return Reply(text=f"{_SENTENCES[(number + round_) % len(_SENTENCES)]} (take {round_}).")


_VERDICTS = {"novelty": "no", "relevance": "partly", "reasonableness": "yes"}
"""The scripted judge's answer per scale: not a repeat, somewhat telling, true."""


class ScriptedJudge:
    """Finds every sentence new (it is no repeat), fairly relevant (partly) and true."""

    kind = "scripted"
    model: str | None = None
    max_retries = 0

    async def act(self, ask: Ask) -> Reply:
        return Reply(text=_VERDICTS.get(ask.kind, "yes"))
