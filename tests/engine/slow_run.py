"""A slow batch run in its own process, for the kill -9 resume test.

    python slow_run.py DB_URL start         -> prints the run id, plays 20 matches
    python slow_run.py DB_URL resume RUN_ID -> finishes the run
"""

from __future__ import annotations

import asyncio
import os
import sys
import time

from playeval.core.registry import default_registry
from playeval.engine import BatchRunner, RunConfig, create_run
from playeval.models import ModelHub, ModelRequest
from playeval.store import Store

DELAY = float(os.environ.get("SLOW_RUN_DELAY", "0.03"))


def walker(request: ModelRequest) -> str:
    """A slow guesser that asks numbered questions and never guesses."""
    time.sleep(DELAY)
    turn = sum(1 for message in request.messages if message.role == "assistant") + 1
    return f"Question {turn}: Is it thing number {turn}?"


async def main(url: str, mode: str, run_id: str | None) -> None:
    registry = default_registry()
    hub = ModelHub(use_cache=False, mock_scripts={"walker": walker})
    with Store.open(url) as store:
        if mode == "start":
            config = RunConfig(game="akinator", models=("mock/walker",), opponent="scripted", n=20, seed=5)
            run_id = create_run(store, registry, config)
            print(run_id, flush=True)
        assert run_id is not None
        await BatchRunner(store, hub, registry).run(run_id)
    await hub.aclose()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None))
