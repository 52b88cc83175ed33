"""Normalising names of things so that guesses are compared fairly.

``"an electric guitar"`` and ``"Electric-Guitars"`` normalise to the same
string: case, leading articles, hyphens, punctuation and plural endings are
folded. Matching is always of whole normalised strings, never substrings.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_ARTICLES = ("a", "an", "the")
_KEEP_S_ENDINGS = ("ss", "us", "is", "ous")
_SIBILANT_ES = ("sses", "shes", "ches", "xes", "zes")
_NON_WORD = re.compile(r"[^a-z0-9' ]+")


def singular(word: str) -> str:
    """A light singulariser for English nouns: enough to fold regular plurals."""
    if len(word) <= 3:
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(_SIBILANT_ES):
        return word[:-2]
    if word.endswith("s") and not word.endswith(_KEEP_S_ENDINGS):
        return word[:-1]
    return word


@lru_cache(maxsize=4096)
def normalize_name(text: str) -> str:
    """Fold case, accents, articles, hyphens, punctuation and plurals.

    Memoised (a pure function of its text): a game normalises the same guess when it reads it, when it applies
    it and when a scripted judge confirms it, and the secrets' names in every match."""
    # ASCII text is its own NFKD form: the Unicode fold is skipped for it (most names, and a hot path of games).
    if text.isascii():
        folded = text.lower()
    else:
        folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()
    # Hyphens, underscores, slashes and every other non-word character become spaces; split() folds their runs.
    words = _NON_WORD.sub(" ", folded).replace("'", "").split()
    while len(words) > 1 and words[0] in _ARTICLES:
        del words[0]
    return " ".join([singular(word) if word.endswith("s") else word for word in words])  # only -s words change


def same_name(a: str, b: str) -> bool:
    """True when two names normalise to the same string (never a substring test)."""
    left, right = normalize_name(a), normalize_name(b)
    return bool(left) and left == right
