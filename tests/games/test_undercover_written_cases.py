"""Undercover's hand-written judge cases (``data/judge_cases.jsonl``): not the per-pair template, labelled as the
rules read each scale, every case asked as in a match whatever the number of earlier sentences."""

from __future__ import annotations

import fnmatch
import tomllib
from collections import Counter
from pathlib import Path

import pytest

from playeval.core import JudgeCase
from playeval.core.normalize import normalize_name
from playeval.games.undercover import Undercover
from playeval.games.undercover.calibration import MAX_EARLIER, pair_cases, table_sides, written_cases
from playeval.games.undercover.pairs import load_pairs
from playeval.games.undercover.rules import MAX_CHARS

game = Undercover()
PAIRS = {pair.id: pair for pair in load_pairs()}
CASES = written_cases()
PASSING: dict[str, bool] = {
    "first/novelty": True, "new/novelty": True, "new-detail/novelty": True,
    "repeat/novelty": False, "merged-repeat/novelty": False,
    "telling/relevance": True, "metaphor/relevance": True, "vague/relevance": False,
    "true/reasonableness": True, "metaphor/reasonableness": True, "vague/reasonableness": True,
    "other-word/reasonableness": False, "false/reasonableness": False}
"""What each kind of case should do on its scale (PROVENANCE.md, 'Hand-written judge cases')."""


def _says(text: str, word: str) -> bool:
    """The rules' test of whether a sentence says a word (``Undercover.apply``)."""
    return f" {normalize_name(word)} " in f" {normalize_name(text)} "


def test_the_set_is_large_balanced_and_appended() -> None:
    assert len(CASES) >= 60
    assert game.judge_cases()[-len(CASES):] == CASES and game.judge_cases()[:-len(CASES)] == pair_cases()
    ids = [case.id for case in game.judge_cases()]
    assert len(set(ids)) == len(ids) and all(case.id.startswith("hw-") for case in CASES)
    passing = sum(case.correct for case in CASES)
    assert 0.35 <= passing / len(CASES) <= 0.65
    for scale in ("novelty", "relevance", "reasonableness"):
        on_scale = Counter(case.correct for case in CASES if case.context["scale"] == scale)
        assert on_scale[True] >= 8 and on_scale[False] >= 8, scale


def test_labels_follow_the_kinds() -> None:
    for case in CASES:
        assert set(case.context) == set(game.judge_case_keys), case.id
        assert case.kind.endswith(f"/{case.context['scale']}") and case.correct is PASSING[case.kind], case.id
        if case.kind == "first/novelty":
            assert case.context["earlier"] == [], case.id
        if case.kind in ("repeat/novelty", "merged-repeat/novelty", "new-detail/novelty"):
            assert case.context["earlier"], case.id


def test_the_set_follows_no_template() -> None:
    """Varied: earlier sentences from 0 to 4, many pairs of many categories and parts of speech, no sentence used
    twice, and no one pair judged on every kind."""
    assert {len(case.context["earlier"]) for case in CASES} == {0, 1, 2, 3, 4}
    assert sum(len(case.context["earlier"]) >= 3 for case in CASES) >= 8
    pairs = [PAIRS[case.context["pair"]] for case in CASES]
    assert len({pair.id for pair in pairs}) >= 30 and len({pair.category for pair in pairs}) >= 20
    assert {pair.pos for pair in pairs} == {"noun", "verb", "adjective"}
    assert Counter(pair.id for pair in pairs).most_common(1)[0][1] <= 2
    answers = [case.answer for case in CASES]
    assert len(set(answers)) == len(answers)
    assert len(Counter(case.kind for case in CASES)) >= 12


