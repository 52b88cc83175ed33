"""The process's background work (model steps, streams' later views, the sweep, the log watch) runs in few threads
of its own (``web.offload.Background``), apart from the requests': a burst of it queues for those threads instead
of sharing the interpreter with the requests that arrive meanwhile. The arena's use of it: ``test_off_loop``."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from playeval.web.offload import Background


class Overlap:
    """Calls that each take a moment; how many ran at once, at most."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.now = 0
        self.most = 0
        self.order: list[int] = []

    def call(self, number: int) -> int:
        with self._lock:
            self.now += 1
            self.most = max(self.most, self.now)
        time.sleep(0.02)
        with self._lock:
            self.now -= 1
            self.order.append(number)
        return number * 10


@pytest.mark.parametrize("threads", [1, 2])
async def test_at_most_its_threads_run_at_once(threads: int) -> None:
    background = Background(threads)
    overlap = Overlap()
    results = await asyncio.gather(*(background.run(overlap.call, number) for number in range(8)))
    assert results == [number * 10 for number in range(8)]
    assert overlap.most == threads
    if threads == 1:
        assert overlap.order == list(range(8))  # one at a time, in the order they came


async def test_without_threads_of_its_own_it_uses_the_shared_ones() -> None:
    overlap = Overlap()
    await asyncio.gather(*(Background(None).run(overlap.call, number) for number in range(8)))
    assert overlap.most > 2


def test_a_background_needs_a_thread() -> None:
    with pytest.raises(ValueError, match="at least one thread"):
        Background(0)


async def test_it_works_in_a_later_event_loop_too() -> None:
    background = Background(1)
    assert await background.run(sum, [1, 2]) == 3

    def in_another_loop() -> int:
        return asyncio.run(background.run(sum, [3, 4]))

    assert await asyncio.to_thread(in_another_loop) == 7
