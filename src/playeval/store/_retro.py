"""The store's part for the retrospective analysis: outputs per round, with their model calls."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from playeval.core.ask import CallRecord
from playeval.store._rows import call_values, get_match, insert_calls, now
from playeval.store.errors import DuplicateRetro
from playeval.store.records import RetroOutputKind, RetroRecord
from playeval.store.schema import RetroOutputRow

RETRO_ROLE_PREFIX = "retro:"
"""A retrospective output's calls are stored under the role ``retro:<kind>``."""


def _retro_record(row: RetroOutputRow) -> RetroRecord:
    return RetroRecord(match_id=row.match_id, round=row.round, kind=row.kind, model=row.model, output=row.output,
                       error=row.error, call_ids=tuple(row.call_ids), created_at=row.created_at)


class RetroTables:
    """Mixed into :class:`~playeval.store.Store`."""

    def _write(self) -> AbstractContextManager[Session]:
        raise NotImplementedError

    def _read(self) -> AbstractContextManager[Session]:
        raise NotImplementedError

    def add_retro(self, match_id: str, round_: int, kind: RetroOutputKind, model: str, *, output: Any | None,
                  error: str | None, calls: Sequence[CallRecord]) -> RetroRecord:
        """Store one round's retrospective output and the model calls behind it, in one transaction.

        A second output for the same (match, round, kind) raises ``DuplicateRetro``: outputs are never replaced.
        """
        when = now()
        try:
            with self._write() as session:
                get_match(session, match_id)
                call_ids = insert_calls(session, [call_values(match_id, None, f"{RETRO_ROLE_PREFIX}{kind}", call, when)
                                                  for call in calls])
                row = RetroOutputRow(match_id=match_id, round=round_, kind=kind, model=model, output=output,
                                     error=error, call_ids=call_ids, created_at=when)
                session.add(row)
                session.flush()
                return _retro_record(row)
        except IntegrityError as err:
            raise DuplicateRetro(match_id, round_, kind) from err

    def all_retro_outputs(self) -> dict[str, list[RetroRecord]]:
        """Every stored retrospective output, by match id (each match's by kind then round)."""
        found: dict[str, list[RetroRecord]] = {}
        with self._read() as session:
            for row in self._ordered(session, None):
                found.setdefault(row.match_id, []).append(_retro_record(row))
        return found

    def retro_outputs(self, match_id: str) -> list[RetroRecord]:
        """A match's retrospective outputs, by kind then round."""
        with self._read() as session:
            get_match(session, match_id)
            return [_retro_record(row) for row in self._ordered(session, match_id)]

    @staticmethod
    def _ordered(session: Session, match_id: str | None) -> Iterator[RetroOutputRow]:
        query = select(RetroOutputRow)
        if match_id is not None:
            query = query.where(RetroOutputRow.match_id == match_id)
        return iter(session.scalars(query.order_by(RetroOutputRow.match_id, RetroOutputRow.kind,
                                                   RetroOutputRow.round)))
