"""Scripted Akinator players: instant, deterministic, for tests and benchmarks."""

from __future__ import annotations

from operator import attrgetter

from playeval.core.ask import Ask, Reply
from playeval.core.normalize import normalize_name
from playeval.games.akinator.prompts import GUESS_FORMAT

_GUESS_PREFIX = GUESS_FORMAT.split("{")[0]
_ROLE = attrgetter("role")


class OracleAnswerer:
    """Answers every question 'No' and confirms a guess only when it names the secret."""

    kind = "scripted"
    model: str | None = None
    max_retries = 0

    def __init__(self, secret: str) -> None:
        self._secret_name = normalize_name(secret)
        self._yes, self._no = Reply(text="Yes"), Reply(text="No")  # its only replies, built once (never changed)

    async def act(self, ask: Ask) -> Reply:
        if ask.kind == "confirm":
            guessed = normalize_name(ask.display.removeprefix(_GUESS_PREFIX).rstrip("?"))
            return self._yes if guessed and guessed == self._secret_name else self._no  # same_name, kept
        return self._no


class ListGuesser:
    """Guesses the objects of a list in order, one per turn."""

    kind = "scripted"
    model: str | None = None
    max_retries = 0

    def __init__(self, candidates: list[str]) -> None:
        self._candidates = candidates

    async def act(self, ask: Ask) -> Reply:
        turn = list(map(_ROLE, ask.messages)).count("assistant")
        guess = self._candidates[turn % len(self._candidates)]
        return Reply(text=GUESS_FORMAT.format(object=guess))
