"""Code Functions Picnic: the word list, the reviewed rule library run through the real sandbox, the rule
check's verdicts, the truth-value cache and the pure draws of example and held-out words."""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Iterable, Iterator, Sequence
from importlib.resources import files
from itertools import combinations

import pytest

from playeval.games.functions_picnic import (
    CONVENTIONS,
    LEVELS,
    LIBRARY,
    MAX_TRUE_SHARE,
    MIN_TRUE_SHARE,
    SAMPLE_SIZE,
    LibraryRule,
    RuleCheck,
    RuleEvaluationError,
    RuleEvaluator,
    TruthVector,
    available,
    check_rule,
    draw_examples,
    draw_held_out,
    known_vectors,
    load_words,
    rule_by_id,
    rules_at_level,
    truth_values,
)
from playeval.sandbox import JsonValue, Sandbox, SandboxError

MIN_RULES_PER_LEVEL = 30
MIN_DIFFERENT_WORDS = 10  # any two library rules disagree on at least this many sample words
SAMPLE_SALT = "functions-picnic-sample:"  # as documented in data/PROVENANCE.md


class CountingSandbox(Sandbox):
    """A real sandbox that counts its requests."""

    def __init__(self) -> None:
        super().__init__(workers=1)
        self.requests = 0

    def run_function(
        self, source: str, name: str, inputs: Iterable[Sequence[object]], timeout_s: float = 2.0
    ) -> list[JsonValue]:
        self.requests += 1
        return super().run_function(source, name, inputs, timeout_s)


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    with Sandbox() as box:
        yield box


@pytest.fixture(scope="module")
def library_vectors(sandbox: Sandbox) -> dict[str, TruthVector]:
    return known_vectors(LIBRARY, sandbox=sandbox)


def _source(body: str) -> str:
    return "def rule(word):\n    " + body + "\n"


# --- the word list --------------------------------------------------------------------------------------


def test_word_list_is_a_few_thousand_common_words() -> None:
    word_list = load_words()
    assert 3000 <= len(word_list.words) <= 8000
    assert all(re.fullmatch(r"[a-z]{3,12}", word) for word in word_list.words)
    assert list(word_list.words) == sorted(set(word_list.words))
    for everyday in ("apple", "house", "river", "water", "coffee", "winter", "table", "garden"):
        assert everyday in word_list.words
    for dropped in ("sex", "murder", "bastard", "damn", "queer", "cats", "walked"):
        assert dropped not in word_list.words
    assert {len(word) for word in word_list.words} == set(range(3, 13))


def test_sample_is_the_documented_fixed_sample() -> None:
    word_list = load_words()
    assert len(word_list.sample) == SAMPLE_SIZE == 500
    expected = sorted(
        sorted(word_list.words, key=lambda word: hashlib.sha256((SAMPLE_SALT + word).encode()).hexdigest())[:500]
    )
    assert list(word_list.sample) == expected
    assert load_words() is word_list  # read once


def test_data_file_meta_matches_its_content() -> None:
    text = files("playeval").joinpath("games", "functions_picnic", "data", "words.json").read_text("utf-8")
    assert text.isascii() and text.endswith("]\n}\n")
    document = json.loads(text)
    assert document["meta"]["counts"]["words"] == len(document["words"])
    assert document["meta"]["sample"]["size"] == len(document["sample"])
    provenance = files("playeval").joinpath("games", "functions_picnic", "data", "PROVENANCE.md").read_text("utf-8")
    assert f"{len(document['words']):,} words" in provenance


# --- the library ----------------------------------------------------------------------------------------


