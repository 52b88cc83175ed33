"""A slow database call does not hold the server up: the store is called from worker threads, so the event
loop keeps answering other requests meanwhile."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from arena_client import MOCK, make_settings, running, wait_view
from sqlalchemy import event
from sqlalchemy.engine import Engine

SLOW_S = 0.5


@pytest.mark.parametrize("slow_request", ["view", "move"])
async def test_a_slow_store_read_does_not_block_other_requests(tmp_path: Path, request: pytest.FixtureRequest,
                                                               slow_request: str) -> None:
    async with running(make_settings(tmp_path)) as client:
        created = await client.post("/api/matches", json={"game": "akinator", "level": 1, "model": MOCK,
                                                          "inputs": {"secret": "a cat"}})
        assert created.status_code == 201, created.text
        match_id = created.json()["id"]
        turn = await wait_view(client, match_id, {"your_turn"})

        armed = threading.Event()

        def slow_query(conn: Any, cursor: Any, statement: str, parameters: Any, context: Any, many: bool) -> None:
            if armed.is_set() and match_id in str(parameters):
                armed.clear()
                time.sleep(SLOW_S)  # a slow query: blocks the thread that makes it

        event.listen(Engine, "before_cursor_execute", slow_query)
        request.addfinalizer(lambda: event.remove(Engine, "before_cursor_execute", slow_query))
        armed.set()

        async def slow() -> Any:
            if slow_request == "view":
                return await client.get(f"/api/matches/{match_id}")
            return await client.post(f"/api/matches/{match_id}/moves", json={"text": "No", "seq": turn["seq"]})

        async def cheap() -> float:
            await asyncio.sleep(0.05)  # the slow request is in its store call by now (or holds the loop)
            response = await client.get("/api/models")
            assert response.status_code == 200
            return time.perf_counter() - began

        began = time.perf_counter()
        slow_response, cheap_done = await asyncio.gather(slow(), cheap())
        assert slow_response.status_code == 200, slow_response.text
        assert time.perf_counter() - began >= SLOW_S
        assert cheap_done < SLOW_S * 0.6, f"a cheap request answered {cheap_done:.3f} s after the slow one began"
