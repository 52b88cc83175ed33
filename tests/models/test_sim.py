"""``mock/sim``: a simulated endpoint with latency and injected faults, reproducible from its seed."""

from __future__ import annotations

import time

import pytest
from models_fakes import ask

from playeval.models import ModelHub, TransientModelError, UnknownModel
from playeval.models.providers.mock import MockProvider
from playeval.models.providers.mock_player import player_reply
from playeval.models.providers.sim import SIM_GARBAGE, SimSettings, parse_sim


def test_an_address_parses_into_its_settings() -> None:
    settings = parse_sim("sim?latency=0.1&jitter=0.02&errors=0.2&timeouts=0.05&garbage=0.05&rate_limit=0.1"
                         "&retry_after=0.2&seed=7")
    assert settings == SimSettings(latency=0.1, jitter=0.02, errors=0.2, timeouts=0.05, garbage=0.05, rate_limit=0.1,
                                   retry_after=0.2, seed=7)
    assert parse_sim("sim") == SimSettings()


@pytest.mark.parametrize(("name", "message"), [
    ("sim?latncy=0.1", "unknown parameter 'latncy'"),
    ("sim?errors=1.5", "errors is a probability"),
    ("sim?errors=0.6&timeouts=0.6", "add up to at most 1"),
    ("sim?latency=-1", "latency must be >= 0"),
    ("sim?latency=0.1&jitter=0.2", "jitter .* must not exceed latency"),
    ("sim?latency=fast", "latency must be a number, not 'fast'"),
    ("sim?seed=1.5", "seed must be an integer"),
    ("sim?errors=0.1&errors=0.2", "errors is given twice"),
    ("sim?errors", "not name=value"),
])
async def test_a_bad_address_is_refused_when_the_model_is_asked_for(name: str, message: str) -> None:
    async with ModelHub(use_cache=False) as hub:
        with pytest.raises(UnknownModel, match=message):
            hub.get(f"mock/{name}")


async def test_a_fault_free_endpoint_answers_like_mock_player_after_its_latency() -> None:
    provider = MockProvider()
    started = time.monotonic()
    result = await provider.generate("sim?latency=0.05&jitter=0.01", ask("Is it alive?"))
    assert time.monotonic() - started >= 0.04
    assert result.text == player_reply(ask("Is it alive?"))


async def test_faults_come_at_their_rates_and_repeat_with_the_seed() -> None:
    async def fates(seed: int) -> list[str]:
        provider = MockProvider()
        name = f"sim?errors=0.2&timeouts=0.1&hang=0&rate_limit=0.1&retry_after=3&garbage=0.1&seed={seed}"
        seen: list[str] = []
        for n in range(400):
            try:
                result = await provider.generate(name, ask(f"question {n}"))
            except TransientModelError as err:
                seen.append("rate_limit" if err.retry_after_s == 3.0 else "error")
                continue
            seen.append("garbage" if result.text == SIM_GARBAGE else "reply")
        return seen

    first = await fates(1)
    assert first == await fates(1)
    assert first != await fates(2)
    shares = {fate: first.count(fate) / len(first) for fate in ("error", "rate_limit", "garbage", "reply")}
    # hang=0: a "timeout" returns at once with a good reply, so replies are 0.5 + 0.1 of the calls
    assert 0.13 < shares["error"] < 0.27
    assert 0.05 < shares["rate_limit"] < 0.16
    assert 0.05 < shares["garbage"] < 0.16
    assert 0.5 < shares["reply"] < 0.7


async def test_a_retried_request_draws_afresh_and_the_endpoint_forgets_it_once_answered() -> None:
    provider = MockProvider()
    name = "sim?errors=0.5&seed=3"
    endpoint_failing = None
    for n in range(50):  # a request whose first draw is an error
        request = ask(f"question {n}")
        try:
            await provider.generate(name, request)
        except TransientModelError:
            endpoint_failing = provider._sims[name]._failing
            break
    assert endpoint_failing is not None
    fates = [False]
    while not fates[-1]:  # retried, it draws afresh until it is answered
        assert list(endpoint_failing.values()) == [len(fates)]
        try:
            await provider.generate(name, request)
            fates.append(True)
        except TransientModelError:
            fates.append(False)
        assert len(fates) < 30
    assert endpoint_failing == {}  # answered: forgotten, so memory does not grow with the run
    again: list[bool] = []
    for _ in fates:  # and asked again, the same request meets the same fates in the same order
        try:
            await provider.generate(name, request)
            again.append(True)
        except TransientModelError:
            again.append(False)
    assert again == fates


async def test_a_hanging_call_is_cut_by_the_wrappers_timeout_and_retried() -> None:
    async with ModelHub(use_cache=False, timeout_s=0.05, max_retries=12, backoff_base_s=0.001,
                        backoff_cap_s=0.001) as hub:
        model = hub.get("mock/sim?timeouts=0.5&seed=11")
        started = time.monotonic()
        responses = [await model.generate(ask(f"q{n}")) for n in range(8)]
        took = time.monotonic() - started
    retried = [r for r in responses if r.attempts > 1]
    assert retried, "with half the calls hanging, some call must have been retried"
    assert took < 0.05 * sum(r.attempts for r in responses) + 2  # every hang was cut at the timeout
    assert all(r.text == player_reply(r.request) for r in responses)
