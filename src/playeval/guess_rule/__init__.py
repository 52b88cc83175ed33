"""GuessTheRuleBench in playeval: the flow its games share (``GuessRuleGame``), on playeval's core.

The paper's library interface (``StaticGoingOnAPicnic``, ``DynamicGoingOnAPicnic``, ``CodeFunctionsPicnic``,
``MathGuessTheRuleGame``, ``GuessRuleError``) drives the engine and the store, so it lives above them, in
``playeval.library``; it is still importable from here, where it was first published, but only loaded when one of
its names is asked for (so importing a game never imports the engine or the store).
"""

from typing import Any

from playeval.guess_rule.base import (
    JUDGE,
    PLAYER,
    SECRET_SET,
    SECRET_SETS,
    Check,
    Guess,
    GuessRuleGame,
    GuessState,
    HeldOut,
    ListedRound,
    ListedRuleGame,
    More,
    examples_left,
    last_move,
    numbered_answers,
    numbered_grammar,
)
from playeval.guess_rule.stated import rule_words, states_rule

_LIBRARY = frozenset({"CodeFunctionsPicnic", "DynamicGoingOnAPicnic", "GuessRuleError", "MathGuessTheRuleGame",
                      "StaticGoingOnAPicnic"})

__all__ = [
    "JUDGE",
    "PLAYER",
    "SECRET_SET",
    "SECRET_SETS",
    "Check",
    "CodeFunctionsPicnic",
    "DynamicGoingOnAPicnic",
    "Guess",
    "GuessRuleError",
    "GuessRuleGame",
    "GuessState",
    "HeldOut",
    "ListedRound",
    "ListedRuleGame",
    "MathGuessTheRuleGame",
    "More",
    "StaticGoingOnAPicnic",
    "examples_left",
    "last_move",
    "numbered_answers",
    "numbered_grammar",
    "rule_words",
    "states_rule",
]


def __getattr__(name: str) -> Any:
    """The library interface's names, from ``playeval.library`` on first use (see the module's note)."""
    if name in _LIBRARY:
        import playeval.library

        return getattr(playeval.library, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
