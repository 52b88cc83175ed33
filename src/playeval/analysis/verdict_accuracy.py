"""A two-sided verdict's accuracy beside its balanced accuracy (Bluffing's "True" or "False").

A questioner that always says "True" is right exactly as often as the statements are true: its accuracy is the
share of true statements, not a skill, and the local models, which nearly always say "True", looked better the
more true statements a run drew. Balanced accuracy, the mean of the recall on true statements (judged True per
true statement) and on false ones (judged False per false statement), scores every verdict that ignores the
statement 0.5 (always "True", always "False", a coin), whatever the share; it is shown beside raw accuracy.

A game with such a verdict declares it structurally (:class:`TwoSidedVerdict`, so the game imports nothing of the
analysis): ``verdict_seat``, the seat that gives it, and ``verdict_truth(spec)``, the truth it is scored against.
A verdict is right when its seat won (such a game scores the seat by its verdict). A seat's own forfeit gave no
verdict and counts wrong in every rate, as it counts as a loss in the win rate; a match that is not scored (aborted,
or the other seat forfeited) is left out, as the win rate leaves it out.

Intervals: Wilson 95% for accuracy and each recall; a percentile bootstrap over matches (seeded, the same on every
run) for balanced accuracy, a resample without both kinds of statement left out.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Protocol, runtime_checkable

from playeval.analysis.cells import Column, Figure, Mean, Rate, ResultTable
from playeval.analysis.intervals import bootstrap_interval
from playeval.analysis.load import seat_rows
from playeval.core.match import MatchSpec
from playeval.core.registry import GameRegistry
from playeval.store import Store

RESAMPLES = 1000
CAPTION = (
    "Per model, every match whose verdict was scored. Accuracy: verdicts that matched the truth (the win rate), with "
    "a Wilson 95% interval. On true / on false: the share of true statements judged True and of false statements "
    "judged False, Wilson 95%. Balanced accuracy: the mean of the two, with a bootstrap 95% interval over matches; "
    "a verdict that ignores the statement scores 0.5 here whatever the share of true statements (always True or "
    "always False exactly, a coin on average), while its accuracy follows that share. Said True: the share of "
    "matches ended by a True verdict. "
    "A forfeit gave no verdict and counts wrong; matches not scored (aborted, the other seat's forfeit) are left "
    "out.")


@runtime_checkable
class TwoSidedVerdict(Protocol):
    """A game whose evaluated seat ends the match with a True-or-False verdict scored against a hidden truth."""

    id: ClassVar[str]
    verdict_seat: ClassVar[str]

    def verdict_truth(self, spec: MatchSpec) -> bool | None:
        """The truth the verdict is scored against (``None``: the match has none to score)."""
        ...


@dataclass(frozen=True)
class Verdict:
    """One scored match: the truth, whether the verdict matched it, and whether there was a verdict at all (a
    forfeit gives none, and is not right)."""

    truth: bool
    right: bool
    given: bool = True

    @property
    def said_true(self) -> bool:
        return self.given and self.right == self.truth


def balanced_accuracy(verdicts: Sequence[Verdict]) -> float | None:
    """The mean of the recall on true and on false statements; ``None`` unless both kinds are present."""
    on_true = [v.right for v in verdicts if v.truth]
    on_false = [v.right for v in verdicts if not v.truth]
    if not on_true or not on_false:
        return None
    return (sum(on_true) / len(on_true) + sum(on_false) / len(on_false)) / 2


@dataclass(frozen=True)
class VerdictRow:
    """One model's verdicts in one game."""

    game: str
    model: str
    verdicts: tuple[Verdict, ...]

    @property
    def n(self) -> int:
        return len(self.verdicts)

    @property
    def accuracy(self) -> Rate:
        return Rate.of(sum(v.right for v in self.verdicts), self.n)

    @property
    def on_true(self) -> Rate:
        true = [v for v in self.verdicts if v.truth]
        return Rate.of(sum(v.right for v in true), len(true))

    @property
    def on_false(self) -> Rate:
        false = [v for v in self.verdicts if not v.truth]
        return Rate.of(sum(v.right for v in false), len(false))

    @property
    def said_true(self) -> Rate:
        return Rate.of(sum(v.said_true for v in self.verdicts), self.n)

    def balanced(self, *, resamples: int = RESAMPLES, seed: int = 0) -> Mean:
        """Balanced accuracy with its bootstrap 95% interval over matches (``n``: the matches)."""
        low, high = bootstrap_interval(self.verdicts, balanced_accuracy, resamples=resamples, seed=seed)
        return Mean(mean=balanced_accuracy(self.verdicts), low=low, high=high, n=self.n)


def verdict_rows(store: Store, run_id: str, registry: GameRegistry) -> list[VerdictRow]:
    """Per game with a two-sided verdict and model: the verdicts of the run's scored matches, by game then model."""
    found: dict[tuple[str, str], list[Verdict]] = defaultdict(list)
    for match in store.run_matches(run_id):
        if match.game not in registry.ids():
            continue
        game = registry.get(match.game)
        if not isinstance(game, TwoSidedVerdict):
            continue
        truth = game.verdict_truth(match.spec)
        if truth is None:
            continue
        for row in seat_rows(store, match, registry, with_calls=False):
            if row.seat != game.verdict_seat or row.won is None:
                continue
            found[(match.game, row.model)].append(Verdict(truth=truth, right=row.won,
                                                          given=not row.result.forfeited))
    return [VerdictRow(game=game_id, model=model, verdicts=tuple(verdicts))
            for (game_id, model), verdicts in sorted(found.items())]


def verdict_tables(rows: Sequence[VerdictRow], name_of: Callable[[str], str] = str, *,
                   resamples: int = RESAMPLES) -> tuple[ResultTable, ...]:
    """One table per game: each model's accuracy, recall on true and on false, balanced accuracy and share of
    True verdicts, best balanced accuracy first."""
    tables: list[ResultTable] = []
    for game in dict.fromkeys(row.game for row in rows):
        ranked = sorted((row for row in rows if row.game == game),
                        key=lambda row: (-(balanced_accuracy(row.verdicts) or 0.0), row.model))
        body: list[tuple[Figure, ...]] = [
            (row.model, row.n, row.accuracy, row.on_true, row.on_false, row.balanced(resamples=resamples),
             row.said_true)
            for row in ranked]
        tables.append(ResultTable(
            title=f"{name_of(game)}: verdicts, accuracy and balanced accuracy",
            columns=(Column("model", numeric=False), Column("matches", aux=True), Column("accuracy"),
                     Column("on true"), Column("on false"), Column("balanced acc."), Column("said True")),
            rows=tuple(body), caption=CAPTION))
    return tuple(tables)
