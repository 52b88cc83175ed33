"""When does a text say a word? Taboo's one rule about words, for clues and answers alike.

A text says a word when it contains the word, or an inflected form of it, as a whole word: ``"cats"``,
``"Cat."``, ``"cat's"`` and ``"cat-like"`` say *cat*; ``"category"`` and ``"scatter"`` do not. Case and
accents are folded. A secret of several words (``"ice cream"``) is matched as a phrase whose last word may
be inflected, with any spaces or hyphens (or none) between its words.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from playeval.core.normalize import normalize_name, same_name

_VOWELS = frozenset("aeiou")
_NO_DOUBLING = frozenset("wxy")
_SIBILANTS = ("s", "x", "z", "ch", "sh")
_IRREGULAR: dict[str, tuple[str, ...]] = {
    "child": ("children",),
    "foot": ("feet",),
    "goose": ("geese",),
    "louse": ("lice",),
    "man": ("men",),
    "mouse": ("mice",),
    "ox": ("oxen",),
    "person": ("people",),
    "tooth": ("teeth",),
    "woman": ("women",),
}
_NON_WORD = re.compile(r"[^a-z0-9]+")
_JOINER = r"[\s\-_]*"


def fold(text: str) -> str:
    """Lowercase ASCII with accents dropped and apostrophes turned into spaces (``cat's`` is ``cat s``)."""
    text = text.replace("\u2019", " ").replace("\u2018", " ").replace("'", " ")
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()


def _split(word: str) -> list[str]:
    return [part for part in _NON_WORD.split(fold(word)) if part]


def _short_cvc(word: str) -> bool:
    """One-syllable words ending consonant-vowel-consonant double the consonant: stop, stopped, stopping."""
    if len(word) < 3 or len(word) > 5 or word[-1] in _NO_DOUBLING:
        return False
    c1, v, c2 = word[-3], word[-2], word[-1]
    vowels = sum(1 for ch in word if ch in _VOWELS)
    return c1 not in _VOWELS and v in _VOWELS and c2 not in _VOWELS and vowels == 1


def _inflections(word: str) -> set[str]:
    forms = {word}
    forms.update(_IRREGULAR.get(word, ()))
    consonant_y = len(word) > 1 and word.endswith("y") and word[-2] not in _VOWELS
    consonant_e = len(word) > 2 and word.endswith("e") and word[-2] not in _VOWELS
    # plurals (and third-person verbs)
    if word.endswith(_SIBILANTS):
        forms.add(word + "es")
    elif consonant_y:
        forms.add(word[:-1] + "ies")
    else:
        forms.add(word + "s")
        if word.endswith("o"):
            forms.add(word + "es")
    if word.endswith(("lf", "eaf", "oaf")):
        forms.add(word[:-1] + "ves")
    elif word.endswith("ife"):
        forms.add(word[:-2] + "ves")
    # past tense
    if consonant_y:
        forms.add(word[:-1] + "ied")
    elif word.endswith("e"):
        forms.add(word + "d")
    elif _short_cvc(word):
        forms.add(word + word[-1] + "ed")
    else:
        forms.add(word + "ed")
    # present participle
    if consonant_e:
        forms.add(word[:-1] + "ing")
    elif _short_cvc(word):
        forms.add(word + word[-1] + "ing")
    else:
        forms.add(word + "ing")
    return forms


@cache
def word_forms(word: str) -> frozenset[str]:
    """The word and its regular forms (plural, -ed, -ing), folded; for a phrase, the last word is inflected.

    >>> sorted(word_forms("stop"))
    ['stop', 'stopped', 'stopping', 'stops']
    """
    parts = _split(word)
    if not parts:
        return frozenset()
    head = " ".join(parts[:-1])
    return frozenset(f"{head} {form}" if head else form for form in _inflections(parts[-1]))


@cache
def _pattern(word: str) -> re.Pattern[str] | None:
    forms = word_forms(word)
    if not forms:
        return None
    alternatives = sorted((_JOINER.join(re.escape(part) for part in form.split(" ")) for form in forms),
                          key=len, reverse=True)
    return re.compile(r"(?<![a-z0-9])(?:" + "|".join(alternatives) + r")(?![a-z0-9])")


def find_word(text: str, word: str) -> str | None:
    """The first place ``text`` says ``word`` (as written in the folded text), or ``None``."""
    pattern = _pattern(word)
    if pattern is None:
        return None
    found = pattern.search(fold(text))
    return found.group(0) if found else None


def says_word(text: str, word: str) -> bool:
    """True when ``text`` contains ``word`` or one of its forms as a whole word (never as a mere substring)."""
    return find_word(text, word) is not None


def same_word(guess: str, secret: str) -> bool:
    """True when a guess names the secret: the same name after normalisation, one of its forms, or it unspaced."""
    if same_name(guess, secret) or any(same_name(guess, form) for form in word_forms(secret)):
        return True
    compact = normalize_name(guess).replace(" ", "")
    return bool(compact) and compact == normalize_name(secret).replace(" ", "")
