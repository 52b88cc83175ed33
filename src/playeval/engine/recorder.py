"""Where the engine writes a match as it happens.

``playeval.store.Store`` satisfies this protocol, writing each move at once
(the web path); ``BufferedRecorder`` writes a store's matches at safe points in
few transactions (the batch path); ``MemoryRecorder`` keeps everything in
lists, for benchmarks and tests that need no database.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, Protocol

from playeval.core.ask import CallRecord
from playeval.core.attempt import Attempt
from playeval.core.events import Event, MatchEnded, MatchStarted, RoleAssignment, SeatAssignment
from playeval.core.match import MatchSpec, Outcome
from playeval.engine.writer import CommitWriter, WriteGuard
from playeval.store import Store, TailCommit


class Recorder(Protocol):
    def create_match(self, *, spec: MatchSpec, seats: Sequence[SeatAssignment],
                     roles: Sequence[RoleAssignment] = (), run_id: str | None = None,
                     match_index: int | None = None, evaluated_model: str | None = None) -> str: ...

    def append_event(self, match_id: str, event: Event) -> int:
        """Append one event; returns its seq."""
        ...

    def append_move(self, match_id: str, attempts: Sequence[Attempt]) -> int:
        """Append a move's tries (their model calls, asks, replies, refusals and the action) all at once;
        returns the last seq."""
        ...

    def finish_match(self, match_id: str, outcome: Outcome) -> None: ...


@dataclass
class MemoryRecorder:
    """An in-memory recorder: the event log of each match in a dict."""

    events: dict[str, list[Event]] = field(default_factory=dict)
    calls: list[CallRecord] = field(default_factory=list)
    outcomes: dict[str, Outcome] = field(default_factory=dict)

    def create_match(self, *, spec: MatchSpec, seats: Sequence[SeatAssignment],
                     roles: Sequence[RoleAssignment] = (), run_id: str | None = None,
                     match_index: int | None = None, evaluated_model: str | None = None) -> str:
        match_id = f"m{len(self.events):06d}"
        self.events[match_id] = [MatchStarted(spec=spec, seats=tuple(seats), roles=tuple(roles))]
        return match_id

    def append_event(self, match_id: str, event: Event) -> int:
        self.events[match_id].append(event)
        return len(self.events[match_id])

    def append_move(self, match_id: str, attempts: Sequence[Attempt]) -> int:
        for attempt in attempts:
            start = len(self.calls)
            self.calls.extend(attempt.calls)
            self.events[match_id].extend(attempt.events(range(start + 1, len(self.calls) + 1)))
        return len(self.events[match_id])

    def finish_match(self, match_id: str, outcome: Outcome) -> None:
        self.events[match_id].append(MatchEnded(outcome=outcome))
        self.outcomes[match_id] = outcome


DEFAULT_MAX_EVENTS = 1000
"""A buffered match's tail is committed once it holds this many events."""

DEFAULT_MAX_AGE_S = 0.5
"""... or once this many seconds have passed since the match's last commit (so a model run commits about every
move, and instant players' matches in a few transactions)."""


@dataclass
class _Tail:
    """A match's uncommitted tail: entries after ``last_seq`` (the last committed seq), ``events`` events long."""

    last_seq: int
    since: float
    entries: list[Attempt | Event] = field(default_factory=list)
    events: int = 0
    creation: dict[str, Any] | None = None
    """The match's ``create_match`` arguments while it is not stored yet (it is, with its first commit)."""
    timer: asyncio.TimerHandle | None = None
    """The commit due ``max_age_s`` after the last one, while entries wait (only under a running event loop)."""


