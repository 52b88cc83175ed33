"""The log ends of the matches a server process streams, read for all of them together.

Each live event stream used to ask the store for its match's last seq every ``poll_s`` from a worker thread of
its own: with 200 people, 670 queries and thread hand-overs a second. ``LogWatch`` reads the log ends of every
followed match in one query per ``poll_s`` (so it still sees moves made by any process) and wakes the streams
after each read; a stream then builds its view only when its match's log grew.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import Iterator

from playeval.store import Store
from playeval.web.offload import off_loop


class LogWatch:
    """Followed matches' last seqs, refreshed every ``poll_s`` while any stream follows one."""

    def __init__(self, store: Store, poll_s: float) -> None:
        self._store = store
        self._poll_s = poll_s
        self._followers: Counter[str] = Counter()
        self._seqs: dict[str, int] = {}
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
                self._seqs.pop(match_id, None)

    async def next_seq(self, match_id: str) -> int | None:
        """The followed match's last seq as the next read of the followed logs finds it (``None``: no events)."""
        if self._round is None:
            self._round = asyncio.get_running_loop().create_future()
        await asyncio.shield(self._round)
        return self._seqs.get(match_id)

    async def _poll(self) -> None:
        try:
            while self._followers:
                await asyncio.sleep(self._poll_s)
                ids = sorted(self._followers)
                round_, self._round = self._round, None
                try:
                    self._seqs.update(await off_loop(self._store.last_seqs, ids))
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
