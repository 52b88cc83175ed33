"""Fixtures of the games' tests that play with the real small local model."""

from __future__ import annotations

import importlib.util
from collections.abc import AsyncIterator

import pytest

from playeval.models import MissingWeights, ModelHub
from playeval.models.catalog import LOCAL_MODELS
from playeval.models.weights import default_model_dir, locate_weights


@pytest.fixture
async def small_hub() -> AsyncIterator[ModelHub]:
    """A hub that serves ``local/smollm2-135m`` uncached; skips when llama.cpp or the weights are missing."""
    if importlib.util.find_spec("llama_cpp") is None:
        pytest.skip("llama-cpp-python is not installed: pip install 'playeval[local]'")
    try:
        locate_weights(LOCAL_MODELS["smollm2-135m"].weights)
    except MissingWeights as exc:
        pytest.skip(str(exc))
    hub = ModelHub(use_cache=False, model_dir=default_model_dir())
    yield hub
    await hub.aclose()
