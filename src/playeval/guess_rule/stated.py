"""A guess that states the hidden rule in the rule's own words, which the rules accept without asking the judge.

A judge model can refuse a guess that is word for word the rule (a small local judge refused "divide by 3" for the
rule "divide by 3"). As Akinator's rules confirm a guess that names the secret, the guess-the-rule games' rules
accept a guess whose normalised words are the normalised statement of the rule (``states_rule``); any other guess
goes to the judge as before. The rules only accept: a guess they cannot match is never refused by them.

What ``rule_words`` normalises, in order (the guess and the statement alike):

1. Unicode: the minus sign and the en and em dashes read as ``-``, the multiplication sign and the middle dots as
   ``*``, the division sign as ``/``;
   accents are dropped (NFKD) and the text is lower-cased.
2. A leading introduction, up to three times: ``the rule is (that)``, ``rule:``, ``my guess is``, ``guess:``, ``the
   answer is`` (with ``hidden``, ``secret`` or ``concealed`` before ``rule``), ``i think (that)``, ``i guess``,
   ``i believe``.
3. Number words become digits: ``zero`` to ``nineteen``, the tens ``twenty`` to ``ninety``, a ten and a unit
   (``twenty one``, ``twenty-one``: ``21``); ``negative`` and ``minus`` before a number stay words (``minus`` may be
   subtraction). Thousands commas inside a number go (``1,000``: ``1000``).
4. Tokens: whole numbers (with a decimal part), words (an apostrophe inside a word is dropped: ``value's`` reads
   ``values``), and the symbols ``+ - * / ^ = < > % ( )``, kept because they change a formula's meaning (a hyphen
   between two letters is a space: ``sweet-tasting`` reads ``sweet tasting``). Every other character (``. , ; : !
   ? " '`` and the rest) and every run of whitespace only separates tokens.
5. Articles: ``the`` goes everywhere; ``a`` and ``an`` go before a word of three letters or more other than
   ``and``, ``or``, ``nor`` and ``but``, unless they follow ``letter`` or ``character`` (``a`` may be a letter:
   "words that start with a or e" keeps it).
6. A leading subject: ``item``, ``thing``, ``word``, ``object``, ``food``, ``anything``, ``everything``,
   ``something`` (singular or plural), then optionally ``that``, ``which`` or ``who``, then optionally ``is`` or
   ``are``, when words are left after it (``items that are African``: ``african``).
7. Plurals: a word ending in ``s`` is made singular (``core.normalize.singular``: ``airplanes``: ``airplane``).

Two texts state the same rule when their normalised token strings are equal and not empty; never a substring test.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from playeval.core.normalize import singular

_UNICODE = str.maketrans({"\u2212": "-", "\u2013": "-", "\u2014": "-", "\u00d7": "*", "\u00b7": "*",
                          "\u22c5": "*", "\u00f7": "/"})
_UNITS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
          "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen")
_TENS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_NUMBER_WORD = re.compile(rf"\b(?:(?P<ten>{'|'.join(_TENS)})(?:[\s-]+(?P<unit>{'|'.join(_UNITS[1:10])}))?"
                          rf"|(?P<small>{'|'.join(_UNITS)}))\b")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}\b)")
_INTRO = re.compile(r"^\s*(?:(?:(?:the|my)\s+)?(?:(?:hidden|secret|concealed)\s+)?(?:rule|guess|answer)\s*"
                    r"(?:\bis\b(?:\s+that\b)?\s*:?|:)|i\s+(?:think|guess|believe)\b(?:\s+that\b)?)\s*")
_LETTER_HYPHEN = re.compile(r"(?<=[a-z])-(?=[a-z])")
_TOKEN = re.compile(r"\d+(?:\.\d+)?|[a-z]+(?:'[a-z]+)*|[-+*/^=<>%()]")
_SUBJECTS = frozenset({"item", "thing", "word", "object", "food", "anything", "everything", "something"})
_KEEPS_ARTICLE = frozenset({"and", "or", "nor", "but"})
_LETTER_NAMES = frozenset({"letter", "character"})


def fold(text: str) -> str:
    """Step 1 of ``rule_words``: the text in lower-case ASCII, with the Unicode operators as ASCII symbols."""
    text = text.translate(_UNICODE)
    if not text.isascii():
        text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return text.lower()


def without_intro(text: str) -> str:
    """Step 2: ``text`` (folded) without a leading "the rule is", "guess:", "i think that" and the like."""
    for _ in range(3):
        shorter = _INTRO.sub("", text, count=1)
        if shorter == text:
            break
        text = shorter
    return text


def _number(found: re.Match[str]) -> str:
    if found.group("small"):
        return str(_UNITS.index(found.group("small")))
    value = 10 * (_TENS.index(found.group("ten")) + 2)
    return str(value + (_UNITS.index(found.group("unit")) if found.group("unit") else 0))


def with_digits(text: str) -> str:
    """Step 3: number words (``three``, ``twenty-one``) as digits, thousands commas dropped (``1,000``)."""
    return _THOUSANDS.sub("", _NUMBER_WORD.sub(_number, text))


def without_articles(words: list[str]) -> list[str]:
    """Step 5: ``the`` dropped; ``a`` and ``an`` dropped before a word of three letters or more other than
    ``and``/``or``/``nor``/``but`` unless they follow ``letter`` or ``character`` (where ``a`` is a letter)."""
    kept: list[str] = []
    for index, word in enumerate(words):
        if word == "the":
            continue
        if word in ("a", "an"):
            following = words[index + 1] if index + 1 < len(words) else ""
            after_letter = bool(kept) and kept[-1] in _LETTER_NAMES
            if following.isalpha() and len(following) >= 3 and following not in _KEEPS_ARTICLE \
                    and not after_letter:
                continue
        kept.append(word)
    return kept


def _without_subject(words: list[str]) -> list[str]:
    if not words or singular(words[0]) not in _SUBJECTS:
        return words
    rest = words[1:]
    if rest and rest[0] in ("that", "which", "who"):
        rest = rest[1:]
    if rest and rest[0] in ("is", "are"):
        rest = rest[1:]
    return rest or words


@lru_cache(maxsize=4096)
def rule_words(text: str) -> str:
    """``text`` normalised as the module's note says, its tokens joined by single spaces. Memoised: a match's fold
    normalises the rule's statement for every guess whenever its state is rebuilt."""
    folded = with_digits(without_intro(fold(text)))
    words = [token.replace("'", "") for token in _TOKEN.findall(_LETTER_HYPHEN.sub(" ", folded))]
    words = _without_subject(without_articles(words))
    return " ".join(singular(word) if word.isalpha() and word.endswith("s") else word for word in words)


def states_rule(guess: str, statement: str) -> bool:
    """Whether ``guess`` is ``statement`` in the rule's own words (both normalised by ``rule_words``)."""
    said = rule_words(guess)
    return bool(said) and said == rule_words(statement)
