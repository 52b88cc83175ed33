"""Figures with their intervals (``Rate``, ``Mean``) and a table of them that the terminal and the report each draw
in their own way (``ResultTable``): what a game's own analysis hands to both."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from playeval.analysis.intervals import t_interval, wilson_interval


@dataclass(frozen=True)
class Rate:
    """``count`` of ``n``, with its Wilson 95% interval (``None``s when ``n`` is 0)."""

    count: int
    n: int
    low: float | None
    high: float | None

    @classmethod
    def of(cls, count: int, n: int) -> Rate:
        low, high = wilson_interval(count, n)
        return cls(count=count, n=n, low=low, high=high)

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
    """A mean over seats with its t 95% interval (``None``s with fewer than two seats)."""

    mean: float | None
    low: float | None
    high: float | None
    n: int

    @classmethod
    def of(cls, values: Sequence[float]) -> Mean:
        low, high = t_interval(values, bounds=(0.0, 1.0))
        return cls(mean=statistics.fmean(values) if values else None, low=low, high=high, n=len(values))

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
