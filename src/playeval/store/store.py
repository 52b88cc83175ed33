"""The store: runs, matches and their event logs, and model calls.

Every write is one short transaction. A match's row (status, outcome) is a
projection of its log, so the events that change it -- ``MatchStarted`` and
``MatchEnded`` -- are written only by :meth:`Store.create_match` and
:meth:`Store.finish_match`, in the same transaction as the row. Nothing is
ever deleted, and a finished match's log cannot grow.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime
from types import TracebackType
from typing import Any, Self, get_args

from pydantic import TypeAdapter
from sqlalchemy import case, func, insert, or_, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from playeval.core.ask import CallRecord
from playeval.core.attempt import Attempt
from playeval.core.errors import NotFoundError
from playeval.core.events import Event, MatchEnded, MatchStarted, RoleAssignment, SeatAssignment
from playeval.core.match import MatchSpec, Outcome
from playeval.core.work import WorkTotals
from playeval.store._arena import ArenaTables
from playeval.store._direct import core, insert_match, markers
from playeval.store._import import RunImports
from playeval.store._log import Entry, TailCommit, insert_events, open_log_end, write_tail
from playeval.store._retro import RetroTables
from playeval.store._rows import (
    call_values,
    check_tail,
    event_values,
    get_match,
    get_run,
    insert_calls,
    lock_run,
    match_id_at,
    now,
    records,
    require_exists,
    role_values,
    seat_values,
)
from playeval.store.convert import call_row, event_record, run_record
from playeval.store.engine import create_store_engine, unavailable, writer
from playeval.store.errors import DuplicateMatch
from playeval.store.integrity import INTEGRITY_BUDGET_S, check_integrity, check_writable
from playeval.store.location import default_db_url
from playeval.store.migrate import upgrade_schema
from playeval.store.records import CallRow, CallTotals, EventRecord, MatchRecord, MatchStatus, RunRecord, RunStatus
from playeval.store.schema import EventRow, MatchRow, ModelCallRow, RoleRow, RunRow, SeatRow

RUN_ID_BYTES = 6
MATCH_ID_BYTES = 8

_CONFIG_ADAPTER: TypeAdapter[dict[str, Any]] = TypeAdapter(dict[str, Any])


def _int(value: Any) -> int | None:
    """A SQL sum as an ``int`` (PostgreSQL sums integers as ``numeric``), NULL as ``None``."""
    return None if value is None else int(value)


def _float(value: Any) -> float | None:
    return None if value is None else float(value)


class Store(ArenaTables, RetroTables, RunImports):
    """A playeval database. Create with :meth:`open`; safe to share across threads.

    Runs, matches, event logs and model calls are here; the arena's tables (``ArenaTables``), the
    retrospective analysis's (``RetroTables``) and the import of an exported run (``RunImports``) are mixed in.
    """

    def __init__(self, engine: Engine) -> None:
        """Wrap an engine whose schema is already at head (:meth:`open` does both)."""
        self._engine = engine
        self._reads: sessionmaker[Session] = sessionmaker(bind=engine)
        self._writer = writer(engine)
        self._writes: sessionmaker[Session] = sessionmaker(bind=self._writer)

    @classmethod
    def open(cls, url: str | None = None, *, write: bool = True,
             integrity_budget_s: float = INTEGRITY_BUDGET_S) -> Store:
        """Open (creating or upgrading the schema) the database at ``url``, default :func:`default_db_url`.

        A database that cannot be opened (a malformed URL, an unknown driver, a directory, a read-only file, a
        server that does not answer) raises :class:`StoreUnavailable`, whose message is the reason in one line.
        An SQLite file is checked first (``PRAGMA quick_check``, for at most ``integrity_budget_s`` seconds;
        :mod:`playeval.store.integrity`): a damaged file, or one that is no SQLite database, raises
        :class:`StoreDamaged` and is not written. With ``write`` (the default) a database that was opened
        read-only (an SQLite ``mode=ro`` URI) is refused too; a reader passes ``write=False``.
        The checks run here, once per open, never per transaction.
        """
        given = url if url is not None else default_db_url()
        engine = create_store_engine(given)
        try:
            check_integrity(engine, given, integrity_budget_s)
            upgrade_schema(engine)
            if write:
                check_writable(engine, given)
        except DBAPIError as exc:  # the driver could not connect, or open, read or write the file
            engine.dispose()
            raise unavailable(given, exc) from exc
        except BaseException:
            engine.dispose()
            raise
        return cls(engine)

    @property
    def url(self) -> str:
        """The database URL, password hidden."""
        return self._engine.url.render_as_string(hide_password=True)

    @property
    def engine(self) -> Engine:
        return self._engine

    def close(self) -> None:
        self._engine.dispose()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    # -- sessions -------------------------------------------------------------

    @contextmanager
    def _write(self) -> Iterator[Session]:
        with self._writes.begin() as session:
            yield session

    @contextmanager
    def _write_core(self) -> Iterator[Connection]:
        """A write transaction on a Core connection: the batch path's commits, cheaper than a session's."""
        with self._writer.begin() as connection:
            yield connection

    @contextmanager
    def _read(self) -> Iterator[Session]:
        with self._reads() as session:
            yield session

    # -- runs -----------------------------------------------------------------

    def create_run(self, game: str, level: int, config: Mapping[str, Any]) -> str:
        """Record a new batch run (status ``running``) and return its id."""
        run_id = secrets.token_hex(RUN_ID_BYTES)
        stored_config = _CONFIG_ADAPTER.dump_python(dict(config), mode="json")
        with self._write() as session:
            session.add(
                RunRow(id=run_id, created_at=now(), game=game, level=level, config=stored_config, status="running")
            )
        return run_id

    def get_run(self, run_id: str) -> RunRecord:
        with self._read() as session:
            return run_record(get_run(session, run_id))

    def latest_run_id(self) -> str | None:
        with self._read() as session:
            return session.scalars(
                select(RunRow.id).order_by(RunRow.created_at.desc(), RunRow.id.desc()).limit(1)
            ).first()

    def list_runs(self, limit: int = 20) -> list[RunRecord]:
        """The most recent runs, newest first."""
        with self._read() as session:
            rows = session.scalars(select(RunRow).order_by(RunRow.created_at.desc(), RunRow.id.desc()).limit(limit))
            return [run_record(row) for row in rows]

    def update_run_config(self, run_id: str, config: Mapping[str, Any]) -> None:
        """Replace a run's recorded configuration: a run that decides its next matches as it goes
        (``--until-separated``) records each round's allocation before playing it, so a resume plays the same."""
        stored_config = _CONFIG_ADAPTER.dump_python(dict(config), mode="json")
        with self._write() as session:
            get_run(session, run_id, lock=True).config = stored_config

    def set_run_status(self, run_id: str, status: RunStatus) -> None:
        if status not in get_args(RunStatus):
            raise ValueError(f"unknown run status {status!r}; expected one of {get_args(RunStatus)}")
        with self._write() as session:
            get_run(session, run_id, lock=True).status = status

    # -- matches --------------------------------------------------------------

    def _new_match_id(self) -> str:
        return secrets.token_hex(MATCH_ID_BYTES)

    def create_match(
        self,
        *,
        spec: MatchSpec,
        seats: Sequence[SeatAssignment],
        roles: Sequence[RoleAssignment] = (),
        run_id: str | None = None,
        match_index: int | None = None,
        evaluated_model: str | None = None,
        match_id: str | None = None,
        tail: Sequence[Entry] = (),
        outcome: Outcome | None = None,
    ) -> str:
        """Store a new match, its seats and roles and its ``MatchStarted`` event, all or nothing.

        ``match_id`` is one from :meth:`new_match_id` (else a fresh one). The batch path's recorder creates a
        match together with the first part of its log: ``tail`` (as for :meth:`append_tail`) and, with
        ``outcome``, its end, in the same transaction.

        Raises :class:`DuplicateMatch` if ``run_id`` already has a match at
        ``match_index``, and :class:`NotFoundError` if the run does not exist.
        """
        match_id = match_id or self._new_match_id()
        try:
            with self._write_core() as connection:
                self._create_in(connection, spec=spec, seats=seats, roles=roles, run_id=run_id, match_index=match_index,
                                evaluated_model=evaluated_model, match_id=match_id, tail=tail, outcome=outcome)
        except IntegrityError as exc:
            # A concurrent writer (another process on PostgreSQL) won the race.
            if run_id is not None and match_index is not None:
                with self._read() as session:
                    existing = match_id_at(session, run_id, match_index)
                if existing is not None:
                    raise DuplicateMatch(run_id, match_index, existing) from exc
            raise
        return match_id

    def new_match_id(self) -> str:
        """A fresh match id, for a match stored later (:meth:`create_match` with ``match_id``)."""
        return self._new_match_id()

    def _create_in(self, connection: Connection, *, spec: MatchSpec, seats: Sequence[SeatAssignment], match_id: str,
                   roles: Sequence[RoleAssignment] = (), run_id: str | None = None, match_index: int | None = None,
                   evaluated_model: str | None = None, tail: Sequence[Entry] = (),
                   outcome: Outcome | None = None) -> None:
        """:meth:`create_match`'s checks and writes, in ``connection``'s transaction."""
        seat_tuple, role_tuple = tuple(seats), tuple(roles)
        names = [seat.seat for seat in seat_tuple] + [role.role for role in role_tuple]
        if len(set(names)) != len(names):
            raise ValueError(f"seat and role names must be unique, got {names}")
        if match_index is not None and run_id is None:
            raise ValueError("match_index is only meaningful within a run; pass run_id too")
        for entry in tail:
            if isinstance(entry, (MatchStarted, MatchEnded)):
                raise TypeError(f"{entry.type} events are written by create_match / finish_match, not in a tail")
        if run_id is not None:
            lock_run(connection, run_id)
            if match_index is not None:
                existing = match_id_at(connection, run_id, match_index)
                if existing is not None:
                    raise DuplicateMatch(run_id, match_index, existing)
        if tail or outcome is not None:  # the log's start and its first part in one insert
            when = self._insert_rows(connection, match_id, spec, seat_tuple, role_tuple, run_id, match_index,
                                     evaluated_model, started=False, outcome=outcome)
            write_tail(connection, match_id, 1, [MatchStarted(spec=spec, seats=seat_tuple, roles=role_tuple), *tail],
                       when, outcome, finish_row=False)
        else:
            self._insert_rows(connection, match_id, spec, seat_tuple, role_tuple, run_id, match_index,
                              evaluated_model)

    def commit_tail(self, commit: TailCommit) -> None:
        """One commit of the batch path's recorder in a transaction of its own: the match created with the first
        part of its log (:meth:`create_match`), or a tail of its log appended (:meth:`append_tail`)."""
        if commit.creation is not None:
            self.create_match(**commit.creation, match_id=commit.match_id, tail=commit.entries,
                              outcome=commit.outcome)
        else:
            self.append_tail(commit.match_id, commit.entries, after_seq=commit.after_seq, outcome=commit.outcome)

    def commit_tails(self, commits: Sequence[TailCommit]) -> None:
        """Several commits of the batch path, in order, in one transaction: all land or none does (the first error
        is raised as it comes; a caller that wants the others to land commits each alone, :meth:`commit_tail`).
        A writer thread with several matches' commits waiting pays for one transaction, not one each."""
        with self._write_core() as connection:
            for commit in commits:
                if commit.creation is not None:
                    self._create_in(connection, **commit.creation, match_id=commit.match_id, tail=commit.entries,
                                    outcome=commit.outcome)
                else:
                    self._append_tail_in(connection, commit.match_id, commit.entries, commit.after_seq, commit.outcome)

    def _insert_match(self, session: Session, match_id: str, spec: MatchSpec, seats: tuple[SeatAssignment, ...],
                      roles: tuple[RoleAssignment, ...], run_id: str | None, match_index: int | None,
                      evaluated_model: str | None, *, started: bool = True) -> datetime:
        """The match's rows and (``started``) its ``MatchStarted`` event; returns the time they were written at."""
        return self._insert_rows(session.connection(), match_id, spec, seats, roles, run_id, match_index,
                                 evaluated_model, started=started)

    def _insert_rows(self, connection: Connection, match_id: str, spec: MatchSpec,
                     seats: tuple[SeatAssignment, ...], roles: tuple[RoleAssignment, ...], run_id: str | None,
                     match_index: int | None, evaluated_model: str | None, *, started: bool = True,
                     outcome: Outcome | None = None) -> datetime:
        """The match's rows and (``started``) its ``MatchStarted`` event; with ``outcome`` the row is inserted
        finished (the caller writes the log's ``MatchEnded``). Returns the time they were written at.

        Straight to SQLite's and psycopg's drivers, else through SQLAlchemy Core (a statement per table)."""
        when = now()
        found = markers(connection)
        if found is not None:
            insert_match(connection, found, match_id, spec, seats, roles, run_id, match_index, evaluated_model, when,
                         outcome)
        else:
            ended = {} if outcome is None else {"status": "finished", "outcome": outcome.model_dump(mode="json"),
                                                "ended_at": when}
            connection.execute(insert(core(MatchRow)), [{
                "id": match_id, "run_id": run_id, "match_index": match_index, "game": spec.game, "level": spec.level,
                "seed": spec.seed, "spec": spec.model_dump(mode="json"), "status": "running", "outcome": None,
                "evaluated_model": evaluated_model, "created_at": when, "ended_at": None, **ended}])
            if seats:
                connection.execute(insert(core(SeatRow)), seat_values(match_id, seats))
            if roles:
                connection.execute(insert(core(RoleRow)), role_values(match_id, roles))
        if started:
            insert_events(connection, match_id, 1, [MatchStarted(spec=spec, seats=seats, roles=roles)], when)
        return when

    def append_event(self, match_id: str, event: Event, *, after_seq: int | None = None) -> int:
        """Append ``event`` to a running match's log; returns its seq (1 is ``MatchStarted``).

        With ``after_seq`` the append is conditional: it raises :class:`LogMoved` (writing nothing) unless the
        log still ends at ``after_seq``, so two writers that read the same log cannot both extend it.
        """
        if isinstance(event, (MatchStarted, MatchEnded)):
            raise TypeError(f"{event.type} events are written by create_match / finish_match, not append_event")
        with self._write() as session:
            seq = open_log_end(session.connection(), match_id) + 1
            check_tail(match_id, seq, after_seq)
            session.connection().execute(insert(core(EventRow)), [event_values(match_id, seq, event, now())])
        return seq

    def append_move(self, match_id: str, attempts: Sequence[Attempt], *, after_seq: int | None = None) -> int:
        """Append a move's tries in one transaction: each try's model calls (marked with the move read from
        them, or the error) and its events. Returns the last seq; ``after_seq`` as for :meth:`append_event`."""
        when = now()
        with self._write() as session:
            connection = session.connection()
            seq = open_log_end(connection, match_id) + 1
            check_tail(match_id, seq, after_seq)
            return write_tail(connection, match_id, seq, attempts, when) - 1

    def append_tail(self, match_id: str, entries: Sequence[Entry], *, after_seq: int,
                    outcome: Outcome | None = None) -> int:
        """Append a buffered tail of a running match's log in one transaction: ``entries`` in log order (a try
        of a move stands for its model calls and events, as in :meth:`append_move`; an event for itself) and,
        with ``outcome``, the match's end (as :meth:`finish_match`). Returns the last seq written.

        The batch path's writer (``playeval.engine.BufferedRecorder``): the calls go in one statement and the
        events in another, and the log's end is read once per call, not per event. It must still end at
        ``after_seq``, else :class:`LogMoved` is raised and nothing is written.
        """
        with self._write_core() as connection:
            return self._append_tail_in(connection, match_id, entries, after_seq, outcome)

    def _append_tail_in(self, connection: Connection, match_id: str, entries: Sequence[Entry], after_seq: int,
                        outcome: Outcome | None) -> int:
        """:meth:`append_tail` in ``connection``'s transaction."""
        for entry in entries:
            if isinstance(entry, (MatchStarted, MatchEnded)):
                raise TypeError(f"{entry.type} events are written by create_match / finish_match, not append_tail")
        check_tail(match_id, open_log_end(connection, match_id) + 1, after_seq)
        return write_tail(connection, match_id, after_seq + 1, entries, now(), outcome) - 1

    def finish_match(self, match_id: str, outcome: Outcome, *, after_seq: int | None = None) -> None:
        """End a match: append ``MatchEnded`` and set the row's status, outcome and end time together.

        ``after_seq`` makes it conditional, as for :meth:`append_event`.
        """
        with self._write() as session:
            connection = session.connection()
            seq = open_log_end(connection, match_id) + 1
            check_tail(match_id, seq, after_seq)
            write_tail(connection, match_id, seq, (), now(), outcome)

    def last_seq(self, match_id: str) -> int:
        """The seq of a match's last event (cheap: what a live view polls)."""
        with self._read() as session:
            seq = session.scalar(select(func.max(EventRow.seq)).where(EventRow.match_id == match_id))
            if seq is None:
                get_match(session, match_id)
                return 0
            return int(seq)

    def last_seqs(self, match_ids: Sequence[str]) -> dict[str, int]:
        """The seq of the last event of each of ``match_ids`` that has events, in one query per 500 matches (what
        a process's live streams poll together); a match without events or not stored is left out."""
        found: dict[str, int] = {}
        with self._read() as session:
            for start in range(0, len(match_ids), 500):
                found.update((match_id, int(seq)) for match_id, seq in session.execute(
                    select(EventRow.match_id, func.max(EventRow.seq))
                    .where(EventRow.match_id.in_(match_ids[start:start + 500])).group_by(EventRow.match_id)))
        return found

    def list_matches(self, *, status: str | None = None) -> list[MatchRecord]:
        """Every match (of runs and of the arena), oldest first; only those with ``status`` if given."""
        with self._read() as session:
            query = select(MatchRow).order_by(MatchRow.created_at, MatchRow.id)
            if status is not None:
                query = query.where(MatchRow.status == status)
            return records(session, session.scalars(query).all())

    def get_match(self, match_id: str) -> MatchRecord:
        with self._read() as session:
            return records(session, [get_match(session, match_id)])[0]

    def run_matches(self, run_id: str) -> list[MatchRecord]:
        """A run's matches, by match index."""
        with self._read() as session:
            get_run(session, run_id)
            rows = session.scalars(
                select(MatchRow).where(MatchRow.run_id == run_id).order_by(MatchRow.match_index, MatchRow.created_at)
            ).all()
            return records(session, rows)

    def events(self, match_id: str) -> list[Event]:
        """A match's log, in order."""
        return [record.event for record in self.event_records(match_id)]

    def event_records(self, match_id: str) -> list[EventRecord]:
        """A match's log with seq, schema version and time of each event."""
        with self._read() as session:
            rows = session.scalars(select(EventRow).where(EventRow.match_id == match_id).order_by(EventRow.seq)).all()
            if not rows:
                get_match(session, match_id)
            return [event_record(row) for row in rows]

    # -- model calls ----------------------------------------------------------

    def add_calls(self, match_id: str | None, calls: Sequence[CallRecord], *, seat: str | None = None,
                  role: str | None = None) -> list[int]:
        """Store model calls (of a match's seat or role, or of nothing in particular); returns their ids."""
        if not calls:
            return []
        when = now()
        with self._write() as session:
            if match_id is not None:
                require_exists(session, match_id)
            return insert_calls(session, [call_values(match_id, seat, role, call, when) for call in calls])

    def mark_calls(self, call_ids: Sequence[int], *, parsed: str | None, error: str | None) -> None:
        """Record how the reply behind these calls was read: the parsed move, or the error."""
        wanted = sorted(set(call_ids))
        if not wanted:
            return
        with self._write() as session:
            result = session.execute(
                update(ModelCallRow).where(ModelCallRow.id.in_(wanted)).values(parsed=parsed, error=error)
                .execution_options(synchronize_session=False)
            )
            if result.rowcount != len(wanted):  # type: ignore[attr-defined]
                found = set(session.scalars(select(ModelCallRow.id).where(ModelCallRow.id.in_(wanted))))
                raise NotFoundError(f"no model calls with ids {sorted(set(wanted) - found)}")

    def calls(self, match_id: str) -> list[CallRow]:
        """A match's model calls, in the order they were stored."""
        with self._read() as session:
            get_match(session, match_id)
            rows = session.scalars(
                select(ModelCallRow).where(ModelCallRow.match_id == match_id).order_by(ModelCallRow.id)
            )
            return [call_row(row) for row in rows]

    def recent_latencies(self, model: str, limit: int = 50) -> list[float]:
        """How long the model's latest ``limit`` calls took, newest first: the calls of seats and roles the model
        made itself, a reply the game refused or a call that failed included (a person waited for them too), a
        cached reply and the retrospective analysis's calls left out."""
        with self._read() as session:
            query = (select(ModelCallRow.latency_s)
                     .where(ModelCallRow.model == model, ModelCallRow.cached.is_(False),
                            or_(ModelCallRow.role.is_(None), ~ModelCallRow.role.startswith("retro:")))
                     .order_by(ModelCallRow.id.desc()).limit(limit))
            return [float(value) for value in session.scalars(query)]

    def call_totals(self, run_id: str) -> list[CallTotals]:
        """Per model, in the order of its first call: the counts, tokens, known cost and reported work of every
        stored call of the run's matches (one aggregate query, however many matches). A work figure's SQL ``SUM``
        skips the calls that did not report it and is NULL (``None``) when none did."""
        call = ModelCallRow
        fresh_unpriced = case((call.cost_usd.is_(None) & ~call.cached, 1), else_=0)
        figures = (call.prompt_evaluated, call.prompt_needed, call.prompt_s, call.generation_s)
        reported = case((or_(*(figure.is_not(None) for figure in figures)), 1), else_=0)
        generated = case((call.generation_s.is_not(None), call.completion_tokens), else_=0)
        with self._read() as session:
            get_run(session, run_id)
            rows = session.execute(
                select(call.model, func.count(), func.sum(case((call.cached, 1), else_=0)),
                       func.sum(call.prompt_tokens), func.sum(call.completion_tokens),
                       func.sum(call.cost_usd), func.sum(fresh_unpriced), func.sum(reported),
                       *(func.sum(figure) for figure in figures), func.sum(generated))
                .join(MatchRow, MatchRow.id == call.match_id)
                .where(MatchRow.run_id == run_id)
                .group_by(call.model)
                .order_by(func.min(call.id))
            ).all()
        return [CallTotals(model=model, calls=int(calls), cached_calls=int(cached or 0),
                           prompt_tokens=int(prompt or 0), completion_tokens=int(completion or 0),
                           priced_cost_usd=float(cost or 0.0), unpriced_calls=int(unpriced or 0),
                           work=WorkTotals(calls=int(worked or 0), prompt_evaluated=_int(evaluated),
                                           prompt_needed=_int(needed), prompt_s=_float(prompt_s),
                                           generation_s=_float(generation_s), generated_tokens=int(tokens or 0)))
                for (model, calls, cached, prompt, completion, cost, unpriced, worked, evaluated, needed, prompt_s,
                     generation_s, tokens) in rows]

    # -- interrupted matches ----------------------------------------------------

    def set_unfinished_matches(self, run_id: str, status: MatchStatus, reason: str | None = None) -> int:
        """Set every unfinished (``running`` or ``interrupted``) match of a run to ``status`` with
        ``stop_reason`` ``reason``; returns how many there were.

        A run that stops leaves its unfinished matches ``interrupted`` with the reason; ``--resume`` sets them
        back to ``running`` (clearing the reason) before playing them on from their events.
        """
        if status not in ("running", "interrupted"):
            raise ValueError(f"unfinished matches are 'running' or 'interrupted', not {status!r}")
        with self._write() as session:
            get_run(session, run_id, lock=True)
            result = session.execute(
                update(MatchRow)
                .where(MatchRow.run_id == run_id, MatchRow.status.in_(("running", "interrupted")))
                .values(status=status, stop_reason=reason)
                .execution_options(synchronize_session=False)
            )
            return int(result.rowcount)  # type: ignore[attr-defined]

