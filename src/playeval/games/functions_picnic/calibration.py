"""Code Functions Picnic judge's calibration set: labelled rule/guess pairs over library rules, written by hand for
playeval. For each of 16 rules (six at level 1, five at each of levels 2 and 3) there are two right guesses (the
rule in other words, one of them informal or as a test a person would run) and two wrong ones (a near miss: a
neighbouring letter, bound, position or connective; or a vague or merely consistent description). Half are right.
The judge sees the rule's statement and a few words that pass and fail it, as in a match."""

from __future__ import annotations

from collections.abc import Mapping

from playeval.core.game import JudgeCase
from playeval.core.judge_cases import packaged_cases
from playeval.games.functions_picnic.library import rule_by_id

_CASES: tuple[tuple[str, str, str, str, str, str, str], ...] = (
    # rule id, seen (pass | fail), right, right, near miss, vague or near miss, kind of the 4th
    ("L1.longer-than-5", "balloon, harvest | cat, table",
     "words with more than five letters", "the word has six letters or more",
     "words longer than six letters", "long words", "vague"),
    ("L1.ends-with-vowel", "pizza, radio | bread, lemon",
     "the last letter is a vowel", "words ending in a, e, i, o or u",
     "words that start with a vowel", "words that sound soft", "vague"),
    ("L1.contains-a", "apple, table | cherry, lemon",
     "the word has an a in it", "words that include the letter a somewhere",
     "words that start with a", "words containing the letter e", "near miss"),
    ("L1.two-es", "cheese, letter | bread, apple",
     "the letter e appears two or more times", "words with at least two e's",
     "words with exactly one e", "words with e in them", "near miss"),
    ("L1.ends-with-y", "happy, key | cat, yellow",
     "words whose final letter is y", "it ends in y",
     "words that contain a y", "words ending in a vowel sound", "near miss"),
    ("L1.two-vowels", "table, garden | cat, banana",
     "words with exactly two vowels", "there are two vowels in the word, no more and no fewer",
     "words with at least two vowels", "words with a few vowels", "vague"),
    ("L2.with-a-and-e", "table, leather | cat, lemon",
     "words that contain an a and also an e", "both the letters a and e appear in the word",
     "words that contain a or e", "words containing the letter a", "near miss"),
    ("L2.consonant-start-vowel-end", "pizza, table | apple, lemon",
     "begins with a consonant and ends with a vowel", "first letter not a vowel, last letter a vowel",
     "words that start and end with a vowel", "words ending in a vowel", "near miss"),
    ("L2.with-l-or-m", "lemon, camera | cat, bread",
     "the word contains l or m (or both)", "words with at least one of the letters l and m",
     "words that contain both l and m", "words with soft consonants", "vague"),
    ("L2.long-or-double", "umbrella, harvester | cat, garden",
     "words of eight or more letters, or words with the same letter twice in a row",
     "either longer than seven letters or containing a doubled letter",
     "words longer than seven letters", "words with a double letter", "near miss"),
    ("L2.two-consonant-start-long", "street, plastic | stop, apple",
     "words of six or more letters beginning with two consonants",
     "long words (over five letters) whose first two letters are consonants",
     "words that start with two consonants", "words longer than five letters", "near miss"),
    ("L3.fourth-vowel", "lemon, tomato | cat, table",
     "the fourth letter is a vowel", "words of four or more letters with a vowel in position four",
     "the third letter is a vowel", "words with vowels in the middle", "vague"),
    ("L3.last-vowel-is-e", "table, letter | pizza, cat",
     "the last vowel in the word is e", "of all the vowels, the one nearest the end is an e",
     "words that end with e", "words containing the letter e", "near miss"),
    ("L3.first-after-last", "table, stone | apple, cat",
     "the first letter comes after the last letter in the alphabet",
     "words whose last letter is earlier in the alphabet than their first",
     "the first letter comes before the last letter in the alphabet",
     "words whose letters are out of order", "vague"),
    ("L3.vowels-at-least-consonants", "idea, area | street, cat",
     "words with no more consonants than vowels", "the vowels are at least as many as the consonants",
     "words with more vowels than consonants", "words with many vowels", "vague"),
    ("L3.last-letter-earlier", "banana, potato | lemon, cat",
     "the last letter also appears somewhere earlier in the word",
     "words whose final letter is repeated from before",
     "words whose first letter appears again later", "words with a repeated letter", "near miss"),
)


def judge_cases() -> tuple[JudgeCase, ...]:
    """64 cases: 32 right, 16 near misses, and 16 that are either vague or another near miss."""
    found: list[JudgeCase] = []
    for rule_id, seen, right, other, miss, fourth, fourth_kind in _CASES:
        rule = rule_by_id(rule_id)
        passing, failing = (part.strip() for part in seen.split("|"))
        context = {"statement": rule.statement, "seen": f"May come: {passing}\nMay not come: {failing}"}
        for index, (guess, correct, kind) in enumerate(((right, True, "paraphrase"), (other, True, "paraphrase"),
                                                        (miss, False, "near miss"), (fourth, False, fourth_kind))):
            found.append(JudgeCase(id=f"functions-{rule_id}-{index}", context=context, answer=guess,
                                   correct=correct, kind=kind))
    return tuple(found)


WRITTEN = "data/judge_cases_written.jsonl"
"""The hand-written set (``data/PROVENANCE.md``): guesses written as players phrase them, on contexts a match of
the game draws, and not in the fixed four-guess pattern above; each right guess was checked equivalent to its rule
on the whole word list, each wrong one to differ on some word."""


def written_cases(keys: Mapping[str, str]) -> tuple[JudgeCase, ...]:
    """The hand-written set, every case checked to hold ``keys`` (the game's ``judge_case_keys``)."""
    return packaged_cases("playeval.games.functions_picnic", WRITTEN, "functions_picnic", keys)
