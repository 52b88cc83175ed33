"""Undercover's scripted players (instant and deterministic, for tests and ``--opponent scripted``) and its seats'
baseline players.

A seat's scripted player is the game's strong player (``core.scripted``): it reads every seat's side and votes for
a seat of the other side (the first one offered, so a side's strong seats vote together); its sentence is a plain
one. The baselines (``core.baselines``) read nothing hidden: :class:`RandomSeat` says a sentence drawn from
:data:`GENERIC_SENTENCES` (one nobody has said in the match) and votes for a seat drawn among those offered;
:class:`NaiveSeat` says a sentence that describes nothing and votes at random too.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from playeval.core import Ask, MatchSpec, Reply
from playeval.core.baselines import ask_rng
from playeval.core.normalize import normalize_name

_SENTENCES: tuple[str, ...] = (
    "You come across it more often than you might think",
    "Most people could picture it without much effort",
    "It tends to show up in everyday conversation",
    "Children usually learn about it fairly early",
    "It can look rather different from one place to another",
    "People have opinions about it",
)

GENERIC_SENTENCES: tuple[str, ...] = (
    "It is something most people have come across at some point.",
    "You could talk about it with almost anyone.",
    "It means different things to different people.",
    "Some people care about it more than others do.",
    "It is easy to picture once you think of it.",
    "It can be found in many parts of the world.",
    "Most of us learned about it when we were quite little.",
    "It comes up in stories now and then.",
    "There is more than one kind of it.",
    "Some people like it and some people do not.",
    "It has been around for a long time.",
    "You might have seen it in a picture book.",
    "It is the sort of thing people mention in passing.",
    "Its name is known to almost everyone.",
    "It can mean a lot to someone and little to another.",
    "People sometimes describe it in quite different ways.",
)
"""Sentences true of any word that name nothing (none holds a word of any concept pair): the random seat's."""
_SAID = re.compile(r"^Round \d+, [^:\n]+: (.*)$", re.MULTILINE)


def _round(ask: Ask) -> int:
    """The round a statement ask is for, read off its display (``Round 2. Your word: ...``)."""
    return int(ask.display.split()[1].rstrip(".:")) if ask.display.startswith("Round") else 1


def _choices(ask: Ask) -> tuple[str, ...]:
    return ask.constraint.choices if ask.constraint and ask.constraint.choices else ("",)


def said_before(ask: Ask) -> set[str]:
    """The sentences the ask's history shows, normalised as the rules compare them for a repeat."""
    return {normalize_name(found.group(1)) for message in ask.messages if message.role == "user"
            for found in _SAID.finditer(message.content)}


class ScriptedSeat:
    """Says a plain sentence (a different one each round and seat) and votes for the first seat offered of the
    other side (``sides``: every seat's side, the spec's hidden part; without it, the first seat offered)."""

    kind = "scripted"
    model: str | None = None
    max_retries = 0

    def __init__(self, seat: str, sides: Mapping[str, str] | None = None) -> None:
        self._seat = seat
        self._sides = dict(sides or {})

    async def act(self, ask: Ask) -> Reply:
        if ask.kind == "vote":
            choices = _choices(ask)
            mine = self._sides.get(self._seat)
            other = next((seat for seat in choices if mine is not None and self._sides.get(seat) not in (None, mine)),
                         choices[0])
            return Reply(text=other)
        number = int("".join(ch for ch in self._seat if ch.isdigit()) or 0)
        round_ = _round(ask)
        return Reply(text=f"{_SENTENCES[(number + round_) % len(_SENTENCES)]} (take {round_}).")


class RandomSeat:
    """The ``random`` baseline: a sentence drawn from the :data:`GENERIC_SENTENCES` nobody has said yet (when all
    have been, one of them marked with the seat and the round, which no one else can have said), and a vote for a
    seat drawn among those offered; drawn with ``ask_rng``, from the match's seed and the ask."""

    kind = "scripted"
    model: str | None = None
    max_retries = 0

    def __init__(self, spec: MatchSpec) -> None:
        self._spec = spec

    async def act(self, ask: Ask) -> Reply:
        rng = ask_rng(self._spec, "baseline random", ask)
        if ask.kind == "vote":
            return Reply(text=rng.choice(_choices(ask)))
        said = said_before(ask)
        fresh = [sentence for sentence in GENERIC_SENTENCES if normalize_name(sentence) not in said]
        if fresh:
            return Reply(text=rng.choice(fresh))
        return Reply(text=f"{rng.choice(GENERIC_SENTENCES)[:-1]}, says {ask.seat} in round {_round(ask)}.")


class NaiveSeat:
    """The ``naive`` baseline: a sentence that describes nothing (``Nothing to add from player3 in round 2.``, new
    by its seat and round), and a vote for a seat drawn among those offered (``ask_rng``)."""

    kind = "scripted"
    model: str | None = None
    max_retries = 0

    def __init__(self, spec: MatchSpec) -> None:
        self._spec = spec

    async def act(self, ask: Ask) -> Reply:
        if ask.kind == "vote":
            return Reply(text=ask_rng(self._spec, "baseline naive", ask).choice(_choices(ask)))
        return Reply(text=f"Nothing to add from {ask.seat} in round {_round(ask)}.")


_VERDICTS = {"novelty": "no", "relevance": "partly", "reasonableness": "yes"}
"""The scripted judge's answer per scale: not a repeat, somewhat telling, true."""


class ScriptedJudge:
    """Finds every sentence new (it is no repeat), fairly relevant (partly) and true."""

    kind = "scripted"
    model: str | None = None
    max_retries = 0

    async def act(self, ask: Ask) -> Reply:
        return Reply(text=_VERDICTS.get(ask.kind, "yes"))
