"""What a report shows, as plain frozen data: built from the store by ``report.build``, drawn by ``report.render``.

Every figure here was computed from recorded matches; rendering adds nothing but layout and plots.
Rates are fractions in [0, 1]; ``None`` means "no data" and is shown as "n/a", never as 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field

SKILLS: tuple[str, ...] = ("deductive", "abductive", "inductive", "multi-hop")


@dataclass(frozen=True)
class OutcomeRow:
    """Table 2's form: one model on one game."""

    game: str
    model: str
    matches: int
    wins: int
    win_rate: float
    win_rate_std: float
    """Standard deviation of the win rate across the system prompt variants that occurred."""
    variants: int
    avg_rounds: float | None
    avg_rounds_std: float | None
    forfeits: int
    """Matches this model forfeited (ran out of re-asks); counted as losses in ``win_rate``, shown apart."""
    invalid_move_rate: float
    """Rejected replies of this model per reply it gave (format errors and rule violations)."""


@dataclass(frozen=True)
class MetricValue:
    """One procedural metric of one model on one game (Table 3's form)."""

    name: str
    """Metric key, e.g. ``recall_rate``, ``top5_recall_rate``, ``disparity_ratio``, ``first_appear_round``."""
    label: str
    """Column heading, e.g. "Recall rate (%)"."""
    value: float | None
    percent: bool
    """Show ``value * 100`` with a % heading."""
    lower_is_better: bool
    skill: str
    """One of ``SKILLS``: the reasoning skill the paper maps this metric to (Table 1)."""


@dataclass(frozen=True)
class ProceduralRow:
    game: str
    model: str
    matches: int
    """Matches with retrospective data behind these values."""
    metrics: tuple[MetricValue, ...]


@dataclass(frozen=True)
class RecallPoint:
    round: int
    recall: float
    """Fraction of this model's matches whose candidate list at this round contains the secret."""
    matches: int
    """Matches that reached this round (the denominator)."""


@dataclass(frozen=True)
class RecallCurve:
    """Akinator or Taboo: recall of the secret by round, for one model."""

    game: str
    model: str
    points: tuple[RecallPoint, ...]


@dataclass(frozen=True)
class Trajectory:
    """Bluffing: one match's five-level judgements by round (1 = True ... 5 = False)."""

    match_id: str
    model: str
    truth: bool
    levels: tuple[int, ...]
    won: bool | None


@dataclass(frozen=True)
class SkillScore:
    skill: str
    """One of ``SKILLS``."""
    rank: float | None
    """Mean rank of the model among the run's models over this skill's metrics (1 = best); None without data."""
    metrics: tuple[tuple[str, str, float | None], ...]
    """(game, metric label, value) behind the rank, as in Table 1."""


@dataclass(frozen=True)
class CapabilityProfile:
    model: str
    skills: tuple[SkillScore, ...]


@dataclass(frozen=True)
class RetroLine:
    """The retrospective output of one round: a ranked candidate list or a judgement."""

    round: int
    text: str
    """Readable form: "guitar, piano, drum" or "Possibly true: the answers are specific"."""
    hit: bool | None
    """Candidates: the list contains the secret; judgement: on the truth's side; None when unparsed."""


@dataclass(frozen=True)
class TranscriptPage:
    """One match, for a page of its own."""

    match_id: str
    game: str
    level: int
    model: str
    opponent: str
    variant: int | None
    secret: str
    """Shown in the report: the match is over (Bluffing: "true" or "false", with the statement)."""
    outcome: str
    """Short label: "win", "loss", "forfeit", "opp. forfeit", "aborted"."""
    reason: str
    rounds: int
    lines: tuple[tuple[str, str], ...]
    """(seat, text) in order, as ``Game.transcript`` gives them."""
    retro: tuple[RetroLine, ...] = ()


@dataclass(frozen=True)
class ReportData:
    run_id: str
    title: str
    created: str
    """When the run was created, ISO 8601 UTC."""
    config: dict[str, object]
    """The run's stored configuration (games, level, models, opponent, n, seed, temperature ...)."""
    outcomes: tuple[OutcomeRow, ...]
    procedural: tuple[ProceduralRow, ...]
    recall_curves: tuple[RecallCurve, ...]
    trajectories: tuple[Trajectory, ...]
    profiles: tuple[CapabilityProfile, ...]
    transcripts: tuple[TranscriptPage, ...]
    notes: tuple[str, ...] = field(default_factory=tuple)
    """Caveats to print under the tables (e.g. "retrospective analysis not run for 3 matches")."""
