"""GuessTheRuleBench in playeval: the flow its games share (``GuessRuleGame``), on playeval's core, and the
paper's library interface (``StaticGoingOnAPicnic``, ``CodeFunctionsPicnic``, ``MathGuessTheRuleGame``)."""

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
    numbered_grammar,
)
from playeval.guess_rule.library import (
    CodeFunctionsPicnic,
    GuessRuleError,
    MathGuessTheRuleGame,
    StaticGoingOnAPicnic,
)

__all__ = [
    "JUDGE",
    "PLAYER",
    "CodeFunctionsPicnic",
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
    "numbered_grammar",
]
