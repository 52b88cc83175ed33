"""A slow Undercover run in its own process, for the kill -9 resume test; its voters and judge talk garbage at times.

    python undercover_slow_run.py DB_URL start         -> prints the run id, plays 6 tables
    python undercover_slow_run.py DB_URL resume RUN_ID -> finishes the run

Every seat is ``mock/chatty``: ``mock/player``'s replies, slowed down, with a vote now and then naming nobody at
the table (refused and re-asked, an abstention when the re-asks run out). The judge is ``mock/garbled``:
``mock/player``'s yes/no answers, but half of its replies are unreadable (a question whose three tries all
fail is "no verdict").
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
import zlib

from playeval.core.registry import default_registry
from playeval.engine import BatchRunner, RunConfig, create_run
from playeval.models import ModelHub, ModelRequest
from playeval.models.providers.mock_player import player_reply
from playeval.store import Store

DELAY = float(os.environ.get("SLOW_RUN_DELAY", "0.02"))
TABLES = 6


def _draw(request: ModelRequest) -> int:
    """A number fixed by the request, so a rerun of the same request says the same thing."""
    return zlib.crc32("\n".join(message.content for message in request.messages).encode())


def chatty(request: ModelRequest) -> str:
    time.sleep(DELAY)
    choices = request.constraint.choices if request.constraint is not None else None
    if choices and all(choice.startswith("player") for choice in choices) and _draw(request) % 3 == 0:
        return "everyone"
    return player_reply(request)


def garbled(request: ModelRequest) -> str:
    time.sleep(DELAY)
    return "I would rather not say" if _draw(request) % 2 == 0 else player_reply(request)


async def main(url: str, mode: str, run_id: str | None) -> None:
    registry = default_registry()
    hub = ModelHub(use_cache=False, mock_scripts={"chatty": chatty, "garbled": garbled})
    with Store.open(url) as store:
        if mode == "start":
            config = RunConfig(game="undercover", models=("mock/chatty",), opponent="scripted", n=TABLES, seed=7,
                               roles={"judge": "mock/garbled"})
            run_id = create_run(store, registry, config)
            print(run_id, flush=True)
        assert run_id is not None
        # Moves committed as they come (as the web path does), so the test sees, and cuts, a table mid-round.
        await BatchRunner(store, hub, registry, commit_every_s=0.0).run(run_id)
    await hub.aclose()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None))
