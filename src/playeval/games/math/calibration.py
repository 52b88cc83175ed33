"""The Math Game judge's calibration set: labelled rule/guess pairs, made from rules drawn at fixed seeds with
guess templates written for playeval (right: the rule in other words or as a formula; wrong: a wrong number or
operation, a dropped sign, swapped or missing odd and even steps, a vague description). Half are right."""

from __future__ import annotations

import random
from collections.abc import Mapping

from playeval.core.game import JudgeCase
from playeval.core.judge_cases import packaged_cases
from playeval.games.math.sequences import MathRule, Step, draw_rule

_FORMULA = {"add": "+", "sub": "-", "mul": "*", "div": "/"}
_VAGUE = ("the numbers follow a pattern", "each number depends on the one before", "the values keep changing",
          "it alternates between two operations", "some arithmetic is applied each step")


def _paraphrase(step: Step) -> str:
    k = step.operand
    return {"add": f"add {k} to each number to get the next", "sub": f"each number is {k} less than the one before",
            "mul": f"each term is the previous term times {k}",
            "div": f"the next number is the previous one divided by {k}"}[step.op]


def _formula(step: Step) -> str:
    return f"a(n+1) = a(n) {_FORMULA[step.op]} {step.operand}"


def _wrong(step: Step, rng: random.Random) -> tuple[str, str]:
    """A near miss: the same operation with another number, or another operation with the same number."""
    if rng.random() < 0.5:
        return _paraphrase(Step(step.op, step.operand + (1 if step.operand > 0 else -1))), "near miss"
    other = {"add": "mul", "sub": "div", "mul": "add", "div": "sub"}[step.op]
    return _paraphrase(Step(other, abs(step.operand))), "near miss"  # type: ignore[arg-type]


def _cases_for(rule: MathRule, level: int, number: int, rng: random.Random) -> list[tuple[str, bool, str]]:
    if level < 3:
        cases = [(_paraphrase(rule.even), True, "paraphrase"), (_formula(rule.even), True, "formula")]
        if level == 2:
            cases.append((_paraphrase(Step(rule.even.op, abs(rule.even.operand))), False, "near miss"))
        else:
            wrong, kind = _wrong(rule.even, rng)
            cases.append((wrong, False, kind))
        cases.append((_VAGUE[number % len(_VAGUE)], False, "vague"))
        return cases
    even, odd = rule.even, rule.odd
    return [
        (f"at even positions {_paraphrase(even).lower()}, and at odd positions {_paraphrase(odd).lower()}", True,
         "paraphrase"),
        (f"even index: {_formula(even)}; odd index: {_formula(odd)}", True, "formula"),
        (f"at even positions {_paraphrase(odd).lower()}, and at odd positions {_paraphrase(even).lower()}", False,
         "near miss"),
        (f"{_paraphrase(even)}, at every step", False, "near miss"),
    ]


def judge_cases() -> tuple[JudgeCase, ...]:
    """88 labelled cases: 8 rules at L1, 6 at L2 and 8 at L3, four guesses each, half of them right."""
    found: list[JudgeCase] = []
    rng = random.Random(20261123)
    for level, count in ((1, 8), (2, 6), (3, 8)):
        for number in range(count):
            rule = draw_rule(level, random.Random(1000 * level + number))
            seen = ", ".join(map(str, (rule.sequence() or [])[:5]))
            for index, (guess, correct, kind) in enumerate(_cases_for(rule, level, number, rng)):
                found.append(JudgeCase(id=f"math-L{level}-{number}-{index}", context={
                    "statement": rule.describe(), "seen": f"Values of the sequence: {seen}"}, answer=guess,
                    correct=correct, kind=kind))
    return tuple(found)


WRITTEN = "data/judge_cases_written.jsonl"
"""The hand-written set (``data/PROVENANCE.md``): guesses written as players phrase them, on contexts from real
rules, not made from the templates above; the set the judge's accuracy is best read on."""


def written_cases(keys: Mapping[str, str]) -> tuple[JudgeCase, ...]:
    """The hand-written set, every case checked to hold ``keys`` (the game's ``judge_case_keys``)."""
    return packaged_cases("playeval.games.math", WRITTEN, "math", keys)
