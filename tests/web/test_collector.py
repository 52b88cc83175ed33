"""A serving process's collector: what is alive at start-up is frozen out of collections, and collections are
spaced out (full collections of the kept matches stopped the server for hundreds of ms under load)."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from playeval.web.collector import FULL_AFTER, MIDDLE_AFTER, YOUNG, tune_collector


@pytest.fixture
def restored_collector() -> Iterator[None]:
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


@pytest.mark.usefixtures("restored_collector")
def test_tuning_freezes_the_start_up_objects_and_spaces_collections() -> None:
    gc.unfreeze()
    kept = [[index] for index in range(1000)]  # alive before serving: frozen
    tune_collector()
    assert gc.get_freeze_count() >= len(kept)
    assert gc.get_threshold() == (YOUNG, MIDDLE_AFTER, FULL_AFTER)
    assert YOUNG > 700 and FULL_AFTER > 10  # fewer collections than Python's defaults (700, 10, 10)
