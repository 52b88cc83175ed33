"""The store's part for importing an exported run (``playeval import``): its rows as they were, in one
transaction, or nothing.

The run, its matches and their logs keep their ids, times and order, so exporting the imported run gives the
file back. Model calls keep their ids too unless the database already uses one of them; then the run's calls
take fresh ids (above the database's highest), and the replies and retrospective outputs that name them are
rewritten to match. Events are stored in the current schema version (the export holds them in that shape).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import AbstractContextManager
from typing import Any

from sqlalchemy import func, insert, select
from sqlalchemy.engine import Connection

from playeval.core.events import Event, ReplyReceived
from playeval.store._direct import core
from playeval.store._rows import call_values, event_values, role_values, seat_values
from playeval.store.errors import DuplicateRun
from playeval.store.records import ExportedMatch, ExportedRun
from playeval.store.schema import (
    EventRow,
    MatchRow,
    ModelCallRow,
    RetroOutputRow,
    RoleRow,
    RunRow,
    SeatRow,
)

_CHUNK = 500


class RunImports:
    """Mixed into :class:`~playeval.store.Store`."""

    def _write_core(self) -> AbstractContextManager[Connection]:
        raise NotImplementedError

    def import_run(self, exported: ExportedRun) -> dict[int, int]:
        """Store an exported run (:func:`~playeval.store.read_run_jsonl`) with its matches, logs, model calls
        and retrospective outputs, all or nothing. Returns the model calls' new ids by their ids in the export
        (the same ids unless the database already held one of them).

        Raises :class:`DuplicateRun` if the database already holds the run or one of its matches.
        """
        with self._write_core() as connection:
            if connection.dialect.name == "postgresql":  # no other writer takes a call id while ids are chosen
                connection.exec_driver_sql(f"LOCK TABLE {core(ModelCallRow).name} IN EXCLUSIVE MODE")
            _refuse_held(connection, exported)
            ids = _call_ids(connection, [call.id for item in exported.matches for call in item.calls])
            run = exported.run
            connection.execute(insert(core(RunRow)), [{"id": run.id, "created_at": run.created_at,
                                                       "game": run.game, "level": run.level, "config": run.config,
                                                       "status": run.status}])
            for item in exported.matches:
                _insert_match(connection, item, ids)
            if ids and connection.dialect.name == "postgresql":  # the id sequence goes on above the ids given
                table = core(ModelCallRow).name
                connection.exec_driver_sql(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))")
        return ids


def _chunks(values: list[Any]) -> Iterator[list[Any]]:
    for start in range(0, len(values), _CHUNK):
        yield values[start:start + _CHUNK]


def _refuse_held(connection: Connection, exported: ExportedRun) -> None:
    run_id = exported.run.id
    if connection.execute(select(core(RunRow).c.id).where(core(RunRow).c.id == run_id)).first() is not None:
        raise DuplicateRun(f"the database already holds run {run_id}; nothing was imported")
    match_ids = [item.match.id for item in exported.matches]
    for chunk in _chunks(match_ids):
        held = set(connection.execute(select(core(MatchRow).c.id).where(core(MatchRow).c.id.in_(chunk))).scalars())
        if held:
            first = next(match_id for match_id in chunk if match_id in held)
            raise DuplicateRun(f"the database already holds match {first} of run {run_id}; nothing was imported")


def _call_ids(connection: Connection, exported: list[int]) -> dict[int, int]:
    """The id each exported call gets: its own if the database uses none of them, else fresh ones in order."""
    table = core(ModelCallRow)
    for chunk in _chunks(exported):
        if connection.execute(select(table.c.id).where(table.c.id.in_(chunk)).limit(1)).first() is not None:
            highest = int(connection.execute(select(func.max(table.c.id))).scalar() or 0)
            return {old: highest + rank for rank, old in enumerate(sorted(exported), start=1)}
    return {old: old for old in exported}


def _event(event: Event, ids: Mapping[int, int]) -> Event:
    if isinstance(event, ReplyReceived) and event.call_ids:
        return event.model_copy(update={"call_ids": tuple(ids[call_id] for call_id in event.call_ids)})
    return event


def _insert_match(connection: Connection, item: ExportedMatch, ids: Mapping[int, int]) -> None:
    match = item.match
    connection.execute(insert(core(MatchRow)), [{
        "id": match.id, "run_id": match.run_id, "match_index": match.match_index, "game": match.game,
        "level": match.level, "seed": match.seed, "spec": match.spec.model_dump(mode="json"), "status": match.status,
        "outcome": None if match.outcome is None else match.outcome.model_dump(mode="json"),
        "evaluated_model": match.evaluated_model, "created_at": match.created_at, "ended_at": match.ended_at,
        "stop_reason": match.stop_reason}])
    if match.seats:
        connection.execute(insert(core(SeatRow)), seat_values(match.id, match.seats))
    if match.roles:
        connection.execute(insert(core(RoleRow)), role_values(match.id, match.roles))
    if item.calls:
        connection.execute(insert(core(ModelCallRow)), [
            {**call_values(match.id, call.seat, call.role, call, call.created_at, parsed=call.parsed,
                           error=call.error), "id": ids[call.id]} for call in item.calls])
    if item.events:
        connection.execute(insert(core(EventRow)), [
            event_values(match.id, record.seq, _event(record.event, ids), record.created_at)
            for record in item.events])
    if item.retro:
        connection.execute(insert(core(RetroOutputRow)), [{
            "match_id": match.id, "round": retro.round, "kind": retro.kind, "model": retro.model,
            "output": retro.output, "error": retro.error, "call_ids": [ids[call_id] for call_id in retro.call_ids],
            "created_at": retro.created_at} for retro in item.retro])
