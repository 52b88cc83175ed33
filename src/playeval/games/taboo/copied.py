"""Replies that copy the game's own instructions instead of making a move.

A small model asked for a clue sometimes sends back a sentence it was shown ("The game starts now. Send your first
message (round 1 of 5)."), and a guesser reading that as a clue may then "guess" it (a real run recorded "guessed
'The game starts now' in round 1"). Neither is a move, so the parser refuses both and the seat is re-asked as for
any unreadable reply. The check is made when a reply is read, not when a recorded move is applied, so matches
stored before it replay as they were played.

Every template a seat is shown (``prompts``) is cut into pieces at its ``{placeholders}``, sentence ends, colons
and brackets, and compared as folded words (``words.fold``: case, accents and punctuation do not matter):

* a clue copies the instructions when one of its sentences (cut at sentence ends, commas, colons and brackets) of
  at least :data:`MIN_SENTENCE_WORDS` words is a run of words within a piece of the clue-giver's templates ("The
  game starts now.", "Send your first message"), or when it contains a whole piece of at least
  :data:`MIN_PIECE_WORDS` words anywhere ("... your goal is to get the AI to write ..."). A clue that only shares a
  few words with them ("You know the word for a baby cat?") is a clue;
* a guess of two words or more copies them when its words are a run of words within any piece of either seat's
  templates ("The game starts", "secret word"). No secret is refused (a test checks every list).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from playeval.games.taboo import prompts
from playeval.games.taboo.words import fold

MIN_SENTENCE_WORDS = 3
MIN_PIECE_WORDS = 5
_PLACEHOLDER = re.compile(r"\{[a-z_]+\}")
_BREAKS = re.compile(r"[.!?:;()\[\]\n]")
_CLUE_BREAKS = re.compile(r"[.!?:;,()\[\]\n]|\s[-\u2013\u2014]\s")
_WORD = re.compile(r"[a-z0-9]+")


def folded_words(text: str) -> str:
    """The words of ``text``, folded and joined by single spaces (``"Cat's  toy!"`` -> ``"cat s toy"``)."""
    return " ".join(_WORD.findall(fold(text)))


def _pieces(texts: Iterable[str]) -> tuple[str, ...]:
    found: set[str] = set()
    for text in texts:
        for part in _PLACEHOLDER.split(text):
            for fragment in _BREAKS.split(part):
                words = folded_words(fragment)
                if words:
                    found.add(words)
    return tuple(sorted(found, key=lambda piece: (-len(piece), piece)))


@cache
def clue_giver_pieces() -> tuple[str, ...]:
    """The pieces of the clue-giver's templates, longest first."""
    return _pieces(prompts.clue_giver_texts())


@cache
def all_pieces() -> tuple[str, ...]:
    """The pieces of every template of either seat, longest first."""
    return _pieces((*prompts.clue_giver_texts(), *prompts.guesser_texts()))


def _within(words: str, pieces: Iterable[str]) -> str | None:
    """The first piece in which ``words`` is a run of whole words, or ``None``."""
    padded = f" {words} "
    return next((piece for piece in pieces if padded in f" {piece} "), None)


def copied_instructions(clue: str) -> str | None:
    """The words of the clue-giver's instructions that ``clue`` copies (folded), or ``None`` when it copies none."""
    for sentence in _CLUE_BREAKS.split(clue):
        words = folded_words(sentence)
        if len(words.split()) >= MIN_SENTENCE_WORDS and _within(words, clue_giver_pieces()) is not None:
            return words
    padded = f" {folded_words(clue)} "
    return next((piece for piece in clue_giver_pieces()
                 if len(piece.split()) >= MIN_PIECE_WORDS and f" {piece} " in padded), None)


def guess_copies_instructions(guess: str) -> bool:
    """Whether a guess of two words or more is a run of words out of the game's templates, not a word."""
    words = folded_words(guess)
    return len(words.split()) >= 2 and _within(words, all_pieces()) is not None
