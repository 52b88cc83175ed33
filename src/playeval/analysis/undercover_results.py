"""Undercover's results from stored runs: per model and side, per model overall, per concept category, and the
judges' score distributions (``playeval analyze undercover``, the report's Undercover tables).

Only finished matches count (an aborted or unfinished one is left out). A seat is counted for whoever held it: its
model, or its kind of player ("scripted", "human"). Per model and side (and per model overall):

- win rate: seats whose side won (a seat out before the end still wins with its side, as the game scores it), with
  its Wilson 95% interval; beside it ``reference``, what the model's seats would win at the run's own rates: the
  share of matches the civilians won for a civilian seat, the undercover agents' share for an undercover seat, and
  the seat-weighted mix of the two for the overall row. It is the observed rate of the whole run, not a chance
  baseline (a random-voting, never-judged table has no simple closed form).
- survival, voting accuracy, mean novelty, relevance and reasonableness: means over seats of the game's per-seat
  metrics (``games.undercover.metrics.seat_metrics``), each with a Student-t 95% interval over those seats, clipped
  to [0, 1]; a seat without the measure (no valid vote, no judged sentence) is left out of that mean.
- put out by the judges, voted out: shares of seats with Wilson 95% intervals; forfeits (seats put out because their
  re-asks ran out); re-asks (refused replies) and abstentions (``model_counts``).

The judges: every role assignment named ``judge`` or ``judge#N`` is a judge, counted under its model. A score is
credited to the role of the reply it was read from. Per judge: a histogram of each score over 0, 0.1, ..., 1 (a
value off that grid, possible only without the grammar, goes to the nearest tenth and is counted in ``off_grid``),
the share of its own scores under the match's thresholds, and the share of the statements it scored that the rules
put out for each threshold (on the judges' mean score when there are several).
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from playeval.analysis.intervals import t_interval, wilson_interval
from playeval.core import Event, RoleAssignment, SeatAssignment
from playeval.core.info import panel_role
from playeval.core.match import MatchSpec, Outcome
from playeval.core.registry import GameRegistry
from playeval.engine.match import state_from_events
from playeval.games.undercover.metrics import model_counts, seat_metrics
from playeval.games.undercover.state import CIVILIAN, UNDERCOVER, UndercoverState
from playeval.store import Store

GAME = "undercover"
ALL = "all"
"""The side of a model's overall row."""
SCORES = ("novelty", "relevance", "reasonableness")
BINS = tuple(n / 10 for n in range(11))
"""The judges' score values: 0, 0.1, ..., 1."""
MEANS = ("survival", "vote_accuracy", "novelty", "relevance", "reasonableness")


def is_judge_role(role: str) -> bool:
    """``judge``, or a panel's further judge ``judge#2``, ``judge#3`` ..."""
    return panel_role(role) == "judge"


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


@dataclass(frozen=True)
class SideRow:
    """One model on one side (``civilian``, ``undercover``, or ``all`` for its overall row)."""

    model: str
    side: str
    seats: int
    wins: Rate
    reference: float | None
    """What these seats would win at the run's own side win rates (see the module's note)."""
    means: Mapping[str, Mean]
    """``survival``, ``vote_accuracy``, ``novelty``, ``relevance``, ``reasonableness``."""
    out_by_judge: Rate
    out_by_vote: Rate
    forfeits: int
    reasks: int
    abstentions: int


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
class CategoryRow:
    """A concept category: the civilians' share of its matches (``model`` ``None``), or one model's seats in it."""

    category: str
    model: str | None
    wins: Rate


@dataclass(frozen=True)
class UndercoverResults:
    matches: int
    civilian_wins: Rate
    """Matches won by the civilians, of all matches: the run's side win rate, the reference beside the models'."""
    rows: tuple[SideRow, ...]
    """Per model: civilian, undercover, then all; models by name."""
    judges: tuple[JudgeRow, ...]
    categories: tuple[CategoryRow, ...]
    """Per category (by name): the category's row, then its models' rows."""


