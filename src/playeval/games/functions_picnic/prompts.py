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

GAME_MASTER_SYSTEM = ("You are the game master of a word game. You invent a hidden rule that decides, from the letters "
                      "of a lowercase English word alone, whether the word may come to the picnic, and you write it "
                      "as a Python function. Players will try to work the rule out from examples, so it must be "
                      "precise and checkable, true for some ordinary words and false for others, and not about "
                      "meaning. Plain Python only: no imports other than math, re or string, no classes, no names "
                      "starting with an underscore.")

LEVEL_KINDS: dict[int, str] = {
    1: ("one simple property of the letters, for instance the length of the word, what its first or last letter "
        "is, whether it holds a given letter, or how many vowels or consonants it has"),
    2: ("two simple properties of the letters combined with 'and' or 'or', for instance a length together with "
        "a letter the word must contain"),
    3: ("a property of positions or relations between letters, for instance which letter stands at a given "
        "position, how the first letter compares with the last in the alphabet, or whether some letters appear "
        "in alphabetical order"),
}

GAME_MASTER_REQUEST = ("Invent a new rule of this kind: {kind}. Among ordinary English words, a fair share must pass "
                       "and a fair share must fail (a rule that almost no word or almost every word passes is "
                       "rejected), and it should not be one of the most obvious rules of its kind. Make sure the "
                       "function works for every word, short ones included. "
                       "{conventions}\n\nReply in exactly this format: a line 'RULE: <the rule in words, precise "
                       "enough to apply to any word, in one sentence>', then the function in a ```python block:\n"
                       "RULE: words that ...\n```python\ndef rule(word):\n    return ...\n```\n"
                       "The function takes one lowercase word and returns True or False.")

LEVEL_HINTS: dict[int, tuple[str, ...]] = {
    1: ("how many letters the word has", "what the first letter of the word is", "what the last letter is",
        "whether the word contains the letter '{a}'", "how many vowels the word has",
        "how many consonants the word has", "whether the word has a letter written twice in a row",
        "how many times the letter '{a}' appears"),
    2: ("the number of letters together with the letter '{a}'", "the first letter together with the number of vowels",
        "the last letter together with the number of letters", "the letter '{a}' together with the letter '{b}'",
        "the number of vowels together with the number of consonants",
        "the first letter together with the letter '{a}' somewhere in the word"),
    3: ("which letter stands at position {p}", "the first letter compared with the last one in the alphabet",
        "two neighbouring letters in alphabetical order", "a letter that appears twice, anywhere in the word",
        "the second letter compared with the second-to-last", "whether '{a}' comes before '{b}' in the word",
        "whether the letters at positions {p} and {q} are both vowels or both consonants"),
}
"""Ideas a game master is pointed to, one drawn per draft from the match's seed ({a}, {b}: letters; {p}, {q}:
positions), so that greedy decoding does not give every match the same rule."""
HINT_LETTERS = "rstlnmcdpbghaeio"
HINT = "For this rule, build on {idea}."
