"""Outcome metrics per model: win rate with its 95% interval over matches, rounds, forfeits, what was not scored.

Rows are per evaluated seat (a table of players gives one row per seat, and a model that held two seats of a
match has two rows), and a seat's result is ``Outcome.result_for(seat)``: in games with teams, results are
grouped per team too (``summarize(rows, by_team=False)`` takes a model's teams together). A seat's own forfeit
counts as a loss in the win rate (even where its team went on to win) and is also reported on its own; seats that
are not scored are left out of the win rate, and counted by why (:func:`unscored_reason`).

The interval is over matches, the unit a run draws. Where each scored match gave the model one seat, it is the
Wilson interval of its wins over those matches; where the model held several seats of one table (Undercover's
civilians), the seats of a match share its fate and are no independent trials, so it is the cluster bootstrap of
``analysis.intervals.cluster_rate_interval`` (the matches resampled, seeded); ``match_rate_interval`` chooses, as
for a team game's side tables. Either way ``scored_matches`` is its n. The earlier form, GameArena Table 2's
standard deviation across system prompt variants, is gone: at two matches it read 0.50±0.50, and nothing else
needs it (``variants`` still counts the prompts seen). The win rate is ``None``, shown as "n/a", when nothing was
scored: it is unknown, not 0.

Average rounds are over the matches the rules finished (a forfeit in turn 1 is not a quick game), a match
counted once however many of its seats the model held, with a Student-t 95% interval over them; ``None`` when
there are none. The invalid-move rate is the evaluated model's rejected replies (format errors and rule
violations) per reply it gave, kept apart from losses.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from playeval.analysis.intervals import match_rate_interval, t_interval
from playeval.core.match import Outcome, SeatResult

OPPONENT_FORFEIT = "opponent forfeit"
"""Not scored: another seat ran out of re-asks, and the game ends on a forfeit."""
ROLE_FAILED = "role failed"
"""Not scored: the game master or another role (a judge) gave no usable reply, and the match was aborted."""
ABORTED = "aborted"
"""Not scored: the match was stopped from outside (a person left, it was abandoned)."""
NO_RESULT = "no result"
"""Not scored: the rules finished the match but gave this seat no result."""
UNSCORED_REASONS = (OPPONENT_FORFEIT, ROLE_FAILED, ABORTED, NO_RESULT)
"""Why a seat is not scored, in the order the tables list them."""

_ROLE_FAILURES = ("the game master", "(a role, not a player)")
"""What the reasons of a role's failure say: the engine's (``engine.step``: "the judge (a role, not a player) gave no
usable reply ...") and the guess-the-rule games' ("the game master wrote no rule ...", "the game master's part
failed ..."). Stored outcomes keep only their reason, so that is what tells a role's failure from an abort."""


def unscored_reason(outcome: Outcome, seat: str) -> str | None:
    """Why ``seat`` of a stored match is not scored (one of :data:`UNSCORED_REASONS`), ``None`` when it is."""
    if outcome.status == "aborted":
        reason = outcome.reason.lower()
        return ROLE_FAILED if any(part in reason for part in _ROLE_FAILURES) else ABORTED
    result = outcome.result_for(seat)
    if result.forfeited or result.won is not None:
        return None
    return OPPONENT_FORFEIT if outcome.status == "forfeit" else NO_RESULT


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

    @property
    def unscored(self) -> str | None:
        """Why the seat is not scored (:func:`unscored_reason`), ``None`` when it is."""
        return unscored_reason(self.outcome, self.seat)


def scored_win(outcome: Outcome, seat: str) -> bool | None:
    """``seat``'s result as every win rate and rating counts it: ``None`` when it is not scored (an aborted match
    scores nobody; another seat's forfeit leaves the others unscored), and its own forfeit is a loss."""
    if outcome.status == "aborted":
        return None
    result = outcome.result_for(seat)
    return False if result.forfeited else result.won


@dataclass(frozen=True)
class ModelResult:
    """One model (or baseline player, ``baseline/NAME``) on one game, and one team where the game has teams."""

    game: str
    model: str
    matches: int
    """Seats held: a model in three seats of one table counts three (``played`` counts the tables)."""
    wins: int
    win_rate: float | None
    """Wins over scored seats; ``None`` when none was scored."""
    variants: int
    """System prompt variants seen."""
    avg_rounds: float | None
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
    win_low: float | None = None
    win_high: float | None = None
    """The win rate's 95% interval over matches (see the module's note); ``None``s when nothing was scored."""
    scored_matches: int = 0
    """The interval's n: matches with a scored seat of the model."""
    clustered: bool = False
    """Some scored match gave the model several seats: the interval is the cluster bootstrap, not Wilson's."""
    rounds_low: float | None = None
    rounds_high: float | None = None
    """The average rounds' t 95% interval over the matches the rules finished (``None``s with fewer than two)."""
    played: int = 0
    """Matches the model held a seat of."""
    unscored: tuple[tuple[str, int], ...] = ()
    """Matches with a seat of the model that was not scored, by reason (:data:`UNSCORED_REASONS`, in that order)."""

    @property
    def unscored_matches(self) -> int:
        return sum(count for _, count in self.unscored)


def summarize(rows: Iterable[MatchRow], *, by_team: bool = True) -> list[ModelResult]:
    """One result per (game, model, team), or per (game, model) with ``by_team=False``, ordered by game then
    win rate (best first; nothing scored last)."""
    groups: dict[tuple[str, str, str | None], list[MatchRow]] = defaultdict(list)
    for row in rows:
        groups[(row.game, row.model, row.team if by_team else None)].append(row)
    results = [_summarize_group(game, model, team, group) for (game, model, team), group in groups.items()]
    return sorted(results, key=lambda r: (r.game, r.win_rate is None, -(r.win_rate or 0.0), r.model, r.team or ""))


def _match_keys(rows: Sequence[MatchRow]) -> list[str]:
    """Each row's match: its id, or a key of its own for a row that names none (taken as a match alone)."""
    return [row.match_id or f"row {index}" for index, row in enumerate(rows)]


def _summarize_group(game: str, model: str, team: str | None, rows: list[MatchRow]) -> ModelResult:
    keys = _match_keys(rows)
    opponent_forfeits = [r for r in rows if r.outcome.status == "forfeit" and r.won is None]
    scored = [r for r in rows if r.won is not None]
    wins = sum(1 for r in scored if r.won)
    per_match: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for key, row in zip(keys, rows, strict=True):
        if row.won is not None:
            per_match[key][0] += int(row.won)
            per_match[key][1] += 1
    clustered = any(seats > 1 for _, seats in per_match.values())
    low, high = match_rate_interval([(won, seats) for won, seats in per_match.values()])
    finished = {key: row.outcome.rounds for key, row in zip(keys, rows, strict=True)
                if row.won is not None and row.outcome.status == "finished"}
    rounds = list(finished.values())
    rounds_low, rounds_high = t_interval(rounds, bounds=(0.0, math.inf))
    unscored = Counter(reason for _, reason in {(key, row.unscored) for key, row in zip(keys, rows, strict=True)
                                                if row.unscored is not None})
    return ModelResult(
        game=game,
        model=model,
        matches=len(rows),
        wins=wins,
        win_rate=wins / len(scored) if scored else None,
        variants=len({row.variant for row in scored}),
        avg_rounds=statistics.fmean(rounds) if rounds else None,
        forfeits=sum(1 for r in rows if r.result.forfeited),
        opponent_forfeits=len(opponent_forfeits),
        tokens=sum(r.tokens for r in rows),
        seconds=sum(r.seconds for r in rows),
        invalid_move_rate=_rate(sum(r.rejected for r in rows), sum(r.replies for r in rows)),
        scored=len(scored),
        aborted=sum(1 for r in rows if r.outcome.status == "aborted"),
        team=team,
        score=statistics.fmean(scores) if (scores := [s for r in rows if (s := r.result.score) is not None]) else None,
        win_low=low,
        win_high=high,
        scored_matches=len(per_match),
        clustered=clustered,
        rounds_low=rounds_low,
        rounds_high=rounds_high,
        played=len(set(keys)),
        unscored=tuple((reason, unscored[reason]) for reason in UNSCORED_REASONS if unscored[reason]),
    )


def _rate(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


def overall_win_rates(results: Iterable[ModelResult]) -> dict[tuple[str, str], float]:
    """Per (game, model): the win rate over every scored seat the model held, whatever its team (the teams'
    wins over the teams' scored seats); a model with no scored seat on a game has no rate there."""
    wins: dict[tuple[str, str], int] = defaultdict(int)
    scored: dict[tuple[str, str], int] = defaultdict(int)
    for result in results:
        wins[(result.game, result.model)] += result.wins
        scored[(result.game, result.model)] += result.scored
    return {key: wins[key] / scored[key] for key in wins if scored[key]}


def scored_matches(rows: Iterable[MatchRow]) -> dict[tuple[str, str], int]:
    """Per (game, model): the matches in which the model held at least one scored seat. A model holding several
    seats of one table (Undercover) counts that table once, since its seats there are not independent trials; a
    row without a match id (built by hand) counts on its own."""
    seen: dict[tuple[str, str], set[str | int]] = defaultdict(set)
    for index, row in enumerate(rows):
        if row.won is not None:
            seen[(row.game, row.model)].add(row.match_id or index)
    return {key: len(matches) for key, matches in seen.items()}


def unscored_text(result: ModelResult) -> str:
    """``3 role failed`` or ``2 opponent forfeit, 1 aborted``; ``0`` when every match was scored."""
    return ", ".join(f"{count} {reason}" for reason, count in result.unscored) or "0"
