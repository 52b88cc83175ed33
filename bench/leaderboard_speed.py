"""Latency of the arena's leaderboard and statistics endpoints on a database full of matches.

    .venv/bin/python scripts/seed_matches.py sqlite:////tmp/board.db --matches 100000
    .venv/bin/python bench/leaderboard_speed.py sqlite:////tmp/board.db [--requests 50] [--add 5]

The arena app runs in this process (its lifespan, as a server starts it) and is called through httpx's ASGI
transport, so the figures are the server's own time without the network. It first times reading every match
once (what each server process does in the background at start-up); then, for each endpoint, the first
request's latency (it waits for the start-up read if that is still going), then p50/p99 over ``--requests``
requests (served from the state kept), then ``--add`` new matches are finished in the store (an arena match and
a batch match, alternately), and the first request after them and p50/p99 again (only what changed is read).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time

import httpx

from playeval.core.events import SeatAssignment
from playeval.core.match import MatchSpec, Outcome
from playeval.core.registry import default_registry
from playeval.store import Store, StoreUnavailable
from playeval.web import ArenaSettings, create_app
from playeval.web.board_state import BoardState

ENDPOINTS: tuple[str, ...] = ("/api/leaderboard", "/api/leaderboard?game=akinator&source=live", "/api/stats")
SPEC = MatchSpec(game="akinator", level=1, seed=7, setup={"secret": "a lamp"}, variants={"guesser": 0, "answerer": 0})


def _add_matches(url: str, count: int) -> None:
    """Finish ``count`` new matches: arena ones (a person answered) and batch ones, alternately."""
    with Store.open(url) as store:
        run = store.create_run("akinator", 1, {"bench": True})
        for index in range(count):
            arena = index % 2 == 0
            seats = [SeatAssignment(seat="guesser", player_kind="llm", model="bench/new-model", prompt_variant=0,
                                    evaluated=True),
                     SeatAssignment(seat="answerer", player_kind="human" if arena else "scripted", prompt_variant=0,
                                    evaluated=False)]
            if arena:
                match_id = store.create_web_match(spec=SPEC, seats=seats, mode="play",
                                                  people={"answerer": f"{index:064x}"}, joined=("answerer",),
                                                  anonymous=True)
            else:
                match_id = store.create_match(spec=SPEC, seats=seats, run_id=run, match_index=index)
            store.finish_match(match_id, Outcome(status="finished", winners=("guesser",), reason="bench", rounds=6))


def _line(label: str, samples: list[float]) -> str:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return f"  {label:<28} p50 {statistics.median(ordered) * 1000:8.1f} ms   p99 {p99 * 1000:8.1f} ms"


async def _timed(client: httpx.AsyncClient, path: str) -> float:
    began = time.perf_counter()
    response = await client.get(path)
    took = time.perf_counter() - began
    if response.status_code != 200:
        raise SystemExit(f"error: GET {path} answered {response.status_code}: {response.text[:200]}")
    return took


async def _measure(url: str, requests: int, add: int) -> None:
    settings = ArenaSettings(db=url, models=("mock/player",), use_cache=False, writes=None, reads=None)
    app = create_app(settings)
    async with app.router.lifespan_context(app), httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://bench") as client:
        for path in ENDPOINTS:
            first = await _timed(client, path)
            print(f"{path}\n  {'first request':<28} {first * 1000:8.1f} ms")
            print(_line(f"next {requests}", [await _timed(client, path) for _ in range(requests)]))
        await asyncio.to_thread(_add_matches, url, add)
        print(f"-- {add} new matches finished --")
        for path in ENDPOINTS:
            first = await _timed(client, path)
            print(f"{path}\n  {'first request after them':<28} {first * 1000:8.1f} ms")
            print(_line(f"next {requests}", [await _timed(client, path) for _ in range(requests)]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Latency of the leaderboard and statistics endpoints.")
    parser.add_argument("db", help="database URL, seeded by scripts/seed_matches.py")
    parser.add_argument("--requests", type=int, default=50, help="requests per endpoint for p50/p99 (default 50)")
    parser.add_argument("--add", type=int, default=5, help="matches finished between the two rounds (default 5)")
    args = parser.parse_args(argv)
    if args.requests < 1 or args.add < 0:
        print("error: --requests must be at least 1 and --add at least 0", file=sys.stderr)
        return 2
    with Store.open(args.db) as store:
        began = time.perf_counter()
        BoardState(store, default_registry()).leaderboard()
        print(f"database: {store.url}\nreading every match once (each server process does it at start-up, in the "
              f"background): {time.perf_counter() - began:.2f} s")
    try:
        asyncio.run(_measure(args.db, args.requests, args.add))
    except StoreUnavailable as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
