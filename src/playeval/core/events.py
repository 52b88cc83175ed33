"""The event log: a match is its append-only list of events.

Each event is a pydantic model with a literal ``type``; ``Event`` is their discriminated union.
``SCHEMA_VERSION`` is stored with every event. Version 2 (Core v2) added roles beside seats, seat
eliminations and take-overs, and outcomes with several winners and per-seat results; version-1 payloads
read as they are (``MatchSpec`` and ``Outcome`` convert their old fields), see :func:`upgrade_payload`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from playeval.core.match import Action, MatchSpec, Outcome

SCHEMA_VERSION = 2
"""The version stored with every event; a reader upgrades older payloads (``upgrade_payload``)."""


class SeatAssignment(BaseModel):
    """Who holds a seat. ``evaluated``: the match counts for this seat's model (``None`` in version-1 logs,
    where the game's evaluated seat was the only one)."""

    model_config = ConfigDict(frozen=True)

    seat: str
    player_kind: str
    model: str | None = None
    prompt_variant: int | None = None
    evaluated: bool | None = None


class RoleAssignment(BaseModel):
    """Who plays a role. ``seat``: the role is played by that seat's occupant (a person who holds the secret
    judges the guesses about it); ``model`` otherwise, or a scripted stand-in."""

    model_config = ConfigDict(frozen=True)

    role: str
    player_kind: str
    model: str | None = None
    seat: str | None = None


class _Event(BaseModel):
    model_config = ConfigDict(frozen=True)


class _PartyEvent(_Event):
    """An event of one seat or one role."""

    seat: str | None = None
    role: str | None = None

    @model_validator(mode="after")
    def _one_party(self) -> _PartyEvent:
        if (self.seat is None) == (self.role is None):
            raise ValueError("the event belongs to exactly one seat or one role")
        return self

    @property
    def party(self) -> str:
        return self.seat if self.seat is not None else str(self.role)


class MatchStarted(_Event):
    """The first event of every match: its spec (secret included) and who holds each seat and role."""

    type: Literal["match_started"] = "match_started"
    spec: MatchSpec
    seats: tuple[SeatAssignment, ...]
    roles: tuple[RoleAssignment, ...] = ()


class AskIssued(_PartyEvent):
    """A seat or role was asked to move (``attempt`` counts the re-asks after a rejected reply, from 0)."""

    type: Literal["ask"] = "ask"
    kind: str
    attempt: int


class ReplyReceived(_PartyEvent):
    """The reply to the open ask, with the ids of the model calls that made it (none for a person or script)."""

    type: Literal["reply"] = "reply"
    text: str
    call_ids: tuple[int, ...] = ()


class ReplyRejected(_PartyEvent):
    """A reply the game refused, as a format error or a rule violation, with the reason the party is shown."""

    type: Literal["rejected"] = "rejected"
    error: Literal["format", "rule"]
    reason: str
    text: str


class ActionApplied(_Event):
    """A parsed, legal move applied to the state: the state is the fold of these actions."""

    type: Literal["action"] = "action"
    action: Action


class SeatEliminated(_Event):
    """A seat ran out of re-asks in a game that eliminates such a seat instead of ending the match."""

    type: Literal["seat_eliminated"] = "seat_eliminated"
    seat: str
    error: Literal["format", "rule"]
    reason: str


class SeatTakenOver(_Event):
    """A person's seat is played from here on by a model (they did not come, or left)."""

    type: Literal["seat_taken_over"] = "seat_taken_over"
    seat: str
    player_kind: str
    model: str | None = None
    reason: str


class MatchEnded(_Event):
    """The last event of a finished match: its outcome (winners, per-seat results, or why it was aborted)."""

    type: Literal["match_ended"] = "match_ended"
    outcome: Outcome


Event = Annotated[
    MatchStarted | AskIssued | ReplyReceived | ReplyRejected | ActionApplied | SeatEliminated | SeatTakenOver
    | MatchEnded,
    Field(discriminator="type"),
]
"""Any event of the log, told apart by its ``type`` field."""

EVENT_ADAPTER: TypeAdapter[Event] = TypeAdapter(Event)


def upgrade_payload(schema_version: int, payload: dict[str, Any]) -> dict[str, Any]:
    """A stored payload in the current version's shape. Version 1 needs nothing here: its old fields (a spec's
    ``secret``, an outcome's ``winner``) are converted by the models themselves when read."""
    if schema_version < 1:
        raise ValueError(f"unknown event schema version {schema_version}")
    return payload


def parse_event(payload: dict[str, object]) -> Event:
    """The event a stored payload holds, of the class its ``type`` names (pydantic's error when it is not one)."""
    return EVENT_ADAPTER.validate_python(payload)
