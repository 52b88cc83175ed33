"""The log ends of the matches a server process streams, read for all of them together.

Each live event stream used to ask the store for its match's last seq every ``poll_s`` from a worker thread of
its own: with 200 people, 670 queries and thread hand-overs a second. ``LogWatch`` reads the mark of every
followed match (its log's end, and how many of its people's seats were joined and left: what changes a view
without an event, besides the end) in two queries per ``poll_s`` (so it still sees what any process wrote) and
wakes the streams after each read; a stream then builds its view only when its match's mark changed.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import Iterator

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from playeval.store import Store
from playeval.store.schema import WebSeatRow
from playeval.web.offload import Background

Mark = tuple[int, int, int]
"""A followed match's log end, and its people's seats joined and left."""


def read_marks(store: Store, match_ids: list[str]) -> dict[str, Mark]:
    """The marks of ``match_ids`` that have events (two queries per 500 matches)."""
    ends = store.last_seqs(match_ids)
    people: dict[str, tuple[int, int]] = {}
    with Session(store.engine) as session:
        for start in range(0, len(match_ids), 500):
            people.update((match_id, (int(joined), int(left))) for match_id, joined, left in session.execute(
                select(WebSeatRow.match_id, func.count(WebSeatRow.joined_at), func.count(WebSeatRow.left_at))
                .where(WebSeatRow.match_id.in_(match_ids[start:start + 500])).group_by(WebSeatRow.match_id)))
    return {match_id: (seq, *people.get(match_id, (0, 0))) for match_id, seq in ends.items()}


class LogWatch:
    """Followed matches' marks, refreshed every ``poll_s`` while any stream follows one."""

    def __init__(self, store: Store, poll_s: float, background: Background | None = None) -> None:
        self._store = store
        self._background = background or Background(None)
        self._poll_s = poll_s
        self._followers: Counter[str] = Counter()
        self._marks: dict[str, Mark] = {}
        self._round: asyncio.Future[None] | None = None
        self._task: asyncio.Task[None] | None = None

    @contextlib.contextmanager
    def following(self, match_id: str) -> Iterator[None]:
        """Keep ``match_id``'s log end read while the block runs (in the event loop)."""
        self._followers[match_id] += 1
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._poll(), name="arena-log-watch")
        try:
            yield
        finally:
            self._followers[match_id] -= 1
            if self._followers[match_id] <= 0:
                del self._followers[match_id]
                self._marks.pop(match_id, None)

    async def next_mark(self, match_id: str) -> Mark | None:
        """The followed match's mark as the next read of the followed matches finds it (``None``: no events)."""
        if self._round is None:
            self._round = asyncio.get_running_loop().create_future()
        await asyncio.shield(self._round)
        return self._marks.get(match_id)

    async def _poll(self) -> None:
        try:
            while self._followers:
                await asyncio.sleep(self._poll_s)
                ids = sorted(self._followers)
                round_, self._round = self._round, None
                try:
                    self._marks.update(await self._background.run(read_marks, self._store, ids))
                except Exception as err:  # the streams waiting for this read fail with it, as their own would
                    if round_ is not None and not round_.done():
                        round_.set_exception(err)
                    continue
                if round_ is not None and not round_.done():
                    round_.set_result(None)
        finally:
            self._task = None

    async def aclose(self) -> None:
        """Stop reading (the app is stopping)."""
        task = self._task
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
