"""GBNF grammars (llama.cpp) built from output constraints."""

from __future__ import annotations

from playeval.core.ask import OutputConstraint

_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def gbnf_literal(text: str) -> str:
    """``text`` as a quoted GBNF string literal."""
    return '"' + "".join(_ESCAPES.get(ch, ch) for ch in text) + '"'


def choices_grammar(choices: tuple[str, ...]) -> str:
    """A grammar that accepts exactly one of ``choices`` and nothing else."""
    if not choices:
        raise ValueError("a choices constraint needs at least one choice")
    unique = list(dict.fromkeys(choices))
    return "root ::= " + " | ".join(gbnf_literal(choice) for choice in unique) + "\n"


def constraint_grammar(constraint: OutputConstraint | None) -> str | None:
    """The GBNF text for a constraint: its grammar, else its choices, else none."""
    if constraint is None:
        return None
    if constraint.grammar is not None:
        return constraint.grammar
    if constraint.choices is not None:
        return choices_grammar(constraint.choices)
    return None
