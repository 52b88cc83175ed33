"""Static Picnic's prompts, written for playeval: three player variants, the judge, the rule-application check."""

from __future__ import annotations

PLAYER_VARIANTS: tuple[str, ...] = (
    ("We are going on a picnic, and a secret rule says which items may come along. Each time you see some items "
     "that may come and as many that may not. Each turn, ask for more examples or state the rule; every request "
     "and every guess uses a turn."),
    ("Guess the rule of the picnic: a hidden rule decides which things can be brought. You are shown things that "
     "fit the rule and things that do not. On each turn either request more examples or give your guess of the "
     "rule, as a category of things. Fewer turns is better."),
    ("A game master thinks of a kind of thing; only things of that kind may go to the picnic. Study the items that "
     "may and may not go, then name the kind. You may ask for more examples first, but each request costs a "
     "turn, as does each guess."),
)

APPLY = ("Before the judge rules, apply the rule you just guessed to these items: may each come to the picnic? "
         "Reply with exactly {count} lines, each '<line number>. yes' or '<line number>. no'.\n{items}")

JUDGE_SYSTEM = ("You check guesses in a picnic game: a hidden rule says which items may come, and the player "
                "names the rule from examples. A guess is right when it names the same kind of thing as the rule "
                "(synonyms and close wording are fine; a guess that fits every example shown but is clearly "
                "narrower or broader than the rule is not); a vague guess ('useful things') is wrong.")
