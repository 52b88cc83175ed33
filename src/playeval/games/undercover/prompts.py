"""Undercover prompts, written for playeval (none of CK-Arena's texts are reused).

A player is told its own word only, never its side: working out whether it holds the majority's word is the
game. A seat's statements and votes are one conversation that only grows (its instructions, then what was said
since its last reply and what it said), so a local model keeps its context; a judge is asked each question afresh,
with the speaker's word and every earlier statement, one question per scale.
"""

from __future__ import annotations

from collections.abc import Sequence

from playeval.core.errors import FormatError

RULES = (
    "How the game goes: every player holds a secret word. Most players share one word; a few hold a different "
    "word that is close to it. Nobody is told which group they are in. Each round every player still in the game "
    "describes their own word in a single sentence, without writing the word. Then everyone votes, in secret and "
    "at the same time, for the player they want out, and the player with the most votes leaves (on a tie nobody "
    "leaves). The majority wins once every holder of the odd word is out; the odd group wins if it becomes as "
    "large as the majority or is still in the game after the last round. A referee scores every sentence: one "
    "that repeats what was already said, or that is not true of the speaker's word, puts its speaker out at once."
)


def speaker_system(seat: str, word: str, chars: int) -> str:
    return (f"You are {seat} in a party game of hidden words. {RULES}\n"
            f"Your word is '{word}'. When it is your turn, write one sentence of at most {chars} characters "
            "that is true of your word, says something nobody has said yet, and does not contain the word itself. "
            "Listen to the others: if their sentences fit a slightly different thing, you may hold the odd word, "
            "and then a sentence that fits both words protects you.")


TURN = "It is your turn: write one new sentence about your word. Start with 'It' and do not write the word."
VOTE = ("Now you vote for one other player still in the game: the one whose sentences fit your word least, unless "
        "you believe your own word is the odd one.")
SO_FAR = "What has been said so far:"
SINCE = "What has been said since your last reply:"
"""A seat's asks are one conversation (its system prompt is :func:`speaker_system`'s): its first ask shows the
public record so far, each later one the record's lines added since the seat's last reply."""


def _heard(history: Sequence[str], first: bool) -> str:
    if first:
        return f"{SO_FAR}\n" + ("\n".join(history) or "(nothing yet)")
    return f"{SINCE}\n" + ("\n".join(history) or "(nothing new)")


def speaker_turn(round_: int, history: Sequence[str], *, first: bool) -> str:
    """A statement ask's message: the record's lines (all of them for the seat's ``first`` ask, else those new to
    it), then the turn."""
    return f"Round {round_}.\n{_heard(history, first)}\n{TURN}"


def voter_turn(round_: int, history: Sequence[str], choices: Sequence[str], *, first: bool) -> str:
    """A vote ask's message: the record's lines new to the seat, what the vote is for, and the seats to vote for."""
    return (f"Round {round_} vote.\n{_heard(history, first)}\n{VOTE}\n"
            f"Players you may vote for: {', '.join(choices)}.\n"
            "Reply with exactly one of these names and nothing else.")


JUDGE_SYSTEM = (
    "You referee a party game of hidden words. Each player describes their secret word in one sentence, without "
    "saying it. You are asked one question about one sentence; answer with a single word: yes, partly or no."
)
ANSWERS: tuple[str, ...] = ("yes", "partly", "no")
QUESTIONS: dict[str, str] = {
    "novelty": "Does the sentence only repeat what an earlier sentence already said?",
    "relevance": "Would the sentence help someone guess '{word}' rather than just any thing?",
    "reasonableness": "Could the sentence describe '{word}'?",
}
"""One question per scale. A small judge asked for three numbers at once gave the same three for every sentence
(the local 1.5B model: 0.8, 0.6, 0.7 on 9 of 10 labelled sentences); asked one yes/no question at a time it
told repeats and false sentences apart. Novelty's question asks for a repeat, so its answer is turned round.
Reasonableness asks "could it describe" rather than "is it true of": on the 124 labelled reasonableness cases the
1.5B judge refused 19 of 31 plainly true sentences when asked "is it true", 3 of 31 with "could it describe"
(right on 100 of 124 cases against 92), though it then lets 16 of 31 sentences true only of the other word pass."""
VALUES: dict[str, dict[str, float]] = {
    "novelty": {"yes": 0.0, "partly": 0.5, "no": 1.0},
    "relevance": {"yes": 1.0, "partly": 0.5, "no": 0.0},
    "reasonableness": {"yes": 1.0, "partly": 0.5, "no": 0.0},
}


def read_answer(text: str) -> str:
    """A judge's reply as one of :data:`ANSWERS` (case and a final full stop folded); ``FormatError`` otherwise."""
    if len([line for line in text.splitlines() if line.strip()]) > 1:
        raise FormatError("give one answer, not two: one word, yes, partly or no.")
    answer = text.strip().strip(".!").lower()
    if answer not in ANSWERS:
        raise FormatError("answer with one word: yes, partly or no.")
    return answer


def judge_turn(scale: str, word: str, statement: str, history: str) -> str:
    return (f"The player's word: {word}\nEarlier sentences:\n{history}\n\nThe sentence: {statement}\n\n"
            f"{QUESTIONS[scale].format(word=word)} Answer yes, partly or no.")


def statement_grammar(chars: int) -> str:
    """One sentence: a first letter or digit, then no line break and no sentence end before the last character."""
    return f'root ::= [A-Za-z0-9"\'] [^\\n.!?]{{0,{chars - 2}}} [.!?]?\n'
