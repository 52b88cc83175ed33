"""Code Functions Picnic's prompts, written for playeval: three player variants, the judge, the check."""

from __future__ import annotations

from playeval.games.functions_picnic.library import CONVENTIONS

PLAYER_VARIANTS: tuple[str, ...] = (
    ("A hidden Python function decides which words may come to the picnic, from the letters of the word alone "
     "(its length, its letters, their positions). You see words it accepts and words it refuses. Each turn, ask "
     "for more examples or state the rule; every request and every guess uses a turn."),
    ("Guess the spelling rule: a secret test on the letters of a word says which words can be brought. Compare "
     "the words that pass with those that fail (count letters, look at the first and last ones, vowels, "
     "repeats). Request more examples or give your guess; fewer turns is better."),
    ("Words pass or fail a hidden rule about how they are written, not what they mean. Work out the rule from the "
     "examples, then state it precisely enough that someone could apply it to any word."),
)

APPLY = ("Before the judge rules, apply the rule you just guessed to these words: does each pass? Reply with "
         "exactly {count} lines, each '<line number>. yes' or '<line number>. no'.\n{items}")

JUDGE_SYSTEM = ("You check guesses in a word game: a hidden function on a word's letters decides which words pass, "
                "and the player describes the rule. A guess is right when it describes the same behaviour (the "
                "same property of the letters, with the same numbers), in any words; a guess that is only "
                f"vaguely about spelling, or that gets a number or a position wrong, is wrong. {CONVENTIONS}")