def test_every_sentence_is_one_the_rules_let_through() -> None:
    for case in CASES:
        pair = PAIRS[case.context["pair"]]
        earlier = case.context["earlier"]
        assert isinstance(earlier, list) and len(earlier) <= MAX_EARLIER, case.id
        for text in (*earlier, case.answer):
            assert isinstance(text, str) and 6 <= len(text) <= MAX_CHARS, (case.id, text)
            assert not _says(text, pair.civilian) and not _says(text, pair.undercover), (case.id, text)
        assert normalize_name(case.answer) not in {normalize_name(text) for text in earlier}, case.id
        assert len({normalize_name(text) for text in earlier}) == len(earlier), case.id


def test_every_ask_builds_with_the_history_and_the_word() -> None:
    for case in CASES:
        ask = game.judge_case_ask(case)
        said = ask.messages[-1].content
        assert ask.role == "judge" and ask.kind == case.context["scale"] and ask.verdict is not None, case.id
        assert f"The player's word: {PAIRS[case.context['pair']].civilian}\n" in said, case.id
        assert f"The sentence: {case.answer}\n" in said, case.id
        history = said.split("Earlier sentences:\n", 1)[1].split("\n\nThe sentence:", 1)[0]
        lines = [f"Round 1, player{n}: {text}" for n, text in enumerate(case.context["earlier"], start=1)]
        assert history == ("\n".join(lines) or "(nothing yet)"), case.id


@pytest.mark.parametrize("earlier", range(MAX_EARLIER + 1))
def test_the_table_seats_every_earlier_sentence_in_round_one(earlier: int) -> None:
    sides = table_sides(earlier)
    assert len(sides) == max(4, earlier + 2) and list(sides.values()).count("undercover") == 1
    assert list(sides.values())[-1] == "undercover"  # the judged speaker (seat earlier + 1) holds the civilian word
    case = JudgeCase(id="many", context={"pair": "mammals:cat-bear", "scale": "novelty",
                                         "earlier": [f"It is sentence number {n} about it." for n in range(earlier)]},
                     answer="It purrs on a warm lap.", correct=True, kind="new/novelty")
    said = game.judge_case_ask(case).messages[-1].content
    assert "The player's word: cat\n" in said and said.count("Round 1, player") == earlier


def test_a_case_the_rules_refuse_is_an_error_naming_it() -> None:
    base = {"pair": "mammals:cat-bear", "scale": "novelty", "earlier": ["It purrs."]}
    with pytest.raises(ValueError, match=r"case bad: the rules refuse the sentence 'A cat purrs\.'"):
        game.judge_case_ask(JudgeCase(id="bad", context=base, answer="A cat purrs.", correct=True, kind="x"))
    with pytest.raises(ValueError, match="case bad: the rules refuse"):  # an exact repeat never reaches the judge
        game.judge_case_ask(JudgeCase(id="bad", context=base, answer="it purrs", correct=False, kind="x"))
    with pytest.raises(ValueError, match="0 to 6 earlier sentences, not 7"):
        game.judge_case_ask(JudgeCase(id="bad", context={**base, "earlier": [f"It is number {n}." for n in range(7)]},
                                      answer="It purrs on a lap.", correct=True, kind="x"))
    with pytest.raises(ValueError, match="case bad: no concept pair 'mammals:cat-dog'"):
        game.judge_case_ask(JudgeCase(id="bad", context={**base, "pair": "mammals:cat-dog"},
                                      answer="It purrs on a lap.", correct=True, kind="x"))
    with pytest.raises(ValueError, match="case bad: 'earlier' is a list of sentences"):
        game.judge_case_ask(JudgeCase(id="bad", context={**base, "earlier": "It purrs."},
                                      answer="It purrs on a lap.", correct=True, kind="x"))


def test_the_case_files_ship_as_package_data() -> None:
    """setuptools packs only what ``package-data`` names: both hand-written sets must match one of its patterns."""
    root = Path(__file__).resolve().parents[2]
    patterns = tomllib.loads((root / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]["package-data"]
    for path in ("games/undercover/data/judge_cases.jsonl", "games/akinator/data/judge_cases.jsonl"):
        assert (root / "src" / "playeval" / path).is_file()
        assert any(fnmatch.fnmatch(path, pattern) for pattern in patterns["playeval"]), path
