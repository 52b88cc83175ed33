"""Outcome metrics per model: win rate with its spread across prompt variants, rounds, forfeits, cost.

Rows are per evaluated seat (a table of players gives one row per seat, and a model that held two seats of a
match has two rows), and a seat's result is ``Outcome.result_for(seat)``: in games with teams, results are
grouped per team too (``summarize(rows, by_team=False)`` takes a model's teams together). The spread follows
GameArena's Table 2: the win rate is computed per system prompt variant, and the standard deviation
(population, ddof=0) is taken over the variants that occurred. A seat's own forfeit counts as a loss in the
win rate (even where its team went on to win) and is also reported on its own; seats that are not scored (an
aborted match, another seat's forfeit) are left out of the win rate. Average rounds are over the matches the
rules finished (a forfeit in turn 1 is not a quick game); ``None`` when there are none. The invalid-move rate
is the evaluated model's rejected replies (format errors and rule violations) per reply it gave, kept apart
from losses.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from playeval.core.match import Outcome, SeatResult


@dataclass(frozen=True)
class MatchRow:
    """One finished match seen from one of its evaluated seats."""

    game: str
    level: int
    model: str
    seat: str
    variant: int | None
    outcome: Outcome
    tokens: int
    seconds: float
    replies: int = 0
    """Replies the evaluated seat gave, re-asks included."""
    rejected: int = 0
    """Of those, replies rejected as a format error or a rule violation."""
    match_id: str = ""

    @property
    def result(self) -> SeatResult:
        return self.outcome.result_for(self.seat)

    @property
    def team(self) -> str | None:
        return self.result.team

    @property
    def won(self) -> bool | None:
        """The seat's result as the win rate counts it (:func:`scored_win`)."""
        return scored_win(self.outcome, self.seat)


def scored_win(outcome: Outcome, seat: str) -> bool | None:
    """``seat``'s result as every win rate and rating counts it: ``None`` when it is not scored (an aborted match
    scores nobody; another seat's forfeit leaves the others unscored), and its own forfeit is a loss."""
    if outcome.status == "aborted":
        return None
    result = outcome.result_for(seat)
    return False if result.forfeited else result.won


@dataclass(frozen=True)
class ModelResult:
    """One model on one game (and one team, where the game has teams), Table 2's form."""

    game: str
    model: str
    matches: int
    wins: int
    win_rate: float
    win_rate_std: float
    variants: int
    avg_rounds: float | None
    avg_rounds_std: float | None
    forfeits: int
    opponent_forfeits: int
    tokens: int
    seconds: float
    invalid_move_rate: float = 0.0
    scored: int = 0
    """Seats counted in the win rate: all but those of aborted matches and of matches another seat forfeited."""
    aborted: int = 0
    team: str | None = None
    """The team the model played for (``None`` in a game without teams, or with ``by_team=False``)."""
    score: float | None = None
    """The mean of the game's own per-seat number (``SeatResult.score``) over the seats that have one."""


def _std(values: Sequence[float]) -> float:
    return statistics.pstdev(values) if len(values) > 1 else 0.0


def summarize(rows: Iterable[MatchRow], *, by_team: bool = True) -> list[ModelResult]:
    """One result per (game, model, team), or per (game, model) with ``by_team=False``, ordered by game then
    win rate (best first)."""
    groups: dict[tuple[str, str, str | None], list[MatchRow]] = defaultdict(list)
    for row in rows:
        groups[(row.game, row.model, row.team if by_team else None)].append(row)
    results = [_summarize_group(game, model, team, group) for (game, model, team), group in groups.items()]
    return sorted(results, key=lambda r: (r.game, -r.win_rate, r.model, r.team or ""))


def _summarize_group(game: str, model: str, team: str | None, rows: list[MatchRow]) -> ModelResult:
    opponent_forfeits = [r for r in rows if r.outcome.status == "forfeit" and r.won is None]
    scored = [r for r in rows if r.won is not None]
    wins = sum(1 for r in scored if r.won)
    by_variant: dict[int | None, list[MatchRow]] = defaultdict(list)
    for row in scored:
        by_variant[row.variant].append(row)
    variant_rates = [sum(1 for r in group if r.won) / len(group) for group in by_variant.values()]
    played = [r for r in scored if r.outcome.status == "finished"]
    rounds_by_variant: dict[int | None, list[int]] = defaultdict(list)
    for row in played:
        rounds_by_variant[row.variant].append(row.outcome.rounds)
    variant_rounds = [statistics.fmean(rounds) for rounds in rounds_by_variant.values()]
    return ModelResult(
        game=game,
        model=model,
        matches=len(rows),
        wins=wins,
        win_rate=wins / len(scored) if scored else 0.0,
        win_rate_std=_std(variant_rates),
        variants=len(by_variant),
        avg_rounds=statistics.fmean(r.outcome.rounds for r in played) if played else None,
        avg_rounds_std=_std(variant_rounds) if played else None,
        forfeits=sum(1 for r in rows if r.result.forfeited),
        opponent_forfeits=len(opponent_forfeits),
        tokens=sum(r.tokens for r in rows),
        seconds=sum(r.seconds for r in rows),
        invalid_move_rate=_rate(sum(r.rejected for r in rows), sum(r.replies for r in rows)),
        scored=len(scored),
        aborted=sum(1 for r in rows if r.outcome.status == "aborted"),
        team=team,
        score=statistics.fmean(scores) if (scores := [s for r in rows if (s := r.result.score) is not None]) else None,
    )


def _rate(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


def overall_win_rates(results: Iterable[ModelResult]) -> dict[tuple[str, str], float]:
    """Per (game, model): the win rate over every scored seat the model held, whatever its team (the teams'
    wins over the teams' scored seats; 0.0 when none was scored)."""
    wins: dict[tuple[str, str], int] = defaultdict(int)
    scored: dict[tuple[str, str], int] = defaultdict(int)
    for result in results:
        wins[(result.game, result.model)] += result.wins
        scored[(result.game, result.model)] += result.scored
    return {key: _rate(wins[key], scored[key]) for key in wins}


def scored_matches(rows: Iterable[MatchRow]) -> dict[tuple[str, str], int]:
    """Per (game, model): the matches in which the model held at least one scored seat. A model holding several
    seats of one table (Undercover) counts that table once, since its seats there are not independent trials; a
    row without a match id (built by hand) counts on its own."""
    seen: dict[tuple[str, str], set[str | int]] = defaultdict(set)
    for index, row in enumerate(rows):
        if row.won is not None:
            seen[(row.game, row.model)].add(row.match_id or index)
    return {key: len(matches) for key, matches in seen.items()}
