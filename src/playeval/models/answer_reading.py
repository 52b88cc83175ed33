"""Where a judge's reply is about to give an answer, and the answers' probabilities from token alternatives:
shared by the providers that read them (llama.cpp's logits, an OpenAI-compatible server's ``top_logprobs``)."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

from playeval.core.verdicts import VerdictQuestion


class AnswerSpot:
    """Finds, for a reply generated so far, whether its next token may begin an answer of ``question``."""

    def __init__(self, question: VerdictQuestion) -> None:
        self.question = question
        self._context = re.compile(f"(?:{question.context})\\Z")

    def at(self, text: str) -> tuple[str, int] | None:
        """``(rest of the lead, offset of the answer)`` when ``text`` ends with the question's context and part of
        its lead (the next token then carries the rest of the lead and the answer's start); else ``None``."""
        lead = self.question.lead
        for done in range(len(lead), -1, -1):
            if text.endswith(lead[:done]) and self._context.search(text, 0, len(text) - done):
                return lead[done:], len(text) - done + len(lead)
        return None


def answer_of(piece: str, rest_of_lead: str, answers: tuple[str, ...]) -> str | None:
    """The answer a token begins, when its text is the rest of the lead then the start of exactly one answer, or
    that whole answer followed by white space only (``yes\n``). A token that runs on into other letters (``not``
    after ``no``, ``yesterday``) is one the grammar forbids there, and counts for no answer."""
    cut = len(rest_of_lead)
    if len(piece) <= cut or not piece.startswith(rest_of_lead):
        return None
    tail = piece[cut:]
    fits = [answer for answer in answers
            if answer.startswith(tail) or (tail.startswith(answer) and not tail[len(answer):].strip())]
    return fits[0] if len(fits) == 1 else None


def answer_probs(alternatives: Iterable[tuple[str | None, float]], answers: tuple[str, ...]) -> dict[str, float] | None:
    """Per answer, the share of probability among the tokens that begin an answer: ``alternatives`` are (the
    answer a token begins or ``None``, its log-probability or logit); ``None`` when no token begins one."""
    scores: dict[str, list[float]] = {answer: [] for answer in answers}
    for answer, score in alternatives:
        if answer is not None and math.isfinite(score):
            scores[answer].append(score)
    every = [score for found in scores.values() for score in found]
    if not every:
        return None
    top = max(every)
    mass = {answer: sum(math.exp(score - top) for score in found) for answer, found in scores.items()}
    total = sum(mass.values())
    return {answer: value / total for answer, value in mass.items()}
