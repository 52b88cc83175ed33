"""Dynamic Picnic judge's calibration set: four labelled guesses for each hand-written rule (``SCRIPTED_RULES``,
one per level and taxonomy type): two right rewordings, a near miss (a condition dropped, narrower or broader, or
fitting only the examples) and a vague guess. Half are right; 60 cases in all."""

from __future__ import annotations

from collections.abc import Mapping

from playeval.core.game import JudgeCase
from playeval.core.judge_cases import packaged_cases
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


WRITTEN = "data/judge_cases_written.jsonl"
"""The hand-written set (``data/PROVENANCE.md``): guesses written as players phrase them, on contexts from real
rules, not made from the templates above; the set the judge's accuracy is best read on."""


def written_cases(keys: Mapping[str, str]) -> tuple[JudgeCase, ...]:
    """The hand-written set, every case checked to hold ``keys`` (the game's ``judge_case_keys``)."""
    return packaged_cases("playeval.games.dynamic_picnic", WRITTEN, "dynamic_picnic", keys)
