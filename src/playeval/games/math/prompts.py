"""The Math Game's prompts, written for playeval: three player variants, the judge, and the rule-application check."""

from __future__ import annotations

PLAYER_VARIANTS: tuple[str, ...] = (
    ("You are playing a guess-the-rule game with numbers. A hidden rule makes each value of a sequence from the "
     "value before it, and it may depend on whether the previous value's position (counted from 0) is even or odd. "
     "You see some values; each turn, ask for more values or state the rule. Every request and every guess uses a "
     "turn, so guess as soon as you are confident."),
    ("A game master has a secret rule that turns each number of a sequence into the next one; the operation may "
     "differ at even and odd positions (the first value is at position 0). Work out the exact rule: the operation "
     "and its number. On your turn either request more of the sequence or give your guess. Fewer turns is better."),
    ("Find the hidden rule of a number sequence. The rule computes the next value from the current one (and "
     "possibly from whether the current position, starting at 0, is even or odd) using addition, subtraction, "
     "multiplication or division. Each turn you may see more values or guess the rule; be precise about the "
     "numbers involved."),)

APPLY = ("Before the judge rules, apply the rule you just guessed to another start of the same sequence. For each "
         "line 'position i: v', give the value that follows v. Reply with exactly {count} lines, each "
         "'<line number>. <integer>'.\n{items}")

JUDGE_SYSTEM = ("You check guesses in a number-sequence game. You know the hidden rule and the values the player "
                "saw. A guess is right when it describes the same operations with the same numbers (in any words, "
                "or as a formula); a guess that leaves out a number, gets one wrong, or misses that odd and even "
                "positions differ is wrong.")
