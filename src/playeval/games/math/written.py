"""Rules a game-master model writes for the Math Game: the ``code_executor``'s check, and the rule it makes.

The game master writes ``RULE: <words>``, ``START: <n>`` and ``def generate_next(current_value, index):``. The
``code_executor`` role (scripted: ``WrittenSequenceCheck``) runs the function in the sandbox, in two requests:

1. the sequence: ``SEQUENCE_LENGTH`` values from the start, and ``HELD_OUT + 1`` values from each of a few other
   start values (``other_starts``) for the rule-application check. Each sequence is rejected, as the procedural
   rules are, when a value is not a whole number (``non_integer``; a float with a whole value counts as that
   number), leaves ``[-MAX_ABS, MAX_ABS]`` (``overflow``), or repeats its predecessor or the values cycle among
   fewer than four (``constant``); the valid other starts give the held-out values in turn, item ``i`` from
   the ``i``-th of them modulo their number, so an answer is not the next item's value when two or more are
   valid (``no_held_out`` when none is);
2. the level (``wrong_level``), from the function's values on fixed probes (``PROBES`` at indices 0 to 3): at L1
   and L2 the index must not matter, and the sign must flip (L2: a negative multiplier or divisor) or not (L1);
   at L3 the result must differ between even and odd indices and depend on nothing else about the index.

An accepted verdict carries the values and the held-out triples, so the match never runs the code again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from playeval.core.errors import FormatError, RuleViolation
from playeval.games.math.sequences import HELD_OUT, MAX_ABS, SEQUENCE_LENGTH, sequence_problem
from playeval.guess_rule.writing import read_code_draft, rejection
from playeval.sandbox import JsonValue, SandboxError, run_function

HEADER = "def generate_next(current_value, index):"
MAX_START = 10**6
TIMEOUT_S = 5.0
PROBES: tuple[int, ...] = (720720, -720720, 5040, 60)
"""Probe values (divisible by every number up to 16, 10, 6), each tried at indices 0 to 3."""
OVERFLOW = "overflow"

RUNNER = f'''

def playeval_number(value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return "not a number: " + repr(value)[:40]
    if value != value or abs(value) > {MAX_ABS}:
        return "{OVERFLOW}"
    if isinstance(value, float) and value == int(value):
        return int(value)
    return value


def playeval_sequence(start, length):
    values = [start]
    while len(values) < length:
        value = playeval_number(generate_next(values[-1], len(values) - 1))
        values.append(value)
        if isinstance(value, str):
            break
    return values


def playeval_step(value, index):
    return playeval_number(generate_next(value, index))
'''
"""Appended to the game master's code (names starting with ``playeval_``): sequences and probes whose values
cross the sandbox as JSON (a value that is no number, or too large, is reported as a string)."""


@dataclass(frozen=True)
class WrittenSequence:
    """A rule the game master wrote, as the match uses it: its words, code, start and values, and the held-out
    (value, index, next value) triples; the same reading methods as ``MathRule``."""

    statement: str
    code: str
    values: tuple[int, ...]
    held: tuple[tuple[int, int, int], ...]

    def sequence(self, length: int = SEQUENCE_LENGTH) -> list[int] | None:
        return list(self.values[:length])

    def describe(self) -> str:
        return self.statement


def read_math_draft(text: str) -> dict[str, Any]:
    """A game master's reply read as statement, start (a whole number) and code; ``FormatError`` otherwise."""
    data: dict[str, Any] = read_code_draft(text, "def generate_next(", ("start",))
    try:
        start = int(str(data["start"]).strip().rstrip("."))
    except ValueError:
        raise FormatError("the START line must hold one whole number.") from None
    if abs(start) > MAX_START:
        raise FormatError(f"the start value must be at most {MAX_START} in size.")
    data["start"] = start
    return data


def other_starts(start: int) -> tuple[int, ...]:
    """Start values for the held-out values, in the order they are tried: three times the start first, which keeps
    every factor a division needed (the sandbox cannot tell a floor division that does not come out even from
    an exact one), then others."""
    found: list[int] = []
    for other in (start * 3, start * 2 + 1, start * 5, start + 1, start * 2, start * 7, start - 1):
        if other != start and other not in found and abs(other) <= MAX_ABS:
            found.append(other)
    return tuple(found)


