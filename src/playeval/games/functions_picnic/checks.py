"""Running rule code in the sandbox: the acceptance check for a rule, and truth values cached per rule.

A rule's code, from the library or written by a game-master model, only ever runs in ``playeval.sandbox``.
``check_rule`` decides whether a source may be a rule of the game: it must run on the fixed 500-word sample,
return a boolean for every word, be true on 10 to 90 % of it, and differ in behaviour (its truth vector on
the sample) from every known rule. ``RuleEvaluator`` computes a rule's truth value on every word of the list,
once per source, and keeps it in memory; the game's pure code draws examples from those values
(``examples``), so nothing in the rules of the game runs code.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

from playeval.games.functions_picnic._types import RULE_FUNCTION, LibraryRule
from playeval.games.functions_picnic.words import load_words
from playeval.sandbox import JsonValue, Sandbox, SandboxError, SandboxReason, run_function

MIN_TRUE_SHARE = 0.10
"""A rule must be true on at least this share of the sample..."""
MAX_TRUE_SHARE = 0.90
"""...and on at most this share."""
DEFAULT_TIMEOUT_S = 5.0
"""The sandbox's time limit for one request (a rule over the sample, or over the whole word list)."""

TruthVector = tuple[bool, ...]
"""A rule's truth values on the sample, in the sample's (sorted) order."""

CheckReason = Literal[SandboxReason, "accepted", "not_boolean", "too_rarely_true", "too_often_true", "duplicate"]
"""Why ``check_rule`` accepted or refused a source: ``accepted``, one of the sandbox's reasons (the code did
not run: ``syntax``, ``forbidden``, ``timeout``, ``memory``, ``crashed``, ``output_too_large``), or what its
results show."""


@dataclass(frozen=True)
class RuleCheck:
    """The verdict on a rule's source.

    ``vector`` is the truth vector on the sample when the code returned booleans for every word (``None``
    otherwise); ``true_share`` its share of ``True``; ``duplicate_of`` the name of the known rule it behaves
    like (reason ``duplicate``); ``message`` the reason in words, fit to show the model that wrote the code.
    """

    accepted: bool
    reason: CheckReason
    message: str
    vector: TruthVector | None = None
    true_share: float | None = None
    duplicate_of: str | None = None


class RuleEvaluationError(Exception):
    """A rule's code did not give a boolean for every word (the sandbox refused it, or it returned others)."""


def _run(source: str, words: Sequence[str], sandbox: Sandbox | None, timeout_s: float) -> list[JsonValue]:
    rows = [(word,) for word in words]
    if sandbox is None:
        return run_function(source, RULE_FUNCTION, rows, timeout_s)
    return sandbox.run_function(source, RULE_FUNCTION, rows, timeout_s)


def _non_boolean(results: Sequence[JsonValue], words: Sequence[str]) -> str | None:
    """A description of the first result that is not a boolean, or ``None`` when all are."""
    for word, value in zip(words, results, strict=True):
        if not isinstance(value, bool):
            shown = repr(value)
            if len(shown) > 60:
                shown = shown[:57] + "..."
            return f"rule({word!r}) returned {shown} ({type(value).__name__}), not True or False"
    return None


