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
from datetime import UTC, datetime, timedelta
from types import TracebackType
from typing import Any, Self, get_args

from pydantic import TypeAdapter
from sqlalchemy import func, insert, or_, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from playeval.core.ask import CallRecord
from playeval.core.errors import NotFoundError
from playeval.core.events import SCHEMA_VERSION, Event, MatchEnded, MatchStarted, SeatAssignment
from playeval.core.match import MatchSpec, Outcome
from playeval.store.convert import call_row, event_record, match_record, run_record
from playeval.store.engine import create_store_engine, writer
from playeval.store.errors import DuplicateMatch, DuplicateRetro, DuplicateSurvey, LogMoved, MatchClosed
from playeval.store.location import default_db_url
from playeval.store.migrate import upgrade_schema
from playeval.store.records import (
    CallRow,
    EventRecord,
    MatchRecord,
    RetroOutputKind,
    RetroRecord,
    RunRecord,
    RunStatus,
    SurveyRecord,
    WebMatchRecord,
    WebMode,
)
from playeval.store.schema import (
    EventRow,
    MatchRow,
    ModelCallRow,
    RetroOutputRow,
    RunRow,
    SeatRow,
    SurveyRow,
    WebMatchRow,
)

RUN_ID_BYTES = 6
MATCH_ID_BYTES = 8

_CONFIG_ADAPTER: TypeAdapter[dict[str, Any]] = TypeAdapter(dict[str, Any])


def _now() -> datetime:
    return datetime.now(UTC)


