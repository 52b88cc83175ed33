"""Turning stored rows into the records the store hands out."""

from __future__ import annotations

from collections.abc import Sequence

from playeval.core.errors import PlayevalError
from playeval.core.events import SCHEMA_VERSION, Event, RoleAssignment, SeatAssignment, parse_event, upgrade_payload
from playeval.core.match import MatchSpec, Outcome
from playeval.core.messages import Message
from playeval.store.records import CallRow, EventRecord, MatchRecord, RunRecord
from playeval.store.schema import EventRow, MatchRow, ModelCallRow, RoleRow, RunRow, SeatRow


def load_event(schema_version: int, payload: dict[str, object]) -> Event:
    """Parse a stored event payload written under ``schema_version``.

    Older versions are brought to the current shape first (``core.events.upgrade_payload``).
    """
    if schema_version > SCHEMA_VERSION:
        raise PlayevalError(
            f"event written with schema version {schema_version}, newer than this playeval reads "
            f"({SCHEMA_VERSION}); upgrade playeval"
        )
    return parse_event(upgrade_payload(schema_version, payload))


def run_record(row: RunRow) -> RunRecord:
    return RunRecord.model_validate(
        {
            "id": row.id,
            "created_at": row.created_at,
            "game": row.game,
            "level": row.level,
            "config": row.config,
            "status": row.status,
        }
    )


def seat_assignment(row: SeatRow) -> SeatAssignment:
    return SeatAssignment(
        seat=row.seat, player_kind=row.player_kind, model=row.model, prompt_variant=row.prompt_variant,
        evaluated=row.evaluated,
    )


def role_assignment(row: RoleRow) -> RoleAssignment:
    return RoleAssignment(role=row.role, player_kind=row.player_kind, model=row.model, seat=row.seat)


def match_record(row: MatchRow, seats: Sequence[SeatRow], roles: Sequence[RoleRow] = ()) -> MatchRecord:
    ordered = sorted(seats, key=lambda seat: seat.position)
    return MatchRecord.model_validate(
        {
            "id": row.id,
            "run_id": row.run_id,
            "match_index": row.match_index,
            "game": row.game,
            "level": row.level,
            "seed": row.seed,
            "spec": MatchSpec.model_validate(row.spec),
            "seats": tuple(seat_assignment(seat) for seat in ordered),
            "roles": tuple(role_assignment(role) for role in sorted(roles, key=lambda role: role.position)),
            "status": row.status,
            "outcome": None if row.outcome is None else Outcome.model_validate(row.outcome),
            "evaluated_model": row.evaluated_model,
            "created_at": row.created_at,
            "ended_at": row.ended_at,
            "stop_reason": row.stop_reason,
        }
    )


def event_record(row: EventRow) -> EventRecord:
    return EventRecord(
        seq=row.seq,
        type=row.type,
        schema_version=row.schema_version,
        created_at=row.created_at,
        event=load_event(row.schema_version, row.payload),
    )


def call_row(row: ModelCallRow) -> CallRow:
    return CallRow(
        id=row.id,
        match_id=row.match_id,
        seat=row.seat,
        role=row.role,
        model=row.model,
        messages=tuple(Message.model_validate(message) for message in row.messages),
        params=row.params,
        raw_output=row.raw_output,
        parsed=row.parsed,
        error=row.error,
        prompt_tokens=row.prompt_tokens,
        completion_tokens=row.completion_tokens,
        latency_s=row.latency_s,
        cached=row.cached,
        attempts=row.attempts,
        created_at=row.created_at,
        cost_usd=row.cost_usd,
        output_path=row.output_path,
        prompt_evaluated=row.prompt_evaluated,
        prompt_needed=row.prompt_needed,
        prompt_s=row.prompt_s,
        generation_s=row.generation_s,
    )
