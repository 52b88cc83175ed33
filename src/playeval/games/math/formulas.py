"""A Math Game guess read as a next-value formula, and whether it gives the rule's values: what lets the rules
accept a right guess in any plain wording without asking the judge.

``read_guess`` reads a guess, without evaluating any code (a tokenizer and a precedence parser of its own), as
one formula in the previous value (``x``) or, for an L3 rule, one formula at even positions and one at odd ones.
It reads:

* symbols: ``x/3``, ``n / 3``, ``x*2+1``, ``2x + 1``, ``(x + 1) * 2``, ``+5``, ``/3``, ``x // 3`` (floor division),
  the variable any one letter or ``a(n)``, ``a[n]``, ``a_n``, ``a_{n}``;
* a left-hand side: ``a(n+1) = a(n)/3`` (the left index one more than the right; the same index with ``->``),
  ``next = previous / 3``, ``f(x) = ...``, ``each number is divided by 3``, ``the next value is the previous value
  times 2``;
* words for the operations: ``divide(d) by``, ``multiply/multiplied by``, ``times``, ``over``, ``add``, ``plus``,
  ``increase(d) by``, ``subtract``, ``minus``, ``decrease(d) by``, ``reduce(d) by``, ``less``, ``double``,
  ``twice``, ``triple``, ``halve``, ``half of``, with their third-person forms (``divides by``, ``adds``;
  ``gets`` is a filler word); ``divide it by 3``, ``add 5 to it``, ``subtract 4 from it``;
  ``negative 3`` is ``-3``; ``flip the sign`` and ``negate`` multiply by -1; words for the previous value
  (``the previous value``, ``the current number``, ``the last term``, ``current_value``, ``it``, ``the result``);
* steps in order: ``multiply by 2, then add 1`` is ``(x * 2) + 1`` and ``add 1 and multiply by 2`` is
  ``(x + 1) * 2`` (``then``, ``and``, a comma or a semicolon between steps);
* L3: ``at even positions divide by 4, at odd positions multiply by 3``, ``divide by 4 at even indices and multiply
  by 3 at odd ones``, ``if the index is even ... otherwise ...``. The parity is the previous value's position, as
  the game defines the rule (``generate_next(current_value, index)``; the first value is at position 0);
  ``when the value is even`` (the value's parity) is not read.

Number words (``three``) count as digits, after the shared normalisation (``guess_rule.stated``). Whatever else is
left (a word it does not know, two variables, a power) makes the guess unreadable, and it goes to the judge.

``gives_values``: a formula is the rule when, evaluated in exact fractions (``x/3`` of 27 is 9; of 28 it is no
whole number and so no match), it gives the next value for every consecutive pair of the rule's sequence and the
next value of every held-out item. The game's own divisions always come out even (``sequences.Step.apply`` draws
no rule whose division leaves a remainder), so on its values ``/`` and ``//`` agree and exact fractions judge a
guess as the rule computes; a ``//`` that would drop a remainder counts as a miss (``(x + 2) // 3`` is not
``x / 3``, though the two agree on multiples of 3). A formula that does not give every value is not refused: it
goes to the judge too.

Bad input stays cheap: a guess longer than ``MAX_CHARS``, with more than ``MAX_TOKENS`` tokens, a number longer
than ``MAX_DIGITS`` or brackets deeper than ``MAX_DEPTH`` is unreadable, and an evaluation whose numbers grow
beyond ``MAX_BITS`` bits stops as a mismatch (no value of the game is near that size).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from playeval.guess_rule.stated import fold, with_digits, without_intro

MAX_CHARS = 300
MAX_TOKENS = 64
MAX_DIGITS = 15
MAX_DEPTH = 12
MAX_BITS = 4096


@dataclass(frozen=True)
class Num:
    value: Fraction


@dataclass(frozen=True)
class Var:
    """The previous value (the running value, in a later step)."""


@dataclass(frozen=True)
class Neg:
    inner: Expr


@dataclass(frozen=True)
class BinOp:
    op: str
    left: Expr
    right: Expr


Expr = Num | Var | Neg | BinOp
Formula = tuple[Expr, ...]
"""Steps applied in order, each to the value the one before gave."""


@dataclass(frozen=True)
class Guessed:
    """A guess read as formulas: ``even`` makes the next value from a value at an even position, ``odd`` from one
    at an odd position (the same formula at L1 and L2, or when the guess names no parity)."""

    even: Formula
    odd: Formula


class Unreadable(Exception):
    """The guess is not a formula this module reads (the judge decides it)."""


# -- evaluation -------------------------------------------------------------------------------------------------


def _bounded(value: Fraction) -> Fraction:
    if value.numerator.bit_length() > MAX_BITS or value.denominator.bit_length() > MAX_BITS:
        raise ArithmeticError("too large")
    return value


def evaluate(expr: Expr, x: Fraction) -> Fraction:
    """``expr`` at ``x`` in exact fractions; ``ArithmeticError`` on a division by zero or a number too large."""
    if isinstance(expr, Num):
        return expr.value
    if isinstance(expr, Var):
        return x
    if isinstance(expr, Neg):
        return -evaluate(expr.inner, x)
    left, right = evaluate(expr.left, x), evaluate(expr.right, x)
    if expr.op == "+":
        return _bounded(left + right)
    if expr.op == "-":
        return _bounded(left - right)
    if expr.op == "*":
        return _bounded(left * right)
    if right == 0:
        raise ZeroDivisionError("division by zero")
    if expr.op == "//":  # the game's divisions come out even: a floor that drops a remainder is not the rule's
        if left % right:
            raise ArithmeticError("a floor division that leaves a remainder")
        return Fraction(left // right)
    return _bounded(left / right)


def run(formula: Formula, value: int) -> Fraction | None:
    """The value ``formula`` makes from ``value`` (``None``: a division by zero, or numbers too large)."""
    current = Fraction(value)
    try:
        for step in formula:
            current = evaluate(step, current)
    except ArithmeticError:
        return None
    return current


def gives_values(guessed: Guessed, triples: Iterable[tuple[int, int, int]]) -> bool:
    """Whether ``guessed`` makes ``following`` from ``value`` at ``index`` for every (value, index, following)."""
    checked = 0
    for value, index, following in triples:
        if run(guessed.even if index % 2 == 0 else guessed.odd, value) != following:
            return False
        checked += 1
    return checked > 0


# -- reading ------------------------------------------------------------------------------------------------------

_INDEXED = re.compile(r"\b(?P<name>[a-z])\s*(?:_\s*)?(?:[(\[{]\s*(?P<i>[nkit])\s*(?:(?P<sign>[-+])\s*(?P<off>\d))?"
                      r"\s*[)\]}]|_\s*(?P<bare>[nkit])\b)")
_WORD_VALUE = re.compile(r"\b(?:(?:previous|prior|preceding|last|current|old|given|input|starting)\s+"
                         r"(?:value|number|term|one|element|entry)|current_value|previous|prev|value|number|term|"
                         r"it|result)s?\b")
_SEPARATOR = re.compile(r"\s*(?P<sep>=>|->|=|\bis\s+equal\s+to\b|\bequals\b|\bis\b|\bbecomes\b)\s*")
_MAPS_TO = frozenset({"=>", "->", "becomes"})
"""Separators of a mapping (``a(n) -> a(n) / 3``: the same index on both sides), not of a recurrence."""
_ONE = re.compile(r"\b(previous|prior|preceding|last|current|old|next|new|each|every)\s+one\b")
_ARTICLE = re.compile(r"\bthe\s+|\ban?\s+(?=[a-z]{3,}\b)(?!(?:and|or|nor)\b)")
_LHS_WORDS = frozenset({"next", "new", "following", "subsequent", "successive", "output", "each", "every", "then",
                        "x", "y", "f", "g", "(", ")", "of", "in", "sequence", "one"})
_FILLER = re.compile(r"\b(?:(?:at|on|in)\s+)?(?:each|every)\s+(?:time|step|turn)\b|\b(?:always|simply|just|gets?)\b")
_EACH = re.compile(r"\b(?:each|every)\s+x\b")
_WORDS_TO_SYMBOLS: tuple[tuple[str, str], ...] = (
    (r"\bx\s*:\s*", "x "),
    (r"\b(divides?|multipl(?:y|ies))\s+x\s+by\b", r"\1 by"),
    (r"\badd\s+(\d+(?:\.\d+)?)\s+to\s+x\b", r"+ \1"),
    (r"\bsubtract\s+(\d+(?:\.\d+)?)\s+from\s+x\b", r"- \1"),
    (r"\b(\d+(?:\.\d+)?)\s+subtracted\s+from\s+x\b", r"x - \1"),
    (r"\b(\d+(?:\.\d+)?)\s+added\s+to\s+x\b", r"x + \1"),
    (r"\bnegative\s+(?=\d)", "- "),
    (r"\b(?:twice|double)\s+(?:of\s+)?x\b", "2 * x"),
    (r"\b(?:thrice|triple)\s+(?:of\s+)?x\b", "3 * x"),
    (r"\bhalf\s+(?:of\s+)?x\b", "x / 2"),
    (r"\b(?:negate|(?:flip|change|switch|reverse)\s+sign)\b", "* - 1"),
    (r"\b(?:double[sd]?|times\s+2)\b", "* 2"),
    (r"\btriple[sd]?\b", "* 3"),
    (r"\bhalve[sd]?\b", "/ 2"),
    (r"\b(?:divided\s+by|divides?\s+by|divides?|over)\b", "/"),
    (r"\b(?:multiplied\s+(?:by|with)|multipl(?:y|ies)\s+by|multipl(?:y|ies)|times)\b", "*"),
    (r"\b(?:increased\s+by|increases?\s+by|increases?|adds?|plus)\b", "+"),
    (r"\b(?:decreased\s+by|decreases?\s+by|decreases?|reduced\s+by|reduces?\s+by|reduces?)\b", "-"),
    (r"\b(?:subtracts?|take\s+away|minus|less)\b", "-"),
    (r"\b(?:and\s+then|after\s+that|then|and)\b", ";"),
)
"""Rewrites, in order, of the words of a formula into its symbols (``divide it by 3``: ``/ 3``)."""
_REWRITES = tuple((re.compile(pattern), replacement) for pattern, replacement in _WORDS_TO_SYMBOLS)
_SYMBOL = re.compile(r"\s*(?:(?P<num>\d+(?:\.\d+)?)|(?P<name>[a-z])\b|(?P<op>//|[-+*/()])|(?P<then>[;,]))")
_PARITY = re.compile(
    r"(?:\b(?:at|on|for|in|with)\s+)?(?:\b(?:the|an?)\s+)?\b(?P<p>even|odd)[\s-]+(?:numbered\s+)?"
    r"(?:positions?|indices|indexes|index|steps?|places?|ones?)\b"
    r"|\b(?:if|when|where|whenever|for)\s+(?:the\s+)?(?:(?:previous|current)\s+(?:value|number|term)(?:'?s)?\s+)?"
    r"(?:position|index|step|place)(?:\s+of\s+(?:the\s+)?(?:previous|current)\s+(?:value|number|term))?"
    r"\s+is\s+(?P<q>even|odd)\b"
    r"|\b(?P<other>otherwise|else)\b")
_CONNECTOR = re.compile(r"^(?:[\s,;:.]|\band\b|\bbut\b|\bthen\b)+|(?:[\s,;:.]|\band\b|\bbut\b)+$")
_BINARY = frozenset({"+", "-", "*", "/", "//"})


@lru_cache(maxsize=1024)
def read_guess(text: str) -> Guessed | None:
    """``text`` read as formulas (see the module's note), or ``None`` when it is not one. Memoised: a match's fold
    reads each guess again whenever its state is rebuilt."""
    try:
        return parse_guess(text)
    except Unreadable:
        return None


def parse_guess(text: str) -> Guessed:
    """As ``read_guess``, raising ``Unreadable`` with what could not be read."""
    if len(text) > MAX_CHARS:
        raise Unreadable("too long")
    prepared = _ONE.sub(r"\1 value", without_intro(fold(text)))
    prepared = with_digits(_ARTICLE.sub("", prepared)).strip().rstrip(".!").strip()
    heads = list(_PARITY.finditer(prepared))
    if not heads:
        if re.search(r"\b(?:even|odd)\b", prepared):
            raise Unreadable("a parity it cannot place")
        formula = _formula(prepared)
        return Guessed(even=formula, odd=formula)
    return _by_parity(prepared, heads)


def _by_parity(text: str, heads: list[re.Match[str]]) -> Guessed:
    if len(heads) != 2:
        raise Unreadable("not one clause for even and one for odd positions")
    spans = (text[:heads[0].start()], text[heads[0].end():heads[1].start()], text[heads[1].end():])
    bodies = [_CONNECTOR.sub("", span) for span in spans]
    if re.search(r"\b(?:even|odd)\b", " ".join(bodies)):
        raise Unreadable("a parity it cannot place")
    filled = [index for index, body in enumerate(bodies) if body]
    if filled == [1, 2]:
        first, second = bodies[1], bodies[2]
    elif filled == [0, 1]:
        first, second = bodies[0], bodies[1]
    elif filled == [0, 2]:
        first, second = bodies[0], bodies[2]
    else:
        raise Unreadable("not two steps")
    parities = [head.group("p") or head.group("q") for head in heads]
    if parities[0] is None:
        raise Unreadable("'otherwise' before a parity")
    if parities[1] is None:
        parities[1] = "odd" if parities[0] == "even" else "even"
    if sorted(parities) != ["even", "odd"]:
        raise Unreadable("the same parity twice")
    formulas = {parities[0]: _formula(first), parities[1]: _formula(second)}
    return Guessed(even=formulas["even"], odd=formulas["odd"])


def _formula(text: str) -> Formula:
    """One formula (no parity) from prepared text."""
    words = _FILLER.sub(" ", _variables(text))
    words = _EACH.sub("x", words)
    split = _SEPARATOR.search(words)
    if split is not None:
        lhs, words = words[:split.start()], words[split.end():]
        if not set(_lhs_tokens(lhs)) <= _LHS_WORDS:
            raise Unreadable(f"a left-hand side it does not read: {lhs!r}")
    for pattern, replacement in _REWRITES:
        words = pattern.sub(replacement, words)
    words = re.sub(r"(\d)\s*(?=[a-z(])", r"\1 * ", words)  # 2x, 3(x + 1)
    return _steps(_tokens(words))


def _variables(text: str) -> str:
    """``text`` with the previous value written ``x``: indexed forms (``a(n)``, ``a_n``; the left side's index
    one more than the right side's) and words (``the previous value``)."""
    offsets: dict[str, set[int]] = {"lhs": set(), "rhs": set()}
    names: set[str] = set()
    split = _SEPARATOR.search(text)
    cut = split.start() if split else -1
    step = 0 if split and split.group("sep") in _MAPS_TO else 1

    def indexed(found: re.Match[str]) -> str:
        names.add(found.group("name"))
        offset = int(found.group("off") or 0) * (-1 if found.group("sign") == "-" else 1)
        offsets["lhs" if found.start() < cut else "rhs"].add(offset)
        return " x "

    text = _INDEXED.sub(indexed, text)
    if names:
        if len(names) > 1 or len(offsets["rhs"]) > 1:
            raise Unreadable("more than one sequence or index")
        if offsets["lhs"] and offsets["rhs"] and (len(offsets["lhs"]) > 1 or
                                                 next(iter(offsets["lhs"])) - next(iter(offsets["rhs"])) != step):
            raise Unreadable("the left index is not the next one after the right")
        if not offsets["rhs"]:
            raise Unreadable("no previous value on the right")
    return _WORD_VALUE.sub(" x ", text)


def _lhs_tokens(lhs: str) -> list[str]:
    return re.findall(r"[a-z]+|[()]|\S", lhs)


def _tokens(text: str) -> list[str]:
    """The formula's tokens: numbers, ``x``, operators, brackets and ``;`` between steps; any one letter is the
    variable (one only)."""
    tokens: list[str] = []
    letters: set[str] = set()
    position, text = 0, text.strip()
    while position < len(text):
        found = _SYMBOL.match(text, position)
        if found is None or found.end() == position:
            if text[position:].strip() == "":
                break
            raise Unreadable(f"cannot read {text[position:position + 20]!r}")
        position = found.end()
        if found.group("num"):
            if len(found.group("num")) > MAX_DIGITS:
                raise Unreadable("a number too long")
            tokens.append(found.group("num"))
        elif found.group("name"):
            letters.add(found.group("name"))
            tokens.append("x")
        elif found.group("op"):
            tokens.append(found.group("op"))
        else:
            tokens.append(";")
        if len(tokens) > MAX_TOKENS:
            raise Unreadable("too many tokens")
    if len(letters) > 1:
        raise Unreadable("more than one variable")
    return tokens


def _steps(tokens: list[str]) -> Formula:
    """The steps between ``;``: a step that starts with an operator and names no variable applies it to the value
    so far (``/ 3``: ``x / 3``); every step must use the value."""
    steps: list[Expr] = []
    current: list[str] = []
    for token in [*tokens, ";"]:
        if token != ";":
            current.append(token)
            continue
        if not current:
            continue
        if current[0] in _BINARY and "x" not in current:
            current = ["x", *current]
        if "x" not in current:
            raise Unreadable("a step that does not use the value")
        steps.append(_Parser(_implicit(current)).parse())
        current = []
    if not steps:
        raise Unreadable("no formula")
    return tuple(steps)


def _implicit(tokens: list[str]) -> list[str]:
    """``)(``, ``)x``, ``x(``, ``x 2``-free: a multiplication sign where two operands meet across a bracket."""
    out: list[str] = []
    for token in tokens:
        if out and (out[-1] == ")" or out[-1] == "x") and (token == "(" or token == "x"):
            out.append("*")
        out.append(token)
    return out


class _Parser:
    """Precedence climbing over the tokens: sums of products of signed factors (numbers, ``x``, brackets)."""

    def __init__(self, tokens: list[str]) -> None:
        self._tokens = tokens
        self._at = 0
        self._depth = 0

    def parse(self) -> Expr:
        expr = self._sum()
        if self._at != len(self._tokens):
            raise Unreadable(f"unexpected {self._tokens[self._at]!r}")
        return expr

    def _peek(self) -> str | None:
        return self._tokens[self._at] if self._at < len(self._tokens) else None

    def _sum(self) -> Expr:
        expr = self._product()
        while self._peek() in ("+", "-"):
            op = self._tokens[self._at]
            self._at += 1
            expr = BinOp(op, expr, self._product())
        return expr

    def _product(self) -> Expr:
        expr = self._factor()
        while self._peek() in ("*", "/", "//"):
            op = self._tokens[self._at]
            self._at += 1
            expr = BinOp(op, expr, self._factor())
        return expr

    def _factor(self) -> Expr:
        token = self._peek()
        if token is None:
            raise Unreadable("the formula ends too soon")
        self._at += 1
        if token in ("-", "+"):
            self._deeper()
            inner = self._factor()
            self._depth -= 1
            return Neg(inner) if token == "-" else inner
        if token == "x":
            return Var()
        if token == "(":
            self._deeper()
            inner = self._sum()
            self._depth -= 1
            if self._peek() != ")":
                raise Unreadable("a bracket not closed")
            self._at += 1
            return inner
        if token[0].isdigit():
            return Num(Fraction(token))
        raise Unreadable(f"unexpected {token!r}")

    def _deeper(self) -> None:
        self._depth += 1
        if self._depth > MAX_DEPTH:
            raise Unreadable("brackets too deep")
