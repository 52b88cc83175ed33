"""The hand-written labelled sets of the guess-the-rule games (``data/judge_cases_written.jsonl``): large, balanced,
varied, on contexts the games really show, every case askable as in a match; and Dynamic Picnic's validator
cases, asked with the match's check ask."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from playeval.core import FormatError, JudgeCase, JudgedGame
from playeval.core.judge_cases import CaseFileError, packaged_cases
from playeval.core.registry import default_registry
from playeval.games.dynamic_picnic.game import DynamicPicnic
from playeval.games.dynamic_picnic.master import VALIDATOR
from playeval.games.functions_picnic.library import RULE_FUNCTION, rules_at_level
from playeval.games.math.rules import MathGame
from playeval.games.static_picnic.data import load_rules
from playeval.guess_rule import JUDGE
from playeval.guess_rule.base import CONCEALED
from playeval.sandbox import run_function

GAMES = ("static_picnic", "functions_picnic", "math", "dynamic_picnic")


def _game(game_id: str) -> JudgedGame:
    game = default_registry().get(game_id)
    assert isinstance(game, JudgedGame)
    return game


def _written(game_id: str) -> list[JudgeCase]:
    return [case for case in _game(game_id).judge_cases() if case.id.startswith("hw-")]


def _guesses(game_id: str) -> list[JudgeCase]:
    return [case for case in _written(game_id) if case.context.get("scale") != "check"]


def _seen(case: JudgeCase) -> tuple[list[str], list[str]]:
    """The items a listed game's context shows on each side."""
    come, not_come = (line.split(": ", 1)[1].split(", ") for line in str(case.context["seen"]).splitlines())
    return come, not_come


@pytest.mark.parametrize("game_id", GAMES)
def test_each_written_set_is_large_balanced_varied_and_covers_every_level(game_id: str) -> None:
    every = _game(game_id).judge_cases()
    assert len({case.id for case in every}) == len(every)  # the template set's ids and these do not clash
    cases = _guesses(game_id)
    assert len(cases) >= 48
    right = sum(case.correct for case in cases)
    assert 0.35 <= right / len(cases) <= 0.65, (right, len(cases))
    kinds = Counter(case.kind for case in cases)
    assert len(kinds) >= 6 and kinds["near miss"] >= 10 and kinds["consistent but wrong"] >= 4, kinds
    assert {kind for kind in kinds if any(c.correct for c in cases if c.kind == kind)} >= {"exact", "paraphrase"}
    assert all(not case.correct for case in cases if case.kind in ("near miss", "vague", "wrong",
                                                                   "consistent but wrong"))
    levels = Counter(found.group(1) for case in cases if (found := re.search(r"-(L[123])-", case.id)))
    assert set(levels) == {"L1", "L2", "L3"} and min(levels.values()) >= 10, levels
    assert len({str(case.context["statement"]) for case in cases}) >= 15


@pytest.mark.parametrize("game_id", GAMES)
def test_every_written_case_is_asked_as_in_a_match(game_id: str) -> None:
    game = _game(game_id)
    for case in _written(game_id):
        ask = game.judge_case_ask(case)
        assert case.answer in ask.messages[-1].content, case.id
        assert str(case.context["statement"]) in ask.messages[-1].content, case.id
        if case.context.get("scale") != "check":
            assert ask.role == JUDGE and ask.messages[-1].content.startswith(CONCEALED), case.id
            assert str(case.context["seen"]) in ask.messages[-1].content, case.id


def _step(words: str) -> tuple[str, int]:
    op, number = words.rsplit(" ", 1)
    return op, int(number)


def _next(value: int, step: tuple[str, int]) -> int:
    op, number = step
    if op == "divide by":
        assert value % number == 0
        return value // number
    return {"add": value + number, "subtract": value - number, "multiply by": value * number}[op]


def test_every_math_context_shows_values_its_statement_makes() -> None:
    statements = set()
    for case in _guesses("math"):
        statement = str(case.context["statement"])
        statements.add(statement)
        alternating = re.fullmatch(r"each value is the previous value: (.+) when the previous value's index is even "
                                   r"\(the first value has index 0\), and (.+) when it is odd", statement)
        single = re.fullmatch(r"each value is the previous value: (.+)", statement)
        assert single is not None, statement
        even, odd = (_step(alternating.group(1)), _step(alternating.group(2))) if alternating else \
            (_step(single.group(1)),) * 2
        values = [int(line.split(": ")[1]) for line in str(case.context["seen"]).splitlines()[1:]]
        assert len(values) >= 3, case.id
        for index in range(len(values) - 1):
            assert values[index + 1] == _next(values[index], even if index % 2 == 0 else odd), case.id
    assert sum("divide by 3" in statement and "when" not in statement for statement in statements) >= 1


def test_math_has_short_natural_right_guesses_at_every_level() -> None:
    """The kind of guess a tester saw the default judge refuse ("divide by 3", "x/3"): short, and right."""
    short = Counter(case.id.split("-")[2] for case in _guesses("math") if case.correct and len(case.answer) <= 16)
    assert all(short[level] >= 3 for level in ("L1", "L2", "L3")), short
    division = [case.answer for case in _guesses("math") if case.correct
                and case.context["statement"] == "each value is the previous value: divide by 3"]
    assert {"divide by 3", "x/3"} <= set(division) and len(division) >= 8


