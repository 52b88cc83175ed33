"""The thread that writes a batch run's commits (``BufferedRecorder``'s), so the event loop never waits on the
database.

Commits are written in the order they were handed over. Those found waiting together when the thread takes the
next one (a loop that plays faster than the database writes) go in one transaction (``Store.commit_tails``): one
``BEGIN IMMEDIATE`` and one ``COMMIT`` for them all, and fewer statements, each of which hands the GIL back and
forth between the thread and the loop. Nothing waits for a group to fill: a commit alone is written at once.
If a group's transaction fails, nothing of it landed, and each of its commits is written alone, so only the
failing one (and its recorder's later ones) fail, as without grouping.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from types import TracebackType
from typing import Self

from playeval.store import Store, TailCommit

DEFAULT_MAX_GROUP = 64
"""The most commits written in one transaction."""


@dataclass
class WriteGuard:
    """One recorder's first failed commit: every later one of that recorder is refused with it (they were built
    on the failed one's log)."""

    failed: BaseException | None = None

    def run(self, write: Callable[[], object]) -> None:
        if self.failed is not None:
            raise self.failed
        try:
            write()
        except BaseException as exc:
            self.failed = exc
            raise


@dataclass(frozen=True)
class _Job:
    commit: TailCommit
    guard: WriteGuard
    future: Future[None]


class CommitWriter:
    """One thread writing commits to ``store`` in order, those waiting together in one transaction (at most
    ``max_group``). Shared by the recorders of a run; :meth:`shutdown` writes what was handed over, then stops."""

    def __init__(self, store: Store, *, max_group: int = DEFAULT_MAX_GROUP,
                 thread_name: str = "playeval-store") -> None:
        if max_group < 1:
            raise ValueError(f"max_group must be at least 1, got {max_group}")
        self._store = store
        self._max_group = max_group
        self._queue: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name=thread_name, daemon=True)
        self._thread.start()

    def submit(self, commit: TailCommit, guard: WriteGuard) -> Future[None]:
        """Hand ``commit`` over; the future ends when it has landed (or raises why it did not)."""
        if self._closed:
            raise RuntimeError("the commit writer is shut down")
        future: Future[None] = Future()
        self._queue.put(_Job(commit, guard, future))
        return future

    def shutdown(self, wait: bool = True) -> None:
        """Write every commit handed over, then stop the thread (waiting for it, with ``wait``)."""
        if not self._closed:
            self._closed = True
            self._queue.put(None)
        if wait:
            self._thread.join()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.shutdown(wait=True)

    def _run(self) -> None:
        while (job := self._queue.get()) is not None:
            group = [job]
            while len(group) < self._max_group:
                try:
                    waiting = self._queue.get_nowait()
                except queue.Empty:
                    break
                if waiting is None:
                    self._write(group)
                    return
                group.append(waiting)
            self._write(group)

    def _write(self, group: list[_Job]) -> None:
        live = [job for job in group if job.future.set_running_or_notify_cancel()]
        if len(live) > 1 and all(job.guard.failed is None for job in live):
            try:
                self._store.commit_tails([job.commit for job in live])
            except Exception:  # nothing of the group landed: written one by one below, where only the culprit fails
                pass
            else:
                for job in live:
                    job.future.set_result(None)
                return
        for job in live:
            try:
                job.guard.run(lambda: self._store.commit_tail(job.commit))  # noqa: B023 -- called at once
            except BaseException as exc:
                job.future.set_exception(exc)
            else:
                job.future.set_result(None)
