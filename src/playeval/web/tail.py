"""Recorders that write only where their writer last saw the log end.

Every arena write goes through one: a person's move, a model step, a take-over. Each append is conditional on
the log's tail (``Store.append_move(..., after_seq=)``, ``Store.append_tail``), so two writers that read the same
log cannot both extend it: the second gets ``LogMoved`` and starts again from a fresh read.

A write that is one record (a take-over, an end from outside) goes through a :class:`TailRecorder`. A move that
records several things keeps them and writes them in one transaction: a person's (:class:`MoveTail`: the reply,
the action or the refusal and its re-ask, the match's end), a model step's (:class:`StepTail`). Written one by
one, a winning move's reply and the match's end were two transactions, and a model step that read the log
between them recorded the end the rules had reached; the move's own end then found the match closed, and the
person who had just won was told "the match is over" (a flaky ``test_api_tables`` on a busy machine).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from playeval.core.ask import Ask, Reply
from playeval.core.attempt import Attempt
from playeval.core.events import Event, RoleAssignment, SeatAssignment
from playeval.core.match import MatchSpec, Outcome
from playeval.players import Player
from playeval.store import Store
from playeval.web.offload import Background


class _ArenaWriter:
    """A recorder of one arena match, which the arena created (``Store.create_web_match``): ``seq`` is the log's
    end as this writer last saw it."""

    def __init__(self, store: Store, seq: int) -> None:
        self._store = store
        self.seq = seq

    def create_match(self, *, spec: MatchSpec, seats: Sequence[SeatAssignment],
                     roles: Sequence[RoleAssignment] = (), run_id: str | None = None,
                     match_index: int | None = None, evaluated_model: str | None = None) -> str:
        raise TypeError("arena matches are created by Store.create_web_match")


class TailRecorder(_ArenaWriter):
    """Writes each record at once, conditional on the log's end: for writers of one record."""

    def append_event(self, match_id: str, event: Event) -> int:
        self.seq = self._store.append_event(match_id, event, after_seq=self.seq)
        return self.seq

    def append_move(self, match_id: str, attempts: Sequence[Attempt]) -> int:
        self.seq = self._store.append_move(match_id, attempts, after_seq=self.seq)
        return self.seq

    def finish_match(self, match_id: str, outcome: Outcome) -> None:
        self._store.finish_match(match_id, outcome, after_seq=self.seq)
        self.seq += 1


class _Kept(_ArenaWriter):
    """What a writer records, kept with the seqs it will take, to be written in one transaction
    (``Store.append_tail``) conditional on the log's end as the writer last saw it (``seq``)."""

    def __init__(self, store: Store, seq: int) -> None:
        super().__init__(store, seq)
        self._entries: list[Attempt | Event] = []
        self._events = 0
        self._outcome: Outcome | None = None

    def append_event(self, match_id: str, event: Event) -> int:
        return self._keep([event], 1)

    def append_move(self, match_id: str, attempts: Sequence[Attempt]) -> int:
        return self._keep(attempts, sum(attempt.event_count for attempt in attempts))

    def finish_match(self, match_id: str, outcome: Outcome) -> None:
        if self._outcome is not None:
            raise ValueError(f"match {match_id}: finished twice by one writer")
        self._outcome = outcome

    def _keep(self, entries: Sequence[Attempt | Event], events: int) -> int:
        if self._outcome is not None:
            raise ValueError("nothing is recorded after a match's end")
        self._entries.extend(entries)
        self._events += events
        return self.seq + self._events

    def _take(self) -> tuple[list[Attempt | Event], Outcome | None]:
        """What was kept, handed over to be written (and kept no longer)."""
        kept = self._entries, self._outcome
        self._entries, self._outcome, self._events = [], None, 0
        return kept


class MoveTail(_Kept):
    """The recorder of a person's move (``engine.step.submit``): what the move records is kept, and ``write``
    stores all of it in one transaction, conditional on the log it was judged on: either the whole move is in the
    log (its end too, when it ends the match) or none of it is, and ``LogMoved`` says to judge it again."""

    def write(self, match_id: str) -> None:
        entries, outcome = self._take()
        if entries or outcome is not None:
            self.seq = self._store.append_tail(match_id, entries, after_seq=self.seq, outcome=outcome)


class StepTail(_Kept):
    """The recorder of a model step run on the event loop: what ``advance`` records is kept, and written by
    ``flush`` in a worker thread, in one transaction (``Store.append_tail``) conditional on the log's end as
    the step last saw it (``LogMoved`` otherwise, and nothing is written).

    The step flushes before each model call (``flushing`` wraps its players) and once ``advance`` returns, so
    every model move is stored before the next one is asked for, as with ``TailRecorder``, while the event
    loop never waits for a write: a model step's synchronous appends on the loop used to queue behind request
    threads' writes for SQLite's write lock, stalling every request meanwhile.
    """

    def __init__(self, store: Store, seq: int, background: Background | None = None) -> None:
        super().__init__(store, seq)
        self._background = background or Background(None)
        """Where ``flush`` writes (the arena's background threads)."""
        self._lock = asyncio.Lock()

    async def flush(self, match_id: str) -> None:
        """Write what was kept (in a worker thread); one write at a time, in the order recorded."""
        async with self._lock:
            entries, outcome = self._take()
            if not entries and outcome is None:
                return
            self.seq = await self._background.run(self._store.append_tail, match_id, entries, after_seq=self.seq,
                                                  outcome=outcome)

    def flushing(self, match_id: str, player: Player) -> Player:
        """``player``, writing this tail before each of its moves."""
        return _Flushing(player, self, match_id)


class _Flushing:
    def __init__(self, player: Player, tail: StepTail, match_id: str) -> None:
        self._player = player
        self._tail = tail
        self._match_id = match_id

    @property
    def kind(self) -> str:
        return self._player.kind

    @property
    def model(self) -> str | None:
        return self._player.model

    @property
    def max_retries(self) -> int:
        return self._player.max_retries

    async def act(self, ask: Ask) -> Reply:
        await self._tail.flush(self._match_id)
        return await self._player.act(ask)
