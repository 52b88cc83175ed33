"""Reading Taboo replies, and the GBNF grammars (llama.cpp) that shape them.

A clue is one line of at most ``MAX_CLUE_CHARS`` characters; quotes, asterisks and a leading label
(``Clue:``, ``Hint 2:``, ``Round 2 of 5:``) are stripped. The guesser's reply is free text; it guesses when the line
``My guess of the word is: X`` appears anywhere in it, in any case. The guessed word is the rest of that
line, cut at the end of the first sentence and stripped of punctuation, quotes and asterisks.

Text copied from the game's own instructions is no move (``copied``): a clue that repeats them, and a guess that
names a run of their words ("The game starts now"), are refused with the reason and re-asked.
"""

from __future__ import annotations

import re

from playeval.core.errors import FormatError, RuleViolation
from playeval.core.normalize import normalize_name
from playeval.games.taboo.copied import copied_instructions, guess_copies_instructions
from playeval.games.taboo.words import find_word

MAX_CLUE_CHARS = 140
MAX_REPLY_CHARS = 1000
MAX_GUESS_WORDS = 4

_LABEL = r"my\s+guess\s+of\s+the\s+word\s+is"
# The word runs to the end of the line or to the next guess label ("dog, My guess of the word is: lion" guesses two).
_GUESS = re.compile(rf"{_LABEL}\s*[:\-]?[ \t]*(?P<word>(?:(?!{_LABEL})[^\n])*)", re.IGNORECASE)
# A guess that goes on with another after its sentence ends: "cat, or dog", "cat. Or a dog".
_HEDGE = re.compile(r"[.!?;,]?\s*(?:or|and/or)\b", re.IGNORECASE)
_MARKUP = re.compile(r"[*_`]")
_SENTENCE_END = re.compile(r"[.!?;,(\[]\s|[.!?;,(\[]$| [-\u2013\u2014] ")
_EDGE_PUNCTUATION = re.compile(r"^[\W_]+|[\W_]+$")
_QUOTES = "\"'\u201c\u201d\u2018\u2019"
_CLUE_LABEL = re.compile(r"^(?:clue[\s-]*giver|my\s+clue|clue|hint|message|question|round)\s*\d*(?:\s+of\s+\d+)?\s*"
                         r"[:.)\-]\s*", re.IGNORECASE)
_SPACES = re.compile(r"\s+")
# Two guesses in one: "cat or dog", "cat and dog", "cat/dog", "cat,dog" (", " ends the guess at "cat", as the end
# of its sentence, unless "or" follows). No secret has " or ", " and ", "&", a slash, a bar or a comma.
_ALTERNATIVES = re.compile(r"\s(?:or|and|and/or)\s|/|,|&|\|", re.IGNORECASE)
# Guesses that name nothing: a model that writes "the word" has not guessed.
_PLACEHOLDERS = frozenset({"", "x", "xx", "xxx", "word", "the word", "secret word", "your word", "target word",
                           "unknown", "something", "it", "this", "that", "none", "nothing", "no idea",
                           "not sure", "guess", "my guess", "answer", "n a", "na", "blank", "tbd"})

GUESS_WORD_RULE = 'word ::= part ([ -] part)? ([ -] part)?\npart ::= [A-Za-z]{1,20}\n'
ANSWER_GRAMMAR = (
    'root ::= line ("\\n" guess)? | guess\n'
    'line ::= [^\\n\\t ] [^\\n]*\n'
    'guess ::= "My guess of the word is: " word\n' + GUESS_WORD_RULE
)
FINAL_GUESS_GRAMMAR = 'root ::= "My guess of the word is: " word\n' + GUESS_WORD_RULE
CLUE_GRAMMAR = f"root ::= [^\\n\\t ] [^\\n]{{0,{MAX_CLUE_CHARS - 1}}}\n"