def _problem(values: Sequence[JsonValue], length: int) -> tuple[str, str] | None:
    marker = next((value for value in values if isinstance(value, str)), None)
    if marker == OVERFLOW:
        return "overflow", f"a value of the sequence is beyond {MAX_ABS:.0e} in size (or not a number)"
    if marker is not None:
        return "non_integer", f"a value of the sequence is {marker}"
    return sequence_problem(values, length)


def _level_problem(level: int, probes: Mapping[tuple[int, int], JsonValue]) -> str | None:
    """What about the function's values on the probes does not fit ``level``, or ``None``."""
    by_index = all(probes[(v, 0)] == probes[(v, 2)] and probes[(v, 1)] == probes[(v, 3)] for v in PROBES)
    by_parity = any(probes[(v, 0)] != probes[(v, 1)] for v in PROBES)
    flips = all(isinstance(probes[(v, i)], int | float) and probes[(v, i)] * v < 0  # type: ignore[operator]
                for v in PROBES[:2] for i in range(4))
    if level == 3:
        if not by_index:
            return "the result depends on the index in another way than whether it is even or odd"
        return None if by_parity else "the same operation applies at even and odd indices; they must differ"
    if not by_index or by_parity:
        return "the result depends on the index; at this level it must be the same operation at every step"
    if level == 2 and not flips:
        return "the sign does not flip at every step; multiply or divide by a negative number"
    if level == 1 and flips:
        return "the sign flips at every step (that is level 2); use a positive number"
    return None


class WrittenSequenceCheck:
    """The ``code_executor``'s check of a drafted Math Game rule at ``level`` (see the module's note)."""

    def __init__(self, level: int, *, timeout_s: float = TIMEOUT_S) -> None:
        self._level = level
        self._timeout_s = timeout_s

    def __call__(self, draft: Mapping[str, Any]) -> dict[str, Any]:
        code, start = str(draft.get("code", "")) + RUNNER, int(draft.get("start", 0))
        starts = other_starts(start)
        rows = [(start, SEQUENCE_LENGTH), *((other, HELD_OUT + 1) for other in starts)]
        try:
            sequences = run_function(code, "playeval_sequence", rows, self._timeout_s)
            stepped = run_function(code, "playeval_step", [(v, i) for v in PROBES for i in range(4)],
                                   self._timeout_s)
        except SandboxError as error:
            return rejection(error.reason, f"the code did not run: {error}")
        values = sequences[0]
        assert isinstance(values, list)
        problem = _problem(values, SEQUENCE_LENGTH)
        if problem is not None:
            return rejection(*problem)
        wrong = _level_problem(self._level, dict(zip(((v, i) for v in PROBES for i in range(4)), stepped,
                                                     strict=True)))
        if wrong is not None:
            return rejection("wrong_level", wrong)
        valid = [other for other in sequences[1:] if isinstance(other, list) and _problem(other, HELD_OUT + 1) is None]
        if valid:
            # item i from the valid other sequences in turn, so (with two or more) an answer is not the next
            # line's value, as with the procedural rules' check
            held = [[valid[i % len(valid)][i], i, valid[i % len(valid)][i + 1]] for i in range(HELD_OUT)]
            return {"accepted": True, "reason": "accepted", "message": "accepted", "values": values,
                    "held_out": held}
        return rejection("no_held_out", f"from no other start value ({', '.join(map(str, starts))}) does the rule "
                                        f"give {HELD_OUT + 1} valid values; pick a rule that works from most starts")


def accepted_sequence(draft: Mapping[str, Any], verdict: Mapping[str, Any]) -> WrittenSequence:
    """The rule an accepting verdict makes, checked for what a pure game can check (the values start at the
    draft's start and form a valid sequence; the held-out triples are whole numbers). ``RuleViolation`` else."""
    values, held = verdict.get("values"), verdict.get("held_out")
    if not isinstance(values, list) or _problem(values, SEQUENCE_LENGTH) or values[:1] != [draft.get("start")]:
        raise RuleViolation(f"the verdict's values are not a valid sequence from {draft.get('start')}.")
    if not (isinstance(held, list) and len(held) == HELD_OUT and all(
            isinstance(row, list) and len(row) == 3 and all(type(x) is int for x in row) for row in held)):
        raise RuleViolation(f"the verdict needs {HELD_OUT} held-out (value, index, next value) triples.")
    return WrittenSequence(statement=str(draft["statement"]), code=str(draft["code"]), values=tuple(values),
                           held=tuple((int(a), int(b), int(c)) for a, b, c in held))
