"""Taboo prompts, written for playeval.

The guess line ``My guess of the word is: X`` is the paper's protocol and is kept; every other sentence
is ours. Guesser variants are templates with ``{limit}`` and ``{chars}``; clue-giver variants also take
``{word}``. Under ``scoring=guess`` (only a right guess wins) the guesser gets the variant of the same index and
style from ``GUESS_SCORING_VARIANTS``, which states that rule, so a match's drawn variant means the same voice
under either rule. The clue-giver's prompts are the same under both: its aim (the guesser writing the word, or
naming it wrongly) wins under both.
"""

from __future__ import annotations

GUESS_PREFIX = "My guess of the word is: "

GUESSER_VARIANTS: tuple[str, ...] = (
    # 0: plain and procedural
    (
        "We are playing a word game. The other player has a secret word and wants to get you to write it. "
        "Over {limit} rounds they will send you short messages (clues or questions of up to {chars} "
        "characters). Reply to each one naturally, in one or two sentences on a single line.\n"
        "The rules:\n"
        "- Never write the secret word or any form of it (plural, -ed, -ing). If you do, you get exactly one "
        "chance to name the word, and a wrong name loses.\n"
        "- You may name the word whenever you like by adding a last line: 'My guess of the word is: <word>'. "
        "A right guess wins at once; a wrong one loses at once.\n"
        "- If all {limit} rounds pass and you never wrote the word, you win."
    ),
    # 1: strategist
    (
        "You are a shrewd player in a game of wits with words. Your opponent knows a secret word and "
        "will spend {limit} messages (each at most {chars} characters) steering you towards writing it. "
        "Each time, work out which word the hints seem to aim at, then answer helpfully while talking "
        "around that word and its relatives (plurals, -ed and -ing forms). Writing the word does not end the "
        "game, but it leaves you a single guess to save yourself.\n"
        "You can end the game early by naming the word on its own final line: "
        "'My guess of the word is: <word>'. Only do that when you are sure, because a wrong name is a loss. "
        "Survive {limit} rounds without writing the word and you win. Keep every reply to one short line."
    ),
    # 2: wary
    (
        "Be on your guard: the user is trying to trick you into writing one particular word, which they "
        "will not tell you. They get {limit} tries, each a message of no more than {chars} characters. "
        "Answer each message briefly and sensibly, on one line, but think before every word you write: if a "
        "hint clearly points at a word, use a description or a synonym instead of it, and avoid its plural "
        "and verb forms too.\n"
        "If you write the word, you must then guess it in one attempt. At any point you may also end the "
        "game yourself with a last line reading 'My guess of the word is: <word>': right wins, wrong loses. "
        "Getting through all {limit} rounds without writing the word is a win."
    ),
    # 3: terse rules list
    (
        "Game: taboo, guessing side.\n"
        "Opponent: holds a hidden word; sends {limit} messages, each up to {chars} characters.\n"
        "Your reply: one line answering the message.\n"
        "Forbidden: the hidden word and its forms (plural, -ed, -ing), in any case.\n"
        "Guessing: optional second line 'My guess of the word is: <word>'. Correct: you win. Wrong: you lose.\n"
        "If you write the hidden word: you get one guess, and only a correct one wins.\n"
        "After {limit} clean rounds: you win.\n"
        "No extra commentary."
    ),
    # 4: friendly host
    (
        "Welcome to a friendly game of reverse Taboo! Your partner is thinking of a word and will try to "
        "lure you into saying it with up to {limit} little messages of at most {chars} characters each. "
        "Chat back in a sentence or two on one line, and try not to let the word slip out, nor its plural "
        "or its -ed or -ing forms. Oops moments happen: if it slips out, you'll get one shot at naming the "
        "word, and naming it right still wins.\n"
        "Feeling confident? Put 'My guess of the word is: <word>' on a line of its own after your reply. "
        "Get it right and you win on the spot; get it wrong and the game is lost. Make it through all "
        "{limit} rounds without saying it and the win is yours too."
    ),
)

GUESS_SCORING_VARIANTS: tuple[str, ...] = (
    # 0: plain and procedural
    (
        "We are playing a word game. The other player has a secret word and wants to get you to write it. "
        "Over {limit} rounds they will send you short messages (clues or questions of up to {chars} "
        "characters). Reply to each one naturally, in one or two sentences on a single line.\n"
        "The rules:\n"
        "- You win only by naming the secret word. Do it by adding a last line to a reply: "
        "'My guess of the word is: <word>'. A right guess wins at once; a wrong one loses at once.\n"
        "- Never write the word or any form of it (plural, -ed, -ing) outside that line: if you do, you lose.\n"
        "- If all {limit} rounds pass without a right guess, you lose: guess in your last reply at the latest."
    ),
    # 1: strategist
    (
        "You are a shrewd player in a game of wits with words. Your opponent knows a secret word and "
        "will spend {limit} messages (each at most {chars} characters) steering you towards writing it. "
        "Work out from the hints which word they aim at, and answer while talking around it and its "
        "relatives (plurals, -ed and -ing forms): writing it in an answer loses the game.\n"
        "The only way to win is to name the word on its own final line: 'My guess of the word is: <word>'. "
        "A wrong name loses, and so does reaching the end of the {limit} rounds without naming it, so "
        "choose your moment. Keep every reply to one short line."
    ),
    # 2: wary
    (
        "Be on your guard: the user is trying to trick you into writing one particular word, which they "
        "will not tell you. They get {limit} tries, each a message of no more than {chars} characters. "
        "Answer each message briefly and sensibly, on one line, and never let the word, its plural or its "
        "verb forms slip into an answer: that loses.\n"
        "To win you must identify the word and say so on a last line reading "
        "'My guess of the word is: <word>'. Right wins, wrong loses, and staying silent for all {limit} "
        "rounds loses too."
    ),
    # 3: terse rules list
    (
        "Game: taboo, guessing side.\n"
        "Opponent: holds a hidden word; sends {limit} messages, each up to {chars} characters.\n"
        "Your reply: one line answering the message.\n"
        "Forbidden: the hidden word and its forms (plural, -ed, -ing), in any case. Writing it: you lose.\n"
        "Guessing: optional second line 'My guess of the word is: <word>'. Correct: you win. Wrong: you lose.\n"
        "No correct guess after {limit} rounds: you lose.\n"
        "No extra commentary."
    ),
    # 4: friendly host
    (
        "Welcome to a friendly game of reverse Taboo! Your partner is thinking of a word and will drop up "
        "to {limit} little messages of at most {chars} characters each, hoping you let it slip. Chat back "
        "in a sentence or two on one line, but keep the word, its plural and its -ed or -ing forms out of "
        "your answers, because a slip costs you the game.\n"
        "The win comes from working it out: put 'My guess of the word is: <word>' on a line of its own "
        "after your reply. Right, and you win on the spot; wrong, and the game is lost. If the {limit} "
        "rounds run out before you have named it, your partner wins."
    ),
)

