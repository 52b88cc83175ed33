"""Scripted Bluffing players: instant, deterministic, for tests and benchmarks."""

from __future__ import annotations

from playeval.core.ask import Ask, Reply
from playeval.games.bluffing.prompts import verdict_line

GENERIC_QUESTIONS: tuple[str, ...] = (
    "When did this happen, or how long has it been so?",
    "Where were you at the time?",
    "Who else knows about it?",
    "What is one detail about it that most people would not expect?",
    "How do you feel about it today?",
)

CANNED_ANSWERS: tuple[str, ...] = (
    "It started a few years ago, in the spring.",
    "I was close to home, in my own town.",
    "My family and a couple of close friends know all about it.",
    "It took a lot more patience than most people would think.",
    "I am proud of it and I still think about it often.",
)


class ScriptedQuestioner:
    """Asks the five generic questions in order, then gives a verdict fixed when it was made."""

    kind = "scripted"
    model: str | None = None
    max_retries = 0

    def __init__(self, verdict: str) -> None:
        self._verdict = verdict

    @property
    def verdict(self) -> str:
        """``True`` or ``False``: what this player will conclude, whatever it hears."""
        return self._verdict

    async def act(self, ask: Ask) -> Reply:
        asked = sum(1 for message in ask.messages if message.role == "assistant")
        if ask.kind == "verdict" or asked >= len(GENERIC_QUESTIONS):
            return Reply(text=verdict_line(self._verdict))
        return Reply(text=f"Question {asked + 1}: {GENERIC_QUESTIONS[asked]}")


class ScriptedBluffer:
    """Gives the same short, mutually consistent answers whatever the statement."""

    kind = "scripted"
    model: str | None = None
    max_retries = 0

    async def act(self, ask: Ask) -> Reply:
        questions = sum(1 for message in ask.messages if message.role == "user")
        return Reply(text=CANNED_ANSWERS[(questions - 1) % len(CANNED_ANSWERS)])
