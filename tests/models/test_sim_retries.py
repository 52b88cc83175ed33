"""The Model wrapper's timeouts and retries: a bound on a call's total time, Retry-After, per-provider timeouts."""

from __future__ import annotations

import asyncio
import random
import time

import pytest
from models_fakes import FakeProvider, ask

from playeval.models import MAX_TIMEOUT_S, Model, ModelError, ModelHub, TransientModelError
from playeval.models.registry import DEFAULT_TIMEOUT_S, PROVIDER_TIMEOUTS_S


class FakeTime:
    """A clock that only moves when ``sleep`` is awaited; records every wait."""

    def __init__(self) -> None:
        self.now = 0.0
        self.waits: list[float] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.waits.append(seconds)
        self.now += seconds


def fake_time_model(provider: FakeProvider, fake: FakeTime, *, max_retries: int = 10, max_retry_s: float = 30.0,
                    backoff_base_s: float = 4.0, backoff_cap_s: float = 16.0) -> Model:
    return Model("fake/m", provider, "m", cache=None, limiter=asyncio.Semaphore(4), timeout_s=5.0,
                 max_retries=max_retries, max_retry_s=max_retry_s, backoff_base_s=backoff_base_s,
                 backoff_cap_s=backoff_cap_s, rng=random.Random(3), clock=fake.clock, sleep=fake.sleep)


async def test_retries_stop_at_the_total_bound_before_max_retries() -> None:
    fake = FakeTime()
    provider = FakeProvider([TransientModelError("503") for _ in range(20)])
    model = fake_time_model(provider, fake, max_retries=10, max_retry_s=30.0)
    with pytest.raises(ModelError, match="retry bound"):
        await model.generate(ask())
    assert fake.now <= 30.0
    assert provider.calls < 11  # the bound, not max_retries, ended it
    assert model.usage.failed_calls == 1


async def test_retry_after_is_waited_instead_of_backoff() -> None:
    fake = FakeTime()
    provider = FakeProvider([TransientModelError("429", retry_after_s=7.0), TransientModelError("429",
                                                                                           retry_after_s=2.5)])
    model = fake_time_model(provider, fake, backoff_base_s=0.001, backoff_cap_s=0.001)
    response = await model.generate(ask())
    assert response.attempts == 3
    assert len(fake.waits) == 2
    assert 7.0 <= fake.waits[0] <= 7.7  # at least what was asked, plus at most 10 % spread
    assert 2.5 <= fake.waits[1] <= 2.75


async def test_a_retry_after_longer_than_what_is_left_gives_up_at_once() -> None:
    fake = FakeTime()
    provider = FakeProvider([TransientModelError("429", retry_after_s=60.0)])
    model = fake_time_model(provider, fake, max_retry_s=30.0)
    with pytest.raises(ModelError, match=r"asked to wait 60 s, more than the 30 s left"):
        await model.generate(ask())
    assert fake.waits == []
    assert provider.calls == 1


async def test_without_retry_after_the_backoff_is_exponential_with_full_jitter() -> None:
    fake = FakeTime()
    provider = FakeProvider([TransientModelError("503") for _ in range(3)])
    model = fake_time_model(provider, fake, max_retry_s=1000.0, backoff_base_s=1.0, backoff_cap_s=3.0)
    await model.generate(ask())
    ceilings = [1.0, 2.0, 3.0]
    assert len(fake.waits) == 3
    assert all(0.0 <= wait <= ceiling for wait, ceiling in zip(fake.waits, ceilings, strict=True))


async def test_a_frozen_endpoint_is_given_up_within_the_bound() -> None:
    """A provider that never answers: each attempt times out, and the call ends once the bound has passed
    (before: timeout x attempts)."""
    provider = FakeProvider([30.0 for _ in range(10)])
    model = Model("fake/m", provider, "m", cache=None, limiter=asyncio.Semaphore(4), timeout_s=0.1, max_retries=4,
                  max_retry_s=0.15, backoff_base_s=0.001, backoff_cap_s=0.001)
    started = time.monotonic()
    with pytest.raises(ModelError, match="gave up after") as caught:
        await model.generate(ask())
    took = time.monotonic() - started
    assert 0.15 <= took < 0.6  # 5 attempts of 0.1 s would be at least 0.5 s
    assert provider.calls == 2  # the second attempt only got what was left of the bound
    assert "no reply within" in str(caught.value)


async def test_timeouts_come_from_the_run_then_the_provider_then_the_table() -> None:
    async with ModelHub(use_cache=False) as hub:
        assert hub.get("mock/player").timeout_s == 30.0  # MockProvider.timeout_s
        assert hub.timeout_for("openai") == PROVIDER_TIMEOUTS_S.get("openai", DEFAULT_TIMEOUT_S)
    async with ModelHub(use_cache=False, timeout_s=2.5, max_retry_s=9.0) as hub:
        model = hub.get("mock/player")
        assert (model.timeout_s, model.max_retry_s) == (2.5, 9.0)
    with pytest.raises(ValueError, match="above 0 and at most 3600"):
        ModelHub(use_cache=False, timeout_s=0.0)


@pytest.mark.parametrize("timeout", [float("inf"), float("nan"), MAX_TIMEOUT_S * 2, -1.0, 0.0])
def test_a_timeout_that_would_not_bound_a_call_is_refused(timeout: float) -> None:
    """An infinite (or unbounded) timeout let one attempt against a hanging server wait for good: a call ends
    within max(timeout, max_retry_s) only if the timeout is bounded."""
    with pytest.raises(ValueError, match="above 0 and at most 3600"):
        ModelHub(use_cache=False, timeout_s=timeout)
    with pytest.raises(ValueError, match="above 0 and at most 3600"):
        Model("fake/m", FakeProvider([]), "m", cache=None, limiter=asyncio.Semaphore(1), timeout_s=timeout)
    with pytest.raises(ValueError, match="finite"):
        Model("fake/m", FakeProvider([]), "m", cache=None, limiter=asyncio.Semaphore(1), timeout_s=1.0,
              max_retry_s=float("inf"))


async def test_a_provider_s_own_timeout_is_cut_to_the_maximum(monkeypatch: pytest.MonkeyPatch) -> None:
    async with ModelHub(use_cache=False) as hub:
        monkeypatch.setattr(hub.provider("mock"), "timeout_s", float("inf"), raising=False)
        assert hub.timeout_for("mock") == MAX_TIMEOUT_S
        assert hub.get("mock/player").timeout_s == MAX_TIMEOUT_S
