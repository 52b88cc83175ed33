"""Judges are measured, not trusted: the rates of ``analyze judge``, and the games' calibration sets."""

from __future__ import annotations

from collections import Counter
from typing import ClassVar

import pytest

from playeval.analysis import judge_verdicts, score_judge
from playeval.core import Ask, FormatError, JudgeCase, JudgedGame
from playeval.core.messages import user
from playeval.core.registry import default_registry
from playeval.models import ModelHub, ModelRequest


class _Cases:
    """Four cases: two right guesses, two wrong ones."""

    judge_case_keys: ClassVar[dict[str, str]] = {}  # its asks read no context

    def judge_cases(self) -> tuple[JudgeCase, ...]:
        return tuple(JudgeCase(id=str(n), context={}, answer=answer, correct=correct, kind=kind)
                     for n, (answer, correct, kind) in enumerate((("exact rule", True, "exact"),
                                                                  ("close words", True, "paraphrase"),
                                                                  ("a near miss", False, "near miss"),
                                                                  ("unreadable please", False, "vague"))))

    def judge_case_ask(self, case: JudgeCase) -> Ask:
        return Ask(role="judge", kind="verdict", messages=(user(case.answer),), display="", instructions="")

    def judge_case_verdict(self, ask: Ask, text: str) -> bool:
        if text not in ("yes", "no"):
            raise FormatError("say yes or no.")
        return text == "yes"


async def test_the_rates_of_a_judge() -> None:
    def lenient(request: ModelRequest) -> str:
        said = request.messages[0].content
        return "maybe" if said.startswith("unreadable") else "no" if said == "close words" else "yes"

    async with ModelHub(use_cache=False, mock_scripts={"lenient": lenient}) as hub:
        verdicts = await judge_verdicts(_Cases(), hub.get("mock/lenient"))
    result = score_judge("g", "mock/lenient", verdicts)
    assert isinstance(_Cases(), JudgedGame)
    assert result.cases == 4 and result.accuracy == pytest.approx(0.25)  # only the exact rule is judged right
    assert result.false_accept == pytest.approx(0.5) and result.false_reject == pytest.approx(0.5)
    assert result.unreadable == 1 and result.by_kind == {"exact": (1, 1), "near miss": (1, 0), "paraphrase": (1, 0),
                                                         "vague": (1, 0)}


@pytest.mark.parametrize("game_id", ["math", "static_picnic", "dynamic_picnic"])
def test_each_calibration_set_is_large_balanced_and_hard(game_id: str) -> None:
    game = default_registry().get(game_id)
    assert isinstance(game, JudgedGame)
    cases = game.judge_cases()
    assert len(cases) >= 60 and 0.4 <= sum(case.correct for case in cases) / len(cases) <= 0.6
    assert len({case.id for case in cases}) == len(cases)
    template = [case for case in cases if not case.id.startswith("hw-")]  # the hand-written set is only near half
    assert len(template) >= 60 and sum(case.correct for case in template) * 2 == len(template)
    kinds = Counter(case.kind for case in cases if not case.correct)
    assert kinds["near miss"] >= 10 and (game_id != "math" or kinds["vague"] >= 5)
    ask = game.judge_case_ask(cases[0])
    assert ask.role == "judge" and cases[0].answer in ask.messages[-1].content
    assert game.judge_case_verdict(ask, "Verdict: yes\nReason: same rule.") is True
