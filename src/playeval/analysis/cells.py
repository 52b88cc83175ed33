"""Figures with their intervals (``Rate``, ``Mean``) and a table of them that the terminal and the report each draw
in their own way (``ResultTable``): what a game's own analysis hands to both."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from playeval.analysis.intervals import cluster_mean_interval, match_rate_interval, t_interval, wilson_interval


def seats_text(matches: int, seats: int) -> str:
    """An interval's n over matches: ``4``, or ``4 (8 seats)`` where the matches held more seats than one each."""
    return str(matches) if seats == matches else f"{matches} ({seats} seats)"


@dataclass(frozen=True)
class Rate:
    """``count`` of ``n``, with its 95% interval (``None``s when ``n`` is 0): Wilson's over ``n`` trials
    (:meth:`of`), or over the matches the ``n`` seats came in (:meth:`over_matches`)."""

    count: int
    n: int
    low: float | None
    high: float | None
    matches: int | None = None
    """The interval's n where the seats came in matches (:meth:`over_matches`); ``None``: each of ``n`` was a
    trial of its own."""

    @classmethod
    def of(cls, count: int, n: int) -> Rate:
        low, high = wilson_interval(count, n)
        return cls(count=count, n=n, low=low, high=high)

    @classmethod
    def over_matches(cls, clusters: Sequence[tuple[int, int]]) -> Rate:
        """The share of seats counted, ``clusters`` holding one ``(count, seats)`` per match: its interval is over
        the matches (``intervals.match_rate_interval``: a cluster bootstrap where a match gave several seats)."""
        kept = [(count, seats) for count, seats in clusters if seats > 0]
        low, high = match_rate_interval(kept)
        return cls(count=sum(count for count, _ in kept), n=sum(seats for _, seats in kept), low=low, high=high,
                   matches=len(kept))

    @property
    def trials(self) -> int:
        """The interval's n: the matches, or ``n`` where each was a trial."""
        return self.n if self.matches is None else self.matches

    def n_text(self) -> str:
        """``4``, or ``4 (8 seats)`` (see :func:`seats_text`)."""
        return seats_text(self.trials, self.n)

    @property
    def value(self) -> float | None:
        return self.count / self.n if self.n else None

    def text(self) -> str:
        """``0.50 [0.15, 0.85]``; ``n/a`` when ``n`` is 0."""
        if self.value is None or self.low is None or self.high is None:
            return "n/a"
        return f"{self.value:.2f} [{self.low:.2f}, {self.high:.2f}]"


@dataclass(frozen=True)
class Mean:
    """A mean over seats with its 95% interval: the t interval over the seats (:meth:`of`, ``None``s with fewer
    than two), or over the matches they came in (:meth:`over_matches`)."""

    mean: float | None
    low: float | None
    high: float | None
    n: int
    matches: int | None = None
    """The interval's n where the seats came in matches (:meth:`over_matches`); ``None``: over the ``n`` seats."""

    @classmethod
    def of(cls, values: Sequence[float]) -> Mean:
        low, high = t_interval(values, bounds=(0.0, 1.0))
        return cls(mean=statistics.fmean(values) if values else None, low=low, high=high, n=len(values))

    @classmethod
    def over_matches(cls, clusters: Sequence[Sequence[float]]) -> Mean:
        """The mean of a measure in [0, 1] over every seat, ``clusters`` holding each match's values: its interval
        is the cluster bootstrap of the matches (``intervals.cluster_mean_interval``)."""
        kept = [values for values in clusters if values]
        low, high = cluster_mean_interval(kept)
        values = [value for match in kept for value in match]
        return cls(mean=statistics.fmean(values) if values else None, low=low, high=high, n=len(values),
                   matches=len(kept))

    @property
    def trials(self) -> int:
        """The interval's n: the matches, or the seats."""
        return self.n if self.matches is None else self.matches

    def n_text(self) -> str:
        """``4``, or ``4 (8 seats)`` (see :func:`seats_text`)."""
        return seats_text(self.trials, self.n)

    def text(self) -> str:
        """``0.62 [0.50, 0.74]``, the mean alone for one seat, ``n/a`` for none."""
        if self.mean is None:
            return "n/a"
        if self.low is None or self.high is None:
            return f"{self.mean:.2f}"
        return f"{self.mean:.2f} [{self.low:.2f}, {self.high:.2f}]"


Figure = str | int | Rate | Mean
"""A cell: text, a count, a rate or a mean; each output formats it its own way."""


@dataclass(frozen=True)
class Column:
    heading: str
    numeric: bool = True
    """Right-aligned figures (text columns are left-aligned)."""
    aux: bool = False
    """A secondary column (counts beside the headline figures): the report shows it muted."""


@dataclass(frozen=True)
class ResultTable:
    """A table of figures. ``groups``: (heading, span) over neighbouring columns, for the report; ``caption`` is
    printed under it (a table without columns is a caption alone)."""

    title: str
    columns: tuple[Column, ...]
    rows: tuple[tuple[Figure, ...], ...]
    caption: str = ""
    groups: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class GameTables:
    """A game's own tables beside the ones playeval builds from its declarations: for the terminal
    (``playeval analyze GAME``) and for the report, which may be shaped differently."""

    terminal: tuple[ResultTable, ...] = ()
    report: tuple[ResultTable, ...] = ()
