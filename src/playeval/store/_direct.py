"""Rows written straight to SQLite's and psycopg's drivers, inside an open transaction (nothing here commits).

The batch path writes a whole match (its row, seats, roles and log) per commit; through SQLAlchemy Core each
statement's parameters are processed row by row, which cost more than the database's own work. Here each value
is converted once, by its column's own type (:func:`bound`), so the stored bytes are those Core would write, and
the statements go to the driver as written. Other drivers go through Core (the callers check :func:`markers`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from functools import cache
from types import TracebackType
from typing import Any, Self

from sqlalchemy import Table
from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.types import TypeEngine

from playeval.core.events import SCHEMA_VERSION, Event, RoleAssignment, SeatAssignment
from playeval.core.match import MatchSpec, Outcome
from playeval.store.schema import Base, EventRow, MatchRow, RoleRow, SeatRow

_DRIVER_MARKERS = {("sqlite", "pysqlite"): ("?", "?"), ("postgresql", "psycopg"): ("%s", "%s::jsonb")}
"""The parameter markers of the drivers called directly: a value's, and a JSON value's."""

SQLITE_ROWS_PER_INSERT = 256
"""The most events one SQLite ``INSERT`` holds (3 parameters each, far below SQLite's 32,766)."""


def core(row: type[Base]) -> Table:
    """The Core table of a mapped class: inserting through it skips the ORM's bookkeeping per row."""
    table = row.__table__
    if not isinstance(table, Table):
        raise TypeError(f"{row.__name__} is not mapped to a table")
    return table


def markers(connection: Connection) -> tuple[str, str] | None:
    """The parameter markers (a value's, a JSON value's) if ``connection``'s driver is called directly, else
    ``None``."""
    dialect = connection.dialect
    return _DRIVER_MARKERS.get((dialect.name, dialect.driver))


def bound(column_type: TypeEngine[Any], connection: Connection, value: Any) -> Any:
    """``value`` as the column's type hands it to the driver."""
    process = _bind_processor(column_type, connection.dialect)
    return process(value) if process is not None else value


@cache
def _bind_processor(column_type: TypeEngine[Any], dialect: Dialect) -> Callable[[Any], Any] | None:
    """The column type's conversion for ``dialect`` (looked up once: SQLAlchemy's lookup goes through weak
    dictionaries, several times per commit otherwise)."""
    return column_type.dialect_impl(dialect).bind_processor(dialect)


def event_json(event: Event) -> str:
    """The event's JSON as stored: what ``event.model_dump_json()`` returns, without its keyword handling (this
    runs for every event)."""
    return event.__pydantic_serializer__.to_json(event).decode()


def insert_match(connection: Connection, found: tuple[str, str], match_id: str, spec: MatchSpec,
                 seats: Sequence[SeatAssignment], roles: Sequence[RoleAssignment], run_id: str | None,
                 match_index: int | None, evaluated_model: str | None, when: datetime,
                 outcome: Outcome | None) -> None:
    """The match's row (``running``, or with ``outcome`` already ``finished`` at ``when``), seats and roles."""
    value, payload = found
    table = core(MatchRow)
    created_at = bound(table.c.created_at.type, connection, when)
    ended = (None, None) if outcome is None else (outcome.model_dump_json(), created_at)
    with _DriverCursor(connection) as cursor:
        cursor.run(
            f"INSERT INTO {table.name} (id, run_id, match_index, game, level, seed, spec, status, outcome, "
            f"evaluated_model, created_at, ended_at) VALUES ({value}, {value}, {value}, {value}, {value}, {value}, "
            f"{payload}, {value}, {payload}, {value}, {value}, {value})",
            (match_id, run_id, match_index, spec.game, spec.level, spec.seed,
             bound(table.c.spec.type, connection, spec.model_dump(mode="json")),
             "running" if outcome is None else "finished", ended[0], evaluated_model, created_at, ended[1]))
        if seats:
            cursor.run_many(
                f"INSERT INTO {core(SeatRow).name} (match_id, seat, position, player_kind, model, prompt_variant, "
                f"evaluated) VALUES ({value}, {value}, {value}, {value}, {value}, {value}, {value})",
                [(match_id, seat.seat, position, seat.player_kind, seat.model, seat.prompt_variant, seat.evaluated)
                 for position, seat in enumerate(seats)])
        if roles:
            cursor.run_many(
                f"INSERT INTO {core(RoleRow).name} (match_id, role, position, player_kind, model, seat) "
                f"VALUES ({value}, {value}, {value}, {value}, {value}, {value})",
                [(match_id, role.role, position, role.player_kind, role.model, role.seat)
                 for position, role in enumerate(roles)])


def insert_events(connection: Connection, found: tuple[str, str], match_id: str, first_seq: int,
                  events: Sequence[Event], when: datetime) -> None:
    """Insert ``events`` of one match from ``first_seq`` on, all written at ``when``: the match and the time
    converted once, each payload serialised by pydantic in one step.

    On SQLite the rows go in multi-row ``INSERT``s of a power of two rows each (so a handful of statements, all
    in the driver's statement cache, whatever the tail's length): one statement runs in SQLite's C code at once,
    where ``executemany`` returns to Python between rows. psycopg's ``executemany`` sends its rows in one pipeline.
    """
    value, payload = found
    table = core(EventRow)
    created_at = bound(table.c.created_at.type, connection, when)
    with _DriverCursor(connection) as cursor:
        if connection.dialect.name != "sqlite":
            cursor.run_many(
                f"INSERT INTO {table.name} (match_id, seq, type, schema_version, payload, created_at) "
                f"VALUES ({value}, {value}, {value}, {value}, {payload}, {value})",
                [(match_id, seq, event.type, SCHEMA_VERSION, event_json(event), created_at)
                 for seq, event in enumerate(events, start=first_seq)])
            return
        start = 0
        while start < len(events):
            size = min(SQLITE_ROWS_PER_INSERT, 1 << ((len(events) - start).bit_length() - 1))
            parameters: list[Any] = [match_id, created_at]
            for seq, event in enumerate(events[start:start + size], start=first_seq + start):
                parameters += (seq, event.type, event_json(event))
            cursor.run(_sqlite_events_insert(table.name, size), parameters)
            start += size


class _DriverCursor:
    """The driver's own cursor, in the connection's open transaction (SQLAlchemy's per-statement work skipped),
    raising the errors SQLAlchemy would (``IntegrityError``, ``OperationalError``, ...)."""

    def __init__(self, connection: Connection) -> None:
        self._error: type[Exception] = connection.dialect.loaded_dbapi.Error
        self._cursor = connection.connection.cursor()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._cursor.close()

    def run(self, statement: str, parameters: Sequence[Any]) -> None:
        try:
            self._cursor.execute(statement, parameters)
        except self._error as exc:
            raise DBAPIError.instance(statement, parameters, exc, self._error) from exc

    def run_many(self, statement: str, rows: Sequence[Sequence[Any]]) -> None:
        try:
            self._cursor.executemany(statement, rows)
        except self._error as exc:
            raise DBAPIError.instance(statement, rows, exc, self._error) from exc


@cache
def _sqlite_events_insert(table: str, rows: int) -> str:
    """SQLite's ``INSERT`` of ``rows`` events of one match: ``?1`` the match, ``?2`` the time, then each row's
    seq, type and payload."""
    values = ", ".join(f"(?1, ?{3 * row + 3}, ?{3 * row + 4}, {SCHEMA_VERSION}, ?{3 * row + 5}, ?2)"
                       for row in range(rows))
    return f"INSERT INTO {table} (match_id, seq, type, schema_version, payload, created_at) VALUES {values}"
