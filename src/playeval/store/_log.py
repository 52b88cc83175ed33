"""Writing the tail of a match's log in bulk, inside an open session (nothing here commits).

A tail is a list of entries in log order: an :class:`~playeval.core.attempt.Attempt` stands for its model calls
and its events, an :class:`~playeval.core.events.Event` for itself. The model calls of the whole tail are inserted
in one statement that returns their ids in order, then the events in one ``executemany``, both through SQLAlchemy
Core (the ORM's bulk insert spends more time per row than the database does).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import insert
from sqlalchemy.orm import Session

from playeval.core.attempt import Attempt
from playeval.core.events import Event
from playeval.store._rows import call_values, event_values
from playeval.store.schema import EventRow, ModelCallRow

Entry = Attempt | Event
"""One entry of a log tail: a try of a move (its calls and events) or a single event."""


def insert_calls_bulk(session: Session, values: Sequence[dict[str, Any]]) -> list[int]:
    """Insert model calls in one statement; their ids, in the order given."""
    if not values:
        return []
    table = ModelCallRow.__table__
    statement = insert(table).returning(table.c.id, sort_by_parameter_order=True)
    return list(session.connection().execute(statement, list(values)).scalars())


def write_tail(session: Session, match_id: str, first_seq: int, entries: Sequence[Entry], when: datetime) -> int:
    """Insert ``entries`` from ``first_seq`` on; returns the seq the next event would take."""
    calls = [call_values(match_id, entry.ask.seat, entry.ask.role, call, when, parsed=entry.parsed,
                         error=entry.call_error)
             for entry in entries if isinstance(entry, Attempt) for call in entry.calls]
    call_ids = iter(insert_calls_bulk(session, calls))
    seq = first_seq
    values: list[dict[str, Any]] = []
    for entry in entries:
        events = entry.events([next(call_ids) for _ in entry.calls]) if isinstance(entry, Attempt) else [entry]
        for event in events:
            values.append(event_values(match_id, seq, event, when))
            seq += 1
    if values:
        session.connection().execute(insert(EventRow.__table__), values)  # Core: no ORM bookkeeping per row
    return seq
