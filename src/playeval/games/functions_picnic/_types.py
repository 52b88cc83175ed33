"""The record of one library rule, shared by the per-level rule modules."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Literal

RuleLevel = Literal[1, 2, 3]
"""L1: one lexical property; L2: two properties combined; L3: positional or relational properties."""

RULE_FUNCTION = "rule"
"""The name of the function a rule's source defines: ``def rule(word): ...``."""

LEVELS: tuple[RuleLevel, ...] = (1, 2, 3)


@dataclass(frozen=True)
class LibraryRule:
    """A reviewed rule: its id, level, the Python source of ``def rule(word):`` and its statement.

    ``statement`` is what a judge compares a player's guess with ("words longer than five letters");
    it follows the library's conventions (``library.CONVENTIONS``): the vowels are a, e, i, o and u,
    and positions are counted from 1.
    """

    id: str
    level: RuleLevel
    statement: str
    source: str


def library_rule(rule_id: str, level: RuleLevel, statement: str, body: str) -> LibraryRule:
    """A record whose source is ``def rule(word):`` followed by ``body`` (dedented, then indented 4)."""
    lines = textwrap.dedent(body).strip("\n")
    source = f"def {RULE_FUNCTION}(word):\n" + textwrap.indent(lines, "    ") + "\n"
    return LibraryRule(id=rule_id, level=level, statement=statement, source=source)