@dataclass(frozen=True)
class _Seat:
    model: str
    side: str
    won: bool
    category: str
    metrics: Mapping[str, float | None]
    forfeited: bool
    reasks: int
    abstentions: int


@dataclass(frozen=True)
class _Score:
    judge: str
    values: Mapping[str, float]
    thresholds: Mapping[str, float]
    put_out: frozenset[str]
    """The thresholds that put its statement's speaker out."""


@dataclass(frozen=True)
class StoredMatch:
    """What the analysis needs of one finished Undercover match."""

    spec: MatchSpec
    seats: tuple[SeatAssignment, ...]
    roles: tuple[RoleAssignment, ...]
    outcome: Outcome
    events: tuple[Event, ...]


def stored_matches(store: Store, run_ids: Sequence[str]) -> list[StoredMatch]:
    """The runs' finished Undercover matches, run by run in the order given, by match index within a run."""
    found: list[StoredMatch] = []
    for run_id in run_ids:
        for match in sorted(store.run_matches(run_id), key=lambda record: record.match_index or 0):
            if match.game != GAME or match.outcome is None or match.outcome.status != "finished":
                continue
            found.append(StoredMatch(spec=match.spec, seats=match.seats, roles=match.roles, outcome=match.outcome,
                                     events=tuple(store.events(match.id))))
    return found


def _scores(match: StoredMatch, state: UndercoverState) -> list[_Score]:
    """Every judge score of the match, credited to its judge, with what its statement's speaker came to."""
    thresholds = {"novelty": float(match.spec.params["novelty_threshold"]),
                  "reasonableness": float(match.spec.params["reasonableness_threshold"])}
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


def _seats(match: StoredMatch, state: UndercoverState) -> list[_Seat]:
    metrics = seat_metrics(state)
    counts = model_counts(match.events, [SeatAssignment(seat=s.seat, player_kind=s.player_kind, model=s.seat)
                                         for s in match.seats])
    category = str(match.spec.setup.get("pair", {}).get("category", "?"))
    found: list[_Seat] = []
    for assignment in match.seats:
        result = match.outcome.result_for(assignment.seat)
        found.append(_Seat(model=assignment.model or assignment.player_kind, side=state.side(assignment.seat),
                           won=bool(result.won), category=category, metrics=metrics[assignment.seat],
                           forfeited=result.forfeited, reasks=counts[assignment.seat]["reasks"],
                           abstentions=counts[assignment.seat]["abstentions"]))
    return found


def _side_row(model: str, side: str, seats: Sequence[_Seat], civilian_share: float | None) -> SideRow:
    def present(name: str) -> list[float]:
        return [value for seat in seats if (value := seat.metrics.get(name)) is not None]

    reference = None
    if civilian_share is not None:
        reference = statistics.fmean(civilian_share if seat.side == CIVILIAN else 1.0 - civilian_share
                                     for seat in seats)
    return SideRow(
        model=model, side=side, seats=len(seats), wins=Rate.of(sum(seat.won for seat in seats), len(seats)),
        reference=reference, means={name: Mean.of(present(name)) for name in MEANS},
        out_by_judge=Rate.of(sum(bool(seat.metrics["out_by_judge"]) for seat in seats), len(seats)),
        out_by_vote=Rate.of(sum(bool(seat.metrics["out_by_vote"]) for seat in seats), len(seats)),
        forfeits=sum(seat.forfeited for seat in seats), reasks=sum(seat.reasks for seat in seats),
        abstentions=sum(seat.abstentions for seat in seats))


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
             for name in ("novelty", "reasonableness")}
    put_out = {name: Rate.of(sum(name in score.put_out for score in scores), len(scores))
               for name in ("novelty", "reasonableness")}
    return JudgeRow(judge=judge, scored=len(scores), histograms={k: tuple(v) for k, v in histograms.items()},
                    off_grid=off_grid, under=under, put_out=put_out)


