"""``mock/player``: a deterministic mock that can hold every seat and role of every game.

A request sent by a player in a match names the match and the ask it answers (``ModelRequest.origin``). For a game
the replies below were not written for (a plugin; see ``WRITTEN_FOR``), ``mock/player`` replies as the game's own
scripted player for that seat or role would (``Game.scripted_player``, made afresh for each ask: the
contract in ``core.scripted``), so it plays any game as well as its scripted players do. For the built-in games,
and for requests that name no match (the retrospective analysis, the QA benchmark), it replies as follows, as it
always has (seeded runs of the built-in games keep their logs).

It tells the seats apart by what the ask constrains (the allowed answers, or the grammar's protocol
phrases) and counts turns from the conversation, so the same conversation always gets the same reply:

* Akinator guesser: questions, and every fourth turn a guess from a short list (``cat`` first);
  answerer: Yes and No in turn; asked to confirm a guess it did not recognise, No.
* Taboo clue-giver: general clues that name nothing (a clue the rules refuse is replaced by the next one);
  guesser: a neutral answer to the first two clues, and ``My guess of the word is: dog`` to the third.
* Bluffing questioner: two questions, then ``I believe your statement is: True``; bluffer: short answers.
* Guess-the-rule player: ``MORE: 1`` twice, then a guess (the same vague one each time, so a judge refuses it),
  and so on; the rule-application check answered 'yes'/'no' in turn, or 0 for numbers.
* Undercover: a general sentence (as a Taboo clue), a vote among the offered seats, and as judge the same
  scores for every sentence.
* The retrospective analysis: a fixed candidate list, an "Unknown" judgement, Yes/No splits.
* The guess-the-rule game master asked to write a rule's code (its grammar holds the function's header): a
  Code Functions Picnic rule, or a Math Game rule of the level the request describes; after a rejection, the
  next of a short list.
"""

from __future__ import annotations

import re

from playeval.core.errors import PlayevalError
from playeval.models.errors import ModelError
from playeval.models.types import ModelRequest

WRITTEN_FOR: frozenset[str] = frozenset({"akinator", "taboo", "bluffing", "static_picnic", "dynamic_picnic",
                                         "functions_picnic", "math", "undercover"})
"""The games whose seats and roles the replies of this module were written for. They make a mock match read like a
model's play (questions, clues, guesses from a list); the built-in games' scripted players are baselines that play
otherwise (Akinator's answerer knows the secret), and the tests and seeded runs of these games rely on these replies.
Every other game is played through its scripted players."""

GUESSES: tuple[str, ...] = ("cat", "dog", "chair", "lamp", "apple")
QUESTIONS: tuple[str, ...] = (
    "Is it alive?",
    "Is it bigger than a shoebox?",
    "Would you find it in a kitchen?",
    "Can you hold it in one hand?",
    "Is it made mostly of metal?",
)
CLUES: tuple[str, ...] = (
    "Most people have heard of this one.",
    "Children often learn its name early.",
    "Think about where you would usually come across it.",
    "You may have seen it in a picture book.",
    "People talk about it more often than you would expect.",
)
TABOO_ANSWERS: tuple[str, ...] = ("That could be a few things; tell me more.", "Hmm, I am narrowing it down.")
TABOO_GUESS = "dog"
BLUFF_QUESTIONS: tuple[str, ...] = ("When did this happen?", "Who else was there?")
BLUFF_ANSWERS: tuple[str, ...] = (
    "It was a few summers ago.",
    "A couple of friends were with me.",
    "I remember it well because it took most of a day.",
    "Nobody expected it, least of all me.",
    "I would do it again if I had the chance.",
)
RETRO_CANDIDATES: tuple[str, ...] = ("dog", "cat", "chair", "lamp", "apple")
WORD_RULES: tuple[str, ...] = (
    ("RULE: words that contain the letter k or the letter w\n```python\ndef rule(word):\n"
     "    return 'k' in word or 'w' in word\n```"),
    "RULE: words with exactly two letters e\n```python\ndef rule(word):\n    return word.count('e') == 2\n```",
)
SEQUENCE_RULES: dict[str, str] = {
    "negative": "RULE: multiply the previous value by -2\nSTART: 3\n```python\n"
                "def generate_next(current_value, index):\n    return current_value * -2\n```",
    "is odd": "RULE: multiply by 2 at even indices and add 3 at odd ones\nSTART: 1\n```python\n"
              "def generate_next(current_value, index):\n    if index % 2 == 0:\n        return current_value * 2\n"
              "    return current_value + 3\n```",
    "": "RULE: add 7 to the previous value\nSTART: 4\n```python\ndef generate_next(current_value, index):\n"
        "    return current_value + 7\n```",
}

RULE_GUESS = "GUESS: things that share one simple property"
_NUMBERED = re.compile(r"Question (\d+): ")
_CHECK_LINE = re.compile(r'"(\d+)\. " answer')
_CHOICE = re.compile(r'"([a-z]+)"')
_RETRY_NOTE = "Your reply was not accepted"


def _grammar(request: ModelRequest) -> str:
    constraint = request.constraint
    return constraint.grammar or "" if constraint is not None else ""


def _number(grammar: str) -> int:
    found = _NUMBERED.search(grammar)
    return int(found.group(1)) if found else 1


def _users(request: ModelRequest) -> int:
    return sum(1 for message in request.messages if message.role == "user"
               and not message.content.startswith(_RETRY_NOTE))


