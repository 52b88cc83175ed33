"""The shapes that leave the server: every JSON body of the arena's API is one of these models.

A ``MatchView`` is built for one viewer (``web.present``) and holds only what that viewer may see.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

ViewStatus = Literal["your_turn", "thinking", "finished", "watching"]
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
    seat: str
    label: str
    is_you: bool
    model: str | None
    """``None`` while the opponent is anonymous and the match is live (and for a person's seat)."""


class LineView(_View):
    seat: str
    label: str
    text: str


class TurnView(_View):
    """The viewer's own ask, when it is their move."""

    seat: str
    kind: str
    display: str
    instructions: str
    choices: list[str] | None
    max_chars: int | None


class OutcomeView(_View):
    status: str
    winner: str | None
    reason: str
    rounds: int
    you_won: bool | None


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
    turn: TurnView | None
    rejected: str | None
    outcome: OutcomeView | None
    secret: str | None
    survey_open: bool
    token: str | None = None


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
    outcome: OutcomeView | None
    secret: str | None
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


class InputView(_View):
    key: str
    prompt: str
    hidden: bool
    choices: list[str] | None
    max_chars: int


class GameSeatView(_View):
    seat: str
    role: str
    evaluated: bool


class GameInfo(_View):
    id: str
    title: str
    levels: list[LevelView]
    person_seat: str
    person_inputs: list[InputView]
    max_clue_chars: int | None
    seats: list[GameSeatView]


class ModelsView(_View):
    models: list[str]
    default: str


class SurveyView(_View):
    match_id: str
    enjoyment: int
    satisfaction: int
    frequency: int


class _Record(_View):
    """Outcomes of one player (a model, or people in a seat) on one game or all: a Wilson 95% interval."""

    game: str
    matches: int
    scored: int
    """Matches counted in the win rate (aborted ones and the opponent's forfeits are left out)."""
    wins: int
    win_rate: float | None
    ci_low: float | None
    ci_high: float | None
    avg_rounds: float | None


class ModelRow(_Record):
    """One model on one game (or on all games), with its procedural metrics."""

    model: str
    forfeits: int
    metrics: dict[str, float | None]


class PeopleRow(_Record):
    """People in one seat of one game, taken together."""

    seat: str
    abandoned: int


class LeaderboardView(_View):
    game: str
    source: str
    rows: list[ModelRow]
    people: list[PeopleRow]


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
