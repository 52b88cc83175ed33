"""How long a model's move takes on this machine, from what the store measured (for the home page).

The figure is the median of the model's latest answered calls stored here, whoever made them (the arena's
tables, watched matches, batch runs on the same database): a model's speed depends on the machine and on what
else it is doing, so only what was measured here is shown, and "not yet measured" until something is.
"""

from __future__ import annotations

from statistics import median

from playeval.store import Store
from playeval.web.views import ModelTiming

RECENT_CALLS = 50
"""How many of the model's latest calls the median is over."""


def model_timing(store: Store, model: str, recent: int = RECENT_CALLS) -> ModelTiming:
    """The median duration of ``model``'s latest ``recent`` calls stored in ``store``."""
    latencies = store.recent_latencies(model, recent)
    return ModelTiming(model=model, median_s=round(median(latencies), 3) if latencies else None,
                       moves=len(latencies))
