"""What a report shows, as plain frozen data: built from the store by ``report.build``, drawn by ``report.render``.

Every figure here was computed from recorded matches; rendering adds nothing but layout and plots. The rows are
the analysis's own (``analysis.ModelResult``, ``analysis.ProceduralSummary``, ``analysis.Profile``), and the
metrics and skills are the registered games' (``Game.metrics``, ``analysis.skills``): the report restates none
of them. Rates are fractions in [0, 1]; ``None`` means "no data" and is shown as "n/a", never as 0.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from playeval.analysis import ModelResult, ProceduralSummary, Profile
from playeval.analysis.cells import ResultTable
from playeval.analysis.leaderboard import Leaderboard
from playeval.analysis.load import ModelCost
from playeval.analysis.ratings import OrderCheck, RatedModel
from playeval.analysis.rule_games import RuleGameRow
from playeval.analysis.sides import SideResults
from playeval.core.info import MetricSpec, PlotKind, ScoreInfo, TeamAnalysis


def game_label(game: str) -> str:
    """A game's id as a name, for a game the report has no declared name for: ``word_chain`` -> ``Word chain``."""
    text = game.replace("_", " ").strip()
    return text[:1].upper() + text[1:] if text else game


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
    """One match's five-level retrospective judgements by round (1 = True ... 5 = False), as Bluffing's."""

    match_id: str
    model: str
    truth: bool
    levels: tuple[int, ...]
    won: bool | None
    """How the match went for the seat the analysis re-asked (``None``: not scored)."""
    game: str = ""


@dataclass(frozen=True)
class TeamReport:
    """A team game's analyses in the run, as the game declares them (``Game.teams``)."""

    game: str
    analysis: TeamAnalysis
    results: SideResults
    elo: tuple[RatedModel, ...] = ()
    """The team Elo with bootstrap intervals (``analysis.ratings``), where the game declares one."""
    order: OrderCheck | None = None
    """The Elo's forward-versus-reverse order check."""
    elo_resamples: int = 0


@dataclass(frozen=True)
class GameFacts:
    """What the report shows of a game as the game declares it: its name, its score's label, its plots."""

    name: str
    score: ScoreInfo | None = None
    plots: tuple[PlotKind, ...] = ()


@dataclass(frozen=True)
class RetroLine:
    """The retrospective output of one round: a ranked candidate list or a judgement."""

    round: int
    text: str
    """Readable form: "guitar, piano, drum" or "Possibly true: the answers are specific"."""
    hit: bool | None
    """Candidates: the list contains the secret; judgement: on the truth's side; None when unparsed."""


@dataclass(frozen=True)
class SeatLine:
    """One seat of a match: who held it and how the match went for it."""

    seat: str
    player: str
    """The model's address, or the kind of player ("scripted", "human")."""
    evaluated: bool
    """The match counts for this seat's model."""
    result: str
    """Short label: "win", "loss", "draw", "forfeit", "opp. forfeit", "aborted"."""
    team: str | None = None
    score: str | None = None
    """The game's own per-seat number with its label ("check accuracy: 80%"), where the game gives one."""
    variant: int | None = None
    out: str | None = None
    """When and why the seat left a game that eliminates players ("round 2: voted out with 3 votes")."""


@dataclass(frozen=True)
class TranscriptPage:
    """One match, for a page of its own."""

    match_id: str
    game: str
    level: int
    seats: tuple[SeatLine, ...]
    """Every seat of the table, in order."""
    secret: str
    """Shown in the report: the match is over (Bluffing: "true" or "false", with the statement)."""
    outcome: str
    """Short label: with one evaluated seat its result ("win", "loss", "forfeit", "opp. forfeit", "aborted",
    "draw"); with several the match's ("red won", "north, east won", "draw", "forfeit", "aborted")."""
    reason: str
    rounds: int
    lines: tuple[tuple[str, str], ...]
    """(seat, text) in order, as ``Game.transcript`` gives them."""
    retro: tuple[RetroLine, ...] = ()
    name: str = ""
    """The game's declared name (``Presentation.name``)."""

    @property
    def evaluated(self) -> tuple[SeatLine, ...]:
        return tuple(seat for seat in self.seats if seat.evaluated)

    @property
    def model(self) -> str:
        """The evaluated seats' players: the one player, or each player with the seats it held
        ("mock/a (north, south), mock/b (east, west)")."""
        evaluated = self.evaluated
        if len(evaluated) == 1:
            return evaluated[0].player
        held: dict[str, list[str]] = {}
        for seat in evaluated:
            held.setdefault(seat.player, []).append(seat.seat)
        return ", ".join(f"{player} ({', '.join(seats)})" for player, seats in held.items()) or "?"

    @property
    def opponent(self) -> str:
        """The other seats' players, each named once ("" when every seat is evaluated)."""
        return ", ".join(dict.fromkeys(seat.player for seat in self.seats if not seat.evaluated))

    @property
    def variant(self) -> int | None:
        """The prompt variant of the one evaluated seat (``None`` with several)."""
        evaluated = self.evaluated
        return evaluated[0].variant if len(evaluated) == 1 else None

    @property
    def teams(self) -> bool:
        return any(seat.team is not None for seat in self.seats)


@dataclass(frozen=True)
class ReportData:
    run_id: str
    title: str
    created: str
    """When the run was created, ISO 8601 UTC."""
    config: dict[str, object]
    """The run's stored configuration (games, level, models, opponent, n, seed, temperature ...)."""
    outcomes: tuple[ModelResult, ...]
    """Table 2's form: one per game, model and team (``analysis.summarize``)."""
    procedural: tuple[ProceduralSummary, ...]
    """Table 3's form: one per game and model (``analysis.summarize_procedural``)."""
    metric_specs: Mapping[str, tuple[MetricSpec, ...]]
    """Each game's procedural metrics, as the game declares them (``Game.metrics``)."""
    skills: tuple[str, ...]
    """The reasoning skills the registered games measure, in order (``analysis.skills``)."""
    recall_curves: tuple[RecallCurve, ...]
    trajectories: tuple[Trajectory, ...]
    profiles: tuple[Profile, ...]
    transcripts: tuple[TranscriptPage, ...]
    notes: tuple[str, ...] = field(default_factory=tuple)
    rule_games: tuple[RuleGameRow, ...] = ()
    """GuessTheRuleBench's Table 2, extended: one per guess-the-rule game, level and model
    (``analysis.rule_games``)."""
    teams: tuple[TeamReport, ...] = ()
    """Each team game's side tables, category rates, own tables and team Elo (``analysis.sides``)."""
    verdicts: tuple[ResultTable, ...] = ()
    """Each two-sided verdict game's accuracy beside its balanced accuracy (``analysis.verdict_accuracy``)."""
    games: Mapping[str, GameFacts] = field(default_factory=dict)
    """Per game of the run: its declared name, score label and plots (a game missing here is named by its id)."""
    costs: tuple[ModelCost, ...] = ()
    """Tokens and cost per model over every call of the run, then the run's total (``analysis.load.run_costs``)."""
    leaderboard: Leaderboard | None = None
    """The run's ratings per board and overall, chance and people beside them (``analysis.leaderboard``);
    ``None`` when nothing was scored."""

    def name_of(self, game: str) -> str:
        """The game's declared name (``Presentation.name``), or its id as a name."""
        facts = self.games.get(game)
        return facts.name if facts is not None else game_label(game)
    """Caveats to print under the tables (e.g. "retrospective analysis not run for 3 matches")."""
