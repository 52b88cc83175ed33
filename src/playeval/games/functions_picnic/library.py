"""The reviewed, built-in rule library of the Code Functions Picnic game.

Every rule is a ``LibraryRule``: an id (``"L2.with-a-and-e"``), a level, the Python source of
``def rule(word):`` (plain code the sandbox accepts: no imports, no dunders, no classes) and the statement
a judge compares a player's guess with. The levels follow the issue:

- L1: one lexical property: length, the class of the first or last letter, a letter, double letters, a count
  of vowels or consonants;
- L2: two such properties combined with "and" or "or";
- L3: positional or relational properties: the letter at a position, the first letter compared with the
  last, letters in alphabetical order, a letter repeated at a distance, the two halves of a word compared...

The statements follow ``CONVENTIONS``. Every rule is true on 10 to 90 % of the fixed 500-word sample, and no
two rules have the same truth vector on it (nor complementary ones): ``tests/games/test_functions_picnic_library.py``
runs every rule through the sandbox and ``checks.check_rule``.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from playeval.games.functions_picnic._level1 import LEVEL1
from playeval.games.functions_picnic._level2 import LEVEL2
from playeval.games.functions_picnic._level3 import LEVEL3
from playeval.games.functions_picnic._types import LEVELS, RULE_FUNCTION, LibraryRule, RuleLevel

CONVENTIONS = (
    "Words are lowercase English words of 3 to 12 letters. The vowels are a, e, i, o and u; every other "
    "letter, y included, is a consonant. A count of vowels, consonants or letters counts every occurrence "
    "('tree' has two vowels). Positions are counted from 1 at the first letter; 'the alphabet' is a to z."
)
"""What every statement assumes; a judge that compares guesses with statements should be told it."""

LIBRARY: tuple[LibraryRule, ...] = (*LEVEL1, *LEVEL2, *LEVEL3)
"""All library rules, level 1 first; ids are unique."""

_BY_ID: Mapping[str, LibraryRule] = MappingProxyType({rule.id: rule for rule in LIBRARY})
if len(_BY_ID) != len(LIBRARY):
    raise RuntimeError("the functions_picnic library has duplicate rule ids")
if any(rule.level != int(rule.id[1]) for rule in LIBRARY):
    raise RuntimeError("a functions_picnic library rule's id does not start with its level")


SETS: tuple[str, str] = ("set1", "set2")
"""The library's two disjoint halves (``--secret-set``): within each level, in library order, the first rule is in
``set1``, the second in ``set2``, and so on. Neighbours in the library are alike ("longer than five letters",
"longer than seven letters"), so alternating gives each half rules of the same kinds and about the same number."""


def rule_set(rule: LibraryRule) -> str:
    """The half of the library ``rule`` is in (see ``SETS``)."""
    index = [other.id for other in LIBRARY if other.level == rule.level].index(rule.id)
    return SETS[index % len(SETS)]


def rules_at_level(level: RuleLevel, secret_set: str | None = None) -> tuple[LibraryRule, ...]:
    """The library rules of ``level`` (1, 2 or 3), in library order; with ``secret_set``, those of that half."""
    if level not in LEVELS:
        raise ValueError(f"level must be one of {LEVELS}, not {level!r}")
    rules = tuple(rule for rule in LIBRARY if rule.level == level)
    if secret_set is None:
        return rules
    if secret_set not in SETS:
        raise ValueError(f"secret_set must be one of {SETS}, not {secret_set!r}")
    return rules[SETS.index(secret_set)::len(SETS)]


def rule_by_id(rule_id: str) -> LibraryRule:
    """The library rule with this id; ``KeyError`` when there is none."""
    try:
        return _BY_ID[rule_id]
    except KeyError:
        raise KeyError(f"no functions_picnic library rule {rule_id!r}") from None


__all__ = [
    "CONVENTIONS",
    "LEVELS",
    "LIBRARY",
    "RULE_FUNCTION",
    "SETS",
    "LibraryRule",
    "RuleLevel",
    "rule_by_id",
    "rule_set",
    "rules_at_level",
]