def test_static_picnic_contexts_are_rules_of_the_data_with_their_items() -> None:
    rules = {rule.statement: set(rule.positives) for rule in load_rules()}
    for case in _guesses("static_picnic"):
        come, not_come = _seen(case)
        members = rules[str(case.context["statement"])]
        assert set(come) <= members and not set(not_come) & members, case.id


def test_functions_picnic_contexts_show_words_that_pass_and_fail_their_rule() -> None:
    library = {rule.statement: rule for level in (1, 2, 3) for rule in rules_at_level(level)}  # type: ignore[arg-type]
    contexts = {(str(case.context["statement"]), str(case.context["seen"])): case for case in
                _guesses("functions_picnic")}
    for case in contexts.values():
        passing, failing = _seen(case)
        results = run_function(library[str(case.context["statement"])].source, RULE_FUNCTION,
                               [(word,) for word in (*passing, *failing)])
        assert results == [True] * len(passing) + [False] * len(failing), case.id


def test_dynamic_picnic_validator_cases_are_asked_with_the_match_check_ask() -> None:
    game = DynamicPicnic()
    cases = [case for case in _written("dynamic_picnic") if case.context.get("scale") == "check"]
    assert len(cases) >= 40 and {case.kind for case in cases} == {"validator"}
    fits = sum(case.correct for case in cases)
    assert 0.35 <= fits / len(cases) <= 0.65
    assert len({str(case.context["statement"]) for case in cases}) >= 8
    by_item = {(case.context["statement"], case.answer): case.correct for case in cases}
    assert by_item[("Items found in the office", "printer")] and by_item[("Items found in the office", "keyboard")]
    for case in cases:
        assert case.answer == case.context["item"], case.id
        ask = game.judge_case_ask(case)
        assert ask.role == VALIDATOR and ask.kind == "check" and ask.verdict is not None
        assert ask.messages[-1].content.endswith(f"\n1. {case.answer}"), case.id
    ask = game.judge_case_ask(cases[0])
    assert game.judge_case_verdict(ask, "1. yes") is True and game.judge_case_verdict(ask, "1. no") is False
    with pytest.raises(FormatError):
        game.judge_case_verdict(ask, "Verdict: yes")
    guess = game.judge_case_ask(_guesses("dynamic_picnic")[0])
    assert game.judge_case_verdict(guess, "Verdict: no\nReason: too broad.") is False


@pytest.mark.parametrize(("context", "said"), [
    ({"scale": "check", "statement": "Fruits"}, "a validator case needs 'item'"),
    ({"scale": "check", "item": "mango"}, "a validator case needs 'statement'"),
    ({"statement": "Fruits"}, "a guess case needs 'seen'"),
    ({"scale": "guess", "seen": "May come: pear"}, "a guess case needs 'statement'"),
    ({"scale": "checks", "statement": "Fruits", "item": "mango"}, "unknown scale 'checks'"),
])
def test_a_dynamic_picnic_case_lacking_a_key_of_its_scale_is_refused_by_name(context: dict[str, str],
                                                                              said: str) -> None:
    case = JudgeCase(id="hw-broken-1", context=context, answer="mango", correct=True, kind="validator")
    with pytest.raises(ValueError, match=re.escape(said)) as raised:
        DynamicPicnic().judge_case_ask(case)
    assert "hw-broken-1" in str(raised.value)
    assert set(DynamicPicnic.judge_case_keys) == {"statement"}  # what every case needs, whatever its scale


def _package(root: Path, lines: list[str]) -> str:
    """A package under ``root`` holding ``data/cases.jsonl``, named after ``root`` (a name imported once stays)."""
    package = root / f"cases_{re.sub(r'[^a-z0-9]', '_', root.name.lower())}"
    (package / "data").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "data" / "cases.jsonl").write_text("\n".join(lines) + "\n")
    return package.name


def test_the_loader_refuses_a_case_lacking_a_key_naming_the_case(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    good = ('{"game": "math", "id": "hw-ok-1", "context": {"statement": "s", "seen": "v"}, "answer": "x/3", '
            '"correct": true, "kind": "formula"}')
    lacking = ('{"game": "math", "id": "hw-lost-seen", "context": {"statement": "s"}, "answer": "x/3", '
               '"correct": true, "kind": "formula"}')
    monkeypatch.syspath_prepend(str(tmp_path))
    name = _package(tmp_path, [good, lacking])
    assert len(packaged_cases(name, "data/cases.jsonl", "math")) == 2  # without keys, only the fields are checked
    with pytest.raises(CaseFileError, match=r"case hw-lost-seen\): the context lacks 'seen'"):
        packaged_cases(name, "data/cases.jsonl", "math", MathGame.judge_case_keys)


def test_the_loader_refuses_a_case_lacking_a_field_naming_the_case(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    no_label = '{"game": "math", "id": "hw-no-label", "context": {}, "answer": "x/3", "kind": "formula"}'
    monkeypatch.syspath_prepend(str(tmp_path))
    name = _package(tmp_path, [no_label])
    with pytest.raises(CaseFileError, match=r"line 1 \(case hw-no-label\): missing correct"):
        packaged_cases(name, "data/cases.jsonl", "math")
