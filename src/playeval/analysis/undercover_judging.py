"""Undercover's own tables beside the declared ones: the judges' score distributions (named by Undercover's
``TeamAnalysis.tables``, so the game module imports no analysis).

Every role assignment named ``judge`` or ``judge#N`` is a judge, counted under its model. A score is credited to
the role of the reply it was read from. Per judge: a histogram of each score over 0, 0.1, ..., 1 (a value off that
grid, possible only without the grammar, goes to the nearest tenth and is counted in ``off_grid``), the share of its
own scores under the match's thresholds, and the share of the statements it scored that the rules put out for each
threshold (on the judges' mean score when there are several).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from playeval.analysis.cells import Column, Figure, GameTables, Rate, ResultTable
from playeval.analysis.sides import StoredMatch
from playeval.core.info import panel_role
from playeval.engine.match import state_from_events
from playeval.games.undercover.state import UndercoverState

SCORES = ("novelty", "relevance", "reasonableness")
THRESHOLDS = ("novelty", "reasonableness")
BINS = tuple(n / 10 for n in range(11))
"""The judges' score values: 0, 0.1, ..., 1."""
ABSENT = "—"
CAPTION_JUDGES = (
    "Per judge model (every role bound as judge or judge#N): how often it gave each score. Under: its own scores "
    "under the match's threshold; put out: the statements it scored whose speaker the rules put out for that "
    "threshold (on the judges' mean when several judged).")


def is_judge_role(role: str) -> bool:
    """``judge``, or a panel's further judge ``judge#2``, ``judge#3`` ..."""
    return panel_role(role) == "judge"


def bins_heading() -> tuple[str, ...]:
    """The histogram's column headings: ``0``, ``0.1``, ..., ``1``."""
    return tuple(f"{value:g}" for value in BINS)


@dataclass(frozen=True)
class JudgeRow:
    """One judge model's scores over the matches."""

    judge: str
    scored: int
    """Score triples it gave (one per statement it scored)."""
    histograms: Mapping[str, tuple[int, ...]]
    """Per score: counts per value of ``BINS``."""
    off_grid: int
    under: Mapping[str, Rate]
    """``novelty`` and ``reasonableness``: its own scores under the match's threshold."""
    put_out: Mapping[str, Rate]
    """``novelty`` and ``reasonableness``: statements it scored that the rules put out for that threshold."""


@dataclass(frozen=True)
class _Score:
    judge: str
    values: Mapping[str, float]
    thresholds: Mapping[str, float]
    put_out: frozenset[str]
    """The thresholds that put its statement's speaker out."""


def _scores(match: StoredMatch, state: UndercoverState) -> list[_Score]:
    """Every judge score of the match, credited to its judge, with what its statement's speaker came to."""
    thresholds = {name: float(match.spec.params[f"{name}_threshold"]) for name in THRESHOLDS}
    reasons = {(out.seat, out.round): out.reason.lower() for out in state.out if out.by == "judge"}
    bound = {role.role: role.model or role.player_kind for role in match.roles if is_judge_role(role.role)}
    found: list[_Score] = []
    for statement in state.statements:
        reason = reasons.get((statement.seat, statement.round), "")
        put_out = frozenset(name for name in thresholds if name in reason)
        for member, scores in zip(statement.judged_by, statement.scores, strict=True):
            values = {name: float(getattr(scores, name)) for name in SCORES}
            found.append(_Score(judge=bound.get(member, member), values=values, thresholds=thresholds,
                                put_out=put_out))
    return found


def _judge_row(judge: str, scores: Sequence[_Score]) -> JudgeRow:
    histograms: dict[str, list[int]] = {name: [0] * len(BINS) for name in SCORES}
    off_grid = 0
    for score in scores:
        for name in SCORES:
            tenths = score.values[name] * 10
            index = min(len(BINS) - 1, max(0, round(tenths)))
            histograms[name][index] += 1
            off_grid += abs(tenths - round(tenths)) > 1e-6
    under = {name: Rate.of(sum(score.values[name] < score.thresholds[name] for score in scores), len(scores))
             for name in THRESHOLDS}
    put_out = {name: Rate.of(sum(name in score.put_out for score in scores), len(scores)) for name in THRESHOLDS}
    return JudgeRow(judge=judge, scored=len(scores), histograms={k: tuple(v) for k, v in histograms.items()},
                    off_grid=off_grid, under=under, put_out=put_out)


def judge_rows(game: Any, matches: Sequence[StoredMatch]) -> tuple[JudgeRow, ...]:
    """Per judge model (by name), its scores over ``matches``."""
    by_judge: dict[str, list[_Score]] = defaultdict(list)
    for match in matches:
        for score in _scores(match, state_from_events(game, match.spec, match.events)):
            by_judge[score.judge].append(score)
    return tuple(_judge_row(judge, by_judge[judge]) for judge in sorted(by_judge))


def judge_terminal_tables(game_id: str, judges: Sequence[JudgeRow]) -> tuple[ResultTable, ...]:
    """A table per judge, its thresholds' shares under it, then the note."""
    tables: list[ResultTable] = []
    for judge in judges:
        off = f"; {judge.off_grid} scores off the 0.1 grid, counted at the nearest tenth" if judge.off_grid else ""
        tables.append(ResultTable(
            title=f"{game_id}: judge {judge.judge}, {judge.scored} scored sentences",
            columns=(Column("score", numeric=False), *(Column(heading) for heading in bins_heading())),
            rows=tuple((name, *judge.histograms[name]) for name in SCORES),
            caption=(f"  under the threshold: novelty {judge.under['novelty'].text()}, reasonableness "
                     f"{judge.under['reasonableness'].text()}; put out: novelty {judge.put_out['novelty'].text()}, "
                     f"reasonableness {judge.put_out['reasonableness'].text()}{off}")))
    tables.append(ResultTable(title="", columns=(), rows=(), caption=CAPTION_JUDGES))
    return tuple(tables)


def judge_report_tables(name: str, judges: Sequence[JudgeRow]) -> tuple[ResultTable, ...]:
    """One table of every judge's scores."""
    rows: list[tuple[Figure, ...]] = []
    for judge in judges:
        for score in SCORES:
            rows.append((judge.judge, score, judge.scored, *judge.histograms[score],
                         judge.under.get(score, ABSENT), judge.put_out.get(score, ABSENT)))
    off_grid = sum(judge.off_grid for judge in judges)
    bins = bins_heading()
    return (ResultTable(
        title=f"{name}: the judges' scores",
        columns=(Column("Judge", numeric=False), Column("Score", numeric=False), Column("Scored", aux=True),
                 *(Column(heading) for heading in bins), Column("Under threshold"), Column("Put out")),
        groups=(("", 1), ("", 1), ("", 1), ("Scores given", len(bins)), ("Threshold", 2)),
        rows=tuple(rows),
        caption=CAPTION_JUDGES + (f" {off_grid} scores were off the 0.1 grid and are counted at the nearest tenth."
                                  if off_grid else "")),)


def judge_tables(game: Any, matches: Sequence[StoredMatch]) -> GameTables:
    judges = judge_rows(game, matches)
    return GameTables(terminal=judge_terminal_tables(game.id, judges),
                      report=judge_report_tables(game.presentation.name, judges))
