"""A judge's verdict as a probability: the question an ask puts, the probabilities a model gave its answers, and
the decision taken from them (the model's own word, or a calibrated threshold).

A judge's ask (a guess judge, an Undercover scale, Akinator's confirmation, Dynamic Picnic's validator) says in
``Ask.verdict`` where its reply holds an answer word and which words accept: a :class:`VerdictQuestion`. A provider
that gives token probabilities (the embedded llama.cpp models, OpenAI-compatible servers) reports, for every place
in the reply where an answer is chosen, the probability of each allowed answer (renormalised over the answers the
grammar allows there): an :class:`AnswerProbs`. From them a :class:`VerdictRecord` is made per answer: the
probability of accepting, the word the model gave, the threshold applied if a calibration holds one for this
model, game and question, and the decision. The engine attaches the records to the judge's action
(``Action.data["verdicts"]``), so the match's log holds, for every verdict, what decided it: a replay and the
analysis read the same verdicts.

Where no probability is available (Anthropic, a person, a scripted judge) the verdict stays the word, recorded as
such (``decided == "word"``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

VERDICTS_KEY = "verdicts"
"""The key of a judge action's ``data`` that holds its :class:`VerdictRecord` dumps, one per answer."""

Decided = Literal["word", "threshold", "rules"]
"""What decided a verdict: the judge's own word, a calibrated threshold on its probability, or the game's rules
(a guess that states the rule, which no judge is asked about)."""


class VerdictQuestion(BaseModel):
    """Where a judge's reply holds its answers, and which answers accept.

    Each answer follows ``lead`` (literal text) placed right after a match of ``context`` (a regular expression
    matched at the end of the reply so far; ``\\A``: the start of the reply). A guess judge replying
    ``Verdict: yes`` has ``lead="Verdict: "``; a validator answering numbered lines ``1. yes`` has
    ``context=r"(?:\\A|\\n)\\d+"`` and ``lead=". "``; a one-word reply has neither. ``answers`` are the words the
    grammar allows there (matched exactly, case included), ``accept`` those that count as accepting (a guess
    judge's ``yes``; a scale's passing answers)."""

    model_config = ConfigDict(frozen=True)

    answers: tuple[str, ...] = Field(min_length=2)
    accept: tuple[str, ...] = Field(min_length=1)
    lead: str = ""
    context: str = r"\A"
    explained_after: str | None = None
    """Where the answers end and the reply only explains them (a guess judge's ``"\nReason:"``): a measurement of
    the verdicts alone may stop generating there, as what comes after cannot change an answer already chosen."""

    @model_validator(mode="after")
    def _shape(self) -> VerdictQuestion:
        if not set(self.accept) < set(self.answers):
            raise ValueError("accept must be some of the answers, not all")
        if len(set(self.answers)) != len(self.answers) or any(not answer for answer in self.answers):
            raise ValueError("answers must be distinct, non-empty words")
        re.compile(self.context)
        return self

    def positions(self, text: str) -> list[tuple[int, str]]:
        """Each answer in ``text``, in order: (its offset, the answer word)."""
        found: list[tuple[int, str]] = []
        pattern = re.compile(f"(?:{self.context}){re.escape(self.lead)}")
        for match in pattern.finditer(text):
            start = match.end()
            word = next((answer for answer in sorted(self.answers, key=len, reverse=True)
                         if text.startswith(answer, start)), None)
            if word is not None:
                found.append((start, word))
        return found

    def rewrite(self, text: str, words: Sequence[str]) -> str:
        """``text`` with its answers replaced by ``words``, in order (the rest of the reply kept as it is)."""
        positions = self.positions(text)
        if len(positions) != len(words):
            raise ValueError(f"the reply holds {len(positions)} answers, not {len(words)}")
        out: list[str] = []
        last = 0
        for (start, old), new in zip(positions, words, strict=True):
            out.append(text[last:start])
            out.append(new)
            last = start + len(old)
        out.append(text[last:])
        return "".join(out)

    def p_accept(self, probs: Mapping[str, float]) -> float:
        """The probability of accepting: the sum over the accepting answers."""
        return sum(probs.get(answer, 0.0) for answer in self.accept)