class BufferedRecorder:
    """A recorder for the batch path: each match's events and model calls are kept in memory and committed to
    ``store`` at safe points, in one transaction each with bulk inserts (:meth:`Store.append_tail`).

    A match's tail is committed when the match ends (with its outcome, in the same transaction), when it holds
    ``max_events`` events, when ``max_age_s`` seconds have passed since the match's last commit (checked when a
    move comes, and, under a running event loop, by a timer, so moves do not wait for a slow model call to
    end), and on :meth:`flush`. Every commit ends on a whole move, so the log never holds half a move; the seq
    of each event is known without reading the log (the end of a match created elsewhere, such as one being
    resumed, is read once).

    With a ``writer`` (a :class:`~playeval.engine.writer.CommitWriter`, shared by the recorders of a run), commits
    are handed to it in order and the caller goes on: the event loop does not wait on the database (its I/O, a WAL
    checkpoint); commits of several matches waiting together land in one transaction.
    A failed write is raised at the recorder's next commit, at :meth:`settled` or at :meth:`drain`; a batch
    match counts as played only once :meth:`settled` has seen its end land.

    Durability: a crash (or an exception out of the match) loses at most the uncommitted tail of each match in
    flight -- whole moves made within the last ``max_age_s`` seconds, or fewer than ``max_events`` events.
    The match stays ``running`` with the log it had at its last commit, and ``--resume`` replays the lost moves
    from there (seeded players replay them exactly). A new match is stored with its first commit, together with
    the first part of its log (so a game of instant players is one transaction): a crash before that leaves no
    row, and ``--resume`` plays the match from its start. A run's one match per index holds however the run
    ends (``UNIQUE(run_id, match_index)``). The web path does not use this class: it writes each move at once,
    whole, with a conditional append (``web.tail``).
    """

    def __init__(self, store: Store, *, max_events: int = DEFAULT_MAX_EVENTS, max_age_s: float = DEFAULT_MAX_AGE_S,
                 clock: Callable[[], float] = time.monotonic, writer: CommitWriter | None = None) -> None:
        if max_events < 1:
            raise ValueError(f"max_events must be at least 1, got {max_events}")
        if max_age_s < 0:
            raise ValueError(f"max_age_s must not be negative, got {max_age_s}")
        self._store = store
        self._max_events = max_events
        self._max_age_s = max_age_s
        self._clock = clock
        self._timers = clock is time.monotonic  # a caller with its own clock drives time itself (tests)
        self._tails: dict[str, _Tail] = {}
        self._writer = writer
        self._writes: list[Future[None]] = []
        self._guard = WriteGuard()

    def create_match(self, *, spec: MatchSpec, seats: Sequence[SeatAssignment],
                     roles: Sequence[RoleAssignment] = (), run_id: str | None = None,
                     match_index: int | None = None, evaluated_model: str | None = None) -> str:
        """A new match, stored with its first commit (so a game of instant players is one transaction);
        :class:`~playeval.store.DuplicateMatch` comes then, if its run already has a match at its index."""
        match_id = self._store.new_match_id()
        creation = {"spec": spec, "seats": tuple(seats), "roles": tuple(roles), "run_id": run_id,
                    "match_index": match_index, "evaluated_model": evaluated_model}
        self._tails[match_id] = _Tail(last_seq=1, since=self._clock(), creation=creation)
        return match_id

    def append_event(self, match_id: str, event: Event) -> int:
        if isinstance(event, (MatchStarted, MatchEnded)):
            raise TypeError(f"{event.type} events are written by create_match / finish_match, not append_event")
        return self._add(match_id, [event], 1)

    def append_move(self, match_id: str, attempts: Sequence[Attempt]) -> int:
        entries: list[Attempt | Event] = []
        count = 0
        for attempt in attempts:  # a try without model calls is its events (shared with the game master's log)
            if attempt.calls:
                entries.append(attempt)
                count += attempt.event_count
            else:
                events = attempt.events(())
                entries += events
                count += len(events)
        return self._add(match_id, entries, count)

    def finish_match(self, match_id: str, outcome: Outcome) -> None:
        """Commit the match's tail and its end together."""
        tail = self._tail(match_id)
        self._write(TailCommit(match_id, list(tail.entries), tail.last_seq, outcome, tail.creation))
        _cancel(tail)
        del self._tails[match_id]

    async def settled(self) -> None:
        """Wait, without blocking the event loop, until every commit handed to the writer has landed; raises
        the first that failed."""
        while self._writes:
            future = self._writes[0]
            try:  # shielded: a cancelled wait leaves the commit to land, and drain() to wait for it
                await asyncio.shield(asyncio.wrap_future(future))
            finally:
                if future.done():
                    self._writes.pop(0)

    def drain(self) -> None:
        """Wait for every commit handed to the writer, blocking (for a stop, where the loop cannot be awaited);
        raises the first that failed."""
        first: BaseException | None = None
        while self._writes:
            try:
                self._writes.pop(0).result()
            except BaseException as exc:
                first = first or exc
        if first is not None:
            raise first

    def pending(self, match_id: str) -> int:
        """How many events of ``match_id`` are buffered, not yet committed."""
        tail = self._tails.get(match_id)
        return 0 if tail is None else tail.events

    def flush(self) -> None:
        """Commit the buffered tail of every match in flight (storing the matches not stored yet)."""
        for match_id, tail in self._tails.items():
            self._commit(match_id, tail)

    def _tail(self, match_id: str) -> _Tail:
        tail = self._tails.get(match_id)
        if tail is None:  # a match created elsewhere (resumed, or by the batch runner): where its log ends
            tail = self._tails[match_id] = _Tail(last_seq=self._store.last_seq(match_id), since=self._clock())
        return tail

    def _add(self, match_id: str, entries: Sequence[Attempt | Event], events: int) -> int:
        tail = self._tail(match_id)
        tail.entries.extend(entries)
        tail.events += events
        seq = tail.last_seq + tail.events
        waited = self._clock() - tail.since
        if tail.events >= self._max_events or waited >= self._max_age_s:
            self._commit(match_id, tail)
        elif tail.timer is None and self._timers:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # used outside a loop: the next move or the end commits
                return seq
            tail.timer = loop.call_later(self._max_age_s - waited, self._commit_due, match_id)
        return seq

    def _commit_due(self, match_id: str) -> None:
        tail = self._tails.get(match_id)
        if tail is not None:
            tail.timer = None
            self._commit(match_id, tail)

    def _commit(self, match_id: str, tail: _Tail) -> None:
        _cancel(tail)
        if tail.creation is not None or tail.entries:
            self._write(TailCommit(match_id, list(tail.entries), tail.last_seq, creation=tail.creation))
            tail.creation = None
        tail.last_seq += tail.events
        tail.entries.clear()
        tail.events = 0
        tail.since = self._clock()

    def _write(self, commit: TailCommit) -> None:
        """Commit now, or hand the commit to the writer after raising any earlier one that failed."""
        if self._writer is None:
            self._store.commit_tail(commit)
            return
        if self._guard.failed is not None:
            raise self._guard.failed
        while self._writes and self._writes[0].done():
            self._writes.pop(0).result()
        self._writes.append(self._writer.submit(commit, self._guard))


def _cancel(tail: _Tail) -> None:
    if tail.timer is not None:
        tail.timer.cancel()
        tail.timer = None
