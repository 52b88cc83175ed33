"""Dynamic Picnic judge's calibration set: four labelled guesses for each hand-written rule (``SCRIPTED_RULES``,
one per level and taxonomy type): two right rewordings, a near miss (a condition dropped, narrower or broader, or
fitting only the examples) and a vague guess. Half are right; 60 cases in all."""

from __future__ import annotations

from playeval.core.game import JudgeCase
from playeval.games.dynamic_picnic._scripted_rules import SCRIPTED_RULES

SEEN = 3
"""Items of each side the judge is told the player saw."""


def judge_cases() -> tuple[JudgeCase, ...]:
    found: list[JudgeCase] = []
    for rule in SCRIPTED_RULES:
        seen = f"May come: {', '.join(rule.positives[:SEEN])}\nMay not come: {', '.join(rule.negatives[:SEEN])}"
        context = {"statement": rule.statement, "seen": seen}
        for index, (guess, correct, kind) in enumerate((
                (rule.paraphrases[0], True, "paraphrase"), (rule.paraphrases[1], True, "paraphrase"),
                (rule.near_miss, False, "near miss"), (rule.vague, False, "vague"))):
            found.append(JudgeCase(id=f"dynamic-L{rule.level}-{rule.type}-{index}", context=context, answer=guess,
                                   correct=correct, kind=kind))
    return tuple(found)
