"""The probabilities of a judge's answers, read from llama.cpp's logits while the reply is generated.

A judge's request says where its reply holds answer words (``core.verdicts.VerdictQuestion``: after ``lead``,
itself after a match of ``context``). While llama.cpp generates, an :class:`AnswerReader` sees the raw logits of
every step (shown before the sampler picks; it changes nothing). At a step where the next token
may begin an answer (the reply so far ends with ``context`` and part of ``lead``), it takes the tokens that the
grammar would allow there and that begin an answer (the rest of the lead, then the start of one answer word), and
reads the probability of each answer as the softmax of their logits, summed per answer: the probabilities of the
allowed verdict tokens under the grammar. If the step's token only carries part of the lead (a lone space), the
next step reads again; the reading at the step that chose the answer's first letter is the one kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from playeval.core.verdicts import VerdictQuestion
from playeval.models.answer_reading import AnswerSpot, answer_of, answer_probs


class Vocabulary:
    """The text of every token of one model (``pieces``: each token's bytes, as llama.cpp gives them)."""

    def __init__(self, pieces: Sequence[bytes]) -> None:
        self.pieces: tuple[str, ...] = tuple(piece.decode("utf-8", errors="replace") for piece in pieces)
        self._found: dict[tuple[str, tuple[str, ...]], list[tuple[int, str]]] = {}

    def starts(self, rest_of_lead: str, answers: tuple[str, ...]) -> list[tuple[int, str]]:
        """The tokens that choose an answer at a step where ``rest_of_lead`` is still to come: (token, answer)."""
        key = (rest_of_lead, answers)
        found = self._found.get(key)
        if found is None:
            found = []
            for token, piece in enumerate(self.pieces):
                answer = answer_of(piece, rest_of_lead, answers)
                if answer is not None:
                    found.append((token, answer))
            self._found[key] = found
        return found


class AnswerReader:
    """Records the answers' probabilities at each answer of one reply."""

    def __init__(self, vocabulary: Vocabulary, question: VerdictQuestion) -> None:
        self._vocabulary = vocabulary
        self._spot = AnswerSpot(question)
        self._readings: dict[int, dict[str, float]] = {}

    def observe(self, text: str, scores: Any) -> None:
        """See the raw logits (``scores``) of the step after the reply's ``text`` so far."""
        spot = self._spot.at(text)
        if spot is not None:
            rest, offset = spot
            answers = self._spot.question.answers
            probs = answer_probs(((answer, float(scores[token]))
                                  for token, answer in self._vocabulary.starts(rest, answers)), answers)
            if probs is not None:
                self._readings[offset] = probs

    def answer_probs(self, reply: str) -> tuple[dict[str, float], ...]:
        """The readings at the answers the reply holds (in order), for the reply as generated; an empty dict
        where an answer was not read."""
        lead = len(reply) - len(reply.lstrip())  # the provider returns the reply stripped; positions are read there
        return tuple(self._readings.get(offset + lead, {})
                     for offset, _ in self._spot.question.positions(reply.strip()))
