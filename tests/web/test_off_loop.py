"""A slow database call does not hold the server up: the store is called from worker threads, so the event
loop keeps answering other requests meanwhile; the background work (model steps) has threads of its own, which
the requests do not wait for."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from arena_client import MOCK, client_for, make_settings, running, wait_view
from sqlalchemy import event
from sqlalchemy.engine import Engine

from playeval.web.app import create_app

SLOW_S = 0.5
HELD_S = 0.4


async def _your_turn(client: httpx.AsyncClient) -> tuple[str, dict[str, Any]]:
    """A new Akinator match the person answers, and its view once it is their turn."""
    created = await client.post("/api/matches", json={"game": "akinator", "level": 1, "model": MOCK,
                                                      "inputs": {"secret": "a cat"}})
    assert created.status_code == 201, created.text
    match_id = created.json()["id"]
    return match_id, await wait_view(client, match_id, {"your_turn"})


@pytest.mark.parametrize("slow_request", ["view", "move"])
async def test_a_slow_store_read_does_not_block_other_requests(tmp_path: Path, request: pytest.FixtureRequest,
                                                               slow_request: str) -> None:
    async with running(make_settings(tmp_path)) as client:
        match_id, turn = await _your_turn(client)

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


async def test_model_steps_wait_for_the_background_and_requests_do_not(tmp_path: Path) -> None:
    app = create_app(make_settings(tmp_path))
    async with app.router.lifespan_context(app), client_for(app) as client:
        arena: Any = app.state.arena
        assert arena.runner.background is arena.background
        match_id, turn = await _your_turn(client)

        released = threading.Event()
        holder = asyncio.create_task(arena.background.run(released.wait, 10))  # the background's one thread
        await asyncio.sleep(0.05)
        try:
            began = time.perf_counter()
            moved = await client.post(f"/api/matches/{match_id}/moves", json={"text": "No", "seq": turn["seq"]})
            assert moved.status_code == 200, moved.text
            assert time.perf_counter() - began < HELD_S, "a person's move waited for the background"
            after = moved.json()
            assert after["status"] != "your_turn"
            await asyncio.sleep(HELD_S)  # mock/player answers at once: only the held background keeps it waiting
            seen = await client.get(f"/api/matches/{match_id}")
            assert seen.status_code == 200
            assert seen.json()["seq"] == after["seq"], "the model moved while the background was held"
        finally:
            released.set()
            await holder
        answered = await wait_view(client, match_id, {"your_turn", "finished"})
        assert answered["seq"] > after["seq"]