class AnswerProbs(BaseModel):
    """The probability of each allowed answer at one place of a reply (summing to 1)."""

    model_config = ConfigDict(frozen=True)

    probs: dict[str, float]


class VerdictRecord(BaseModel):
    """One verdict as decided: its probability of accepting (``None``: none was given), the model's own word, the
    threshold applied (``None``: none), where the threshold came from, and the decision."""

    model_config = ConfigDict(frozen=True)

    p_accept: float | None = None
    probs: dict[str, float] | None = None
    word: str | None = None
    threshold: float | None = None
    calibration: str | None = None
    """The calibration that held the threshold: its file's name and the model identity it was fitted for."""
    accepted: bool
    decided: Decided = "word"


def decide(question: VerdictQuestion, word: str | None, probs: Mapping[str, float] | None,
           threshold: float | None, calibration: str | None = None) -> tuple[str | None, VerdictRecord]:
    """One verdict from the model's word and its probabilities, with a calibrated ``threshold`` when one applies:
    accept when the probability of accepting is at least the threshold. Returns the answer word the decision
    stands for (the model's own word when it agrees; else the likeliest answer on the decided side) and the
    record."""
    p_accept = question.p_accept(probs) if probs else None
    own = word in question.accept if word is not None else False
    if threshold is None or p_accept is None:
        return word, VerdictRecord(p_accept=p_accept, probs=dict(probs) if probs else None, word=word,
                                   accepted=own, decided="word")
    accepted = p_accept >= threshold
    if word is not None and own == accepted:
        chosen: str | None = word
    else:
        side = question.accept if accepted else tuple(a for a in question.answers if a not in question.accept)
        chosen = max(side, key=lambda answer: (probs or {}).get(answer, 0.0))
    return chosen, VerdictRecord(p_accept=p_accept, probs=dict(probs or {}), word=word, threshold=threshold,
                                 calibration=calibration, accepted=accepted, decided="threshold")


def recorded_verdicts(data: Mapping[str, Any]) -> list[VerdictRecord]:
    """The verdict records a judge action's ``data`` holds (none for a person's or a scripted judge's move)."""
    raw = data.get(VERDICTS_KEY)
    if not isinstance(raw, list):
        return []
    return [VerdictRecord.model_validate(item) for item in raw]


def rules_verdict(accepted: bool) -> VerdictRecord:
    """A verdict the game's rules took without asking a judge."""
    return VerdictRecord(accepted=accepted, decided="rules")


class Thresholds(BaseModel):
    """The calibrated thresholds that apply to one judge model in one game, by the judge's question (the ask's
    ``kind``: ``verdict``, ``novelty``, ``confirm``, ``check``...), and where they come from (``label``: the
    calibration file and the model identity it was fitted for, recorded with every verdict it decides)."""

    model_config = ConfigDict(frozen=True)

    label: str
    by_kind: dict[str, float]


def judge_reply(question: VerdictQuestion, text: str, answer_probs: Sequence[Mapping[str, float]],
                threshold: float | None, calibration: str | None = None) -> tuple[str, tuple[VerdictRecord, ...]]:
    """A judge model's reply decided: the text with each answer the threshold turned replaced, and one record per
    answer. ``answer_probs`` are the provider's, one per answer in order; when they do not line up with the
    answers of ``text`` (a reply the grammar did not hold), the words decide, recorded as such."""
    positions = question.positions(text)
    aligned = len(answer_probs) == len(positions)
    words: list[str] = []
    records: list[VerdictRecord] = []
    for index, (_, word) in enumerate(positions):
        probs = answer_probs[index] if aligned and answer_probs[index] else None
        chosen, record = decide(question, word, probs, threshold, calibration)
        words.append(chosen if chosen is not None else word)
        records.append(record)
    if not positions:
        return text, ()
    changed = question.rewrite(text, words) if words != [word for _, word in positions] else text
    return changed, tuple(records)
