"""GuessTheRuleBench's Math Game: find the hidden rule that makes each value of a number sequence."""

from playeval.games.math.formulas import Guessed, gives_values, read_guess
from playeval.games.math.rules import MathGame
from playeval.games.math.sequences import (
    HELD_OUT,
    SEQUENCE_LENGTH,
    SETS,
    MathRule,
    Step,
    draw_rule,
    held_out,
    rule_set,
)
from playeval.guess_rule import JUDGE, PLAYER

__all__ = ["HELD_OUT", "JUDGE", "PLAYER", "SEQUENCE_LENGTH", "SETS", "Guessed", "MathGame", "MathRule", "Step",
           "draw_rule", "gives_values", "held_out", "read_guess", "rule_set"]
