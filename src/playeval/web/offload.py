"""Running the synchronous store's calls off the event loop.

The store is synchronous (SQLAlchemy sessions); an ``async`` handler or background task that called it directly
would stall every other request for the length of the query. ``off_loop`` runs such a call in the worker
threads Starlette uses for plain ``def`` handlers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ParamSpec, TypeVar

from starlette.concurrency import run_in_threadpool

P = ParamSpec("P")
T = TypeVar("T")


async def off_loop(call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``call(*args, **kwargs)`` in a worker thread; the loop serves other requests meanwhile."""
    return await run_in_threadpool(call, *args, **kwargs)