def summarize_undercover(matches: Sequence[StoredMatch], registry: GameRegistry) -> UndercoverResults | None:
    """The tables' rows over ``matches`` (``None`` when there are none)."""
    if not matches:
        return None
    game = registry.get(GAME)
    seats: list[_Seat] = []
    scores: list[_Score] = []
    civilian_won: list[tuple[str, bool]] = []
    for match in matches:
        state: Any = state_from_events(game, match.spec, match.events)
        seats += _seats(match, state)
        scores += _scores(match, state)
        civilian_won.append((str(match.spec.setup.get("pair", {}).get("category", "?")),
                             match.outcome.winning_team == CIVILIAN))
    civilian_wins = Rate.of(sum(won for _, won in civilian_won), len(civilian_won))
    rows: list[SideRow] = []
    for model in sorted({seat.model for seat in seats}):
        mine = [seat for seat in seats if seat.model == model]
        for side in (CIVILIAN, UNDERCOVER):
            held = [seat for seat in mine if seat.side == side]
            if held:
                rows.append(_side_row(model, side, held, civilian_wins.value))
        rows.append(_side_row(model, ALL, mine, civilian_wins.value))
    by_judge: dict[str, list[_Score]] = defaultdict(list)
    for score in scores:
        by_judge[score.judge].append(score)
    categories: list[CategoryRow] = []
    for category in sorted({name for name, _ in civilian_won}):
        outcomes = [won for name, won in civilian_won if name == category]
        categories.append(CategoryRow(category=category, model=None, wins=Rate.of(sum(outcomes), len(outcomes))))
        held = [seat for seat in seats if seat.category == category]
        for model in sorted({seat.model for seat in held}):
            theirs = [seat for seat in held if seat.model == model]
            categories.append(CategoryRow(category=category, model=model,
                                          wins=Rate.of(sum(seat.won for seat in theirs), len(theirs))))
    return UndercoverResults(
        matches=len(matches), civilian_wins=civilian_wins, rows=tuple(rows),
        judges=tuple(_judge_row(judge, by_judge[judge]) for judge in sorted(by_judge)),
        categories=tuple(categories))


def undercover_results(store: Store, run_ids: Sequence[str], registry: GameRegistry) -> UndercoverResults | None:
    """The runs' Undercover results (``None`` when they hold no finished Undercover match)."""
    return summarize_undercover(stored_matches(store, run_ids), registry)


def bins_heading() -> tuple[str, ...]:
    """The histogram's column headings: ``0``, ``0.1``, ..., ``1``."""
    return tuple(f"{value:g}" for value in BINS)


CAPTION_SIDES = (
    "Per model and side, every seat it held in a finished match. Win: seats whose side won (a seat put out still "
    "wins with its side), with a Wilson 95% interval; run's rate: what those seats would win at this run's own side "
    "win rates (civilians won {civilian} of the {matches} matches), the observed reference, not a chance baseline. "
    "Survival, voting accuracy and the judges' mean scores: means over seats with a Student-t 95% interval over "
    "seats (clipped to [0, 1]); seats without the measure are left out of it. Put out by the judges and voted out: "
    "shares of seats with Wilson 95% intervals. Re-asks: refused replies; abstentions: votes refused until the "
    "re-asks ran out.")
CAPTION_JUDGES = (
    "Per judge model (every role bound as judge or judge#N): how often it gave each score. Under: its own scores "
    "under the match's threshold; put out: the statements it scored whose speaker the rules put out for that "
    "threshold (on the judges' mean when several judged).")


def sides_caption(results: UndercoverResults) -> str:
    share = results.civilian_wins.value
    return CAPTION_SIDES.format(civilian="n/a" if share is None else f"{share:.0%}", matches=results.matches)
