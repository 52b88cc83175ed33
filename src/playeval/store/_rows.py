"""Helpers on an open session, shared by the store's parts; none of these commit."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, insert, select
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from playeval.core.ask import CallRecord
from playeval.core.errors import NotFoundError
from playeval.core.events import SCHEMA_VERSION, Event, RoleAssignment, SeatAssignment
from playeval.store.convert import match_record
from playeval.store.errors import LogMoved, MatchClosed
from playeval.store.records import MatchRecord
from playeval.store.schema import EventRow, MatchRow, ModelCallRow, RoleRow, RunRow, SeatRow


def now() -> datetime:
    return datetime.now(UTC)


def _row_lock(lock: bool) -> dict[str, bool] | None:
    """``FOR NO KEY UPDATE`` on PostgreSQL when locking (it does not block foreign-key checks); nothing on SQLite."""
    return {"key_share": True} if lock else None


def get_run(session: Session, run_id: str, *, lock: bool = False) -> RunRow:
    row = session.get(RunRow, run_id, with_for_update=_row_lock(lock))
    if row is None:
        raise NotFoundError(f"no run with id {run_id!r}")
    return row


def lock_run(connection: Connection, run_id: str) -> None:
    """The run must exist; on PostgreSQL its row is locked (``FOR NO KEY UPDATE``), as :func:`get_run` does."""
    if connection.execute(select(RunRow.id).where(RunRow.id == run_id).with_for_update(key_share=True)).first() is None:
        raise NotFoundError(f"no run with id {run_id!r}")


def get_match(session: Session, match_id: str, *, lock: bool = False) -> MatchRow:
    row = session.get(MatchRow, match_id, with_for_update=_row_lock(lock))
    if row is None:
        raise NotFoundError(f"no match with id {match_id!r}")
    return row


def get_open_match(session: Session, match_id: str) -> MatchRow:
    """The match row, locked (PostgreSQL) against concurrent appends; it must still be running."""
    row = get_match(session, match_id, lock=True)
    if row.status != "running":
        raise MatchClosed(match_id)
    return row


def require_exists(session: Session, match_id: str) -> None:
    if session.scalar(select(MatchRow.id).where(MatchRow.id == match_id)) is None:
        raise NotFoundError(f"no match with id {match_id!r}")


def require_running(session: Session, match_id: str) -> None:
    """The match must exist and still run; on PostgreSQL its row is locked against concurrent appends."""
    query = select(MatchRow.status).where(MatchRow.id == match_id)
    if session.get_bind().dialect.name == "postgresql":
        query = query.with_for_update(key_share=True)
    status = session.scalar(query)
    if status is None:
        raise NotFoundError(f"no match with id {match_id!r}")
    if status != "running":
        raise MatchClosed(match_id)


def match_id_at(session: Session | Connection, run_id: str, match_index: int) -> str | None:
    return session.scalars(
        select(MatchRow.id).where(MatchRow.run_id == run_id, MatchRow.match_index == match_index)
    ).first()


def next_seq(session: Session, match_id: str) -> int:
    current = session.scalar(select(func.max(EventRow.seq)).where(EventRow.match_id == match_id))
    return (current or 0) + 1


def check_tail(match_id: str, next_seq_: int, after_seq: int | None) -> None:
    if after_seq is not None and next_seq_ != after_seq + 1:
        raise LogMoved(match_id, after_seq, next_seq_ - 1)


def event_values(match_id: str, seq: int, event: Event, when: datetime) -> dict[str, Any]:
    return {
        "match_id": match_id,
        "seq": seq,
        "type": event.type,
        "schema_version": SCHEMA_VERSION,
        "payload": event.model_dump(mode="json"),
        "created_at": when,
    }


def event_row(match_id: str, seq: int, event: Event, when: datetime) -> EventRow:
    return EventRow(**event_values(match_id, seq, event, when))


def seat_values(match_id: str, seats: Sequence[SeatAssignment]) -> list[dict[str, Any]]:
    """The ``seats`` rows of a match, in seat order."""
    return [{"match_id": match_id, "seat": seat.seat, "position": position, "player_kind": seat.player_kind,
             "model": seat.model, "prompt_variant": seat.prompt_variant, "evaluated": seat.evaluated}
            for position, seat in enumerate(seats)]


def role_values(match_id: str, roles: Sequence[RoleAssignment]) -> list[dict[str, Any]]:
    """The ``match_roles`` rows of a match, in role order."""
    return [{"match_id": match_id, "role": role.role, "position": position, "player_kind": role.player_kind,
             "model": role.model, "seat": role.seat} for position, role in enumerate(roles)]


def call_values(match_id: str | None, seat: str | None, role: str | None, call: CallRecord, when: datetime,
                *, parsed: str | None = None, error: str | None = None) -> dict[str, Any]:
    dumped = call.model_dump(mode="json")
    return {
        "match_id": match_id,
        "seat": seat,
        "role": role,
        "model": call.model,
        "messages": dumped["messages"],
        "params": dumped["params"],
        "raw_output": call.raw_output,
        "parsed": parsed,
        "error": error,
        "prompt_tokens": call.prompt_tokens,
        "completion_tokens": call.completion_tokens,
        "latency_s": call.latency_s,
        "cached": call.cached,
        "attempts": call.attempts,
        "created_at": when,
        "cost_usd": call.cost_usd,
        "output_path": call.output_path,
        "prompt_evaluated": call.prompt_evaluated,
        "prompt_needed": call.prompt_needed,
        "prompt_s": call.prompt_s,
        "generation_s": call.generation_s,
    }


def insert_calls(session: Session, values: Sequence[dict[str, Any]]) -> list[int]:
    """Insert model calls one by one (their ids are needed, in order)."""
    return [session.execute(insert(ModelCallRow).values(value).returning(ModelCallRow.id)).scalar_one()
            for value in values]


def records(session: Session, rows: Sequence[MatchRow]) -> list[MatchRecord]:
    """Match records of ``rows``, with their seats and roles read in two queries."""
    ids = [row.id for row in rows]
    seats: dict[str, list[SeatRow]] = {match_id: [] for match_id in ids}
    roles: dict[str, list[RoleRow]] = {match_id: [] for match_id in ids}
    for chunk_start in range(0, len(ids), 500):
        chunk = ids[chunk_start:chunk_start + 500]
        for seat in session.scalars(select(SeatRow).where(SeatRow.match_id.in_(chunk))):
            seats[seat.match_id].append(seat)
        for role in session.scalars(select(RoleRow).where(RoleRow.match_id.in_(chunk))):
            roles[role.match_id].append(role)
    return [match_record(row, seats[row.id], roles[row.id]) for row in rows]
