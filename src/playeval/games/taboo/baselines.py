"""Scripted Taboo players: instant, deterministic, for tests and benchmarks."""

from __future__ import annotations

from playeval.core.ask import Ask, Reply
from playeval.games.taboo.parsing import MAX_CLUE_CHARS
from playeval.games.taboo.prompts import guess_line
from playeval.games.taboo.words import says_word

NEUTRAL_ANSWERS: tuple[str, ...] = (
    "Hmm, that could point to several things; I will keep listening.",
    "Interesting. I have a few ideas but nothing certain yet.",
    "Noted. That narrows it down a little.",
    "I am still thinking it over; please go on.",
    "That helps. Let me hold my answer for now.",
)

CATEGORY_CLUES: dict[str, str] = {
    "animals": "It is an animal.",
    "places": "It is a place you could visit or find on a map.",
    "food": "It is something people eat or drink.",
}
FALLBACK_CLUE = "Think once more about the earlier hints."


def mechanical_clues(secret: str, category: str | None) -> tuple[str, ...]:
    """Clues about the word's category and spelling, none of which contains the word or a form of it."""
    letters = [ch for ch in secret if ch.isalpha()]
    words = len(secret.split())
    size = f"It has {len(letters)} letters." if words == 1 else f"It is {words} words, {len(letters)} letters in all."
    clues = [CATEGORY_CLUES.get(category or "", "It is a common word."), size]
    if letters:
        clues.append(f"It starts with the letter {letters[0].upper()}.")
        clues.append(f"It ends with the letter {letters[-1].upper()}.")
    if len(letters) >= 2:
        clues.append(f"Its first two letters are {letters[0].upper()} and {letters[1].upper()}.")
    safe = [clue if not says_word(clue, secret) and len(clue) <= MAX_CLUE_CHARS else FALLBACK_CLUE
            for clue in clues]
    return tuple(safe)


class ScriptedClueGiver:
    """Gives the mechanical clues in order, one per round."""

    kind = "scripted"
    model: str | None = None
    max_retries = 0

    def __init__(self, secret: str, category: str | None) -> None:
        self._clues = mechanical_clues(secret, category)

    async def act(self, ask: Ask) -> Reply:
        given = sum(1 for message in ask.messages if message.role == "assistant")
        return Reply(text=self._clues[min(given, len(self._clues) - 1)])


class ScriptedGuesser:
    """Answers every clue neutrally, never guessing; asked for its one guess, names a word fixed when it was made."""

    kind = "scripted"
    model: str | None = None
    max_retries = 0

    def __init__(self, final_guess: str) -> None:
        self._final_guess = final_guess

    @property
    def final_guess(self) -> str:
        return self._final_guess

    async def act(self, ask: Ask) -> Reply:
        if ask.kind == "final_guess":
            return Reply(text=guess_line(self._final_guess))
        answered = sum(1 for message in ask.messages if message.role == "assistant")
        return Reply(text=NEUTRAL_ANSWERS[answered % len(NEUTRAL_ANSWERS)])
