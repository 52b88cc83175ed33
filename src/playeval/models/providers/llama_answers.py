"""The probabilities of a judge's answers, read from llama.cpp's logits while the reply is generated.

A judge's request says where its reply holds answer words (``core.verdicts.VerdictQuestion``: after ``lead``,
itself after a match of ``context``). While llama.cpp generates, an :class:`AnswerReader` sees the raw logits of
every step (a logits processor: it runs before the grammar and changes nothing). At a step where the next token
may begin an answer (the reply so far ends with ``context`` and part of ``lead``), it takes the tokens that the
grammar would allow there and that begin an answer (the rest of the lead, then the start of one answer word), and
reads the probability of each answer as the softmax of their logits, summed per answer: the probabilities of the
allowed verdict tokens under the grammar. If the step's token only carries part of the lead (a lone space), the
next step reads again; the reading at the step that chose the answer's first letter is the one kept.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from playeval.core.verdicts import VerdictQuestion
from playeval.models.answer_reading import AnswerSpot, answer_of, answer_probs

if TYPE_CHECKING:
    from llama_cpp import Llama


class Vocabulary:
    """The text of every token of one model, read once (about a second for 150,000 tokens)."""

    def __init__(self, llama: Llama) -> None:
        model: Any = llama._model  # the binding has no public per-token text
        # The binding hands back its whole 32-byte buffer, the piece padded with NUL bytes: cut them off, or every
        # piece would run on past its text (" not" would begin "no" and more).
        self.pieces: tuple[str, ...] = tuple(
            model.token_to_piece(token).rstrip(b"\x00").decode("utf-8", errors="replace")
            for token in range(llama.n_vocab()))
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
    """A llama.cpp logits processor that records the answers' probabilities at each answer of one reply."""

    def __init__(self, llama: Llama, vocabulary: Vocabulary, question: VerdictQuestion) -> None:
        self._llama = llama
        self._vocabulary = vocabulary
        self._spot = AnswerSpot(question)
        self._prompt: int | None = None
        self._readings: dict[int, dict[str, float]] = {}

    def __call__(self, input_ids: Any, scores: Any) -> Any:
        if self._prompt is None:
            self._prompt = len(input_ids)
        generated = [int(token) for token in input_ids[self._prompt:]]
        text = self._llama.detokenize(generated).decode("utf-8", errors="replace") if generated else ""
        spot = self._spot.at(text)
        if spot is not None:
            rest, offset = spot
            answers = self._spot.question.answers
            probs = answer_probs(((answer, float(scores[token]))
                                  for token, answer in self._vocabulary.starts(rest, answers)), answers)
            if probs is not None:
                self._readings[offset] = probs
        return scores

    def answer_probs(self, reply: str) -> tuple[dict[str, float], ...]:
        """The readings at the answers the reply holds (in order), for the reply as generated; an empty dict
        where an answer was not read."""
        lead = len(reply) - len(reply.lstrip())  # the provider returns the reply stripped; positions are read there
        return tuple(self._readings.get(offset + lead, {})
                     for offset, _ in self._spot.question.positions(reply.strip()))
