"""Scripted Akinator players: instant, deterministic, for tests and benchmarks."""

from __future__ import annotations

from playeval.core.ask import Ask, Reply
from playeval.core.normalize import normalize_name
from playeval.games.akinator.prompts import GUESS_FORMAT

_GUESS_PREFIX = GUESS_FORMAT.split("{")[0]


class OracleAnswerer:
    """Answers every question 'No' and confirms a guess only when it names the secret."""

    kind = "scripted"
    model: str | None = None
    max_retries = 0

    def __init__(self, secret: str) -> None:
        self._secret_name = normalize_name(secret)

    async def act(self, ask: Ask) -> Reply:
        if ask.kind == "confirm":
            guessed = normalize_name(ask.display.removeprefix(_GUESS_PREFIX).rstrip("?"))
            return Reply(text="Yes" if guessed and guessed == self._secret_name else "No")  # same_name, kept
        return Reply(text="No")


class ListGuesser:
    """Guesses the objects of a list in order, one per turn."""

    kind = "scripted"
    model: str | None = None
    max_retries = 0

    def __init__(self, candidates: list[str]) -> None:
        self._candidates = candidates

    async def act(self, ask: Ask) -> Reply:
        turn = sum(1 for message in ask.messages if message.role == "assistant")
        guess = self._candidates[turn % len(self._candidates)]
        return Reply(text=GUESS_FORMAT.format(object=guess))
