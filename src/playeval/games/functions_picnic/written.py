"""Rules a game-master model writes for the Code Functions Picnic: its ask, and the ``code_executor``'s check.

The game master is asked for a rule of the match's level (``prompts.LEVEL_KINDS``) as ``RULE: <words>`` and a
``def rule(word):`` function. The ``code_executor`` role (scripted: ``WrittenRuleCheck``) runs the code in the
sandbox through ``checks.check_rule``, the gate every library rule passed: the code runs, returns booleans, is
true on 10 to 90 % of the 500-word sample, and has a truth vector on that sample unlike every library rule's
(all levels). An accepted rule's verdict carries its truth values on the whole packaged word list
(``encode_truth``: one bit per word, in the list's order, as hex) with a fingerprint of that list, so the game
draws the match's examples and held-out words from the recorded verdict alone, without running the code again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from playeval.core.errors import RuleViolation
from playeval.games.functions_picnic.checks import (
    DEFAULT_TIMEOUT_S,
    MAX_TRUE_SHARE,
    MIN_TRUE_SHARE,
    RuleEvaluationError,
    RuleEvaluator,
    TruthVector,
    check_rule,
    truth_values,
)
from playeval.games.functions_picnic.library import LIBRARY
from playeval.games.functions_picnic.words import load_words
from playeval.guess_rule.writing import rejection
from playeval.sandbox import SandboxError

HEADER = "def rule(word):"


def word_list_id(words: Sequence[str]) -> str:
    """A short fingerprint of a word list (the truth bits are only meaningful on the same list)."""
    return hashlib.sha256("\n".join(words).encode("utf-8")).hexdigest()[:16]


def encode_truth(values: Sequence[bool]) -> str:
    """Truth values as hex, one bit per value, the first value the highest bit of the first byte."""
    packed = bytearray((len(values) + 7) // 8)
    for index, value in enumerate(values):
        if value:
            packed[index // 8] |= 0x80 >> (index % 8)
    return packed.hex()


def decode_truth(text: str, count: int) -> tuple[bool, ...]:
    """``count`` truth values from ``encode_truth``'s hex; ``ValueError`` when the text does not hold them."""
    packed = bytes.fromhex(text)
    if len(packed) != (count + 7) // 8:
        raise ValueError(f"{len(packed)} bytes of truth values for {count} words")
    return tuple(bool(packed[index // 8] & (0x80 >> (index % 8))) for index in range(count))


class WrittenRuleCheck:
    """The ``code_executor``'s check of a drafted rule, with the library's truth vectors on the sample, which are
    computed in the sandbox on the first check and kept (``RuleEvaluator`` caches them per source)."""

    def __init__(self, evaluator: RuleEvaluator, *, timeout_s: float = DEFAULT_TIMEOUT_S) -> None:
        self._evaluator = evaluator
        self._timeout_s = timeout_s
        self._known: dict[str, TruthVector] | None = None

    def known(self) -> Mapping[str, TruthVector]:
        if self._known is None:
            sample = load_words().sample
            self._known = {rule.id: self._evaluator.vector(rule.source, sample) for rule in LIBRARY}
        return self._known

    def __call__(self, draft: Mapping[str, Any]) -> dict[str, Any]:
        code = str(draft.get("code", ""))
        verdict = check_rule(code, self.known(), timeout_s=self._timeout_s)
        if not verdict.accepted:
            return rejection(verdict.reason, verdict.message)
        try:
            truth = truth_values(code, self._evaluator.words, timeout_s=self._timeout_s)  # not cached: many rules
        except (SandboxError, RuleEvaluationError) as error:  # it ran on the sample but not on every word
            return rejection(error.reason if isinstance(error, SandboxError) else "not_boolean",
                             f"on the whole word list: {error}")
        words = self._evaluator.words
        return {"accepted": True, "reason": "accepted", "message": verdict.message,
                "true_share": round(verdict.true_share or 0.0, 4), "words": word_list_id(words),
                "truth": encode_truth([truth[word] for word in words])}


def accepted_truth(verdict: Mapping[str, Any]) -> dict[str, bool]:
    """The truth values an accepting verdict carries, per word of the packaged list, checked for what a pure
    game can check: the same word list, and a share of true words on the sample within the gate's bounds.
    Raises ``RuleViolation`` otherwise."""
    words = load_words()
    if verdict.get("words") != word_list_id(words.words):
        raise RuleViolation("the verdict's truth values are for another word list.")
    try:
        values = decode_truth(str(verdict.get("truth", "")), len(words.words))
    except ValueError as error:
        raise RuleViolation(f"the verdict's truth values cannot be read: {error}.") from None
    truth = dict(zip(words.words, values, strict=True))
    share = sum(truth[word] for word in words.sample) / len(words.sample)
    if not MIN_TRUE_SHARE <= share <= MAX_TRUE_SHARE:
        raise RuleViolation(f"an accepted rule must be true on 10 to 90 % of the sample, not {share:.0%}.")
    return truth
