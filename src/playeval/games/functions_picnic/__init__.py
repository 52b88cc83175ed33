"""GuessTheRuleBench's Code Functions Picnic: the reviewed rule library, the word list and the rule checks.

The hidden rule is a Python function ``rule(word) -> bool``. This package holds what the game is built on
(and the game, ``game.FunctionsPicnic``): the built-in library of reviewed rules at three levels (``library``), the
packaged English word list with its fixed 500-word sample (``words``), the acceptance check every rule's code
goes through in the sandbox and the per-rule cache of truth values (``checks``), and the pure draws of
example and held-out words (``examples``).
"""

from playeval.games.functions_picnic.checks import (
    DEFAULT_TIMEOUT_S,
    MAX_TRUE_SHARE,
    MIN_TRUE_SHARE,
    CheckReason,
    RuleCheck,
    RuleEvaluationError,
    RuleEvaluator,
    TruthVector,
    check_rule,
    known_vectors,
    truth_values,
)
from playeval.games.functions_picnic.examples import ExampleDraw, HeldOutWord, available, draw_examples, draw_held_out
from playeval.games.functions_picnic.game import FunctionsPicnic
from playeval.games.functions_picnic.library import (
    CONVENTIONS,
    LEVELS,
    LIBRARY,
    RULE_FUNCTION,
    SETS,
    LibraryRule,
    RuleLevel,
    rule_by_id,
    rule_set,
    rules_at_level,
)
from playeval.games.functions_picnic.words import SAMPLE_SIZE, WordList, load_words

__all__ = [
    "CONVENTIONS",
    "DEFAULT_TIMEOUT_S",
    "LEVELS",
    "LIBRARY",
    "MAX_TRUE_SHARE",
    "MIN_TRUE_SHARE",
    "RULE_FUNCTION",
    "SAMPLE_SIZE",
    "SETS",
    "CheckReason",
    "ExampleDraw",
    "FunctionsPicnic",
    "HeldOutWord",
    "LibraryRule",
    "RuleCheck",
    "RuleEvaluationError",
    "RuleEvaluator",
    "RuleLevel",
    "TruthVector",
    "WordList",
    "available",
    "check_rule",
    "draw_examples",
    "draw_held_out",
    "known_vectors",
    "load_words",
    "rule_by_id",
    "rule_set",
    "rules_at_level",
    "truth_values",
]
