"""The Math Game's concealed rules: a next-value function ``generate_next(current_value, index)``, drawn from a
seeded RNG (GuessTheRuleBench section 4.4).

* L1: one operation on the previous value (add, subtract, multiply or divide by a positive number), the same at
  every index.
* L2: as L1, with a negative multiplier or divisor (the sign flips at every step, so the sequence jumps).
* L3: one operation at even indices and another at odd ones.

A value is ``rule(value, index)`` of the one before it, index counting from 0 at the start value. A drawn rule is
rejected, and another drawn, when its sequence overflows (``MAX_ABS``), goes constant (a step that changes
nothing, or a value that repeats its predecessor), or stops being integer-valued (a division that does not come
out even). The rule is data (``Step``s), so the game stays pure: no code is run to produce a value.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

Op = Literal["add", "sub", "mul", "div"]

MAX_ABS = 10**12
"""A sequence whose values leave ``[-MAX_ABS, MAX_ABS]`` overflows."""
SEQUENCE_LENGTH = 15
"""Values a rule must produce without overflowing, repeating or leaving the integers: the examples available
(the paper's example sequence has 13)."""
HELD_OUT = 10
_SPREAD = (7, 3, 11, 2, 13, 5, 17, 4, 19, 9)
"""Start-value multipliers of the check's items (``held_out``), one per item, deliberately out of order."""
"""Next values the player predicts after each guess, each from its own start value (the rule-application check)."""
MAX_DRAWS = 200
SETS: dict[str, tuple[Op, ...]] = {"set1": ("add", "mul"), "set2": ("sub", "div")}
"""The two disjoint halves of the rules (``--secret-set``), by the operations they use: ``set1`` adds and
multiplies, ``set2`` subtracts and divides (at L2, multiplying by a negative number against dividing by one; at L3
both steps from the set's two operations). No rule is in both."""

_WORDS: dict[Op, str] = {"add": "add", "sub": "subtract", "mul": "multiply by", "div": "divide by"}


Problem = Literal["non_integer", "overflow", "constant"]


def sequence_problem(values: Sequence[object], length: int) -> tuple[Problem, str] | None:
    """Why ``values`` (as a rule made them, from the start value on) are not a valid sequence of ``length``
    values: a value that is not a whole number, one beyond ``MAX_ABS``, one that repeats its predecessor, or fewer
    than four different values; ``None`` when they are valid."""
    for index, value in enumerate(values):
        if isinstance(value, bool) or not isinstance(value, int):
            return "non_integer", f"value {index} of the sequence is {value!r}, not a whole number"
        if abs(value) > MAX_ABS:
            return "overflow", f"value {index} of the sequence, {value}, is beyond {MAX_ABS:.0e} in size"
        if index and value == values[index - 1]:
            return "constant", f"value {index} of the sequence repeats the one before it ({value})"
    if len(values) < length:
        return "constant", f"the rule gave {len(values)} values, not {length}"
    if len(set(values)) < min(length, 4):
        return "constant", "the sequence keeps repeating the same few values"
    return None


@dataclass(frozen=True)
class Step:
    """One operation with its operand."""

    op: Op
    operand: int

    def apply(self, value: int) -> int | None:
        """The next value, or ``None`` when it is not an integer (a division that does not come out even)."""
        if self.op == "add":
            return value + self.operand
        if self.op == "sub":
            return value - self.operand
        if self.op == "mul":
            return value * self.operand
        if self.operand == 0 or value % self.operand != 0:
            return None
        return value // self.operand

    def describe(self) -> str:
        return f"{_WORDS[self.op]} {self.operand}"

    def code(self) -> str:
        symbol = {"add": "+", "sub": "-", "mul": "*", "div": "//"}[self.op]
        return f"current_value {symbol} {self.operand}" if self.operand >= 0 else \
            f"current_value {symbol} ({self.operand})"


@dataclass(frozen=True)
class MathRule:
    """A concealed rule: ``even`` applies at even indices, ``odd`` at odd ones (the same step at L1 and L2)."""

    even: Step
    odd: Step
    start: int
    spread_check: bool = False
    """The rule-application check's items come each from its own start value (``held_out``); rules drawn
    before this existed (recorded without the flag) keep the consecutive items they were played with."""

    def next_value(self, value: int, index: int) -> int | None:
        return (self.even if index % 2 == 0 else self.odd).apply(value)

    def sequence(self, length: int = SEQUENCE_LENGTH) -> list[int] | None:
        """The first ``length`` values, or ``None`` when the rule breaks one of the module's conditions."""
        values = [self.start]
        while len(values) < length:
            following = self.next_value(values[-1], len(values) - 1)
            if following is None:
                return None
            values.append(following)
            if abs(following) > MAX_ABS:
                break
        return None if sequence_problem(values, length) else values

    def describe(self) -> str:
        """The rule in words, as the judge is told it."""
        if self.even == self.odd:
            return f"each value is the previous value: {self.even.describe()}"
        return (f"each value is the previous value: {self.even.describe()} when the previous value's index is even "
                f"(the first value has index 0), and {self.odd.describe()} when it is odd")

    def code(self) -> str:
        """The rule as the paper's next-value function (for people reading the revealed rule)."""
        if self.even == self.odd:
            return f"def generate_next(current_value, index):\n    return {self.even.code()}"
        return (f"def generate_next(current_value, index):\n    if index % 2 == 0:\n        return {self.even.code()}\n"
                f"    return {self.odd.code()}")

    def to_setup(self) -> dict[str, object]:
        setup: dict[str, object] = {"even": [self.even.op, self.even.operand], "odd": [self.odd.op, self.odd.operand],
                                    "start": self.start}
        if self.spread_check:
            setup["check"] = "spread"
        return setup

    @classmethod
    def from_setup(cls, setup: dict[str, object]) -> MathRule:
        even, odd = setup["even"], setup["odd"]
        assert isinstance(even, list) and isinstance(odd, list)
        return cls(even=Step(even[0], int(even[1])), odd=Step(odd[0], int(odd[1])), start=int(str(setup["start"])),
                   spread_check=setup.get("check") == "spread")


def _step(rng: random.Random, negative: bool, ops: tuple[Op, ...] | None = None) -> Step:
    """A step drawn from ``rng``: any operation (a multiplication or division by a negative number when
    ``negative``), or, given ``ops``, one of those."""
    allowed: tuple[Op, ...] = ("mul", "div") if negative else ("add", "sub", "mul", "div")
    if ops is not None:
        allowed = tuple(op for op in allowed if op in ops)
    op: Op = rng.choice(allowed)
    if op in ("add", "sub"):
        return Step(op, rng.randint(1, 12))
    operand = rng.randint(2, 4)
    return Step(op, -operand if negative else operand)


def _start(rng: random.Random, even: Step, odd: Step) -> int:
    """A small start value, times enough factors of the divisors for every division to come out even."""
    start = rng.randint(1, 9)
    for index in range(SEQUENCE_LENGTH - 1):
        step = even if index % 2 == 0 else odd
        if step.op == "div":
            start *= abs(step.operand)
    return start


def draw_rule(level: int, rng: random.Random, secret_set: str | None = None) -> MathRule:
    """A rule of ``level`` (of the half ``secret_set``, see ``SETS``, when given) whose first ``SEQUENCE_LENGTH``
    values, and those from the held-out start, are valid; raises ``RuntimeError`` when none is found in
    ``MAX_DRAWS`` tries."""
    if level not in (1, 2, 3):
        raise ValueError(f"the math game has levels 1, 2 and 3, not {level}")
    if secret_set is not None and secret_set not in SETS:
        raise ValueError(f"secret_set must be one of {', '.join(SETS)}, not {secret_set!r}")
    ops = SETS[secret_set] if secret_set is not None else None
    for _ in range(MAX_DRAWS):
        even = _step(rng, negative=level == 2, ops=ops)
        odd = even if level < 3 else _step(rng, negative=False, ops=ops)
        if level == 3 and odd == even:
            continue
        rule = MathRule(even=even, odd=odd, start=_start(rng, even, odd), spread_check=True)
        if rule.sequence() is not None and held_out(rule) is not None:
            return rule
    raise RuntimeError(f"no valid level-{level} rule in {MAX_DRAWS} draws")


def rule_set(rule: MathRule) -> str | None:
    """The half of the rules (``SETS``) ``rule`` is in; ``None`` when its two steps come from different halves
    (an L3 rule drawn without a set may be in neither)."""
    found = [name for name, ops in SETS.items() if rule.even.op in ops and rule.odd.op in ops]
    return found[0] if found else None


LATER_STEP = 20
"""How far apart the start multipliers of successive checks are: check ``n`` (0 the first) takes item ``j`` from the
start ``start * (_SPREAD[j] + LATER_STEP * n)``, so no two checks share an item (``later_held_out``)."""


def later_held_out(rule: MathRule, number: int) -> list[tuple[int, int, int] | None]:
    """The items of the match's check ``number`` (1 the second), laid out as ``held_out``'s but from start
    multipliers ``LATER_STEP * number`` higher: fresh values, none in an earlier check (each value is the start's
    multiple's sequence at its index, and two starts never meet at an index, the rule being one-to-one), none shown.
    An item whose sequence is not valid (it overflows) is ``None``: the game asks an earlier check's item instead."""
    triples: list[tuple[int, int, int] | None] = []
    for index in range(HELD_OUT):
        values = replace(rule, start=rule.start * (_SPREAD[index] + LATER_STEP * number)).sequence(index + 2)
        triples.append(None if values is None else (values[index], index, values[index + 1]))
    return triples


def held_out(rule: MathRule) -> list[tuple[int, int, int]] | None:
    """``HELD_OUT`` (value, index, next value) triples of the rule, never shown as examples.

    Item ``j`` is the value at index ``j`` of the sequence from the start value ``start * _SPREAD[j]`` (a multiple
    of the start keeps every division even) and the value after it: each item comes from its own sequence, with
    the multipliers out of order, so an answer cannot be read off the next line, and the indices run 0 to 9, so
    both parities are asked. A rule recorded
    without ``spread_check`` keeps its older check: consecutive values from one other start (twice the start plus
    one, or three times the start when a division needs its factors), where all but the last answer could be read
    off the next line."""
    if not rule.spread_check:
        divides = "div" in (rule.even.op, rule.odd.op)
        other = MathRule(even=rule.even, odd=rule.odd, start=rule.start * 3 if divides else rule.start * 2 + 1)
        values = other.sequence(HELD_OUT + 1)
        if values is None:
            return None
        return [(values[index], index, values[index + 1]) for index in range(HELD_OUT)]
    triples: list[tuple[int, int, int]] = []
    for index in range(HELD_OUT):
        values = replace(rule, start=rule.start * _SPREAD[index]).sequence(index + 2)
        if values is None:
            return None
        triples.append((values[index], index, values[index + 1]))
    return triples
