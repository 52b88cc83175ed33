"""GuessTheRuleBench in playeval: the flow its games share (``GuessRuleGame``), on playeval's core, and the
paper's library interface (``StaticGoingOnAPicnic``, ``DynamicGoingOnAPicnic``, ``CodeFunctionsPicnic``,
``MathGuessTheRuleGame``)."""

from playeval.guess_rule.base import (
    JUDGE,
    PLAYER,
    Guess,
    GuessRuleGame,
    GuessState,
    HeldOut,
    ListedRound,
    ListedRuleGame,
    More,
    numbered_answers,
    numbered_grammar,
)
from playeval.guess_rule.library import (
    CodeFunctionsPicnic,
    DynamicGoingOnAPicnic,
    GuessRuleError,
    MathGuessTheRuleGame,
    StaticGoingOnAPicnic,
)

__all__ = [
    "JUDGE",
    "PLAYER",
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
    "numbered_answers",
    "numbered_grammar",
]