class Store:
    """A playeval database. Create with :meth:`open`; safe to share across threads."""

    def __init__(self, engine: Engine) -> None:
        """Wrap an engine whose schema is already at head (:meth:`open` does both)."""
        self._engine = engine
        self._reads: sessionmaker[Session] = sessionmaker(bind=engine)
        self._writes: sessionmaker[Session] = sessionmaker(bind=writer(engine))

    @classmethod
    def open(cls, url: str | None = None) -> Store:
        """Open (creating or upgrading the schema) the database at ``url``, default :func:`default_db_url`."""
        engine = create_store_engine(url if url is not None else default_db_url())
        try:
            upgrade_schema(engine)
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
                RunRow(id=run_id, created_at=_now(), game=game, level=level, config=stored_config, status="running")
            )
        return run_id

    def get_run(self, run_id: str) -> RunRecord:
        with self._read() as session:
            return run_record(_get_run(session, run_id))

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

    def set_run_status(self, run_id: str, status: RunStatus) -> None:
        if status not in get_args(RunStatus):
            raise ValueError(f"unknown run status {status!r}; expected one of {get_args(RunStatus)}")
        with self._write() as session:
            _get_run(session, run_id, lock=True).status = status

    # -- matches --------------------------------------------------------------

    def create_match(
        self,
        *,
        spec: MatchSpec,
        seats: Sequence[SeatAssignment],
        run_id: str | None = None,
        match_index: int | None = None,
        evaluated_model: str | None = None,
    ) -> str:
        """Store a new match, its seats and its ``MatchStarted`` event, all or nothing.

        Raises :class:`DuplicateMatch` if ``run_id`` already has a match at
        ``match_index``, and :class:`NotFoundError` if the run does not exist.
        """
        seat_tuple = tuple(seats)
        names = [seat.seat for seat in seat_tuple]
        if len(set(names)) != len(names):
            raise ValueError(f"seat names must be unique, got {names}")
        if match_index is not None and run_id is None:
            raise ValueError("match_index is only meaningful within a run; pass run_id too")
        match_id = secrets.token_hex(MATCH_ID_BYTES)
        try:
            with self._write() as session:
                if run_id is not None:
                    _get_run(session, run_id, lock=True)
                    if match_index is not None:
                        existing = _match_id_at(session, run_id, match_index)
                        if existing is not None:
                            raise DuplicateMatch(run_id, match_index, existing)
                self._insert_match(session, match_id, spec, seat_tuple, run_id, match_index, evaluated_model)
        except IntegrityError as exc:
            # A concurrent writer (another process on PostgreSQL) won the race.
            if run_id is not None and match_index is not None:
                with self._read() as session:
                    existing = _match_id_at(session, run_id, match_index)
                if existing is not None:
                    raise DuplicateMatch(run_id, match_index, existing) from exc
            raise
        return match_id

    def _insert_match(
        self,
        session: Session,
        match_id: str,
        spec: MatchSpec,
        seats: tuple[SeatAssignment, ...],
        run_id: str | None,
        match_index: int | None,
        evaluated_model: str | None,
    ) -> None:
        now = _now()
        session.add(
            MatchRow(
                id=match_id,
                run_id=run_id,
                match_index=match_index,
                game=spec.game,
                level=spec.level,
                seed=spec.seed,
                spec=spec.model_dump(mode="json"),
                status="running",
                outcome=None,
                evaluated_model=evaluated_model,
                created_at=now,
                ended_at=None,
            )
        )
        session.flush()
        session.add_all(
            SeatRow(
                match_id=match_id,
                seat=seat.seat,
                position=position,
                player_kind=seat.player_kind,
                model=seat.model,
                prompt_variant=seat.prompt_variant,
            )
            for position, seat in enumerate(seats)
        )
        session.add(_event_row(match_id, 1, MatchStarted(spec=spec, seats=seats), now))

    def append_event(self, match_id: str, event: Event, *, after_seq: int | None = None) -> int:
        """Append ``event`` to a running match's log; returns its seq (1 is ``MatchStarted``).

        With ``after_seq`` the append is conditional: it raises :class:`LogMoved` (writing nothing) unless the
        log still ends at ``after_seq``, so two writers that read the same log cannot both extend it.
        This is the engine's hot path, so it uses plain statements, not ORM objects.
        """
        if isinstance(event, (MatchStarted, MatchEnded)):
            raise TypeError(f"{event.type} events are written by create_match / finish_match, not append_event")
        with self._write() as session:
            _require_running(session, match_id)
            seq = _next_seq(session, match_id)
            _check_tail(match_id, seq, after_seq)
            session.execute(insert(EventRow), [_event_values(match_id, seq, event, _now())])
        return seq

    def finish_match(self, match_id: str, outcome: Outcome, *, after_seq: int | None = None) -> None:
        """End a match: append ``MatchEnded`` and set the row's status, outcome and end time together.

        ``after_seq`` makes it conditional, as for :meth:`append_event`.
        """
        with self._write() as session:
            match = _get_open_match(session, match_id)
            seq = _next_seq(session, match_id)
            _check_tail(match_id, seq, after_seq)
            now = _now()
            session.add(_event_row(match_id, seq, MatchEnded(outcome=outcome), now))
            match.status = "finished"
            match.outcome = outcome.model_dump(mode="json")
            match.ended_at = now

    def last_seq(self, match_id: str) -> int:
        """The seq of a match's last event (cheap: what a live view polls)."""
        with self._read() as session:
            seq = session.scalar(select(func.max(EventRow.seq)).where(EventRow.match_id == match_id))
            if seq is None:
                _get_match(session, match_id)
                return 0
            return int(seq)

    def list_matches(self, *, status: str | None = None) -> list[MatchRecord]:
        """Every match (of runs and of the arena), oldest first; only those with ``status`` if given."""
        with self._read() as session:
            query = select(MatchRow).order_by(MatchRow.created_at, MatchRow.id)
            if status is not None:
                query = query.where(MatchRow.status == status)
            rows = session.scalars(query).all()
            seats: dict[str, list[SeatRow]] = {row.id: [] for row in rows}
            for seat in session.scalars(select(SeatRow)):
                if seat.match_id in seats:
                    seats[seat.match_id].append(seat)
            return [match_record(row, seats[row.id]) for row in rows]

    def get_match(self, match_id: str) -> MatchRecord:
        with self._read() as session:
            row = _get_match(session, match_id)
            seats = session.scalars(select(SeatRow).where(SeatRow.match_id == match_id)).all()
            return match_record(row, seats)

    def run_matches(self, run_id: str) -> list[MatchRecord]:
        """A run's matches, by match index."""
        with self._read() as session:
            _get_run(session, run_id)
            rows = session.scalars(
                select(MatchRow).where(MatchRow.run_id == run_id).order_by(MatchRow.match_index, MatchRow.created_at)
            ).all()
            seats: dict[str, list[SeatRow]] = {row.id: [] for row in rows}
            seat_rows = session.scalars(
                select(SeatRow).join(MatchRow, SeatRow.match_id == MatchRow.id).where(MatchRow.run_id == run_id)
            )
            for seat in seat_rows:
                seats[seat.match_id].append(seat)
            return [match_record(row, seats[row.id]) for row in rows]

    def events(self, match_id: str) -> list[Event]:
        """A match's log, in order."""
        return [record.event for record in self.event_records(match_id)]

    def event_records(self, match_id: str) -> list[EventRecord]:
        """A match's log with seq, schema version and time of each event."""
        with self._read() as session:
            rows = session.scalars(select(EventRow).where(EventRow.match_id == match_id).order_by(EventRow.seq)).all()
            if not rows:
                _get_match(session, match_id)
            return [event_record(row) for row in rows]

    # -- model calls ----------------------------------------------------------

    def add_calls(self, match_id: str | None, seat: str | None, calls: Sequence[CallRecord]) -> list[int]:
        """Store model calls (of a match's seat, or of nothing in particular); returns their ids in order."""
        if not calls:
            return []
        now = _now()
        with self._write() as session:
            if match_id is not None:
                _require_exists(session, match_id)
            return [
                session.execute(insert(ModelCallRow).values(_call_values(match_id, seat, call, now))
                                .returning(ModelCallRow.id)).scalar_one()
                for call in calls
            ]

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
            _get_match(session, match_id)
            rows = session.scalars(
                select(ModelCallRow).where(ModelCallRow.match_id == match_id).order_by(ModelCallRow.id)
            )
            return [call_row(row) for row in rows]

    # -- retrospective analysis -------------------------------------------------

    def add_retro(self, match_id: str, round_: int, kind: RetroOutputKind, model: str, *, output: Any | None,
                  error: str | None, calls: Sequence[CallRecord]) -> RetroRecord:
        """Store one round's retrospective output and the model calls behind it, in one transaction.

        A second output for the same (match, round, kind) raises ``DuplicateRetro``: outputs are never replaced.
        """
        now = _now()
        try:
            with self._write() as session:
                _get_match(session, match_id)
                call_ids = [
                    session.execute(insert(ModelCallRow).values(_call_values(match_id, f"retro:{kind}", call, now))
                                    .returning(ModelCallRow.id)).scalar_one()
                    for call in calls
                ]
                row = RetroOutputRow(match_id=match_id, round=round_, kind=kind, model=model, output=output,
                                     error=error, call_ids=call_ids, created_at=now)
                session.add(row)
                session.flush()
                return _retro_record(row)
        except IntegrityError as err:
            raise DuplicateRetro(match_id, round_, kind) from err

    def all_retro_outputs(self) -> dict[str, list[RetroRecord]]:
        """Every stored retrospective output, by match id (each match's by kind then round)."""
        found: dict[str, list[RetroRecord]] = {}
        with self._read() as session:
            rows = session.scalars(select(RetroOutputRow).order_by(RetroOutputRow.match_id, RetroOutputRow.kind,
                                                                   RetroOutputRow.round))
            for row in rows:
                found.setdefault(row.match_id, []).append(_retro_record(row))
        return found

    def retro_outputs(self, match_id: str) -> list[RetroRecord]:
        """A match's retrospective outputs, by kind then round."""
        with self._read() as session:
            _get_match(session, match_id)
            rows = session.scalars(
                select(RetroOutputRow).where(RetroOutputRow.match_id == match_id)
                .order_by(RetroOutputRow.kind, RetroOutputRow.round)
            )
            return [_retro_record(row) for row in rows]


    # -- the web arena ----------------------------------------------------------

    def create_web_match(self, *, spec: MatchSpec, seats: Sequence[SeatAssignment], mode: WebMode,
                         human_seat: str | None, token_sha256: str | None, anonymous: bool) -> str:
        """Store an arena match: the match, its seats, its ``MatchStarted`` event and its web row, all or nothing."""
        if mode not in ("play", "watch"):
            raise ValueError(f"unknown arena mode {mode!r}; expected 'play' or 'watch'")
        seat_tuple = tuple(seats)
        names = [seat.seat for seat in seat_tuple]
        if len(set(names)) != len(names):
            raise ValueError(f"seat names must be unique, got {names}")
        if human_seat is not None and human_seat not in names:
            raise ValueError(f"the person's seat {human_seat!r} is not one of {names}")
        match_id = secrets.token_hex(MATCH_ID_BYTES)
        with self._write() as session:
            self._insert_match(session, match_id, spec, seat_tuple, None, None, None)
            session.flush()
            session.add(WebMatchRow(match_id=match_id, mode=mode, human_seat=human_seat, token_sha256=token_sha256,
                                    anonymous=anonymous, created_at=_now(), lease_owner=None, lease_until=None))
        return match_id

    def get_web_match(self, match_id: str) -> WebMatchRecord:
        """The arena row of a match; :class:`NotFoundError` when the match was not played in the arena."""
        with self._read() as session:
            row = session.get(WebMatchRow, match_id)
            if row is None:
                raise NotFoundError(f"no arena match with id {match_id!r}")
            return _web_record(row)

    def web_matches(self, *, mode: WebMode | None = None, status: str | None = None,
                    limit: int | None = None) -> list[tuple[WebMatchRecord, MatchRecord]]:
        """Arena matches, newest first, with their match records; filtered by mode and match status."""
        with self._read() as session:
            query = (select(WebMatchRow, MatchRow).join(MatchRow, MatchRow.id == WebMatchRow.match_id)
                     .order_by(WebMatchRow.created_at.desc(), WebMatchRow.match_id))
            if mode is not None:
                query = query.where(WebMatchRow.mode == mode)
            if status is not None:
                query = query.where(MatchRow.status == status)
            if limit is not None:
                query = query.limit(limit)
            pairs = [(web, match) for web, match in session.execute(query)]
            ids = [web.match_id for web, _ in pairs]
            seats: dict[str, list[SeatRow]] = {match_id: [] for match_id in ids}
            if ids:
                for seat in session.scalars(select(SeatRow).where(SeatRow.match_id.in_(ids))):
                    seats[seat.match_id].append(seat)
            return [(_web_record(web), match_record(match, seats[match.id])) for web, match in pairs]

    def take_lease(self, match_id: str, owner: str, seconds: float) -> bool:
        """Take the right to move an arena match's model seat for ``seconds``, if nobody else holds it.

        One conditional UPDATE: it succeeds when the lease is free, expired, or already ``owner``'s, so two
        processes asking at once cannot both get it. Returns whether ``owner`` now holds the lease.
        """
        now = _now()
        with self._write() as session:
            result = session.execute(
                update(WebMatchRow)
                .where(WebMatchRow.match_id == match_id,
                       or_(WebMatchRow.lease_until.is_(None), WebMatchRow.lease_until < now,
                           WebMatchRow.lease_owner == owner))
                .values(lease_owner=owner, lease_until=now + timedelta(seconds=seconds))
                .execution_options(synchronize_session=False)
            )
            return bool(result.rowcount == 1)  # type: ignore[attr-defined]

    def renew_lease(self, match_id: str, owner: str, seconds: float) -> bool:
        """Extend ``owner``'s lease by ``seconds`` from now; False when it is no longer ``owner``'s."""
        now = _now()
        with self._write() as session:
            result = session.execute(
                update(WebMatchRow)
                .where(WebMatchRow.match_id == match_id, WebMatchRow.lease_owner == owner)
                .values(lease_until=now + timedelta(seconds=seconds))
                .execution_options(synchronize_session=False)
            )
            return bool(result.rowcount == 1)  # type: ignore[attr-defined]

    def release_lease(self, match_id: str, owner: str) -> None:
        """Give the lease back, if ``owner`` still holds it."""
        with self._write() as session:
            session.execute(
                update(WebMatchRow)
                .where(WebMatchRow.match_id == match_id, WebMatchRow.lease_owner == owner)
                .values(lease_owner=None, lease_until=None)
                .execution_options(synchronize_session=False)
            )

    def add_survey(self, match_id: str, *, enjoyment: int, satisfaction: int, frequency: int) -> SurveyRecord:
        """Store a match's survey; :class:`DuplicateSurvey` if it already has one. Answers are 1-5."""
        answers = {"enjoyment": enjoyment, "satisfaction": satisfaction, "frequency": frequency}
        for name, value in answers.items():
            if not 1 <= value <= 5:
                raise ValueError(f"survey answer {name} must be 1 to 5, not {value}")
        try:
            with self._write() as session:
                _get_match(session, match_id)
                if session.get(SurveyRow, match_id) is not None:
                    raise DuplicateSurvey(match_id)
                row = SurveyRow(match_id=match_id, created_at=_now(), **answers)
                session.add(row)
                session.flush()
                return _survey_record(row)
        except IntegrityError as err:  # a concurrent writer stored one first
            raise DuplicateSurvey(match_id) from err

    def get_survey(self, match_id: str) -> SurveyRecord | None:
        with self._read() as session:
            row = session.get(SurveyRow, match_id)
            return None if row is None else _survey_record(row)

    def surveys(self) -> list[SurveyRecord]:
        """Every survey, oldest first."""
        with self._read() as session:
            rows = session.scalars(select(SurveyRow).order_by(SurveyRow.created_at, SurveyRow.match_id))
            return [_survey_record(row) for row in rows]