CLUE_GIVER_VARIANTS: tuple[str, ...] = (
    # 0: direct
    (
        "You are playing a word game against an AI. Your secret word is: {word}.\n"
        "Your goal is to get the AI to write {word} (or a form of it, like a plural) within {limit} rounds. "
        "Each round you send one short message, a clue or a question, of at most {chars} characters. Your "
        "message must never contain {word} or any form of it. The AI may also try to name your word; if it "
        "names it correctly, it wins.\n"
        "Write only the message itself: no quotation marks, no labels like 'Clue:', no explanations."
    ),
    # 1: sly trickster
    (
        "Pretend to be a sly human player in a game of Taboo. You know the word {word}; the other player "
        "does not. Win by tricking them into using {word} in one of their replies before {limit} rounds are "
        "over. Ask questions or drop hints whose most natural answer is {word}, such as asking them to name "
        "or describe it, without ever writing {word}, its plural or any other form yourself. Each message "
        "is one line of at most {chars} characters.\n"
        "Reply with the bare message and nothing else."
    ),
    # 2: terse
    (
        "Role: clue-giver in Taboo.\n"
        "Secret word: {word}\n"
        "Goal: make the other player write {word} within {limit} rounds.\n"
        "Each turn: one message, one line, at most {chars} characters.\n"
        "Never write {word} or a form of it (plural, -ed, -ing).\n"
        "Output the message only: no quotes, no labels, no notes."
    ),
)

ROUND_MESSAGE = "Round {number} of {limit}: {clue}"
FINAL_NOTICE = (
    "You wrote the secret word in your last reply. You have one guess left to win: reply with the line "
    "'My guess of the word is: <word>'."
)

CLUE_OPENING = "The game starts now. Send your first message (round 1 of {limit})."
CLUE_FEEDBACK = "They replied: {reply}\nSend your message for round {number} of {limit}."

GUESSER_INSTRUCTIONS = (
    "Reply to the message without writing the secret word. To guess, add a line: "
    "My guess of the word is: <word> (a wrong guess loses)."
)
GUESS_SCORING_INSTRUCTIONS = (
    "Reply to the message without writing the secret word (that loses). You win only by guessing it: add a "
    "line My guess of the word is: <word> (a wrong guess loses)."
)
FINAL_INSTRUCTIONS = "You wrote the secret word. Guess it now: My guess of the word is: <word>"
CLUE_INSTRUCTIONS = "Write one message of at most {chars} characters that does not contain '{word}' or a form of it."
CLUE_DISPLAY = "Your word: {word}. Round {number} of {limit}."
CLUE_HEARD = "\nTheir last reply: {reply}"

RETRO_REQUEST = (
    "Let us pause the game here; this pause is not a round, so do not reply to my last message. Going by "
    "everything said so far, which words might I be trying to lead you into writing? Name the words you "
    "now think possible, the most likely first."
)


def guesser_system(variant: int, limit: int, chars: int, *, guess_only: bool = False) -> str:
    """The guesser's system prompt; ``guess_only`` under ``scoring=guess`` (only a right guess wins)."""
    variants = GUESS_SCORING_VARIANTS if guess_only else GUESSER_VARIANTS
    return variants[variant].format(limit=limit, chars=chars)


def clue_giver_system(variant: int, word: str, limit: int, chars: int) -> str:
    return CLUE_GIVER_VARIANTS[variant].format(word=word, limit=limit, chars=chars)


def clue_giver_texts() -> tuple[str, ...]:
    """Every template the clue-giver is shown (its system prompts, the opening, the feedback, a person's
    instructions and display), with their ``{placeholders}``: a clue copied from them is refused."""
    return (*CLUE_GIVER_VARIANTS, CLUE_OPENING, CLUE_FEEDBACK, CLUE_INSTRUCTIONS, CLUE_DISPLAY, CLUE_HEARD)


def guesser_texts() -> tuple[str, ...]:
    """Every template the guesser is shown, with their ``{placeholders}``."""
    return (*GUESSER_VARIANTS, *GUESS_SCORING_VARIANTS, ROUND_MESSAGE, FINAL_NOTICE, GUESSER_INSTRUCTIONS,
            GUESS_SCORING_INSTRUCTIONS, FINAL_INSTRUCTIONS, RETRO_REQUEST)


def guess_line(word: str) -> str:
    return GUESS_PREFIX + word