def _clean_word(raw: str) -> str:
    word = _MARKUP.sub("", raw).strip()
    cut = _SENTENCE_END.search(word)
    if cut:
        if _HEDGE.match(word, cut.start()):
            raise FormatError("a guess names one word; give one answer, not two: 'My guess of the word is: <word>'.")
        word = word[: cut.start()]
    word = _EDGE_PUNCTUATION.sub("", word.strip().strip(_QUOTES)).strip()
    return _SPACES.sub(" ", word)


def find_guess(text: str) -> str | None:
    """The word a reply guesses, or ``None`` when it does not guess; ``FormatError`` for an empty or double guess."""
    guesses: list[str] = []
    for match in _GUESS.finditer(_MARKUP.sub("", text)):
        word = _clean_word(match.group("word"))
        if normalize_name(word) in _PLACEHOLDERS or not any(ch.isalnum() for ch in word):
            raise FormatError("a guess must name a word: 'My guess of the word is: <the word>'.")
        if _ALTERNATIVES.search(word):
            raise FormatError("a guess names one word; give one answer, not two: 'My guess of the word is: <word>'.")
        if len(word.split()) > MAX_GUESS_WORDS:
            raise FormatError("a guess must be a single word or a short name, not a sentence.")
        guesses.append(word)
    distinct = {normalize_name(word) for word in guesses}
    if len(distinct) > 1:
        raise FormatError("the reply makes more than one guess; give one answer, not two.")
    return guesses[0] if guesses else None


def answer_part(text: str) -> str:
    """The reply without its guess line(s)."""
    return _GUESS.sub("", _MARKUP.sub("", text)).strip()


def parse_reply(text: str) -> str:
    """The guesser's reply as it was said (stripped); ``FormatError`` if empty or unreadable."""
    reply = text.strip()
    if not reply:
        raise FormatError("the reply was empty.")
    if len(reply) > MAX_REPLY_CHARS:
        raise FormatError(f"the reply is longer than {MAX_REPLY_CHARS} characters; keep it short.")
    find_guess(reply)  # raises on an unreadable guess
    return reply


def clean_clue(text: str) -> str:
    """The clue without surrounding quotes, asterisks or a label; ``FormatError`` if empty or on several lines."""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    if not lines:
        raise FormatError("the clue was empty.")
    if len(lines) > 1:
        raise FormatError("write the clue as one message on a single line.")
    clue = _MARKUP.sub("", lines[0]).strip()
    clue = _CLUE_LABEL.sub("", clue).strip()
    if len(clue) >= 2 and clue[0] in _QUOTES and clue[-1] in _QUOTES:
        clue = clue[1:-1].strip()
    clue = _SPACES.sub(" ", clue)
    if not clue:
        raise FormatError("the clue was empty.")
    return clue


def refuse_copied_clue(clue: str) -> None:
    """``RuleViolation`` when a clue repeats the game's instructions instead of giving a clue: a reply the grammar
    allows and the rules refuse, like a clue that writes the word."""
    copied = copied_instructions(clue)
    if copied is not None:
        raise RuleViolation(f"the message repeats the game's instructions ({copied!r}) instead of giving a clue; "
                          "write your own clue or question that leads to the word.")


def refuse_copied_guess(guess: str | None) -> None:
    """``FormatError`` when a guess names words of the game's instructions ("The game starts now"), not a word."""
    if guess is not None and guess_copies_instructions(guess):
        raise FormatError(f"{guess!r} is text from the game's messages, not a guess; name the word you think of: "
                          "'My guess of the word is: <word>'.")


def check_clue(clue: str, secret: str) -> None:
    """``RuleViolation`` when a clue is too long or says the secret word."""
    if len(clue) > MAX_CLUE_CHARS:
        raise RuleViolation(f"the clue has {len(clue)} characters; at most {MAX_CLUE_CHARS} are allowed.")
    said = find_word(clue, secret)
    if said is not None:
        raise RuleViolation(f"the clue contains the secret word or a form of it ({said!r}); describe it "
                            "without writing it.")