def _web_record(row: WebMatchRow) -> WebMatchRecord:
    return WebMatchRecord(match_id=row.match_id, mode=row.mode, human_seat=row.human_seat,  # type: ignore[arg-type]
                          token_sha256=row.token_sha256, anonymous=row.anonymous, created_at=row.created_at,
                          lease_owner=row.lease_owner, lease_until=row.lease_until)


def _survey_record(row: SurveyRow) -> SurveyRecord:
    return SurveyRecord(match_id=row.match_id, enjoyment=row.enjoyment, satisfaction=row.satisfaction,
                        frequency=row.frequency, created_at=row.created_at)


def _check_tail(match_id: str, next_seq: int, after_seq: int | None) -> None:
    if after_seq is not None and next_seq != after_seq + 1:
        raise LogMoved(match_id, after_seq, next_seq - 1)


def _retro_record(row: RetroOutputRow) -> RetroRecord:
    return RetroRecord(match_id=row.match_id, round=row.round, kind=row.kind,  # type: ignore[arg-type]
                       model=row.model, output=row.output, error=row.error, call_ids=tuple(row.call_ids),
                       created_at=row.created_at)


# -- helpers on an open session ------------------------------------------------


def _row_lock(lock: bool) -> dict[str, bool] | None:
    """``FOR NO KEY UPDATE`` on PostgreSQL when locking (it does not block foreign-key checks); nothing on SQLite."""
    return {"key_share": True} if lock else None


