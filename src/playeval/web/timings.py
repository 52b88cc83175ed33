"""How long a model's move takes on this machine, from what the store measured (for the home page).

The figure is the median of the model's latest calls stored here, whoever made them (the arena's
tables, watched matches, batch runs on the same database): a model's speed depends on the machine and on what
else it is doing, so only what was measured here is shown, and "not yet measured" until something is.

Where several models are offered, one figure pools them all (``POOLED``): a person who met a model drawn at random
could otherwise tell which it was from how fast it moved, and it stays anonymous until the game ends.
"""

from __future__ import annotations

from statistics import median

from playeval.store import Store
from playeval.web.views import ModelTiming

RECENT_CALLS = 50
"""How many of the model's latest calls the median is over."""
POOLED = "the models here"
"""The name the pooled figure goes by."""


def _timing(name: str, latencies: list[float]) -> ModelTiming:
    return ModelTiming(model=name, median_s=round(median(latencies), 3) if latencies else None, moves=len(latencies))


def model_timing(store: Store, model: str, recent: int = RECENT_CALLS) -> ModelTiming:
    """The median duration of ``model``'s latest ``recent`` calls stored in ``store``."""
    return _timing(model, store.recent_latencies(model, recent))


def arena_timings(store: Store, models: tuple[str, ...], recent: int = RECENT_CALLS) -> list[ModelTiming]:
    """The home page's figures: the one model's, or one pooled over the latest ``recent`` calls of each model
    offered (see the module's note)."""
    if len(models) == 1:
        return [model_timing(store, models[0], recent)]
    return [_timing(POOLED, [value for model in models for value in store.recent_latencies(model, recent)])]
