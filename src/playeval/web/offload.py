"""Running the synchronous store's calls off the event loop: a request's in the shared worker threads, the
process's background work (model steps, streams' later views, the sweep, the log watch) in few threads of its own.

The store is synchronous (SQLAlchemy sessions); an ``async`` handler or background task that called it directly
would stall every other request for the length of the query. ``off_loop`` runs such a call in the worker
threads Starlette uses for plain ``def`` handlers.

Background work comes in bursts: every ``poll_s`` each stream whose match changed rebuilds its view, 20-70 calls
at once under 200 people. All in the shared threads, they held the GIL in turn with the requests that arrived
meanwhile (the interpreter hands it over every 5 ms), and a move that needs 3 ms of CPU took 100-400 ms, most of
the requests' p99. ``Background`` runs them through a capacity limiter of its own (one thread by default): a
request then shares the interpreter with at most that many background threads, and the burst waits its turn.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import anyio
import anyio.to_thread
from starlette.concurrency import run_in_threadpool

P = ParamSpec("P")
T = TypeVar("T")

BACKGROUND_THREADS = 1
"""How many of a process's background calls run at once (200 people 2 min on SQLite, side by side with the shared
threads: move p99 61-65 -> 20-25 ms with one)."""


async def off_loop(call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``call(*args, **kwargs)`` in a worker thread; the loop serves other requests meanwhile."""
    return await run_in_threadpool(call, *args, **kwargs)


class Background:
    """The worker threads of one process's background work: at most ``threads`` of its calls at once, in the
    order they came; ``threads=None``: the shared worker threads, as ``off_loop``. Its limiter is made in the
    running event loop on first use (again if a later call runs in another loop: an app served twice in tests)."""

    def __init__(self, threads: int | None = BACKGROUND_THREADS) -> None:
        if threads is not None and threads < 1:
            raise ValueError("a background needs at least one thread")
        self.threads = threads
        self._limiter: tuple[asyncio.AbstractEventLoop, anyio.CapacityLimiter] | None = None

    async def run(self, call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``call(*args, **kwargs)`` in a worker thread, once one of the background's is free."""
        if self.threads is None:
            return await off_loop(call, *args, **kwargs)
        loop = asyncio.get_running_loop()
        if self._limiter is None or self._limiter[0] is not loop:
            self._limiter = (loop, anyio.CapacityLimiter(self.threads))
        return await anyio.to_thread.run_sync(functools.partial(call, *args, **kwargs), limiter=self._limiter[1])
