"""Scripted Bluffing players: instant, deterministic, for tests and benchmarks; and the questioner's baselines.

The questioner's scripted player is the game's strong player (``core.scripted``): made with the statement's
truth as its verdict, it asks the five questions and then gives it. The baselines (``core.baselines``) never read
the truth: :class:`RandomQuestioner` asks questions drawn from :data:`GENERIC_QUESTIONS` and gives a verdict drawn
at random, on a turn drawn at random; :class:`NaiveQuestioner` says "True" at once (the rules need no question).
"""

from __future__ import annotations

import re

from playeval.core.ask import Ask, Reply
from playeval.core.baselines import ask_rng
from playeval.core.match import MatchSpec
from playeval.games.bluffing.prompts import VERDICTS, verdict_line

GENERIC_QUESTIONS: tuple[str, ...] = (
    "When did this happen, or how long has it been so?",
    "Where were you at the time?",
    "Who else knows about it?",
    "What is one detail about it that most people would not expect?",
    "How do you feel about it today?",
)

RANDOM_VERDICT_SHARE = 0.2
"""The random questioner's chance of giving its verdict, rather than a question, on a turn with questions left."""
_NUMBER = re.compile(r'"Question (\d+): "')

CANNED_ANSWERS: tuple[str, ...] = (
    "It started a few years ago, in the spring.",
    "I was close to home, in my own town.",
    "My family and a couple of close friends know all about it.",
    "It took a lot more patience than most people would think.",
    "I am proud of it and I still think about it often.",
)


class ScriptedQuestioner:
    """Asks the five generic questions in order, then gives a verdict fixed when it was made (the game makes it
    with the statement's truth: the strong player)."""

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


def _number(ask: Ask) -> int:
    """The question the ask is for, as its grammar heads it (``Question N:``); else counted from the conversation."""
    grammar = ask.constraint.grammar if ask.constraint is not None else None
    found = _NUMBER.search(grammar or "")
    if found:
        return int(found.group(1))
    return sum(1 for message in ask.messages if message.role == "assistant") + 1


class RandomQuestioner:
    """The ``random`` baseline: on a turn with questions left, with probability :data:`RANDOM_VERDICT_SHARE` a
    verdict drawn at random, else a question drawn from :data:`GENERIC_QUESTIONS`; once the verdict is due, a
    verdict drawn at random. Drawn with ``ask_rng``, from the match's seed and the ask."""

    kind = "scripted"
    model: str | None = None
    max_retries = 0

    def __init__(self, spec: MatchSpec) -> None:
        self._spec = spec

    async def act(self, ask: Ask) -> Reply:
        rng = ask_rng(self._spec, "baseline random", ask)
        if ask.kind == "verdict" or rng.random() < RANDOM_VERDICT_SHARE:
            return Reply(text=verdict_line(rng.choice(VERDICTS)))
        return Reply(text=f"Question {_number(ask)}: {rng.choice(GENERIC_QUESTIONS)}")


class NaiveQuestioner:
    """The ``naive`` baseline: "I believe your statement is: True" at once, whatever is said."""

    kind = "scripted"
    model: str | None = None
    max_retries = 0

    async def act(self, ask: Ask) -> Reply:
        return Reply(text=verdict_line("True"))
