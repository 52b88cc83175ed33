"""The Model wrapper: retries, timeouts, cache, concurrency limit, usage."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path

import pytest
from models_fakes import FakeProvider, ask

from playeval.core.ask import OutputConstraint
from playeval.core.messages import system, user
from playeval.models import (
    GenerationConfig,
    Model,
    ModelError,
    ModelRequest,
    ResponseCache,
    TransientModelError,
    default_cache_path,
    to_call_record,
)
from playeval.models.backoff import Backoff
from playeval.models.cache import request_key


class CeilingRandom(random.Random):
    """A Random whose ``uniform`` always returns the upper bound and records the bounds asked for."""

    def __init__(self) -> None:
        super().__init__(0)
        self.bounds: list[tuple[float, float]] = []

    def uniform(self, a: float, b: float) -> float:
        self.bounds.append((a, b))
        return b


def make_model(
    provider: FakeProvider,
    *,
    cache: ResponseCache | None = None,
    limit: int = 4,
    max_retries: int = 4,
    timeout_s: float = 5.0,
    rng: random.Random | None = None,
    address: str = "fake/m",
) -> Model:
    return Model(
        address,
        provider,
        address.partition("/")[2],
        cache=cache,
        limiter=asyncio.Semaphore(limit),
        timeout_s=timeout_s,
        max_retries=max_retries,
        backoff_base_s=0.001,
        backoff_cap_s=0.004,
        rng=rng,
    )


async def test_transient_errors_are_retried_with_growing_capped_backoff() -> None:
    provider = FakeProvider([TransientModelError("busy")] * 4)
    rng = CeilingRandom()
    model = make_model(provider, rng=rng)
    response = await model.generate(ask())
    assert response.attempts == 5 and provider.calls == 5
    assert response.text == "m: hello #5" and not response.cached
    # full jitter: uniform(0, min(cap, base * 2**(n-1)))
    assert rng.bounds == [(0.0, 0.001), (0.0, 0.002), (0.0, 0.004), (0.0, 0.004)]
    assert model.usage.attempts == 5 and model.usage.calls == 1 and model.usage.failed_calls == 0


async def test_gives_up_after_max_retries() -> None:
    provider = FakeProvider([TransientModelError("busy")] * 10)
    model = make_model(provider, max_retries=2)
    with pytest.raises(ModelError) as info:
        await model.generate(ask())
    assert not isinstance(info.value, TransientModelError)
    assert "gave up after 3 attempts" in str(info.value) and "busy" in str(info.value)
    assert provider.calls == 3
    assert model.usage.failed_calls == 1 and model.usage.calls == 0


async def test_final_errors_are_not_retried() -> None:
    provider = FakeProvider([ModelError("bad request")])
    model = make_model(provider)
    with pytest.raises(ModelError, match="bad request"):
        await model.generate(ask())
    assert provider.calls == 1


async def test_timeout_is_retried_then_succeeds() -> None:
    provider = FakeProvider([1.0, None])
    model = make_model(provider, timeout_s=0.05)
    response = await model.generate(ask())
    assert response.attempts == 2 and provider.calls == 2


async def test_timeout_every_time_gives_up() -> None:
    provider = FakeProvider([1.0, 1.0, 1.0])
    model = make_model(provider, timeout_s=0.05, max_retries=1)
    with pytest.raises(ModelError, match=r"no reply within 0\.05 s"):
        await model.generate(ask())
    assert provider.calls == 2


def test_backoff_delay_bounds() -> None:
    backoff = Backoff(base_s=0.5, cap_s=20.0)
    rng = random.Random(7)
    for retry in range(1, 12):
        ceiling = min(20.0, 0.5 * 2 ** (retry - 1))
        for _ in range(20):
            assert 0.0 <= backoff.delay(retry, rng) <= ceiling


async def test_cache_hit_returns_same_text_without_calling_provider(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "responses.sqlite")
    provider = FakeProvider()
    model = make_model(provider, cache=cache)
    first = await model.generate(ask("hi"))
    second = await model.generate(ask("hi"))
    assert provider.calls == 1
    assert not first.cached and second.cached
    assert second.text == first.text
    assert (second.prompt_tokens, second.completion_tokens) == (first.prompt_tokens, first.completion_tokens)
    assert second.attempts == 0 and second.latency_s < 1.0

    # The cache is a file: a new cache object on the same path (as in a new process) hits too.
    cache.close()
    again = make_model(FakeProvider(), cache=ResponseCache(tmp_path / "responses.sqlite"))
    third = await again.generate(ask("hi"))
    assert third.cached and third.text == first.text


async def test_without_cache_the_provider_is_called_every_time() -> None:
    provider = FakeProvider()
    model = make_model(provider, cache=None)
    first = await model.generate(ask("hi"))
    second = await model.generate(ask("hi"))
    assert provider.calls == 2 and not second.cached and first.text != second.text


async def test_failures_are_not_cached(tmp_path: Path) -> None:
    provider = FakeProvider([ModelError("nope")])
    model = make_model(provider, cache=ResponseCache(tmp_path / "c.sqlite"))
    with pytest.raises(ModelError):
        await model.generate(ask())
    assert not (await model.generate(ask())).cached


def test_cache_key_covers_every_request_field_but_affinity() -> None:
    base = ModelRequest(
        messages=(system("rules"), user("q")),
        config=GenerationConfig(temperature=0.0, top_p=1.0, max_tokens=16, seed=1, stop=("\n",)),
        constraint=OutputConstraint(choices=("Yes", "No")),
    )
    variants = [
        base.model_copy(update={"messages": (system("rules"), user("q2"))}),
        base.model_copy(update={"messages": (user("q"),)}),
        base.model_copy(update={"config": base.config.model_copy(update={"temperature": 0.7})}),
        base.model_copy(update={"config": base.config.model_copy(update={"top_p": 0.9})}),
        base.model_copy(update={"config": base.config.model_copy(update={"max_tokens": 17})}),
        base.model_copy(update={"config": base.config.model_copy(update={"seed": 2})}),
        base.model_copy(update={"config": base.config.model_copy(update={"seed": None})}),
        base.model_copy(update={"config": base.config.model_copy(update={"stop": ()})}),
        base.model_copy(update={"constraint": OutputConstraint(choices=("Yes", "No", "Maybe"))}),
        base.model_copy(update={"constraint": OutputConstraint(grammar='root ::= "Yes"')}),
        base.model_copy(update={"constraint": None}),
    ]
    key = request_key("local/x", base)
    keys = {request_key("local/x", v) for v in variants}
    assert key not in keys and len(keys) == len(variants)
    assert request_key("local/y", base) != key
    assert request_key("local/x", base.model_copy(update={"affinity": "guesser"})) == key
    assert request_key("local/x", base.model_copy(update={"affinity": "answerer"})) == key


async def test_affinity_does_not_split_the_cache(tmp_path: Path) -> None:
    provider = FakeProvider()
    model = make_model(provider, cache=ResponseCache(tmp_path / "c.sqlite"))
    await model.generate(ask("q", affinity="guesser"))
    assert (await model.generate(ask("q", affinity="answerer"))).cached
    assert provider.calls == 1


@pytest.mark.parametrize("limit", [1, 2, 3])
async def test_concurrency_limit_is_respected(limit: int) -> None:
    provider = FakeProvider()
    provider.delay_s = 0.02
    model = make_model(provider, limit=limit)
    await asyncio.gather(*(model.generate(ask(f"q{i}")) for i in range(9)))
    assert provider.calls == 9
    assert provider.max_in_flight == limit


async def test_limit_is_shared_by_models_of_one_provider() -> None:
    provider = FakeProvider()
    provider.delay_s = 0.02
    limiter = asyncio.Semaphore(2)
    models = [
        Model(f"fake/{name}", provider, name, cache=None, limiter=limiter, backoff_base_s=0.001) for name in "abc"
    ]
    await asyncio.gather(*(m.generate(ask(f"q{i}")) for i in range(4) for m in models))
    assert provider.max_in_flight == 2


async def test_usage_counts_fresh_and_cached_calls(tmp_path: Path) -> None:
    model = make_model(FakeProvider([TransientModelError("x")]), cache=ResponseCache(tmp_path / "c.sqlite"))
    await model.generate(ask("a"))
    await model.generate(ask("b"))
    await model.generate(ask("a"))
    usage = model.usage
    assert usage.calls == 3 and usage.cached_calls == 1 and usage.failed_calls == 0
    assert usage.attempts == 3  # one retry for "a", one call for "b", none for the hit
    assert usage.prompt_tokens == 20 and usage.completion_tokens == 6
    assert usage.latency_s > 0
    assert (usage + usage).calls == 6


async def test_to_call_record_carries_the_call() -> None:
    model = make_model(FakeProvider())
    request = ask(
        "q",
        config=GenerationConfig(temperature=0.0, max_tokens=8, seed=3),
        constraint=OutputConstraint(choices=("Yes", "No")),
    )
    response = await model.generate(request)
    record = to_call_record(response)
    assert record.model == "fake/m"
    assert record.messages == request.messages
    assert record.raw_output == response.text
    assert (record.prompt_tokens, record.completion_tokens) == (10, 3)
    assert record.attempts == 1 and record.cached is False
    assert record.params["max_tokens"] == 8 and record.params["seed"] == 3
    assert record.params["constraint"] == {"choices": ["Yes", "No"]}


def test_cache_file_is_created_lazily_in_wal_mode(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "responses.sqlite"
    cache = ResponseCache(path)
    assert not path.exists()
    assert cache.get("missing") is None
    assert path.exists()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    cache.close()


def test_default_cache_path_follows_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYEVAL_CACHE_DIR", str(tmp_path / "a"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "x"))
    assert default_cache_path() == tmp_path / "a" / "responses.sqlite"
    monkeypatch.delenv("PLAYEVAL_CACHE_DIR")
    assert default_cache_path() == tmp_path / "x" / "playeval" / "responses.sqlite"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_cache_path() == tmp_path / "home" / ".cache" / "playeval" / "responses.sqlite"
