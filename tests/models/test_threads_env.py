"""``PLAYEVAL_THREADS`` chooses the local model's threads; a bad value is one clear error."""

from __future__ import annotations

import pytest

from playeval.models.providers.local import default_threads


def test_threads_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYEVAL_THREADS", "1")
    assert default_threads() == 1
    monkeypatch.setenv("PLAYEVAL_THREADS", "3")
    assert default_threads() == 3


@pytest.mark.parametrize("raw", ["0", "two", "-1"])
def test_bad_thread_count_is_refused(monkeypatch: pytest.MonkeyPatch, raw: str) -> None:
    monkeypatch.setenv("PLAYEVAL_THREADS", raw)
    with pytest.raises(ValueError, match="PLAYEVAL_THREADS"):
        default_threads()


def test_unset_uses_the_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PLAYEVAL_THREADS", raising=False)
    assert default_threads() >= 1
