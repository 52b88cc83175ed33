"""The event log: a match is its append-only list of events.

Each event is a pydantic model with a literal ``type``; ``Event`` is their
discriminated union. ``SCHEMA_VERSION`` is stored with every event so later
readers can migrate old logs.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from playeval.core.match import Action, MatchSpec, Outcome

SCHEMA_VERSION = 1


class SeatAssignment(BaseModel):
    model_config = ConfigDict(frozen=True)

    seat: str
    player_kind: str
    model: str | None = None
    prompt_variant: int | None = None


class MatchStarted(BaseModel):
    model_config = ConfigDict(frozen=True)
    type: Literal["match_started"] = "match_started"
    spec: MatchSpec
    seats: tuple[SeatAssignment, ...]


class AskIssued(BaseModel):
    model_config = ConfigDict(frozen=True)
    type: Literal["ask"] = "ask"
    seat: str
    kind: str
    attempt: int


class ReplyReceived(BaseModel):
    model_config = ConfigDict(frozen=True)
    type: Literal["reply"] = "reply"
    seat: str
    text: str
    call_ids: tuple[int, ...] = ()


class ReplyRejected(BaseModel):
    model_config = ConfigDict(frozen=True)
    type: Literal["rejected"] = "rejected"
    seat: str
    error: Literal["format", "rule"]
    reason: str
    text: str


class ActionApplied(BaseModel):
    model_config = ConfigDict(frozen=True)
    type: Literal["action"] = "action"
    action: Action


class MatchEnded(BaseModel):
    model_config = ConfigDict(frozen=True)
    type: Literal["match_ended"] = "match_ended"
    outcome: Outcome


Event = Annotated[
    MatchStarted | AskIssued | ReplyReceived | ReplyRejected | ActionApplied | MatchEnded,
    Field(discriminator="type"),
]

EVENT_ADAPTER: TypeAdapter[Event] = TypeAdapter(Event)


def parse_event(payload: dict[str, object]) -> Event:
    return EVENT_ADAPTER.validate_python(payload)
