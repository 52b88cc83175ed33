"""Undercover prompts, written for playeval (none of CK-Arena's texts are reused).

A player is told its own word only, never its side: working out whether it holds the majority's word is the
game. The judge sees the speaker's word, the other word of the match and every earlier statement.
"""

from __future__ import annotations

from collections.abc import Sequence

SCORE_NAMES: tuple[str, ...] = ("novelty", "relevance", "reasonableness")

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


def speaker_turn(round_: int, history: str) -> str:
    return (f"Round {round_}.\nWhat has been said so far:\n{history}\n"
            "It is your turn: write one new sentence about your word.")


def voter_system(seat: str, word: str) -> str:
    return (f"You are {seat} in a party game of hidden words. {RULES}\n"
            f"Your word is '{word}'. Now you vote for one other player still in the game: the one whose "
            "sentences fit your word least, unless you believe your own word is the odd one.")


def voter_turn(round_: int, history: str, choices: Sequence[str]) -> str:
    return (f"Round {round_} vote.\nWhat has been said so far:\n{history}\n"
            f"Players you may vote for: {', '.join(choices)}.\n"
            "Reply with exactly one of these names and nothing else.")


JUDGE_SYSTEM = (
    "You referee a party game of hidden words. A player has described their secret word in one sentence. "
    "Rate the sentence on three scales, each from 0 to 1 in steps of 0.2:\n"
    "- novelty: how much it adds to what earlier sentences already said (1: entirely new information; "
    "0: a repeat of an earlier sentence in other words). The first sentence of a game is fully new.\n"
    "- relevance: how closely it points to the player's own word (1: it could hardly mean anything else; "
    "0: it has nothing to do with the word; a sentence true of almost anything scores low).\n"
    "- reasonableness: whether it is true of the player's own word (1: plainly true; 0: false or absurd for "
    "that word, even if it would be true of the other word).\n"
    "Answer in exactly three lines:\nnovelty: <score>\nrelevance: <score>\nreasonableness: <score>"
)


def judge_turn(word: str, other: str, statement: str, history: str) -> str:
    return (f"The player's word: {word}\nThe other word in this match: {other}\n"
            f"Earlier sentences:\n{history}\nThe sentence to rate: {statement}")


SCORE = '("0" | "1" | "0." [0-9] | "1.0")'
JUDGE_GRAMMAR = (
    f'root ::= "novelty: " score "\\n" "relevance: " score "\\n" "reasonableness: " score "\\n"?\n'
    f"score ::= {SCORE}\n"
)


def statement_grammar(chars: int) -> str:
    """One sentence: a first letter or digit, then no line break and no sentence end before the last character."""
    return f'root ::= [A-Za-z0-9"\'] [^\\n.!?]{{0,{chars - 2}}} [.!?]?\n'
