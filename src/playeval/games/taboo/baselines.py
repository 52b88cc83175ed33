"""Scripted Taboo players: instant, deterministic, for tests and benchmarks (``core.scripted``).

The clue-giver gives mechanical clues about the word's category and spelling. The guesser is the game's strong
player: it never writes the word, so under the paper's rule it always wins against clues that never trap it
(``mock/skill`` mixes it with the ``random`` baseline). Under ``scoring=guess`` it works the word out: it keeps the
words of the match's list that fit every mechanical clue it was shown and guesses as soon as one is left, or in
the last round the first that is left. Against the scripted clue-giver that names the word in 345 of the 351
words (the other six share all five clues with another word: mouse and moose, penguin and pelican, cookie and
coffee, so it names one of each pair); clues it cannot read leave the whole list, and its last-round guess is then
a shot in the dark. It reads the clues as shown, never the secret. (The baseline players of the seat are in
``baseline_players``.)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from playeval.core.ask import Ask, Reply
from playeval.core.messages import Message
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


_ROUND = re.compile(r"^Round (\d+) of (\d+): (.*)$", re.DOTALL)
"""A clue as the guesser is shown it (``prompts.ROUND_MESSAGE``)."""


def _letters(word: str) -> list[str]:
    return [ch for ch in word.lower() if ch.isalpha()]


_FACTS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str], str], bool]], ...] = (
    (re.compile(r"^It has (\d+) letters\.$"),
     lambda m, w: len(w.split()) == 1 and len(_letters(w)) == int(m[1])),
    (re.compile(r"^It is (\d+) words, (\d+) letters in all\.$"),
     lambda m, w: len(w.split()) == int(m[1]) and len(_letters(w)) == int(m[2])),
    (re.compile(r"^It starts with the letter ([A-Z])\.$"), lambda m, w: _letters(w)[:1] == [m[1].lower()]),
    (re.compile(r"^It ends with the letter ([A-Z])\.$"), lambda m, w: _letters(w)[-1:] == [m[1].lower()]),
    (re.compile(r"^Its first two letters are ([A-Z]) and ([A-Z])\.$"),
     lambda m, w: _letters(w)[:2] == [m[1].lower(), m[2].lower()]),
)
"""What each spelling clue of :func:`mechanical_clues` says about a word, as a test of a candidate."""


def fits_clue(word: str, clue: str) -> bool:
    """Whether ``word`` agrees with a mechanical spelling clue; any other clue rules nothing out."""
    for pattern, holds in _FACTS:
        found = pattern.match(clue.strip())
        if found:
            return holds(found, word)
    return True


def heard_clues(messages: Sequence[Message]) -> tuple[tuple[int, int, str], ...]:
    """The clues a guesser's conversation shows: (round, rounds in all, clue) for each."""
    heard: list[tuple[int, int, str]] = []
    for message in messages:
        found = _ROUND.match(message.content) if message.role == "user" else None
        if found:
            heard.append((int(found[1]), int(found[2]), found[3]))
    return tuple(heard)


def candidates(pool: Sequence[str], clues: Sequence[str]) -> tuple[str, ...]:
    """The words of ``pool`` that fit every clue, in the pool's order."""
    return tuple(word for word in pool if all(fits_clue(word, clue) for clue in clues))


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
    """The strong guesser (see the module's note). Under the paper's rule it answers every clue neutrally and never
    guesses; asked for its one guess, it names a word fixed when it was made. Under ``scoring=guess`` (``guess_only``)
    it narrows ``pool`` by the clues it was shown and guesses once one word is left, or in the last round."""

    kind = "scripted"
    model: str | None = None
    max_retries = 0

    def __init__(self, final_guess: str, pool: Sequence[str] = (), *, guess_only: bool = False) -> None:
        self._final_guess = final_guess
        self._pool = tuple(pool)
        self._guess_only = guess_only

    @property
    def final_guess(self) -> str:
        return self._final_guess

    async def act(self, ask: Ask) -> Reply:
        if ask.kind == "final_guess":
            return Reply(text=guess_line(self._final_guess))
        answered = sum(1 for message in ask.messages if message.role == "assistant")
        neutral = NEUTRAL_ANSWERS[answered % len(NEUTRAL_ANSWERS)]
        if self._guess_only:
            word = self._worked_out(ask)
            if word is not None:
                return Reply(text=f"{neutral}\n{guess_line(word)}")
        return Reply(text=neutral)

    def _worked_out(self, ask: Ask) -> str | None:
        """The word to guess now: the only one left, or in the last round the first one left; else ``None``."""
        heard = heard_clues(ask.messages)
        if not heard or not self._pool:
            return None
        left = candidates(self._pool, [clue for _, _, clue in heard])
        number, limit, _ = heard[-1]
        if len(left) == 1:
            return left[0]
        if number >= limit:
            return (left or self._pool)[0]
        return None
