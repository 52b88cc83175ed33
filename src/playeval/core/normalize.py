"""Normalising names of things so that guesses are compared fairly.

``"an electric guitar"`` and ``"Electric-Guitars"`` normalise to the same
string: case, leading articles, hyphens, punctuation and plural endings are
folded. Matching is always of whole normalised strings, never substrings.
"""

from __future__ import annotations

import re
import unicodedata

_ARTICLES = ("a", "an", "the")
_KEEP_S_ENDINGS = ("ss", "us", "is", "ous")
_SIBILANT_ES = ("sses", "shes", "ches", "xes", "zes")
_NON_WORD = re.compile(r"[^a-z0-9' ]+")
_SPACES = re.compile(r"\s+")


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


def normalize_name(text: str) -> str:
    """Fold case, accents, articles, hyphens, punctuation and plurals."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()
    folded = folded.replace("-", " ").replace("_", " ").replace("/", " ")
    folded = _NON_WORD.sub(" ", folded).replace("'", "")
    words = _SPACES.sub(" ", folded).strip().split(" ")
    while words and words[0] in _ARTICLES and len(words) > 1:
        words = words[1:]
    return " ".join(singular(word) for word in words if word)


def same_name(a: str, b: str) -> bool:
    """True when two names normalise to the same string (never a substring test)."""
    left, right = normalize_name(a), normalize_name(b)
    return bool(left) and left == right
