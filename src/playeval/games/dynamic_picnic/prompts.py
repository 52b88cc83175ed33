"""Dynamic Picnic's prompts, written for playeval: three player variants, the check, the judge, and the game
master's four requests (write a rule, classify its level, generate items, validate items)."""

from __future__ import annotations

PLAYER_VARIANTS: tuple[str, ...] = (
    ("We are going on a picnic, and the game master has made up a secret rule about what may come along. You see "
     "items that may come and as many that may not. The rule can be about anything: what the things are, what "
     "they are made of, how their names are written, what they bring to mind. Each turn, ask for more examples "
     "or state the rule; every request and every guess uses a turn."),
    ("Find the game master's invented picnic rule. Compare the items allowed with those turned away and look for "
     "what only the allowed ones share; it may be a property, a category, a combination of conditions, or a "
     "link to something else. Request more examples or give your guess; fewer turns is better."),
    ("A game master wrote a rule deciding which things can be brought to a picnic, and made up the examples to "
     "match. Work out the rule and state it precisely enough that someone else could apply it to new items. "
     "You may ask for more examples first, but each request costs a turn, as does each guess."),
)

APPLY = ("Before the judge rules, apply the rule you just guessed to these items: may each come to the picnic? "
         "Reply with exactly {count} lines, each '<line number>. yes' or '<line number>. no'.\n{items}")

JUDGE_SYSTEM = ("You check guesses in a picnic game whose rule a game master invented: it decides which items may "
                "come. A guess is right when it would admit and refuse the same items as the rule: other words, "
                "synonyms and a different angle on the same condition are fine. A guess that only fits the examples "
                "shown, that drops or adds a condition, or that is narrower or broader than the rule is wrong; so is "
                "a vague guess ('nice things').")

GAME_MASTER_SYSTEM = ("You are the game master of a picnic guessing game: you invent a secret rule that decides "
                      "which everyday items may come to the picnic, and you give items that follow it and items "
                      "that do not. Players must be able to work the rule out from examples, so it has to be "
                      "clear-cut: for any ordinary item, people would agree whether it follows the rule.")

RULE_REQUEST = ("Invent a new {kind} rule. A {kind} rule is about {description}.\n"
                "Difficulty {level_text}\n"
                "As a starting point, think of {theme}; the rule itself must still sort ordinary items of every "
                "kind, with plenty on each side. State the rule in one short sentence, as 'Rule: Items that "
                "<condition>.', with no examples.{rated}{avoid}")

RULE_RATED = "\nYour last rule was rated L{got}, but L{wanted} is wanted: make this one {direction}."

RULE_AVOID = "\nDo not write any of these rules again, nor one that says the same thing:\n{rules}"

CLASSIFIER_SYSTEM = ("You rate how hard a rule of a guessing game is to work out from examples of items that "
                     "follow it and items that do not. The levels:\n{levels}\nFor instance, 'items made of wood' "
                     "is L1, 'items that are edible and not sweet' is L2, 'items whose names are also verbs' is "
                     "L3.")

CLASSIFY_REQUEST = "The rule: {statement}\nWhich level is it?"

ITEMS_REQUEST = ("The secret rule: {statement}\n"
                 "Name {fits} items that follow the rule and {others} items that do not. Each item is an ordinary "
                 "thing named in one to four words, without commas. Make the items that do not follow the rule "
                 "the same sort of things, so that only the rule tells them apart. Give each item once; if ideas "
                 "run short, think of things found in {theme}.{used}")

ITEMS_USED = "\nThese have been used already; do not give them again: {items}"

VALIDATOR_SYSTEM = ("You check items for a guessing game: given a rule, you say for each item whether it follows "
                    "the rule. Judge each item on its own, by the rule's words; when in doubt, say no.")

CHECK_REQUEST = ("The rule: {statement}\nDoes each item follow the rule? Reply with exactly {count} lines, each "
                 "'<line number>. yes' or '<line number>. no'.\n{items}")