def test_library_shape() -> None:
    for level in LEVELS:
        rules = rules_at_level(level)
        assert len(rules) >= MIN_RULES_PER_LEVEL, f"level {level} has only {len(rules)} rules"
        assert all(rule.level == level and rule.id.startswith(f"L{level}.") for rule in rules)
    assert len({rule.id for rule in LIBRARY}) == len(LIBRARY)
    statements = [rule.statement.lower() for rule in LIBRARY]
    assert len(set(statements)) == len(statements), "statements must be unique"
    sources = [rule.source for rule in LIBRARY]
    assert len(set(sources)) == len(sources)
    assert rule_by_id("L1.longer-than-5").statement == "words longer than five letters"
    with pytest.raises(KeyError):
        rule_by_id("L9.nothing")
    with pytest.raises(ValueError):
        rules_at_level(4)  # type: ignore[arg-type]
    assert "vowels are a, e, i, o and u" in CONVENTIONS


@pytest.mark.parametrize("rule", LIBRARY, ids=lambda rule: rule.id)
def test_library_rule_is_plain_code(rule: LibraryRule) -> None:
    assert rule.source.startswith("def rule(word):\n    ")
    assert rule.source.endswith("\n")
    assert "import" not in rule.source and "__" not in rule.source and "class " not in rule.source
    compile(rule.source, rule.id, "exec")
    assert rule.statement.startswith("words ") and rule.statement == rule.statement.strip()


def test_every_library_rule_passes_the_check(sandbox: Sandbox, library_vectors: dict[str, TruthVector]) -> None:
    known: dict[str, TruthVector] = {}
    for rule in LIBRARY:
        verdict = check_rule(rule.source, known, sandbox=sandbox)
        assert verdict.accepted, f"{rule.id}: {verdict.message}"
        assert verdict.vector == library_vectors[rule.id]
        known[rule.id] = library_vectors[rule.id]
    # and each one against all the others
    for rule in LIBRARY:
        others = {rule_id: vector for rule_id, vector in library_vectors.items() if rule_id != rule.id}
        assert check_rule(rule.source, others, sandbox=sandbox).accepted
        assert check_rule(rule.source, library_vectors, sandbox=sandbox).duplicate_of == rule.id


def test_library_rules_differ_in_behaviour(library_vectors: dict[str, TruthVector]) -> None:
    for (first, a), (second, b) in combinations(library_vectors.items(), 2):
        differing = sum(x != y for x, y in zip(a, b, strict=True))
        assert differing >= MIN_DIFFERENT_WORDS, f"{first} and {second} differ on only {differing} sample words"
        assert differing <= SAMPLE_SIZE - MIN_DIFFERENT_WORDS, f"{first} and {second} are (nearly) complements"


def test_library_rules_split_the_whole_word_list(sandbox: Sandbox) -> None:
    evaluator = RuleEvaluator(sandbox=sandbox)
    words = load_words().words
    for rule in LIBRARY:
        truth = evaluator.truth(rule.source)
        assert list(truth) == list(words)
        share = sum(truth.values()) / len(truth)
        assert MIN_TRUE_SHARE - 0.05 <= share <= MAX_TRUE_SHARE, f"{rule.id} is true on {share:.0%} of the list"


def test_library_statements_match_the_code_on_spot_words(sandbox: Sandbox) -> None:
    cases: dict[str, dict[str, bool]] = {
        "L1.longer-than-5": {"garden": True, "house": False},
        "L1.one-kind-of-vowel": {"banana": True, "tree": True, "sky": False, "apple": False},
        "L1.two-vowels": {"tree": True, "sky": False},
        "L1.even-vowel-count": {"sky": True, "tree": True, "cat": False},
        "L2.vowel-start-consonant-end": {"apple": False, "orbit": True, "tree": False},
        "L3.second-vowel": {"table": True, "tree": False},
        "L3.first-after-last": {"tree": True, "apple": False},
        "L3.first-letter-again": {"tent": True, "table": False},
        "L3.repeat-at-distance-2": {"level": True, "apple": False},
        "L3.repeat-at-distance-3": {"noun": True, "tree": False},
        "L3.middle-vowel": {"table": False, "house": True, "ahead": True, "coat": True, "strict": False},
        "L3.mirrored-letter": {"edge": True, "tent": True, "apple": False},
        "L3.vowels-at-least-consonants": {"idea": True, "tree": True, "train": False, "area": True},
        "L3.halves-share-no-letter": {"tent": False, "table": True},
    }
    for rule_id, expected in cases.items():
        assert truth_values(rule_by_id(rule_id).source, list(expected), sandbox=sandbox) == expected, rule_id


