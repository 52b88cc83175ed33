"""Undercover's state: a fold of the match's actions (statements, judges' scores, votes, abstentions)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from playeval.core import MatchSpec

CIVILIAN, UNDERCOVER = "civilian", "undercover"
Phase = Literal["statement", "judge", "vote"]
OutBy = Literal["judge", "vote", "forfeit"]


@dataclass(frozen=True)
class Scores:
    novelty: float
    relevance: float
    reasonableness: float


@dataclass(frozen=True)
class Mark:
    """One judge's answer on one scale of a sentence: ``judge`` is the panel member (``judge``, ``judge#2``, ...),
    ``answer`` what it said (``yes``/``partly``/``no``; ``None`` in matches recorded with three numbers at once)."""

    judge: str
    scale: str
    value: float | None
    """``None``: no verdict (the judge's replies could not be read within its re-asks; ``reason`` says why)."""
    answer: str | None = None
    reason: str | None = None


SCALES: tuple[str, ...] = ("novelty", "relevance", "reasonableness")


@dataclass(frozen=True)
class Statement:
    round: int
    seat: str
    text: str
    marks: tuple[Mark, ...] = ()
    """Every judge's answers, in the order asked: a judge's three scales, then the next judge's."""

    @property
    def judged_by(self) -> tuple[str, ...]:
        """The panel members who gave a verdict on every scale, in the order they answered."""
        return tuple(judge for judge in dict.fromkeys(mark.judge for mark in self.marks)
                     if {mark.scale for mark in self.marks if mark.judge == judge and mark.value is not None}
                     == set(SCALES))

    @property
    def scores(self) -> tuple[Scores, ...]:
        """One per judge that scored every scale, in :attr:`judged_by` order."""
        found: list[Scores] = []
        for judge in self.judged_by:
            values = {mark.scale: float(mark.value) for mark in self.marks
                      if mark.judge == judge and mark.value is not None}
            found.append(Scores(**values))
        return tuple(found)

    def done(self, judges: int) -> bool:
        """Whether every one of ``judges`` panel members has answered (or given no verdict on) every scale."""
        return len(self.marks) >= len(SCALES) * judges

    def mean(self) -> Scores | None:
        if not self.scores:
            return None
        n = len(self.scores)
        return Scores(novelty=sum(s.novelty for s in self.scores) / n,
                      relevance=sum(s.relevance for s in self.scores) / n,
                      reasonableness=sum(s.reasonableness for s in self.scores) / n)


@dataclass(frozen=True)
class Vote:
    round: int
    voter: str
    target: str | None
    """``None``: an abstention, with its ``reason``."""
    reason: str | None = None


@dataclass(frozen=True)
class Out:
    seat: str
    round: int
    by: OutBy
    reason: str
    after: int = 0
    """How many statements had been made when the seat went out (where a forfeit shows in the transcript)."""


@dataclass(frozen=True)
class UndercoverState:
    spec: MatchSpec
    round: int = 1
    statements: tuple[Statement, ...] = ()
    votes: tuple[Vote, ...] = ()
    """Every vote and abstention, of closed rounds and of the open vote."""
    tallies: tuple[str, ...] = ()
    """What each closed vote did, as public lines."""
    out: tuple[Out, ...] = ()

    @property
    def table(self) -> tuple[str, ...]:
        return self.spec.seats

    @property
    def max_rounds(self) -> int:
        return int(self.spec.params["max_rounds"])

    @property
    def judges(self) -> int:
        return int(self.spec.params.get("judges", 1))

    def word(self, seat: str) -> str:
        return str(self.spec.setup["words"][seat])

    def side(self, seat: str) -> str:
        return str(self.spec.setup["sides"][seat])

    def alive(self) -> list[str]:
        gone = {item.seat for item in self.out}
        return [seat for seat in self.table if seat not in gone]

    def voters(self, round_: int) -> list[str]:
        """The seats that voted (or were asked to) in round ``round_``'s vote: those in the game once its sentences
        were all said and judged (a seat goes out during a round by the judge or a forfeit, before the vote, and by
        the vote after it)."""
        gone = {item.seat for item in self.out if item.round < round_ or (item.round == round_ and item.by != "vote")}
        return [seat for seat in self.table if seat not in gone]

    def left(self, side: str) -> int:
        return sum(1 for seat in self.alive() if self.side(seat) == side)

    def speakers(self) -> list[str]:
        """This round's speaking order: the table's order, starting one seat later each round, the living only."""
        start = (self.round - 1) % len(self.table)
        order = [*self.table[start:], *self.table[:start]]
        alive = set(self.alive())
        return [seat for seat in order if seat in alive]

    def round_statements(self) -> list[Statement]:
        return [item for item in self.statements if item.round == self.round]

    def round_votes(self) -> list[Vote]:
        return [item for item in self.votes if item.round == self.round]

    def next_speaker(self) -> str | None:
        said = {item.seat for item in self.round_statements()}
        return next((seat for seat in self.speakers() if seat not in said), None)

    def phase(self) -> Phase:
        spoken = self.round_statements()
        if spoken and len(spoken[-1].marks) < len(SCALES) * self.judges:
            return "judge"
        return "statement" if self.next_speaker() is not None else "vote"