def _answer(request: ModelRequest, choices: tuple[str, ...]) -> str:
    if set(choices) == {"Yes", "No"}:  # a guess to confirm; the rules already confirm a right one
        return "No"
    question = request.messages[-1].content if request.messages else ""
    if choices == ("yes", "partly", "no"):  # an Undercover judge's question: no repeat, and true and telling
        return "no" if "only repeat" in question else "yes"
    number = _NUMBERED.match(question)
    turn = int(number.group(1)) if number else 1
    return choices[0] if turn % 2 else choices[1]


def _akinator_guesser(grammar: str) -> str:
    number = _number(grammar)
    if number % 4 == 0:
        return f"This is a guess -- are you thinking of {GUESSES[(number // 4 - 1) % len(GUESSES)]}?"
    return f"Question {number}: {QUESTIONS[(number - 1 - number // 4) % len(QUESTIONS)]}"


def _taboo_guesser(request: ModelRequest, grammar: str) -> str:
    if not grammar.startswith("root ::= line"):  # the one guess left after saying the word
        return f"My guess of the word is: {TABOO_GUESS}"
    clues = _users(request)
    if clues >= 3:
        return f"My guess of the word is: {TABOO_GUESS}"
    return TABOO_ANSWERS[(clues - 1) % len(TABOO_ANSWERS)]


def _bluffing_questioner(grammar: str) -> str:
    number = _number(grammar)
    if "Question" not in grammar or number > len(BLUFF_QUESTIONS):
        return "I believe your statement is: True"
    return f"Question {number}: {BLUFF_QUESTIONS[number - 1]}"


def _split(request: ModelRequest) -> str:
    last = request.messages[-1].content if request.messages else ""
    count = sum(1 for line in last.splitlines() if line[:1].isdigit())
    return "".join(f"{n}. {'Yes' if n % 2 else 'No'}\n" for n in range(1, count + 1))


def _rule_player(request: ModelRequest, grammar: str) -> str:
    if '"MORE: "' not in grammar:  # every example has been shown: only a guess is allowed
        return RULE_GUESS
    moves = sum(1 for message in request.messages if message.role == "assistant")
    return "MORE: 1" if moves % 3 < 2 else RULE_GUESS


def _rule_check(grammar: str) -> str:
    count = len(_CHECK_LINE.findall(grammar))
    answer = grammar.split("answer ::=", 1)[1]
    choices = _CHOICE.findall(answer)
    return "".join(f"{n}. {choices[(n - 1) % len(choices)] if choices else 0}\n" for n in range(1, count + 1))


def _rule_writer(request: ModelRequest, grammar: str) -> str:
    if "def rule(word)" in grammar:
        tries = sum(1 for message in request.messages if message.role == "assistant")
        return WORD_RULES[tries % len(WORD_RULES)]
    asked = next((message.content for message in request.messages if message.role == "user"), "")
    return next(rule for marker, rule in SEQUENCE_RULES.items() if marker in asked)


async def mock_player_reply(request: ModelRequest) -> str:
    """The reply of ``mock/player`` to ``request``: its game's scripted player's move, for a match of a game not in
    ``WRITTEN_FOR``, and otherwise :func:`player_reply`. The same request always gets the same reply."""
    origin = request.origin
    if origin is None or origin.game_id in WRITTEN_FOR:
        return player_reply(request)
    try:
        reply = await origin.scripted_reply()
    except PlayevalError as err:
        raise ModelError(f"mock/player plays {origin.game_id} through its scripted players, and it has none for "
                         f"{origin.ask.party}: {err}") from err
    return reply.text


def player_reply(request: ModelRequest) -> str:
    """The reply of ``mock/player`` to ``request`` in a built-in game (``WRITTEN_FOR``) or outside a match, read off
    the request alone; the same request always gets the same reply."""
    constraint = request.constraint
    if constraint is not None and constraint.choices:
        return _answer(request, constraint.choices)
    grammar = _grammar(request)
    if "```python" in grammar:
        return _rule_writer(request, grammar)
    if grammar.startswith("root ::= item{"):
        return "".join(f"{n}. {name}\n" for n, name in enumerate(RETRO_CANDIDATES, start=1))
    if "Judgement" in grammar:
        return "Judgement: Unknown\nReason: the answers so far fit either way."
    if "answer ::= \"Yes\" | \"No\"" in grammar:
        return _split(request)
    if '"GUESS: "' in grammar:
        return _rule_player(request, grammar)
    if _CHECK_LINE.search(grammar) and "answer ::=" in grammar:
        return _rule_check(grammar)
    if "This is a guess" in grammar:
        return _akinator_guesser(grammar)
    if "I believe your statement is" in grammar:
        return _bluffing_questioner(grammar)
    if "My guess of the word is" in grammar:
        return _taboo_guesser(request, grammar)
    if "{0," in grammar:  # a Taboo clue or an Undercover sentence: one short line
        said = sum(1 for message in request.messages if message.role == "assistant")  # clues and refused ones
        seen = " ".join(message.content for message in request.messages)
        rotated = [CLUES[(said + offset) % len(CLUES)] for offset in range(len(CLUES))]
        return next((clue for clue in rotated if clue not in seen), rotated[0])  # not one the table said already
    # the Bluffing answer, or anything else asked in free text
    questions = sum(1 for message in request.messages if message.role == "user")
    return BLUFF_ANSWERS[(questions - 1) % len(BLUFF_ANSWERS)]