# --- the check's refusals ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "reason"),
    [
        ("def rule(word)\n    return True\n", "syntax"),
        ("def other(word):\n    return len(word) > 5\n", "syntax"),
        (_source("import os\n    return True"), "forbidden"),
        (_source("return word.__class__ is str"), "forbidden"),
        (_source("return word[20] == 'a'"), "crashed"),
        (_source("while True:\n        pass"), "timeout"),
        (_source("return len(word)"), "not_boolean"),
        (_source("return 1 if 'a' in word else 0"), "not_boolean"),
        (_source("return None"), "not_boolean"),
        (_source("return word.endswith('zz')"), "too_rarely_true"),
        (_source("return len(word) > 2"), "too_often_true"),
    ],
)
def test_check_refuses_with_a_reason(sandbox: Sandbox, source: str, reason: str) -> None:
    verdict = check_rule(source, {}, sandbox=sandbox, timeout_s=1.0)
    assert not verdict.accepted
    assert verdict.reason == reason
    assert verdict.message
    if reason in ("too_rarely_true", "too_often_true"):
        assert verdict.vector is not None and verdict.true_share is not None
        assert "%" in verdict.message
    else:
        assert verdict.vector is None


def test_check_refuses_code_that_behaves_like_a_known_rule(
    sandbox: Sandbox, library_vectors: dict[str, TruthVector]
) -> None:
    rewritten = _source("n = 0\n    for letter in word:\n        n += 1\n    return not n <= 5")
    verdict = check_rule(rewritten, library_vectors, sandbox=sandbox)
    assert (verdict.accepted, verdict.reason, verdict.duplicate_of) == (False, "duplicate", "L1.longer-than-5")
    assert "L1.longer-than-5" in verdict.message


def test_check_accepts_a_new_rule(sandbox: Sandbox, library_vectors: dict[str, TruthVector]) -> None:
    verdict = check_rule(_source("return word[2] in 'rstln'"), library_vectors, sandbox=sandbox)
    assert verdict == RuleCheck(
        accepted=True,
        reason="accepted",
        message=verdict.message,
        vector=verdict.vector,
        true_share=verdict.true_share,
        duplicate_of=None,
    )
    assert verdict.vector is not None and len(verdict.vector) == SAMPLE_SIZE
    assert verdict.true_share is not None and MIN_TRUE_SHARE <= verdict.true_share <= MAX_TRUE_SHARE


def test_check_on_a_given_sample_and_bad_known_vectors(sandbox: Sandbox) -> None:
    sample = ["apple", "tree", "garden", "sky", "house", "river", "orbit", "cat", "table", "idea"]
    verdict = check_rule(_source("return len(word) > 4"), {}, sample=sample, sandbox=sandbox)
    assert verdict.accepted and verdict.vector == tuple(len(word) > 4 for word in sample)
    with pytest.raises(ValueError, match="truth values"):
        check_rule(_source("return True"), {"short": (True,)}, sample=sample, sandbox=sandbox)
    with pytest.raises(ValueError, match="empty"):
        check_rule(_source("return True"), {}, sample=[], sandbox=sandbox)


def test_check_uses_the_default_sandbox() -> None:
    verdict = check_rule(rule_by_id("L1.contains-a").source, {})
    assert verdict.accepted and verdict.true_share == sum("a" in word for word in load_words().sample) / SAMPLE_SIZE


# --- truth values and their cache -------------------------------------------------------------------------


