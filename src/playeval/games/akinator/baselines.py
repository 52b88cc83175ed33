"""Scripted Akinator players: instant, deterministic, for tests and benchmarks; and the guesser's baseline players.

The guesser's scripted player (:class:`OracleGuesser`) is the game's strong player (``core.scripted``): it reads
the secret, asks three questions and names it on the fourth turn. The baselines (``core.baselines``) never read the
secret: :class:`RandomGuesser` asks questions drawn from :data:`QUESTIONS` and now and then guesses an object drawn
from the match's secret set (a public param); :class:`NaiveGuesser` asks the first :data:`NAIVE_QUESTIONS` of them
in order, then guesses the set's objects in the set's order. Both are handed only the objects a guess may name
whatever the secret is (the rules refuse a guess naming two objects unless it is the secret's own name).
"""

from __future__ import annotations

import re
from operator import attrgetter

from playeval.core.ask import Ask, Reply
from playeval.core.baselines import ask_rng
from playeval.core.match import MatchSpec
from playeval.core.normalize import normalize_name
from playeval.games.akinator.prompts import GUESS_FORMAT

_GUESS_PREFIX = GUESS_FORMAT.split("{")[0]
_ROLE = attrgetter("role")
_NUMBER = re.compile(r'"Question (\d+): "')

QUESTIONS: tuple[str, ...] = (
    "Is it man-made?",
    "Is it bigger than a loaf of bread?",
    "Would you usually find it indoors?",
    "Can you hold it in one hand?",
    "Does it need electricity to work?",
    "Is it made mostly of metal?",
    "Would you find it in a kitchen?",
    "Is it used for fun or play?",
    "Does it have parts that move?",
    "Is it soft to the touch?",
    "Do people wear it or carry it about?",
    "Is it used for cleaning?",
)
"""Yes/no questions that make sense for any object: the baselines' questions, asked for their form, not their use."""
NAIVE_QUESTIONS = 8
"""How many of :data:`QUESTIONS` the naive guesser asks, in order, before it starts guessing."""
RANDOM_GUESS_SHARE = 0.25
"""The random guesser's chance of guessing, rather than asking, on any turn."""
ORACLE_QUESTIONS = 3
"""The questions the strong guesser asks before it names the secret (on the next turn)."""


def turn_number(ask: Ask) -> int:
    """The guesser's turn the ask is for, as its grammar heads the question (``Question N:``); else counted from
    the conversation."""
    grammar = ask.constraint.grammar if ask.constraint is not None else None
    found = _NUMBER.search(grammar or "")
    if found:
        return int(found.group(1))
    return list(map(_ROLE, ask.messages)).count("assistant") + 1


def _question(number: int, text: str) -> Reply:
    return Reply(text=f"Question {number}: {text}")


def _guess(obj: str) -> Reply:
    return Reply(text=GUESS_FORMAT.format(object=obj))


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


class OracleGuesser:
    """The strong guesser: it knows the secret, asks :data:`ORACLE_QUESTIONS` questions and names the secret on the
    next turn, and only then (any later turn is a question). Naming it on one turn only keeps a player that makes
    its move with probability ``p`` (``mock/skill``) winning about ``p`` of its matches, not nearly all."""

    kind = "scripted"
    model: str | None = None
    max_retries = 0

    def __init__(self, secret: str) -> None:
        self._secret = secret

    async def act(self, ask: Ask) -> Reply:
        number = turn_number(ask)
        if number == ORACLE_QUESTIONS + 1:
            return _guess(self._secret)
        return _question(number, QUESTIONS[(number - 1) % len(QUESTIONS)])


class RandomGuesser:
    """The ``random`` baseline: on each turn, with probability :data:`RANDOM_GUESS_SHARE`, a guess of an object
    drawn from ``candidates`` (the match's secret set), else a question drawn from :data:`QUESTIONS`; drawn with
    ``ask_rng``, from the match's seed and the ask."""

    kind = "scripted"
    model: str | None = None
    max_retries = 0

    def __init__(self, spec: MatchSpec, candidates: tuple[str, ...]) -> None:
        self._spec, self._candidates = spec, candidates

    async def act(self, ask: Ask) -> Reply:
        rng = ask_rng(self._spec, "baseline random", ask)
        if self._candidates and rng.random() < RANDOM_GUESS_SHARE:
            return _guess(rng.choice(self._candidates))
        return _question(turn_number(ask), rng.choice(QUESTIONS))


class NaiveGuesser:
    """The ``naive`` baseline: the first :data:`NAIVE_QUESTIONS` of :data:`QUESTIONS` in order, then the objects
    of ``candidates`` (the match's secret set) in order, one a turn."""

    kind = "scripted"
    model: str | None = None
    max_retries = 0

    def __init__(self, candidates: tuple[str, ...]) -> None:
        self._candidates = candidates

    async def act(self, ask: Ask) -> Reply:
        number = turn_number(ask)
        if number <= NAIVE_QUESTIONS or not self._candidates:
            return _question(number, QUESTIONS[(number - 1) % len(QUESTIONS)])
        return _guess(self._candidates[(number - NAIVE_QUESTIONS - 1) % len(self._candidates)])
