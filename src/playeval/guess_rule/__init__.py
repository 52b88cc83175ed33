"""GuessTheRuleBench in playeval: the flow its games share (``GuessRuleGame``), on playeval's core."""

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

__all__ = [
    "JUDGE",
    "PLAYER",
    "Guess",
    "GuessRuleGame",
    "GuessState",
    "HeldOut",
    "ListedRound",
    "ListedRuleGame",
    "More",
    "numbered_grammar",
]