def test_evaluator_runs_each_rule_once() -> None:
    counting = CountingSandbox()
    try:
        evaluator = RuleEvaluator(sandbox=counting)
        source = rule_by_id("L3.second-vowel").source
        first = evaluator.truth(source)
        second = evaluator.truth(source)
        assert first is second and counting.requests == 1
        assert first["table"] is True and first["tree"] is False
        sample = load_words().sample
        assert evaluator.vector(source, sample) == tuple(word[1] in "aeiou" for word in sample)
        assert counting.requests == 1
        with pytest.raises(TypeError):
            first["table"] = False  # type: ignore[index]
        bad = _source("return len(word)")
        with pytest.raises(RuleEvaluationError):
            evaluator.truth(bad)
        with pytest.raises(RuleEvaluationError):
            evaluator.truth(bad)
        assert counting.requests == 3  # a failure is not cached
        with pytest.raises(SandboxError):
            evaluator.truth(_source("return word[99] == 'a'"))
    finally:
        counting.close()


def test_truth_values_on_given_words(sandbox: Sandbox) -> None:
    values = truth_values(rule_by_id("L2.with-a-and-e").source, ["table", "tree", "cat"], sandbox=sandbox)
    assert values == {"table": True, "tree": False, "cat": False}


# --- example and held-out draws ---------------------------------------------------------------------------


def _toy_truth() -> dict[str, bool]:
    words = load_words().words[:200]
    return {word: len(word) > 6 for word in words}


def test_draw_examples_is_pure_and_respects_what_was_shown() -> None:
    truth = _toy_truth()
    shown = set(list(truth)[:50])
    draw = draw_examples(truth, shown, 5, random.Random(7))
    assert draw == draw_examples(truth, shown, 5, random.Random(7))
    assert draw == draw_examples(dict(reversed(truth.items())), frozenset(shown), 5, random.Random(7))
    assert len(draw.positives) == len(draw.negatives) == 5
    assert all(truth[word] for word in draw.positives) and not any(truth[word] for word in draw.negatives)
    assert not set(draw.words) & shown and len(set(draw.words)) == 10
    assert draw_examples(truth, shown, 0, random.Random(7)).words == ()
    with pytest.raises(ValueError):
        draw_examples(truth, shown, -1, random.Random(7))


def test_draw_examples_until_exhausted() -> None:
    truth = _toy_truth()
    positives, negatives = available(truth, ())
    shown: set[str] = set()
    rng = random.Random(3)
    while True:
        draw = draw_examples(truth, shown, 30, rng)
        if not draw.words:
            break
        assert not set(draw.words) & shown
        shown.update(draw.words)
    assert len(shown) == positives + negatives == len(truth)
    assert available(truth, shown) == (0, 0)


def test_draw_held_out_is_balanced_and_unshown() -> None:
    truth = _toy_truth()
    shown = set(list(truth)[::3])
    held = draw_held_out(truth, shown, 10, random.Random(11))
    assert held == draw_held_out(truth, shown, 10, random.Random(11))
    assert sum(item.truth for item in held) == 5 and len({item.word for item in held}) == 10
    assert all(truth[item.word] is item.truth and item.word not in shown for item in held)
    odd_counts = {sum(item.truth for item in draw_held_out(truth, shown, 7, random.Random(seed))) for seed in range(40)}
    assert odd_counts == {3, 4}
    assert draw_held_out(truth, shown, 0, random.Random(1)) == ()
    positives, _ = available(truth, shown)
    with pytest.raises(ValueError, match="cannot hold out"):
        draw_held_out(truth, shown, 2 * positives + 2, random.Random(1))
    with pytest.raises(ValueError):
        draw_held_out(truth, shown, -2, random.Random(1))


def test_draws_from_a_library_rule(sandbox: Sandbox) -> None:
    rule = rule_by_id("L3.first-after-last")
    truth = RuleEvaluator(sandbox=sandbox).truth(rule.source)
    rng = random.Random(2024)
    first = draw_examples(truth, (), 3, rng)
    held = draw_held_out(truth, first.words, 6, rng)
    assert all(word[0] > word[-1] for word in first.positives)
    assert all(word[0] <= word[-1] for word in first.negatives)
    assert all((item.word[0] > item.word[-1]) is item.truth for item in held)
    assert not {item.word for item in held} & set(first.words)