def _get_run(session: Session, run_id: str, *, lock: bool = False) -> RunRow:
    row = session.get(RunRow, run_id, with_for_update=_row_lock(lock))
    if row is None:
        raise NotFoundError(f"no run with id {run_id!r}")
    return row


def _get_match(session: Session, match_id: str, *, lock: bool = False) -> MatchRow:
    row = session.get(MatchRow, match_id, with_for_update=_row_lock(lock))
    if row is None:
        raise NotFoundError(f"no match with id {match_id!r}")
    return row


def _get_open_match(session: Session, match_id: str) -> MatchRow:
    """The match row, locked (PostgreSQL) against concurrent appends; it must still be running."""
    row = _get_match(session, match_id, lock=True)
    if row.status != "running":
        raise MatchClosed(match_id)
    return row


def _require_exists(session: Session, match_id: str) -> None:
    if session.scalar(select(MatchRow.id).where(MatchRow.id == match_id)) is None:
        raise NotFoundError(f"no match with id {match_id!r}")


def _require_running(session: Session, match_id: str) -> None:
    """The match must exist and still run; on PostgreSQL its row is locked against concurrent appends."""
    query = select(MatchRow.status).where(MatchRow.id == match_id)
    if session.get_bind().dialect.name == "postgresql":
        query = query.with_for_update(key_share=True)
    status = session.scalar(query)
    if status is None:
        raise NotFoundError(f"no match with id {match_id!r}")
    if status != "running":
        raise MatchClosed(match_id)


