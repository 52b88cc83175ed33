"""A warm sandbox (one worker) shared by the tests of a module."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from playeval.sandbox import Sandbox


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    with Sandbox(workers=1) as shared:
        yield shared
