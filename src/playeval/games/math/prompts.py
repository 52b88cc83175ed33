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

APPLY = ("Before the judge rules, apply the rule you just guessed to other values of the same kind of sequence, "
         "each line on its own (they come from different start values). For each line 'position i: v', give the "
         "value that would follow v at position i. Reply with exactly {count} lines, each "
         "'<line number>. <integer>'.\n{items}")

JUDGE_SYSTEM = ("You check guesses in a number-sequence game. You know the hidden rule and the values the player "
                "saw. A guess is right when it describes the same operations with the same numbers (in any words, "
                "or as a formula); a guess that leaves out a number, gets one wrong, or misses that odd and even "
                "positions differ is wrong.")

GAME_MASTER_SYSTEM = ("You are the game master of a number-sequence game. You invent a hidden rule that computes each "
                      "value of a sequence from the value before it and its index, and you write it as a Python "
                      "function. Players will try to work the rule out from the values, so it must be exact. Plain "
                      "Python only: no imports other than math, no classes, no names starting with an underscore.")

LEVEL_KINDS: dict[int, str] = {
    1: ("one operation with a positive whole number, the same at every step: add it, subtract it, multiply by it "
        "or divide by it (a division must always come out even); the index is not used"),
    2: ("one step that multiplies or divides by a negative whole number (so the sign flips at every step), "
        "possibly followed by adding or subtracting a number; the same at every step, the index is not used"),
    3: ("one operation when the index is even and a different operation when the index is odd (for instance "
        "multiply by 2 at even indices and add 3 at odd ones); nothing else about the index matters"),
}

GAME_MASTER_REQUEST = ("Invent a new rule of this kind: {kind}.\nThe function generate_next(current_value, index) "
                       "returns the value after current_value, which stands at position index (the start value is at "
                       "index 0). From your start value the first {length} values must all be whole numbers, none "
                       "larger than {limit} in size, and no value may equal the one before it.\n\nReply in exactly "
                       "this format: a line 'RULE: <the rule in words>', a line 'START: <the start value, a whole "
                       "number>', then the function in a ```python block:\nRULE: each value is ...\nSTART: 3\n"
                       "```python\ndef generate_next(current_value, index):\n{body}```")

LEVEL_BODIES: dict[int, str] = {
    1: "    return ...\n",
    2: "    return ...\n",
    3: "    if index % 2 == 0:\n        return ...\n    return ...\n",
}
"""The shape of the function shown in the request, per level."""

LEVEL_HINTS: dict[int, tuple[str, ...]] = {
    1: ("add a number of your choice", "subtract a number of your choice", "multiply by a number of your choice",
        "divide by a number of your choice (choose the start so that every division comes out even)"),
    2: ("multiply by a negative number", ("divide by a negative number (choose the start so that every division "
        "comes out even)"), "multiply by a negative number, then add a number"),
    3: ("multiply at even indices and add at odd ones", "add at even indices and multiply at odd ones",
        "add at even indices and subtract at odd ones", "subtract at even indices and multiply at odd ones",
        "multiply at even indices and subtract at odd ones"),
}
"""Ideas a game master is pointed to, one drawn per draft from the match's seed, so that greedy decoding does not
give every match the same rule."""
HINT = "For this rule: {idea}."
