"""A recorder that writes only where its writer last saw the log end.

Every arena write goes through one: a person's move, a model step, a take-over. Each append is conditional on
the log's tail (``Store.append_move(..., after_seq=)``), so two writers that read the same log cannot both
extend it: the second gets ``LogMoved`` and starts again from a fresh read. ``writes`` counts what was written,
so a writer knows whether a ``LogMoved`` came before anything of its own was recorded.
"""

from __future__ import annotations

from collections.abc import Sequence

from playeval.core.attempt import Attempt
from playeval.core.events import Event, RoleAssignment, SeatAssignment
from playeval.core.match import MatchSpec, Outcome
from playeval.store import Store


class TailRecorder:
    def __init__(self, store: Store, seq: int) -> None:
        self._store = store
        self.seq = seq
        self.writes = 0

    def create_match(self, *, spec: MatchSpec, seats: Sequence[SeatAssignment],
                     roles: Sequence[RoleAssignment] = (), run_id: str | None = None,
                     match_index: int | None = None, evaluated_model: str | None = None) -> str:
        raise TypeError("arena matches are created by Store.create_web_match")

    def append_event(self, match_id: str, event: Event) -> int:
        self.seq = self._store.append_event(match_id, event, after_seq=self.seq)
        self.writes += 1
        return self.seq

    def append_move(self, match_id: str, attempts: Sequence[Attempt]) -> int:
        self.seq = self._store.append_move(match_id, attempts, after_seq=self.seq)
        self.writes += 1
        return self.seq

    def finish_match(self, match_id: str, outcome: Outcome) -> None:
        self._store.finish_match(match_id, outcome, after_seq=self.seq)
        self.seq += 1
        self.writes += 1
