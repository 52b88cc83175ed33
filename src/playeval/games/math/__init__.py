"""GuessTheRuleBench's Math Game: find the hidden rule that makes each value of a number sequence."""

from playeval.games.math.rules import JUDGE, PLAYER, MathGame, MathState, application_accuracy
from playeval.games.math.sequences import HELD_OUT, SEQUENCE_LENGTH, MathRule, Step, draw_rule, held_out

__all__ = ["HELD_OUT", "JUDGE", "PLAYER", "SEQUENCE_LENGTH", "MathGame", "MathRule", "MathState", "Step",
           "application_accuracy", "draw_rule", "held_out"]
