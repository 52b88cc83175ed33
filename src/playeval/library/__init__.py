"""playeval as a Python library for researchers' own agents: the interfaces that drive the engine and read the
store, above them (beside the CLI and the web), so that the game side (``core``, ``games``, ``guess_rule``)
imports neither.

* GuessTheRuleBench's library interface (the paper's section 3.5.1): ``StaticGoingOnAPicnic``,
  ``DynamicGoingOnAPicnic``, ``CodeFunctionsPicnic``, ``MathGuessTheRuleGame`` (``library.guess_rule``; also
  importable from ``playeval.guess_rule``, where they were first published).
* The Dynamic Picnic rule bank collected from a store: ``collect_bank``, ``banked_rule`` (``library.rule_bank``).
"""

from playeval.library.guess_rule import (
    CodeFunctionsPicnic,
    DynamicGoingOnAPicnic,
    GuessRuleError,
    MathGuessTheRuleGame,
    StaticGoingOnAPicnic,
)
from playeval.library.rule_bank import banked_rule, collect_bank

__all__ = [
    "CodeFunctionsPicnic",
    "DynamicGoingOnAPicnic",
    "GuessRuleError",
    "MathGuessTheRuleGame",
    "StaticGoingOnAPicnic",
    "banked_rule",
    "collect_bank",
]
