"""A judge's verdict from its answer probabilities: where the answers are, how a threshold decides, and what is
recorded (``core.verdicts``), and where a provider reads the answers (``models.answer_reading``)."""

from __future__ import annotations

import pytest

from playeval.core.verdicts import (
    VerdictQuestion,
    decide,
    judge_reply,
    recorded_verdicts,
)
from playeval.models.answer_reading import AnswerSpot, answer_of, answer_probs

GUESS = VerdictQuestion(answers=("yes", "no"), accept=("yes",), lead="Verdict: ")
LINES = VerdictQuestion(answers=("yes", "no"), accept=("yes",), context=r"(?:\A|\n)\d+", lead=". ")
SCALE = VerdictQuestion(answers=("yes", "partly", "no"), accept=("yes", "partly"))


def test_a_question_finds_its_answers_and_only_them() -> None:
    assert GUESS.positions("Verdict: yes\nReason: I would say Verdict: no") == [(9, "yes")]
    assert LINES.positions("1. yes\n2. no\n13. yes\n") == [(3, "yes"), (10, "no"), (17, "yes")]
    assert SCALE.positions("partly") == [(0, "partly")]
    assert GUESS.positions("yes") == []
    assert LINES.rewrite("1. yes\n2. no\n", ["no", "yes"]) == "1. no\n2. yes\n"
    with pytest.raises(ValueError, match="holds 2 answers"):
        LINES.rewrite("1. yes\n2. no\n", ["no"])
    with pytest.raises(ValueError):
        VerdictQuestion(answers=("yes", "no"), accept=("yes", "no"))  # every answer accepting decides nothing


def test_a_threshold_decides_and_the_record_says_so() -> None:
    probs = {"yes": 0.35, "no": 0.65}
    word, untuned = decide(GUESS, "no", probs, None)
    assert word == "no" and untuned.decided == "word" and untuned.accepted is False
    assert untuned.p_accept == pytest.approx(0.35)
    word, tuned = decide(GUESS, "no", probs, 0.3, "qwen.json")
    assert word == "yes" and tuned.accepted is True and tuned.decided == "threshold"
    assert tuned.threshold == 0.3 and tuned.calibration == "qwen.json" and tuned.word == "no"
    # On a three-answer scale a flipped verdict takes the likeliest answer of the decided side.
    word, scale = decide(SCALE, "no", {"yes": 0.1, "partly": 0.3, "no": 0.6}, 0.35)
    assert word == "partly" and scale.p_accept == pytest.approx(0.4) and scale.accepted
    # No probabilities: the word decides, even with a threshold.
    word, plain = decide(GUESS, "yes", None, 0.9)
    assert word == "yes" and plain.decided == "word" and plain.accepted and plain.p_accept is None


def test_a_reply_is_rewritten_where_the_threshold_turned_it_and_recorded_per_answer() -> None:
    text, records = judge_reply(LINES, "1. yes\n2. no\n", ({"yes": 0.9, "no": 0.1}, {"yes": 0.45, "no": 0.55}), 0.4)
    assert text == "1. yes\n2. yes\n" and [r.accepted for r in records] == [True, True]
    assert [r.word for r in records] == ["yes", "no"]
    # Probabilities that do not line up with the reply's answers are not used.
    text, records = judge_reply(LINES, "1. yes\n2. no\n", ({"yes": 0.1, "no": 0.9},), 0.4)
    assert text == "1. yes\n2. no\n" and [r.decided for r in records] == ["word", "word"]
    data = {"verdicts": [record.model_dump(mode="json") for record in records]}
    assert recorded_verdicts(data) == list(records) and recorded_verdicts({}) == []


def test_the_spot_of_an_answer_follows_the_lead_token_by_token() -> None:
    spot = AnswerSpot(GUESS)
    assert spot.at("") == ("Verdict: ", 9)
    assert spot.at("Verdict:") == (" ", 9)
    assert spot.at("Verdict: ") == ("", 9)
    assert spot.at("Verdict: yes") is None
    lines = AnswerSpot(LINES)
    assert lines.at("1. yes\n2") == (". ", 10) and lines.at("1. yes\n") is None
    assert answer_of(" yes", " ", ("yes", "no")) == "yes" and answer_of(" ", " ", ("yes", "no")) is None
    assert answer_of("yes\n", "", ("yes", "no")) == "yes"  # the answer, then what the grammar allows after it
    for forbidden in (" not", " nothing", "yesterday", "now"):  # run on into letters the grammar forbids there
        assert answer_of(forbidden, " " if forbidden.startswith(" ") else "", ("yes", "no")) is None
    assert answer_of("par", "", ("yes", "partly", "no")) == "partly" and answer_of("x", "", ("yes", "no")) is None
    probs = answer_probs([("yes", 0.0), ("yes", -1.0), ("no", 0.0), (None, 5.0)], ("yes", "no"))
    assert probs is not None and probs["yes"] == pytest.approx((1 + 0.36787944) / (2 + 0.36787944))
    assert answer_probs([(None, 1.0)], ("yes", "no")) is None


def test_a_case_value_that_is_not_text_is_refused_by_name() -> None:
    from playeval.core import JudgeCase
    from playeval.core.judge_cases import context_text
    from playeval.core.registry import default_registry

    case = JudgeCase(id="m-7", context={"statement": ["divide", "by 3"], "seen": None}, answer="x/3", correct=True,
                     kind="formula")
    with pytest.raises(ValueError, match=r"case m-7: 'statement' must be a non-empty string, not a list"):
        default_registry().get("math").judge_case_ask(case)  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match=r"'seen' must be a non-empty string, not null"):
        context_text(case, "seen")
    with pytest.raises(ValueError, match=r"'secret' must be a non-empty string, not missing"):
        context_text(case, "secret")


def test_the_vocabulary_reads_each_tokens_own_text_so_only_allowed_tokens_choose_an_answer() -> None:
    """" not" must not count for "no" (it would, if a piece ran on past its text as the binding's padded buffers
    once did)."""
    from playeval.models.providers.llama_answers import Vocabulary

    texts = [" yes", " no", " not", " nothing", "yes\n", " y", "x"]
    vocabulary = Vocabulary([text.encode() for text in texts])
    assert vocabulary.pieces[2] == " not"
    assert vocabulary.starts(" ", ("yes", "no")) == [(0, "yes"), (1, "no"), (5, "yes")]
    assert vocabulary.starts("", ("yes", "no")) == [(4, "yes")]