def check_rule(
    source: str,
    known_vectors: Mapping[str, Sequence[bool]],
    *,
    sample: Sequence[str] | None = None,
    sandbox: Sandbox | None = None,
    timeout_s: float = DEFAULT_TIMEOUT_S,
) -> RuleCheck:
    """Run ``source`` (which must define ``def rule(word):``) on the sample in the sandbox and judge it.

    ``known_vectors`` maps the names of the known rules (library ids, earlier generated rules) to their truth
    vectors on the same sample; ``sample`` defaults to the packaged 500-word sample; ``sandbox`` to the
    process's default sandbox. The checks, in order: the code runs, every result is a boolean, the share of
    ``True`` is within ``[MIN_TRUE_SHARE, MAX_TRUE_SHARE]``, no known rule has the same vector.
    Raises ``ValueError`` when a known vector's length differs from the sample's.
    """
    words = tuple(load_words().sample if sample is None else sample)
    if not words:
        raise ValueError("the sample is empty")
    for name, known_vector in known_vectors.items():
        if len(known_vector) != len(words):
            raise ValueError(f"known rule {name!r} has {len(known_vector)} truth values for a sample of {len(words)}")
    try:
        results = _run(source, words, sandbox, timeout_s)
    except SandboxError as error:
        return RuleCheck(False, error.reason, f"the code did not run: {error}")
    problem = _non_boolean(results, words)
    if problem is not None:
        return RuleCheck(False, "not_boolean", f"the rule must return True or False for every word: {problem}")
    vector: TruthVector = tuple(bool(value) for value in results)
    share = sum(vector) / len(vector)
    percent = f"{share:.0%} of {len(vector)} sample words"
    if share < MIN_TRUE_SHARE:
        message = f"the rule is true for only {percent}; it must be true for at least {MIN_TRUE_SHARE:.0%}"
        return RuleCheck(False, "too_rarely_true", message, vector, share)
    if share > MAX_TRUE_SHARE:
        message = f"the rule is true for {percent}; it must be true for at most {MAX_TRUE_SHARE:.0%}"
        return RuleCheck(False, "too_often_true", message, vector, share)
    for name, known in known_vectors.items():
        if tuple(bool(value) for value in known) == vector:
            message = f"the rule behaves exactly like the known rule {name!r} on every sample word"
            return RuleCheck(False, "duplicate", message, vector, share, duplicate_of=name)
    return RuleCheck(True, "accepted", f"accepted: true for {percent}", vector, share)


def truth_values(
    source: str,
    words: Sequence[str],
    *,
    sandbox: Sandbox | None = None,
    timeout_s: float = DEFAULT_TIMEOUT_S,
) -> dict[str, bool]:
    """The rule's truth value on each of ``words``, computed in the sandbox in one request.

    Raises ``SandboxError`` when the code does not run and ``RuleEvaluationError`` when a result is not a
    boolean.
    """
    results = _run(source, words, sandbox, timeout_s)
    problem = _non_boolean(results, words)
    if problem is not None:
        raise RuleEvaluationError(problem)
    return {word: bool(value) for word, value in zip(words, results, strict=True)}


class RuleEvaluator:
    """Truth values of rules on a word list (the packaged one by default), computed once per source.

    The cache lives in this object, keyed by the exact source text; values are read-only mappings from every
    word of the list to the rule's truth value, in the list's order.
    """

    def __init__(
        self,
        words: Sequence[str] | None = None,
        *,
        sandbox: Sandbox | None = None,
        timeout_s: float = DEFAULT_TIMEOUT_S,
    ) -> None:
        self._words: tuple[str, ...] = tuple(load_words().words if words is None else words)
        self._sandbox = sandbox
        self._timeout_s = timeout_s
        self._cache: dict[str, Mapping[str, bool]] = {}

    @property
    def words(self) -> tuple[str, ...]:
        return self._words

    def truth(self, source: str) -> Mapping[str, bool]:
        """Every word's truth value under the rule ``source``; the sandbox runs it on the first request only.

        Raises ``SandboxError`` or ``RuleEvaluationError`` as ``truth_values`` does (nothing is cached then).
        """
        cached = self._cache.get(source)
        if cached is None:
            values = truth_values(source, self._words, sandbox=self._sandbox, timeout_s=self._timeout_s)
            cached = MappingProxyType(values)
            self._cache[source] = cached
        return cached

    def vector(self, source: str, sample: Sequence[str]) -> TruthVector:
        """The rule's truth vector on ``sample`` (a subset of the word list), from the cached values."""
        values = self.truth(source)
        return tuple(values[word] for word in sample)


def known_vectors(
    rules: Iterable[LibraryRule],
    *,
    sample: Sequence[str] | None = None,
    sandbox: Sandbox | None = None,
    timeout_s: float = DEFAULT_TIMEOUT_S,
) -> dict[str, TruthVector]:
    """The truth vectors of ``rules`` on the sample (packaged by default), keyed by rule id, via the sandbox.

    These are the known vectors a generated rule is compared with. Raises like ``truth_values``.
    """
    words = tuple(load_words().sample if sample is None else sample)
    vectors: dict[str, TruthVector] = {}
    for rule in rules:
        values = truth_values(rule.source, words, sandbox=sandbox, timeout_s=timeout_s)
        vectors[rule.id] = tuple(values[word] for word in words)
    return vectors
