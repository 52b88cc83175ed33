"""Opening what a command needs: the store, the model hub, the registry."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from playeval.models import ModelHub


@asynccontextmanager
async def model_hub(use_cache: bool) -> AsyncIterator[ModelHub]:
    hub = ModelHub(use_cache=use_cache)
    try:
        yield hub
    finally:
        await hub.aclose()
