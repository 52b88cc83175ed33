"""The store's part for the web arena: arena matches, the people's seats, the model-move lease, surveys."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from datetime import datetime, timedelta

from sqlalchemy import or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from playeval.core.errors import NotFoundError
from playeval.core.events import RoleAssignment, SeatAssignment
from playeval.core.match import MatchSpec
from playeval.store._rows import get_match, now, records
from playeval.store.errors import DuplicateSurvey
from playeval.store.records import MatchRecord, SurveyRecord, WebMatchRecord, WebMode, WebSeatRecord
from playeval.store.schema import MatchRow, SurveyRow, WebMatchRow, WebSeatRow

SURVEY_QUESTIONS: tuple[str, ...] = ("enjoyment", "satisfaction", "frequency")


def _web_record(row: WebMatchRow, people: Sequence[WebSeatRow]) -> WebMatchRecord:
    return WebMatchRecord(match_id=row.match_id, mode=row.mode, anonymous=row.anonymous,  # type: ignore[arg-type]
                          created_at=row.created_at, lease_owner=row.lease_owner, lease_until=row.lease_until,
                          stand_in=row.stand_in,
                          people=tuple(WebSeatRecord(seat=p.seat, token_sha256=p.token_sha256, joined_at=p.joined_at,
                                                     left_at=p.left_at) for p in people))


def _survey_record(row: SurveyRow) -> SurveyRecord:
    return SurveyRecord(match_id=row.match_id, enjoyment=row.enjoyment, satisfaction=row.satisfaction,
                        frequency=row.frequency, created_at=row.created_at)


def _people(session: Session, match_ids: Sequence[str]) -> dict[str, list[WebSeatRow]]:
    found: dict[str, list[WebSeatRow]] = {match_id: [] for match_id in match_ids}
    if match_ids:
        query = select(WebSeatRow).where(WebSeatRow.match_id.in_(match_ids)).order_by(WebSeatRow.seat)
        for row in session.scalars(query):
            found[row.match_id].append(row)
    return found


class ArenaTables:
    """Mixed into :class:`~playeval.store.Store`."""

    def _write(self) -> AbstractContextManager[Session]:
        raise NotImplementedError

    def _read(self) -> AbstractContextManager[Session]:
        raise NotImplementedError

    def _insert_match(self, session: Session, match_id: str, spec: MatchSpec, seats: tuple[SeatAssignment, ...],
                      roles: tuple[RoleAssignment, ...], run_id: str | None, match_index: int | None,
                      evaluated_model: str | None, *, started: bool = True) -> datetime:
        raise NotImplementedError

    def _new_match_id(self) -> str:
        raise NotImplementedError

    def create_web_match(self, *, spec: MatchSpec, seats: Sequence[SeatAssignment], mode: WebMode,
                         people: Mapping[str, str | None], joined: Sequence[str] = (), anonymous: bool,
                         roles: Sequence[RoleAssignment] = (), stand_in: str | None = None) -> str:
        """Store an arena match: the match, its seats and roles, its ``MatchStarted`` event, its web row and one
        row per person's seat (``people``: seat to its token's SHA-256), all or nothing. The seats in
        ``joined`` are taken from the start (the person who set the table up)."""
        if mode not in ("play", "watch"):
            raise ValueError(f"unknown arena mode {mode!r}; expected 'play' or 'watch'")
        seat_tuple = tuple(seats)
        names = [seat.seat for seat in seat_tuple]
        if len(set(names)) != len(names):
            raise ValueError(f"seat names must be unique, got {names}")
        unknown = sorted(set(people) - set(names))
        if unknown:
            raise ValueError(f"the people's seats {unknown} are not among {names}")
        if set(joined) - set(people):
            raise ValueError("only a person's seat can be joined")
        match_id = self._new_match_id()
        when = now()
        with self._write() as session:
            self._insert_match(session, match_id, spec, seat_tuple, tuple(roles), None, None, None)
            session.flush()
            session.add(WebMatchRow(match_id=match_id, mode=mode, anonymous=anonymous, created_at=when,
                                    lease_owner=None, lease_until=None, stand_in=stand_in))
            session.flush()
            session.add_all(WebSeatRow(match_id=match_id, seat=seat, token_sha256=token,
                                       joined_at=when if seat in joined else None, left_at=None)
                            for seat, token in people.items())
        return match_id

    def get_web_match(self, match_id: str) -> WebMatchRecord:
        """The arena row of a match; :class:`NotFoundError` when the match was not played in the arena."""
        with self._read() as session:
            row = session.get(WebMatchRow, match_id)
            if row is None:
                raise NotFoundError(f"no arena match with id {match_id!r}")
            return _web_record(row, _people(session, [match_id])[match_id])

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
            people = _people(session, [web.match_id for web, _ in pairs])
            matches = records(session, [match for _, match in pairs])
            return [(_web_record(web, people[web.match_id]), match) for (web, _), match in zip(pairs, matches,
                                                                                              strict=True)]

    def join_seat(self, match_id: str, seat: str) -> bool:
        """Mark a person's seat as joined (once); False when it already was, or is no person's seat."""
        with self._write() as session:
            result = session.execute(
                update(WebSeatRow).where(WebSeatRow.match_id == match_id, WebSeatRow.seat == seat,
                                         WebSeatRow.joined_at.is_(None))
                .values(joined_at=now()).execution_options(synchronize_session=False))
            return bool(result.rowcount == 1)  # type: ignore[attr-defined]

    def leave_seat(self, match_id: str, seat: str, when: datetime | None = None) -> bool:
        """Mark that the person of a seat left (or never came); False when already marked."""
        with self._write() as session:
            result = session.execute(
                update(WebSeatRow).where(WebSeatRow.match_id == match_id, WebSeatRow.seat == seat,
                                         WebSeatRow.left_at.is_(None))
                .values(left_at=when or now()).execution_options(synchronize_session=False))
            return bool(result.rowcount == 1)  # type: ignore[attr-defined]

    def take_lease(self, match_id: str, owner: str, seconds: float) -> bool:
        """Take the right to move an arena match's models for ``seconds``, if nobody else holds it.

        One conditional UPDATE: it succeeds when the lease is free, expired, or already ``owner``'s, so two
        processes asking at once cannot both get it. Returns whether ``owner`` now holds the lease.
        """
        when = now()
        with self._write() as session:
            result = session.execute(
                update(WebMatchRow)
                .where(WebMatchRow.match_id == match_id,
                       or_(WebMatchRow.lease_until.is_(None), WebMatchRow.lease_until < when,
                           WebMatchRow.lease_owner == owner))
                .values(lease_owner=owner, lease_until=when + timedelta(seconds=seconds))
                .execution_options(synchronize_session=False)
            )
            return bool(result.rowcount == 1)  # type: ignore[attr-defined]

    def renew_lease(self, match_id: str, owner: str, seconds: float) -> bool:
        """Extend ``owner``'s lease by ``seconds`` from now; False when it is no longer ``owner``'s."""
        with self._write() as session:
            result = session.execute(
                update(WebMatchRow)
                .where(WebMatchRow.match_id == match_id, WebMatchRow.lease_owner == owner)
                .values(lease_until=now() + timedelta(seconds=seconds))
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
                get_match(session, match_id)
                if session.get(SurveyRow, match_id) is not None:
                    raise DuplicateSurvey(match_id)
                row = SurveyRow(match_id=match_id, created_at=now(), **answers)
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
