"""The shapes that leave the server: every JSON body of the arena's API is one of these models.

A ``MatchView`` is built for one viewer (``web.present``) and holds only what that viewer may see.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from playeval.core.info import Scalar
from playeval.core.panel import MoveForm, PanelCounter, PanelList

ViewStatus = Literal["your_turn", "thinking", "waiting", "left", "finished", "watching"]
"""``your_turn``: the viewer has an open ask. ``thinking``: a model (or a role) is moving. ``waiting``: other
people are to move (or to join). ``left``: a model plays the viewer's seat now (they left or ran out of time).
``watching``: a public view of a live model-vs-model match. ``finished``: the match is over."""
Mode = Literal["play", "watch"]
ReplayMode = Literal["play", "watch", "batch"]


class _View(BaseModel):
    model_config = ConfigDict(frozen=True)


class ErrorView(_View):
    """Every error: a clear message for a person."""

    detail: str


class RejectedMove(_View):
    """A 422 for a move: the reason. When the rules refused a well-formed move, ``seq`` is the log's seq after
    the refusal was recorded (a malformed request has no ``seq``)."""

    detail: str
    seq: int | None = None


class SeatView(_View):
    """A player at the table. ``label``: "You", "Person", or the model (hidden while the match is anonymous and
    live). ``person``: a person holds the seat now; ``joined``: that person has come to the table (``None``
    for a model's seat); ``taken_over``: a model took the seat over from its person."""

    seat: str
    label: str
    is_you: bool
    model: str | None
    """``None`` while the models are anonymous and the match is live (and for a person's seat)."""
    person: bool = False
    joined: bool | None = None
    taken_over: bool = False


class LineView(_View):
    seat: str
    label: str
    text: str


class TurnView(_View):
    """One of the viewer's own open asks: to their seat, or to a role bound to their seat (``role``)."""

    seat: str
    role: str | None
    party: str
    kind: str
    display: str
    instructions: str
    choices: list[str] | None
    max_chars: int | None
    """The longest reply the rules take (``None``: the reply is one of ``choices``, or the game sets no limit)."""
    one_line: bool


class HeldView(_View):
    """A hidden part the viewer holds, while the match is played (``core.info.LiveDisclosure``): ``label`` is
    what its holder reads ("Your word"). Nothing else of it is shown before the end."""

    key: str
    value: str
    label: str


class DisclosureView(HeldView):
    """A hidden part revealed once the match is over: ``revealed_label`` is what everyone reads then, ``seats``
    who held it, ``yours`` whether the viewer did."""

    revealed_label: str
    seats: list[str]
    yours: bool


class SeatResultView(_View):
    """How the match went for one seat (``won`` is ``None`` when the seat's match is not scored)."""

    seat: str
    label: str
    team: str | None
    won: bool | None
    placement: int | None
    eliminated_round: int | None
    elimination: str | None
    score: float | None
    forfeited: bool
    score_text: str | None = None
    """The score as the game labels it ("team points: 2 points"), where the game gives one."""


class OutcomeView(_View):
    status: str
    winners: list[str]
    winning_team: str | None
    winner: str | None
    """The one winning seat, when there is exactly one."""
    reason: str
    rounds: int
    you_won: bool | None
    results: list[SeatResultView]


class InviteView(_View):
    """A join link for a person's seat, given once, to the person who set the table up. The seat's token is in
    the link's fragment, which a browser never sends to the server."""

    seat: str
    url: str


class ClockView(_View):
    """The match's elapsed time: ``elapsed_s`` when the view was built; ``running`` while the match is live (a
    page adds the time since it received the view, so the clocks of server and browser need not agree)."""

    label: str
    elapsed_s: float
    running: bool


class PanelView(_View):
    """The game's own structured view for this viewer (``Game.panel``): titled lists, counters, the clock, and
    the forms for the viewer's open asks only."""

    lists: list[PanelList]
    counters: list[PanelCounter]
    forms: list[MoveForm]
    clock: ClockView | None


class MatchView(_View):
    id: str
    game: str
    title: str
    level: int
    mode: Mode
    seq: int
    status: ViewStatus
    you: str | None
    seats: list[SeatView]
    transcript: list[LineView]
    turns: list[TurnView]
    turn: TurnView | None
    """The first of ``turns`` (most tables ask a person one thing at a time)."""
    rejected: str | None
    waiting_for: list[str]
    """The people's seats whose moves are awaited now (the viewer's own aside)."""
    awaited: list[str] = []
    """Every seat or role, person or model, with an open ask now, in table order (the viewer's own aside): who
    the table waits for. Who is still to move is public; what anyone answered in a phase still open is not."""
    recorded: str | None = None
    """The kind of move ("vote") the viewer has made in a phase the others are still answering (a secret vote
    open to every seat at once): the page says it is recorded while it waits for them."""
    disclosures: list[DisclosureView | HeldView]
    """The viewer's own hidden parts while the match is played (``HeldView``); all of them at the end."""
    outcome: OutcomeView | None
    survey_open: bool
    panel: PanelView | None = None
    """The game's structured view (``None`` for a game without one)."""
    token: str | None = None
    invites: list[InviteView] | None = None


class CheckView(_View):
    """A reply checked against the viewer's open ask by the game's rules, without recording anything."""

    ok: bool
    error: Literal["format", "rule"] | None
    reason: str | None


class RetroView(_View):
    """One stored retrospective output of a round."""

    round: int
    kind: str
    model: str
    output: Any | None
    error: str | None


class ReplayView(_View):
    """A finished (or publicly watched) match, for its permanent page: the public view and the analysis."""

    id: str
    game: str
    title: str
    level: int
    mode: ReplayMode
    seq: int
    status: ViewStatus
    seats: list[SeatView]
    transcript: list[LineView]
    disclosures: list[DisclosureView | HeldView]
    """The viewer's own hidden parts while the match is played (``HeldView``); all of them at the end."""
    outcome: OutcomeView | None
    retro: list[RetroView]
    created_at: datetime
    ended_at: datetime | None


class MatchSummary(_View):
    id: str
    game: str
    title: str
    level: int
    mode: Mode
    status: Literal["live", "finished"]
    seats: list[SeatView]
    outcome: OutcomeView | None
    created_at: datetime
    ended_at: datetime | None


class LevelView(_View):
    level: int
    description: str


class OptionView(_View):
    """A setting the person who sets the table up may choose (a whole number, a number, true/false or a choice)."""

    name: str
    description: str
    default: Scalar
    minimum: float | None
    maximum: float | None
    choices: list[str] | None
    seat_count: bool = False
    """The option sets how many seats the table has: the first N of the game's seats."""


class InputView(_View):
    """What a person in ``seat`` provides before the match (checked by ``core.inputs.check_inputs``)."""

    key: str
    prompt: str
    seat: str
    hidden: bool
    choices: list[str] | None
    required: bool
    max_chars: int


class GameSeatView(_View):
    seat: str
    role: str
    evaluated: bool
    person: bool


class RoleView(_View):
    """A part of the game that is not a player (a judge): a model plays it, or the person in the seat it is
    bound to."""

    role: str
    does: str


class BaselineView(_View):
    """A baseline player of known character the game provides (``core.baselines``): ``address`` is the model address
    a run plays it under (``baseline/random``), ``description`` how it plays."""

    name: str
    address: str
    description: str


class GameInfo(_View):
    """A game as the arena presents it, in the game's own words (its ``presentation``)."""

    id: str
    title: str
    name: str
    tagline: str
    pitch: str
    how: list[str]
    levels: list[LevelView]
    options: list[OptionView]
    seats: list[GameSeatView]
    roles: list[RoleView]
    person_seat: str
    person_inputs: list[InputView]
    baselines: list[BaselineView]
    """The baseline players the game provides (none for a game that declares none)."""
    split_sets: list[str] | None
    """The game's two secret sets that share no secret, for a held-out comparison (``None``: none offered)."""


class ModelTiming(_View):
    """How long a model's move takes on this machine, measured: the median of its latest calls stored here
    (``moves`` of them), or ``None`` while none is; ``model`` is ``web.timings.POOLED`` for one figure over all
    the models offered."""

    model: str
    median_s: float | None
    moves: int


class ModelsView(_View):
    models: list[str]
    default: str
    timings: list[ModelTiming] = []
    """The one model's figure, or one figure pooled over the models when several are offered
    (``web.timings.arena_timings``)."""


class SurveyView(_View):
    match_id: str
    enjoyment: int
    satisfaction: int
    frequency: int


class _Record(_View):
    """Outcomes of one player (a model, or people in a seat) on one board or all: the win rate over seats, with its
    95% interval over matches (``analysis.intervals.match_rate_interval``, as ``playeval results``)."""

    game: str
    matches: int
    """Matches the player held a seat of (several seats of one match count once)."""
    scored: int
    """Seats counted in the win rate (aborted matches and the opponent's forfeits are left out)."""
    wins: int
    """Of those seats, the ones won."""
    win_rate: float | None
    ci_low: float | None
    ci_high: float | None
    avg_rounds: float | None
    n: int = 0
    """Scored matches: the interval's n (``scored`` counts their seats, more where the player held several)."""
    clustered: bool = False
    """Some scored match gave the player several seats of its table: the interval is a cluster bootstrap over
    matches, not Wilson's."""


class ModelRow(_Record):
    """One model on one board (a game and configuration) or on all games, with its procedural metrics."""

    model: str
    forfeits: int
    metrics: dict[str, float | None]
    board: str = ""
    """The board's name ("taboo L1 [scoring=guess]"); ``all`` on the all-games row."""


class PeopleRow(_Record):
    """People in one seat of one board, taken together."""

    seat: str
    abandoned: int
    board: str = ""


class RatingRow(_View):
    """A player's Bradley-Terry rating on a board or overall, with its bootstrap 95% interval over matches."""

    model: str
    rating: float
    low: float
    high: float
    matches: int
    rank: int
    """1 plus the players whose interval lies wholly above this one's: players that cannot be told apart share it."""
    tied: bool
    """The interval overlaps another player's: shown as a tie."""


class RateRow(_View):
    """A model's or baseline's win rate on a board, with its 95% interval over ``n`` matches."""

    player: str
    baseline: bool
    rate: float
    low: float
    high: float
    n: int
    seats: int
    """Scored seats in those matches (more than ``n`` where the player held several seats of a table)."""
    clustered: bool
    """The interval is a cluster bootstrap over matches (several seats of a table), not Wilson's."""
    chance: str | None
    """A model's verdict against the random baseline on this board (``analysis.chance.interval_verdict``, as
    ``playeval results``): ``above chance``, ``not above chance`` (the intervals overlap) or ``below chance``;
    ``None`` for a baseline, or where the board has no random baseline."""
    not_above_chance: bool
    """A model not above chance on this board: its interval overlaps the random baseline's, or lies wholly below
    it (``chance`` says which)."""


class TeamEloRow(_View):
    """A model's CK-Arena team Elo on a team game's board (``analysis.ratings.elo_intervals``, as ``playeval
    leaderboard`` and ``playeval analyze elo``): ratings start at 0, with a bootstrap 95% interval over games."""

    model: str
    rating: float
    low: float
    high: float
    games: int


class PeopleRateRow(_View):
    """People's seat of a board, pooled over people, from the arena: never rated."""

    label: str
    seat: str
    rate: float
    low: float
    high: float
    n: int


class BoardView(_View):
    """One board: a game and the configuration its matches were played under."""

    board: str
    game: str
    level: int
    matches: int
    rated: int
    ratings: list[RatingRow]
    baselines: list[RatingRow]
    rates: list[RateRow]
    people: list[PeopleRateRow]
    team_elo: list[TeamEloRow] = []
    """CK-Arena's team Elo, for a game that declares one (Undercover): its own column, beside the ratings."""


class LeaderboardView(_View):
    game: str
    source: str
    """Whose matches the models' ratings and win rates count (``web.tallies.Source``): ``batch`` (the runs', as
    ``playeval leaderboard``: the default), ``live`` (outside runs: the arena and the terminal) or ``all``.
    People's rows count every match people played, whatever the source."""
    counted: str = ""
    """``source`` in words, for a reader: "run matches", "arena matches", "run and arena matches"."""
    rows: list[ModelRow]
    people: list[PeopleRow]
    overall: list[RatingRow] = []
    """The models' ratings over the boards shown, each game weighing the same (its boards sharing its weight)."""
    overall_baselines: list[RatingRow] = []
    boards: list[BoardView] = []
    copies: int = 0
    """Stored matches left out as copies of a match an earlier run played."""
    notes: list[str] = []


class GameStats(_View):
    started: int
    finished: int
    useful_session_rate: float | None


class StatsView(_View):
    """Sessions people played in the arena: how many ended with an outcome, and what the surveys said."""

    matches_started: int
    matches_finished: int
    useful_session_rate: float | None
    by_game: dict[str, GameStats]
    surveys: int
    survey_distributions: dict[str, dict[str, int]]
