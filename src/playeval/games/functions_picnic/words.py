"""The packaged English word list and the fixed 500-word sample that rules are checked on.

Both come from ``data/words.json``, written by ``scripts/build_function_words.py`` from SCOWL (Debian's
``wamerican-small`` and ``scowl``), WordNet 3.0 and the Static Picnic items; ``data/PROVENANCE.md`` says how
and under which licences.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

SAMPLE_SIZE = 500
"""How many words the fixed sample holds."""

WORD_PATTERN = re.compile(r"[a-z]{3,12}")
"""What every word looks like: lowercase ASCII letters, 3 to 12 of them."""


@dataclass(frozen=True)
class WordList:
    """The words a game draws its examples from, and the sample every rule is checked on.

    ``words`` is sorted and free of duplicates; ``sample`` is a sorted subset of ``words`` of
    ``SAMPLE_SIZE`` words, fixed in the data file (chosen by a salted SHA-256 of each word, see
    PROVENANCE.md), so a rule's truth vector on it is the same on every machine and in every run.
    """

    words: tuple[str, ...]
    sample: tuple[str, ...]

    def __post_init__(self) -> None:
        if list(self.words) != sorted(set(self.words)):
            raise ValueError("the words must be sorted and unique")
        bad = [word for word in self.words if not WORD_PATTERN.fullmatch(word)]
        if bad:
            raise ValueError(f"words that are not 3 to 12 lowercase letters: {bad[:5]}")
        if list(self.sample) != sorted(set(self.sample)):
            raise ValueError("the sample must be sorted and unique")
        if not set(self.sample) <= set(self.words):
            raise ValueError("the sample must be drawn from the words")


def _read_data(name: str) -> str:
    return files("playeval").joinpath("games", "functions_picnic", "data", name).read_text("utf-8")


def _strings(value: object, field: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValueError(f"words.json: {field} must be a list of strings")
    return tuple(value)


@cache
def load_words() -> WordList:
    """The packaged word list (read once per process; the result is immutable)."""
    document = json.loads(_read_data("words.json"))
    if not isinstance(document, dict):
        raise ValueError("words.json: expected an object")
    word_list = WordList(
        words=_strings(document.get("words"), "words"),
        sample=_strings(document.get("sample"), "sample")
    )
    if len(word_list.sample) != SAMPLE_SIZE:
        raise ValueError(f"words.json: the sample has {len(word_list.sample)} words, not {SAMPLE_SIZE}")
    return word_list
