"""A small pool of warm workers, owned by one ``Sandbox``: at most ``size`` processes, one caller each.

A worker goes back to the pool after a normal answer (including the refusals a live worker gives: syntax,
forbidden, crashed, output too large). It is replaced after anything else (timeout, death, memory, a
malformed answer), after ``max_calls`` requests, and before a request its CPU allowance could not cover. A
replacement is started at once, so that its start-up overlaps the caller's next step. A pool inherited by a
forked child forgets its parent's workers (without touching them) and starts its own.
"""

from __future__ import annotations

import os
import threading

from ._process import WorkerConfig, WorkerProcess

_CPU_MARGIN_S = 2.0


class PoolClosed(RuntimeError):
    """The sandbox was closed."""


class WorkerPool:
    """Worker processes for one sandbox; thread-safe."""

    def __init__(self, config: WorkerConfig, size: int, max_calls: int) -> None:
        self._config = config
        self._size = size
        self._max_calls = max_calls
        self._condition = threading.Condition()
        self._idle: list[WorkerProcess] = []
        self._busy: set[WorkerProcess] = set()
        self._starting = 0
        self._closed = False
        self._owner = os.getpid()

    def _adopt_after_fork(self) -> None:
        """Called with the lock held: in a forked child, drop the parent's workers."""
        if self._owner == os.getpid():
            return
        for worker in [*self._idle, *self._busy]:
            worker.abandon()
        self._idle.clear()
        self._busy.clear()
        self._starting = 0
        self._owner = os.getpid()

    def _fits(self, worker: WorkerProcess, timeout_s: float) -> bool:
        return (
            worker.alive()
            and worker.calls < self._max_calls
            and worker.seconds_used + timeout_s + _CPU_MARGIN_S < self._config.cpu_seconds
        )

    def acquire(self, timeout_s: float) -> WorkerProcess:
        """A worker for one request of at most ``timeout_s``; waits while ``size`` workers are busy."""
        stale: list[WorkerProcess] = []
        try:
            with self._condition:
                while True:
                    if self._closed:
                        raise PoolClosed("the sandbox is closed")
                    self._adopt_after_fork()
                    while self._idle:
                        worker = self._idle.pop()
                        if self._fits(worker, timeout_s):
                            self._busy.add(worker)
                            return worker
                        stale.append(worker)
                    if len(self._busy) + self._starting < self._size:
                        self._starting += 1
                        break
                    self._condition.wait()
        finally:
            for worker in stale:
                worker.kill()
        return self._start(busy=True)

    def _start(self, *, busy: bool) -> WorkerProcess:
        """Start a worker in a slot already counted in ``_starting``; it becomes busy or idle."""
        try:
            worker = WorkerProcess(self._config)
        except BaseException:
            with self._condition:
                self._starting -= 1
                self._condition.notify()
            raise
        with self._condition:
            self._starting -= 1
            closed = self._closed
            if not closed:
                (self._busy.add if busy else self._idle.append)(worker)
            self._condition.notify()
        if closed:
            worker.kill()
            raise PoolClosed("the sandbox is closed")
        return worker

    def release(self, worker: WorkerProcess, healthy: bool) -> None:
        """Give a worker back: kept warm when ``healthy``, otherwise killed and replaced at once."""
        with self._condition:
            self._busy.discard(worker)
            usable = not self._closed and self._owner == os.getpid()
            if healthy and usable and worker.alive():
                self._idle.append(worker)
                self._condition.notify()
                return
            if usable:
                self._starting += 1
            self._condition.notify()
        worker.kill()
        if usable:
            try:
                self._start(busy=False)
            except Exception:
                pass  # the next acquire starts one, and reports what keeps it from starting

    def pids(self) -> list[int]:
        """Process ids of the live workers, idle or busy."""
        with self._condition:
            return sorted(worker.pid for worker in [*self._idle, *self._busy] if worker.alive())

    def close(self) -> None:
        """Kill idle workers now and busy ones under their callers (who then get ``crashed``)."""
        with self._condition:
            if self._closed:
                return
            self._closed = True
            self._adopt_after_fork()
            idle, busy = list(self._idle), list(self._busy)
            self._idle.clear()
            self._condition.notify_all()
        for worker in idle:
            worker.kill()
        for worker in busy:
            worker.signal_kill()
