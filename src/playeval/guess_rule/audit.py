"""How deep each shipped rule of a guess-the-rule game is: the example units it can still show after turn 1 and the
items its rule-application check holds (issue 23 section 1).

A rule that can show only two or three units after turn 1 leaves the player nothing to ask for: the game's core,
asking for more examples, does not exist for it. This module counts; it knows no game. Each game says, per shipped
rule, what one of its matches can show (``RuleSupply``: ``playeval.games.rule_audit`` builds them from the games'
own data and drawing code); ``summarize`` gives the distribution over the rules (not over seeds) of a game's level,
and ``short`` the rules under the minimum.

**What is counted.** An example unit is what ``MORE: 1`` asks for: in the picnic games one item that may come and
one that may not (two items seen), in the Math Game one value (one seen). ``beyond_first`` is the units left after
turn 1 (the game's default ``num_init_examples``), the room the player has to ask for more. ``seen_beyond_first``
counts what the person reads (items or values). The minimum is applied to units, the stricter of the two.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

MIN_UNITS = 10
"""Example units every rule must offer beyond turn 1 (issue 23)."""
MIN_CHECK = 10
"""Items every rule's rule-application check must hold (issue 23)."""


@dataclass(frozen=True)
class RuleSupply:
    """What a match of one shipped rule can show: ``units`` example units in all (``per_unit`` things seen in each),
    ``first`` of them in turn 1, and ``check`` items in the rule-application check."""

    game: str
    level: int
    rule: str
    units: int
    first: int
    check: int
    per_unit: int = 1

    def __post_init__(self) -> None:
        if min(self.units, self.first, self.check) < 0 or self.per_unit < 1:
            raise ValueError(f"{self.game} {self.rule}: counts cannot be negative, nor a unit show nothing")

    @property
    def beyond_first(self) -> int:
        """Units the player can still ask for after turn 1."""
        return max(0, self.units - min(self.first, self.units))

    @property
    def seen_beyond_first(self) -> int:
        """Items (or values) the person can still be shown after turn 1."""
        return self.beyond_first * self.per_unit

    def short_of(self, min_units: int = MIN_UNITS, min_check: int = MIN_CHECK) -> bool:
        """Whether the rule falls under either minimum."""
        return self.beyond_first < min_units or self.check < min_check


@dataclass(frozen=True)
class Spread:
    low: int
    median: float
    high: int

    @classmethod
    def of(cls, values: Sequence[int]) -> Spread:
        if not values:
            raise ValueError("no values to spread")
        return cls(low=min(values), median=float(statistics.median(values)), high=max(values))


@dataclass(frozen=True)
class LevelSummary:
    """The distribution over the rules of one game's level."""

    game: str
    level: int
    rules: int
    units: Spread
    """Units beyond turn 1."""
    seen: Spread
    """Items (values) seen beyond turn 1."""
    check: Spread
    short_units: int
    """Rules with fewer than the minimum of units beyond turn 1."""
    short_check: int
    short: int
    """Rules under either minimum."""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def summarize(supplies: Iterable[RuleSupply], min_units: int = MIN_UNITS,
              min_check: int = MIN_CHECK) -> tuple[LevelSummary, ...]:
    """One summary per (game, level) of ``supplies``, in the order they first appear."""
    groups: dict[tuple[str, int], list[RuleSupply]] = {}
    for supply in supplies:
        groups.setdefault((supply.game, supply.level), []).append(supply)
    return tuple(LevelSummary(
        game=game, level=level, rules=len(group),
        units=Spread.of([item.beyond_first for item in group]),
        seen=Spread.of([item.seen_beyond_first for item in group]),
        check=Spread.of([item.check for item in group]),
        short_units=sum(1 for item in group if item.beyond_first < min_units),
        short_check=sum(1 for item in group if item.check < min_check),
        short=sum(1 for item in group if item.short_of(min_units, min_check)))
        for (game, level), group in groups.items())


def short(supplies: Iterable[RuleSupply], min_units: int = MIN_UNITS,
          min_check: int = MIN_CHECK) -> tuple[RuleSupply, ...]:
    """The rules under either minimum, fewest units first."""
    return tuple(sorted((item for item in supplies if item.short_of(min_units, min_check)),
                        key=lambda item: (item.beyond_first, item.check, item.rule)))


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def table(summaries: Sequence[LevelSummary], min_units: int = MIN_UNITS, min_check: int = MIN_CHECK) -> str:
    """The summaries as a plain-text table (min / median / max)."""
    head = ("game", "level", "rules", "units after turn 1", "seen after turn 1", "check items",
            f"units<{min_units}", f"check<{min_check}", "short")
    rows = [head] + [(item.game, str(item.level), str(item.rules),
                      *("/".join(_number(value) for value in (spread.low, spread.median, spread.high))
                        for spread in (item.units, item.seen, item.check)),
                      str(item.short_units), str(item.short_check), str(item.short)) for item in summaries]
    widths = [max(len(row[index]) for row in rows) for index in range(len(head))]
    return "\n".join("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
                     for row in rows)
