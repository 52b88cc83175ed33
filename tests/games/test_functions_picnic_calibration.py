"""The Code Functions Picnic judge's calibration set: balanced, varied, and consistent with its rules."""

from __future__ import annotations

from collections import Counter

from playeval.games.functions_picnic.calibration import judge_cases
from playeval.games.functions_picnic.library import RULE_FUNCTION, rule_by_id
from playeval.sandbox import run_function


def test_the_set_is_large_balanced_and_has_near_misses_and_vague_guesses() -> None:
    cases = judge_cases()
    assert len(cases) >= 60 and len({case.id for case in cases}) == len(cases)
    assert sum(case.correct for case in cases) * 2 == len(cases)
    kinds = Counter(case.kind for case in cases if not case.correct)
    assert kinds["near miss"] >= 16 and kinds["vague"] >= 6
    assert {case.id.split("-")[1][:2] for case in cases} == {"L1", "L2", "L3"}


def test_the_words_shown_to_the_judge_pass_and_fail_their_rules_in_the_sandbox() -> None:
    for case in judge_cases()[::4]:
        rule_id = case.id.removeprefix("functions-").rsplit("-", 1)[0]
        seen = str(case.context["seen"])
        passing, failing = (line.split(": ", 1)[1].split(", ") for line in seen.splitlines())
        words = [*passing, *failing]
        results = run_function(rule_by_id(rule_id).source, RULE_FUNCTION, [(word,) for word in words])
        assert results == [True] * len(passing) + [False] * len(failing), (rule_id, words, results)
        assert case.context["statement"] == rule_by_id(rule_id).statement
