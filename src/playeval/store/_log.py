"""Writing the tail of a match's log in bulk, inside an open transaction (nothing here commits).

A tail is a list of entries in log order: an :class:`~playeval.core.attempt.Attempt` stands for its model calls
and its events, an :class:`~playeval.core.events.Event` for itself. The model calls of the whole tail are inserted
in one statement that returns their ids in order (through SQLAlchemy Core), then the events in bulk, straight to
SQLite's and psycopg's drivers (``_direct``; Core for other drivers).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import func, insert, select, update
from sqlalchemy.engine import Connection

from playeval.core.attempt import Attempt
from playeval.core.errors import NotFoundError
from playeval.core.events import Event, MatchEnded
from playeval.core.match import Outcome
from playeval.store._direct import bound, core, markers
from playeval.store._direct import insert_events as direct_events
from playeval.store._rows import call_values, event_values
from playeval.store.errors import MatchClosed
from playeval.store.schema import EventRow, MatchRow, ModelCallRow

Entry = Attempt | Event
"""One entry of a log tail: a try of a move (its calls and events) or a single event."""


@dataclass(frozen=True)
class TailCommit:
    """One commit of a buffered match (``playeval.engine.BufferedRecorder``): ``entries`` after ``after_seq`` and,
    with ``outcome``, the match's end. ``creation`` holds :meth:`Store.create_match`'s other arguments (spec,
    seats, roles, run_id, match_index, evaluated_model) while the match is not stored yet: it is stored with this
    commit."""

    match_id: str
    entries: Sequence[Entry]
    after_seq: int
    outcome: Outcome | None = None
    creation: Mapping[str, Any] | None = None


def insert_calls_bulk(connection: Connection, values: Sequence[dict[str, Any]]) -> list[int]:
    """Insert model calls in one statement; their ids, in the order given."""
    if not values:
        return []
    table = core(ModelCallRow)
    statement = insert(table).returning(table.c.id, sort_by_parameter_order=True)
    return list(connection.execute(statement, list(values)).scalars())


def open_log_end(connection: Connection, match_id: str) -> int:
    """The last seq of a running match's log, with its status checked (:class:`NotFoundError`,
    :class:`MatchClosed`). On PostgreSQL the match's row is locked first against concurrent appends, and the log's
    end read after the lock in a statement of its own (one that waited for the lock would still see the log of
    its start); SQLite's writers are serialized by ``BEGIN IMMEDIATE``, so one statement reads both. With SQLite's
    and psycopg's drivers the SQL is sent as written (this runs once per commit of every match)."""
    driver = markers(connection)
    if connection.dialect.name == "postgresql":
        if driver is not None:
            status = connection.exec_driver_sql("SELECT status FROM matches WHERE id = %s FOR NO KEY UPDATE",
                                                (match_id,)).scalar()
            end = None if status is None else connection.exec_driver_sql(
                "SELECT max(seq) FROM events WHERE match_id = %s", (match_id,)).scalar()
        else:
            status = connection.execute(select(MatchRow.status).where(MatchRow.id == match_id)
                                        .with_for_update(key_share=True)).scalar()
            end = None if status is None else connection.execute(
                select(func.max(EventRow.seq)).where(EventRow.match_id == match_id)).scalar()
    else:
        if driver is not None:
            found = connection.exec_driver_sql(
                "SELECT status, (SELECT max(seq) FROM events WHERE match_id = ?) FROM matches WHERE id = ?",
                (match_id, match_id)).first()
        else:
            last = select(func.max(EventRow.seq)).where(EventRow.match_id == match_id).scalar_subquery()
            found = connection.execute(select(MatchRow.status, last).where(MatchRow.id == match_id)).first()
        status, end = (None, None) if found is None else (found[0], found[1])
    if status is None:
        raise NotFoundError(f"no match with id {match_id!r}")
    if status != "running":
        raise MatchClosed(match_id)
    return int(end or 0)


def write_tail(connection: Connection, match_id: str, first_seq: int, entries: Sequence[Entry], when: datetime,
               outcome: Outcome | None = None, *, finish_row: bool = True) -> int:
    """Insert ``entries`` from ``first_seq`` on, and with ``outcome`` the match's end (``MatchEnded`` and, unless
    not ``finish_row`` (a row inserted finished), the row's status, outcome and end time); returns the seq the
    next event would take."""
    attempts = [entry for entry in entries if isinstance(entry, Attempt)]
    events: list[Event]
    if attempts:
        calls = [call_values(match_id, entry.ask.seat, entry.ask.role, call, when, parsed=entry.parsed,
                             error=entry.call_error) for entry in attempts for call in entry.calls]
        call_ids = iter(insert_calls_bulk(connection, calls))
        events = []
        for entry in entries:
            events.extend(entry.events([next(call_ids) for _ in entry.calls]) if isinstance(entry, Attempt)
                          else [entry])
    else:  # events only (the recorder keeps a try without model calls as its events)
        events = cast(list[Event], list(entries))
    if outcome is not None:
        events.append(MatchEnded(outcome=outcome))
    insert_events(connection, match_id, first_seq, events, when)
    if outcome is not None and finish_row:
        _finish_row(connection, match_id, outcome, when)
    return first_seq + len(events)


def _finish_row(connection: Connection, match_id: str, outcome: Outcome, when: datetime) -> None:
    """The match row's status, outcome and end time (straight to SQLite's and psycopg's drivers)."""
    table = core(MatchRow)
    found = markers(connection)
    if found is None:
        connection.execute(update(table).where(table.c.id == match_id)
                           .values(status="finished", outcome=outcome.model_dump(mode="json"), ended_at=when))
        return
    value, payload = found
    connection.exec_driver_sql(
        f"UPDATE {table.name} SET status = 'finished', outcome = {payload}, ended_at = {value} WHERE id = {value}",
        (outcome.model_dump_json(), bound(table.c.ended_at.type, connection, when), match_id))


def insert_events(connection: Connection, match_id: str, first_seq: int, events: Sequence[Event],
                  when: datetime) -> None:
    """Insert ``events`` of one match from ``first_seq`` on, all written at ``when``: straight to SQLite's and
    psycopg's drivers (:func:`~playeval.store._direct.insert_events`), through Core for other drivers."""
    if not events:
        return
    found = markers(connection)
    if found is None:
        connection.execute(insert(core(EventRow)), [event_values(match_id, seq, event, when)
                                                    for seq, event in enumerate(events, start=first_seq)])
    else:
        direct_events(connection, found, match_id, first_seq, events, when)
