"""Scripted Math Game players for tests and ``--opponent scripted``: a solver that knows the rule, and a judge
that accepts only the rule's own words."""

from __future__ import annotations

import re

from playeval.core.ask import Ask, Reply
from playeval.core.normalize import normalize_name
from playeval.games.math.sequences import MathRule, held_out


class ScriptedSolver:
    """Asks for two more values once, then states the rule in its own words and applies it exactly."""

    kind = "scripted"
    model: str | None = None
    max_retries = 0

    def __init__(self, rule: MathRule) -> None:
        self._rule = rule

    async def act(self, ask: Ask) -> Reply:
        if ask.kind == "apply":
            pairs = held_out(self._rule) or []
            return Reply(text="\n".join(f"{number}. {following}"
                                        for number, (_, _, following) in enumerate(pairs, start=1)))
        asked_more = any(message.content.startswith("MORE:") for message in ask.messages)
        return Reply(text=f"GUESS: {self._rule.describe()}" if asked_more else "MORE: 2")


class ScriptedJudge:
    """Says yes exactly when the guess, normalised, is the rule's own description."""

    kind = "scripted"
    model: str | None = None
    max_retries = 0

    def __init__(self, rule: MathRule) -> None:
        self._rule = rule

    async def act(self, ask: Ask) -> Reply:
        guess = re.sub(r"^Guess:\s*", "", ask.display)
        same = normalize_name(guess) == normalize_name(self._rule.describe())
        return Reply(text=f"Verdict: {'yes' if same else 'no'}\nReason: compared with the rule's own words.")
