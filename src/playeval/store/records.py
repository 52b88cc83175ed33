"""The frozen records the store hands out; ORM rows never leave the store."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from playeval.core.ask import CallRecord
from playeval.core.events import Event, RoleAssignment, SeatAssignment
from playeval.core.match import MatchSpec, Outcome
from playeval.core.work import WorkTotals

RunStatus = Literal["running", "finished", "interrupted"]
RetroOutputKind = str
"""A retrospective output's kind: ``candidates``, ``judgement``, ``split`` or one a game declares."""
MatchStatus = Literal["running", "finished", "interrupted"]
"""``interrupted``: a run stopped and left the match unfinished (``MatchRecord.stop_reason`` says why)."""


class RunRecord(BaseModel):
    """A batch run: its settings and how far it got."""

    model_config = ConfigDict(frozen=True)

    id: str
    created_at: datetime
    game: str
    level: int
    config: dict[str, Any] = Field(default_factory=dict)
    status: RunStatus


class MatchRecord(BaseModel):
    """One match's row: what it was, who sat where, how it ended."""

    model_config = ConfigDict(frozen=True)

    id: str
    run_id: str | None
    match_index: int | None
    game: str
    level: int
    seed: int
    spec: MatchSpec
    seats: tuple[SeatAssignment, ...]
    roles: tuple[RoleAssignment, ...] = ()
    status: MatchStatus
    outcome: Outcome | None
    evaluated_model: str | None
    created_at: datetime
    ended_at: datetime | None
    stop_reason: str | None = None
    """Why the match was left ``interrupted`` (``None`` otherwise)."""


class EventRecord(BaseModel):
    """One event of a match's log, with its place in the log."""

    model_config = ConfigDict(frozen=True)

    seq: int
    type: str
    schema_version: int
    created_at: datetime
    event: Event


class CallTotals(BaseModel):
    """One model's stored calls in a run, summed: ``priced_cost_usd`` over the calls with a price, and how many
    fresh (not cached) calls had none; ``work``: the work figures of the calls that reported them."""

    model_config = ConfigDict(frozen=True)

    model: str
    calls: int
    cached_calls: int
    prompt_tokens: int
    completion_tokens: int
    priced_cost_usd: float
    unpriced_calls: int
    work: WorkTotals = WorkTotals()


class CallRow(CallRecord):
    """One stored model call: the wrapper's record plus where it belongs and how its reply was read."""

    model_config = ConfigDict(frozen=True)

    id: int
    match_id: str | None
    seat: str | None
    role: str | None = None
    parsed: str | None
    error: str | None
    created_at: datetime

    def to_call_record(self) -> CallRecord:
        """The call as the model wrapper produced it (without id, place and parse result)."""
        return CallRecord.model_validate(self.model_dump(include=set(CallRecord.model_fields)))


class RetroRecord(BaseModel):
    """One stored retrospective-analysis output: what was asked of which model for which round, and the result.

    ``output`` is the parsed result (candidates: a list of names; judgement: ``{"level", "reason"}``;
    split: ``{"question", "objects", "answers"}``), or ``None`` with ``error`` when it could not be read.
    """

    model_config = ConfigDict(frozen=True)

    match_id: str
    round: int
    kind: RetroOutputKind
    model: str
    output: Any | None
    error: str | None
    call_ids: tuple[int, ...]
    created_at: datetime


WebMode = Literal["play", "watch"]


class WebSeatRecord(BaseModel):
    """A person's seat at an arena table: the hash of its token, when they joined and when they left."""

    model_config = ConfigDict(frozen=True)

    seat: str
    token_sha256: str | None
    joined_at: datetime | None
    left_at: datetime | None


class WebMatchRecord(BaseModel):
    """The arena's facts about a match: its mode, the people's seats, the stand-in model and the model lease."""

    model_config = ConfigDict(frozen=True)

    match_id: str
    mode: WebMode
    anonymous: bool
    created_at: datetime
    lease_owner: str | None
    lease_until: datetime | None
    stand_in: str | None = None
    people: tuple[WebSeatRecord, ...] = ()

    @property
    def person_seats(self) -> tuple[str, ...]:
        return tuple(person.seat for person in self.people)


class SurveyRecord(BaseModel):
    """A person's answers (1-5 each) to the three questions after a match."""

    model_config = ConfigDict(frozen=True)

    match_id: str
    enjoyment: int
    satisfaction: int
    frequency: int
    created_at: datetime


class ExportedMatch(BaseModel):
    """A match as read back from an export: its record, its log and its calls."""

    model_config = ConfigDict(frozen=True)

    match: MatchRecord
    events: tuple[EventRecord, ...]
    calls: tuple[CallRow, ...]
    retro: tuple[RetroRecord, ...] = ()


class ExportedRun(BaseModel):
    """A run as read back from an export (``playeval.store.read_run_jsonl``), or to import into a store."""

    model_config = ConfigDict(frozen=True)

    schema_version: int
    run: RunRecord
    matches: tuple[ExportedMatch, ...]
