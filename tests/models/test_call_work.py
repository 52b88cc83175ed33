"""The work a backend reports per call (prompt tokens evaluated and needed, prompt and generation seconds): carried
from the provider's result to the call record, summed in the model's usage, and absent from a cache hit."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from models_fakes import FakeProvider, ask

from playeval.core.work import WorkTotals
from playeval.models import Model, ModelRequest, ProviderResult, ResponseCache, Usage, to_call_record


class WorkingProvider(FakeProvider):
    """A provider that reports, per call, the figures a local backend would: 40 tokens evaluated of 25 needed,
    0.5 s of prompt and 0.25 s of generation for its 3 completion tokens."""

    async def generate(self, model_name: str, request: ModelRequest) -> ProviderResult:
        result = await super().generate(model_name, request)
        return result.model_copy(update={"prompt_evaluated": 40, "prompt_needed": 25, "prompt_s": 0.5,
                                         "generation_s": 0.25})


def _model(provider: FakeProvider, cache: ResponseCache | None) -> Model:
    return Model("fake/m", provider, "m", cache=cache, limiter=asyncio.Semaphore(2), backoff_base_s=0.001)


async def test_a_fresh_call_carries_the_figures_to_its_record_and_the_usage(tmp_path: Path) -> None:
    model = _model(WorkingProvider(), ResponseCache(tmp_path / "c.sqlite"))
    record = to_call_record(await model.generate(ask("a")))
    assert (record.prompt_evaluated, record.prompt_needed, record.prompt_s, record.generation_s) == (40, 25, 0.5, 0.25)
    await model.generate(ask("b"))
    work = model.usage.work
    assert work.calls == 2
    assert (work.prompt_evaluated, work.prompt_needed, work.prompt_s, work.generation_s) == (80, 50, 1.0, 0.5)
    assert work.generated_tokens == 6
    assert work.excess == pytest.approx(1.6)
    assert work.prompt_rate == pytest.approx(80.0) and work.generation_rate == pytest.approx(12.0)


async def test_a_cache_hit_reports_no_work_though_the_entry_keeps_the_original_calls(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "c.sqlite")
    model = _model(WorkingProvider(), cache)
    await model.generate(ask("a"))
    hit = await model.generate(ask("a"))
    assert hit.cached
    assert (hit.prompt_evaluated, hit.prompt_needed, hit.prompt_s, hit.generation_s) == (None, None, None, None)
    record = to_call_record(hit)
    assert record.prompt_evaluated is None and record.work == WorkTotals()
    entry = cache.get(model.cache_key(ask("a")))
    assert entry is not None and (entry.prompt_evaluated, entry.generation_s) == (40, 0.25)
    assert model.usage.work.calls == 1 and model.usage.work.prompt_evaluated == 40


async def test_a_provider_that_reports_nothing_leaves_the_figures_unknown() -> None:
    model = _model(FakeProvider(), None)
    response = await model.generate(ask("a"))
    assert response.prompt_evaluated is None and response.generation_s is None
    work = model.usage.work
    assert work == WorkTotals() and not work.reported
    assert work.excess is None and work.prompt_rate is None and work.generation_rate is None


def test_sums_keep_what_was_reported_and_count_the_calls_that_reported() -> None:
    reported = WorkTotals.of(prompt_evaluated=100, prompt_needed=80, prompt_s=2.0, generation_s=1.0,
                             completion_tokens=10)
    silent = WorkTotals.of(prompt_evaluated=None, prompt_needed=None, prompt_s=None, generation_s=None,
                           completion_tokens=50)
    timed_only = WorkTotals.of(prompt_evaluated=None, prompt_needed=None, prompt_s=None, generation_s=3.0,
                               completion_tokens=20)
    total = reported + silent + timed_only
    assert total.calls == 2
    assert (total.prompt_evaluated, total.prompt_needed, total.prompt_s, total.generation_s) == (100, 80, 2.0, 4.0)
    assert total.generated_tokens == 30  # the silent call's 50 tokens are not divided by anyone's time
    assert total.generation_rate == pytest.approx(7.5)
    assert silent.calls == 0 and silent.generated_tokens == 0
    usage = Usage(calls=1, work=reported) + Usage(calls=1, work=silent) + Usage(calls=2, work=reported)
    assert usage.calls == 4 and usage.work.calls == 2 and usage.work.prompt_evaluated == 200


def test_nothing_needed_gives_no_ratio() -> None:
    work = WorkTotals.of(prompt_evaluated=0, prompt_needed=0, prompt_s=0.0, generation_s=0.1, completion_tokens=2)
    assert work.excess is None and work.prompt_rate is None and work.generation_rate == pytest.approx(20.0)
