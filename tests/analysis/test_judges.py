"""Judges are measured, not trusted: the rates of ``analyze judge``, and the games' calibration sets."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import ClassVar

import pytest

from playeval.analysis import judge_verdicts, score_judge
from playeval.analysis.judges import JudgeCaseError, case_asks
from playeval.core import Ask, FormatError, JudgeCase, JudgedGame
from playeval.core.messages import user
from playeval.core.registry import default_registry
from playeval.core.verdicts import VerdictQuestion
from playeval.models import ModelHub, ModelRequest, ProviderResult


class _Cases:
    """Four cases: two right guesses, two wrong ones."""

    judge_case_keys: ClassVar[Mapping[str, str]] = MappingProxyType({})

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


def test_the_calibration_doc_lists_every_judged_games_context_keys() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "judge-calibration.md").read_text("utf-8")
    section = doc.split("### Each game's context keys", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    judged = [game for game in default_registry() if isinstance(game, JudgedGame)]
    assert judged
    for game in judged:
        start = next(n for n, row in enumerate(rows) if f"`{game.id}`" in row.split("|")[1])
        block = [rows[start], *(row for row in _continuation(rows[start + 1:]))]
        for key, what in game.judge_case_keys.items():
            assert any(f"| `{key}` | {what} |" in row for row in block), (game.id, key)


def _continuation(rows: list[str]) -> list[str]:
    """The rows after a game's first that belong to it (an empty game cell)."""
    found: list[str] = []
    for row in rows:
        if row.split("|")[1].strip():
            break
        found.append(row)
    return found


class _Probable(_Cases):
    """The same cases asked with a verdict question, so a model may give its answers' probabilities."""

    judge_case_keys: ClassVar[Mapping[str, str]] = MappingProxyType({"rule": "the rule"})

    def judge_cases(self) -> tuple[JudgeCase, ...]:
        return tuple(case.model_copy(update={"context": {"rule": "r"}}) for case in super().judge_cases())

    def judge_case_ask(self, case: JudgeCase) -> Ask:
        if case.context["rule"] != "r":
            raise ValueError("an unknown rule")
        return super().judge_case_ask(case).model_copy(update={"verdict": VerdictQuestion(answers=("yes", "no"),
                                                                                          accept=("yes",))})


async def test_verdicts_keep_the_probability_of_accepting() -> None:
    def sure(request: ModelRequest) -> ProviderResult:
        said = request.messages[0].content
        if said.startswith("unreadable"):
            return ProviderResult(text="maybe")
        return ProviderResult(text="yes", answer_probs=({"yes": 0.8 if said == "exact rule" else 0.6, "no": 0.2},))

    game = _Probable()
    async with ModelHub(use_cache=False, mock_scripts={"sure": sure}) as hub:
        verdicts = await judge_verdicts(game, hub.get("mock/sure"))
    assert [v.p_accept for v in verdicts] == [0.8, 0.6, 0.6, None]  # an unreadable reply keeps no probability
    assert [v.accepted for v in verdicts] == [True, True, True, None]
    assert [v.decided(0.7) for v in verdicts] == [True, False, False, None]
    assert all(v.question == "verdict" for v in verdicts)


def test_a_case_the_game_cannot_ask_about_names_its_id() -> None:
    game = _Probable()
    with pytest.raises(JudgeCaseError, match=r"^case 0 \(g\): its context lacks rule \(rule: the rule\)$"):
        case_asks(game, [JudgeCase(id="0", context={}, answer="a", correct=True, kind="k")], name="g")
    with pytest.raises(JudgeCaseError, match=r"^case 1: the game cannot ask about it \(ValueError: an unknown rule"):
        case_asks(game, [JudgeCase(id="1", context={"rule": "s"}, answer="a", correct=True, kind="k")])
