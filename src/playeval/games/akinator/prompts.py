"""Akinator prompts, written for playeval.

The protocol lines (``Question N:`` and ``This is a guess -- are you thinking
of X?``) are the paper's format and are kept; every other sentence is ours.
Each guesser variant is a template with ``{limit}`` and ``{answers}``.
"""

from __future__ import annotations

GUESS_FORMAT = "This is a guess -- are you thinking of {object}?"

GUESSER_VARIANTS: tuple[str, ...] = (
    # 0: plain and procedural
    (
        "We are playing twenty questions. I have an everyday object in mind and you must find out "
        "what it is. You have {limit} turns in total. Each turn, do exactly one of two things:\n"
        "- ask one yes/no question, written as 'Question N: <your question>?' where N is the turn "
        "number, starting at 1;\n"
        "- or make a guess, written exactly as 'This is a guess -- are you thinking of <object>?'.\n"
        "A guess uses up a turn. I will answer with one of: {answers}.\n"
        "Write nothing but the question or the guess: no explanations, no lists."
    ),
    # 1: strategist
    (
        "You are a sharp player of the guessing game Twenty Questions. The other player has picked a "
        "common physical object. Find it in at most {limit} turns. Start broad (is it alive, is it "
        "man-made, where is it usually found, how big is it) and narrow down step by step; never ask "
        "something the earlier answers already settle.\n"
        "Format, one per reply: 'Question N: ...?' with N counting your turns from 1, or, when you "
        "are fairly sure, 'This is a guess -- are you thinking of <object>?'. A guess costs a turn.\n"
        "Possible answers: {answers}. Reply with the single line only."
    ),
    # 2: patient detective
    (
        "Think of yourself as a detective narrowing down suspects. The user is thinking of an object, "
        "and only yes/no questions are allowed. Your budget is {limit} turns. Each reply is one line: "
        "either 'Question N: <question>?' (N = this turn's number, from 1), or a guess in the exact "
        "form 'This is a guess -- are you thinking of <object>?'. Guessing spends a turn, so guess "
        "when the clues point clearly at one thing. Answers may be imprecise: {answers}. Treat "
        "'probably' answers as soft evidence. Output only that one line."
    ),
    # 3: terse rules list
    (
        "Game: guess the object.\n"
        "Turns: {limit}, numbered from 1.\n"
        "Move A: 'Question N: <one yes/no question>?'\n"
        "Move B: 'This is a guess -- are you thinking of <object>?'\n"
        "Every move uses one turn. The user's answers are limited to: {answers}.\n"
        "Don't repeat questions. Don't add commentary. Guess a general kind of object, not a brand."
    ),
    # 4: friendly host
    (
        "Let's play a friendly round of twenty questions! Someone is picturing an ordinary object, "
        "and you get {limit} turns to name it. On each turn ask one question that can be answered "
        "with yes or no, beginning with 'Question N:' where N is the turn number (1, 2, 3, ...), or "
        "name your answer with 'This is a guess -- are you thinking of <object>?'. A wrong guess "
        "costs a turn, but you can keep going afterwards. You'll hear back one of: {answers}. "
        "Reply with just your question or your guess."
    ),
)

ANSWERER_VARIANTS: tuple[str, ...] = (
    (
        "You are playing twenty questions and you are the one holding the secret. The secret object "
        "is: {secret}. The other player asks yes/no questions about it. Answer each question "
        "truthfully about {secret}, using exactly one of: {answers}. When the player guesses, answer "
        "Yes only if the guess names the same kind of thing as {secret}; otherwise No. Reply with "
        "the answer alone."
    ),
    (
        "Secret object: {secret}.\n"
        "Someone is trying to work out your object with yes/no questions. For each question, reply "
        "with the single answer that is most accurate for {secret}, chosen from: {answers}. "
        "If a message is a guess, reply Yes when it means {secret} (a synonym counts) and No "
        "otherwise. Never reveal the object and never add words."
    ),
)

CONFIRM_SYSTEM = (
    "You are the judge of a guess in twenty questions. You will be told the secret object and the "
    "guess. Reply Yes only when the guess names that same object, in other words or with a synonym "
    "(a couch for a sofa, a cellphone for a smartphone). Reply No when it names a different object, "
    "even a related one, a broad category, or nothing in particular. Reply with Yes or No alone."
)
CONFIRM_USER = "Secret object: {secret}\nGuess: {guess}\nDoes the guess name the secret object?"

OPENING = "I am thinking of an object. You have {limit} turns. Make your first move."
TURNS_LEFT = "{answer} ({left} turns left.)"
LAST_TURN = "{answer} (This is your last turn: ask or guess.)"
WRONG_GUESS = "No, that is not it."
RIGHT_GUESS = "Yes, that is it!"

RETRO_REQUEST = (
    "Let us pause the game here; this pause does not count as a turn. Going only by the answers so far, "
    "which objects could I have in mind? List the objects you now consider possible, the most likely "
    "first, and leave out any object that one of my answers rules out."
)


def guesser_system(variant: int, limit: int, answers: tuple[str, ...]) -> str:
    return GUESSER_VARIANTS[variant].format(limit=limit, answers=", ".join(answers))


def answerer_system(variant: int, secret: str, answers: tuple[str, ...]) -> str:
    return ANSWERER_VARIANTS[variant].format(secret=secret, answers=", ".join(answers))
