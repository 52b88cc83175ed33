"""Scripted players of the guess-the-rule games, for tests and ``--opponent scripted``: a solver that knows the
rule's statement and the check's answers, and a judge that accepts only the rule's own words (given, or read from
its ask when the rule was written during the match)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from playeval.core.ask import Ask, Reply
from playeval.core.normalize import normalize_name
from playeval.guess_rule.base import CONCEALED, HeldOut


class StatementSolver:
    """Asks for ``more`` example units once, then states the rule and answers the check right."""

    kind = "scripted"
    model: str | None = None
    max_retries = 0

    def __init__(self, statement: str, held_out: Sequence[HeldOut], more: int = 1) -> None:
        self._statement = statement
        self._held_out = tuple(held_out)
        self._more = more

    async def act(self, ask: Ask) -> Reply:
        if ask.kind == "apply":
            return Reply(text="\n".join(f"{n}. {item.answer}" for n, item in enumerate(self._held_out, start=1)))
        asked_more = any(message.content.startswith("MORE:") for message in ask.messages)
        return Reply(text=f"GUESS: {self._statement}" if asked_more else f"MORE: {self._more}")


class StatementJudge:
    """Says yes exactly when the guess, normalised, is the rule's statement: ``statement``, or (``None``) the
    rule the judge's ask states."""

    kind = "scripted"
    model: str | None = None
    max_retries = 0

    def __init__(self, statement: str | None) -> None:
        self._statement = statement

    async def act(self, ask: Ask) -> Reply:
        guess = re.sub(r"^Guess:\s*", "", ask.display)
        statement = self._statement
        if statement is None:
            stated = (m.content for m in ask.messages if m.role == "user" and m.content.startswith(CONCEALED))
            statement = next(stated, CONCEALED).splitlines()[0].removeprefix(CONCEALED)
        same = normalize_name(guess) == normalize_name(statement)
        return Reply(text=f"Verdict: {'yes' if same else 'no'}\nReason: compared with the rule's own words.")