def _match_id_at(session: Session, run_id: str, match_index: int) -> str | None:
    return session.scalars(
        select(MatchRow.id).where(MatchRow.run_id == run_id, MatchRow.match_index == match_index)
    ).first()


def _next_seq(session: Session, match_id: str) -> int:
    current = session.scalar(select(func.max(EventRow.seq)).where(EventRow.match_id == match_id))
    return (current or 0) + 1


def _event_values(match_id: str, seq: int, event: Event, now: datetime) -> dict[str, Any]:
    return {
        "match_id": match_id,
        "seq": seq,
        "type": event.type,
        "schema_version": SCHEMA_VERSION,
        "payload": event.model_dump(mode="json"),
        "created_at": now,
    }


def _event_row(match_id: str, seq: int, event: Event, now: datetime) -> EventRow:
    return EventRow(**_event_values(match_id, seq, event, now))


def _call_values(match_id: str | None, seat: str | None, call: CallRecord, now: datetime) -> dict[str, Any]:
    dumped = call.model_dump(mode="json")
    return {
        "match_id": match_id,
        "seat": seat,
        "model": call.model,
        "messages": dumped["messages"],
        "params": dumped["params"],
        "raw_output": call.raw_output,
        "parsed": None,
        "error": None,
        "prompt_tokens": call.prompt_tokens,
        "completion_tokens": call.completion_tokens,
        "latency_s": call.latency_s,
        "cached": call.cached,
        "attempts": call.attempts,
        "created_at": now,
    }
