"""A guess in the rule's own words is accepted by the rules (``guess_rule.stated``): each normalisation step, and
the near misses it must not fold together."""

from __future__ import annotations

import time

import pytest

from playeval.guess_rule.stated import rule_words, states_rule


@pytest.mark.parametrize(("text", "words"), [
    ("Divide by 3", "divide by 3"),  # case
    ("  divide   by\t3. ", "divide by 3"),  # whitespace and punctuation
    ("divide by three", "divide by 3"),  # number words
    ("add twenty-one", "add 21"),
    ("add twenty one", "add 21"),
    ("add 1,000", "add 1000"),
    ("The rule is: divide by 3", "divide by 3"),  # a leading introduction
    ("rule: divide by 3", "divide by 3"),
    ("My guess is divide by 3", "divide by 3"),
    ("I think that the rule is divide by 3", "divide by 3"),
    ("The rule is that each value is divided by 3", "each value is divided by 3"),  # seen from the local model
    ("divide the previous value by 3", "divide previous value by 3"),  # 'the' goes
    ("items that are an airplane", "airplane"),  # the subject and 'an' go, the plural is folded
    ("Things that are airplanes", "airplane"),
    ("words that start with a vowel", "start with vowel"),
    ("words that start with a or e", "start with a or e"),  # 'a' as a letter stays
    ("words that contain a but not e", "contain a but not e"),
    ("words with the letter a twice", "with letter a twice"),
    ("sweet-tasting foods", "sweet tasting food"),  # a hyphen between letters is a space
    ("divide by \u22123", "divide by - 3"),  # the minus sign is '-', and stays
    ("x \u00f7 3", "x / 3"),
    ("caf\u00e9 items", "cafe item"),
])
def test_each_normalisation_step(text: str, words: str) -> None:
    assert rule_words(text) == words


def test_the_rule_s_own_words_are_accepted_in_any_case_spacing_and_introduction() -> None:
    assert states_rule("The rule is: Divide by THREE!", "divide by 3")
    assert states_rule("each value is the previous value: divide by 3",
                       "each value is the previous value: divide by 3")
    assert states_rule("African", "items that are African")
    assert states_rule("things that are African.", "items that are African")
    assert states_rule("longer than 5 letters", "words longer than five letters")
    assert states_rule("Starts with a vowel", "words that start with a vowel")


@pytest.mark.parametrize(("guess", "statement"), [
    ("divide by -3", "divide by 3"),  # a sign is not punctuation
    ("divide by 4", "divide by 3"),
    ("x+1*2", "(x+1)*2"),  # brackets are kept
    ("x*3", "x/3"),  # operators are kept
    ("words that start with e", "words that start with a or e"),
    ("words with a letter twice", "words with the letter a twice"),  # 'a' after 'letter' is a letter
    ("not African", "items that are African"),
    ("African", "items that are not African"),
    ("divide by 3 or 4", "divide by 3"),  # never a substring test
    ("", "divide by 3"),
    ("the", "the"),  # nothing left: not a statement
    ("...", "..."),
])
def test_near_misses_and_empty_guesses_are_not_the_rule(guess: str, statement: str) -> None:
    assert not states_rule(guess, statement)


def test_long_and_odd_input_is_read_quickly_and_safely() -> None:
    started = time.perf_counter()
    for text in ("a " * 50_000, "9" * 100_000, "(" * 50_000, "\u2212" * 50_000, "the rule is " * 10_000,
                 "twenty-" * 20_000, "\x00\ufffd" * 10_000):
        assert isinstance(rule_words(text), str)
        assert not states_rule(text, "divide by 3")
    assert time.perf_counter() - started < 5
