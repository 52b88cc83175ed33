"""The one wrapper around a provider: cache, concurrency limit, timeout, retries, usage."""

from __future__ import annotations

import asyncio
import logging
import math
import random
import time
from collections.abc import Awaitable, Callable

from playeval.core.ask import CallRecord
from playeval.core.work import WorkTotals
from playeval.models.backoff import Backoff
from playeval.models.cache import CacheEntry, ResponseCache, request_key
from playeval.models.errors import ModelError, TransientModelError
from playeval.models.pricing import PriceTable, load_prices
from playeval.models.types import ModelRequest, ModelResponse, Provider, ProviderResult
from playeval.models.usage import Usage

_log = logging.getLogger(__name__)

DEFAULT_MAX_RETRY_S = 120.0
"""Default bound on the time one call may spend on its attempts and the waits between them."""
MAX_TIMEOUT_S = 3600.0
"""The longest an attempt of a model call may be given (``--timeout``): one hour. A call therefore ends, replied
or given up, within ``max(timeout_s, max_retry_s)`` seconds (plus the wait for a free slot of its provider)."""


def check_timeout(seconds: float) -> float:
    """``seconds`` if it is a valid timeout of an attempt (a number above 0 and at most ``MAX_TIMEOUT_S``);
    ``ValueError`` with a one-line reason otherwise (0, a negative number, ``inf``, ``nan``)."""
    if not (math.isfinite(seconds) and 0 < seconds <= MAX_TIMEOUT_S):
        raise ValueError(f"a timeout is a number of seconds above 0 and at most {MAX_TIMEOUT_S:g} (one hour), "
                         f"not {seconds:g}")
    return seconds


class Model:
    """A model at one address (``provider/name``), as players and judges use it.

    ``generate`` first looks the request up in the response cache (the key is
    the address and the request without ``affinity``). On a miss it takes a
    slot of the provider's semaphore, calls the provider under a timeout of
    ``timeout_s`` and retries transient failures and timeouts, up to
    ``max_retries`` retries and within ``max_retry_s`` seconds from the start
    of the first attempt: the first attempt always gets its whole timeout, a
    later one at most what is left of that bound, and no retry starts once it
    has passed. Before a retry it waits what the provider asked for
    (``TransientModelError.retry_after_s``, an HTTP 429's ``Retry-After``, plus
    up to 10 % so that calls refused together do not return together), giving
    up at once if that does not fit in the bound; otherwise exponential backoff
    with full jitter. A call so ends within ``max(timeout_s, max_retry_s)``
    seconds of its first attempt, whatever the timeout: ``timeout_s`` must be
    at most ``MAX_TIMEOUT_S`` and ``max_retry_s`` finite. ``clock`` and ``sleep`` (``time.monotonic`` and
    ``asyncio.sleep``) measure the bound and wait; tests pass fakes. A fresh
    result is stored in the cache. A cache hit comes back with ``cached=True``, ``attempts=0`` and the
    (near zero) latency of the lookup; its token counts are those of the
    original call.
    """

    def __init__(
        self,
        address: str,
        provider: Provider,
        model_name: str,
        *,
        cache: ResponseCache | None,
        limiter: asyncio.Semaphore,
        timeout_s: float = 300.0,
        max_retries: int = 4,
        max_retry_s: float = DEFAULT_MAX_RETRY_S,
        backoff_base_s: float = 0.5,
        backoff_cap_s: float = 20.0,
        rng: random.Random | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        prices: PriceTable | None = None,
    ) -> None:
        if max_retries < 0:
            raise ValueError("max_retries must be >= 0")
        check_timeout(timeout_s)
        if not (math.isfinite(max_retry_s) and max_retry_s >= 0):
            raise ValueError(f"max_retry_s must be a finite number of seconds >= 0, not {max_retry_s:g}")
        self._address = address
        self._provider = provider
        self._model_name = model_name
        self._cache = cache
        self._limiter = limiter
        self._timeout_s = timeout_s
        self._max_retries = max_retries
        self._max_retry_s = max_retry_s
        self._backoff = Backoff(base_s=backoff_base_s, cap_s=backoff_cap_s)
        self._rng = rng if rng is not None else random.Random()
        self._clock = clock
        self._sleep = sleep
        self._usage = Usage()
        self._price = (prices if prices is not None else load_prices()).price(address)

    @property
    def address(self) -> str:
        return self._address

    @property
    def model_name(self) -> str:
        return self._model_name

    @property
    def provider(self) -> Provider:
        return self._provider

    @property
    def timeout_s(self) -> float:
        """Seconds one attempt may take."""
        return self._timeout_s

    @property
    def max_retry_s(self) -> float:
        """Seconds from a call's first attempt after which it is not retried any more."""
        return self._max_retry_s

    @property
    def usage(self) -> Usage:
        return self._usage

    @property
    def reads_origin(self) -> bool:
        """Whether its provider answers from where a request comes from (``ModelRequest.origin``, which holds the
        match's spec, secrets included): only a mock model does, and a player attaches the origin only then."""
        return bool(getattr(self._provider, "reads_origin", False))

    def cache_key(self, request: ModelRequest) -> str:
        return request_key(self._address, request)

    async def generate(self, request: ModelRequest) -> ModelResponse:
        started = time.perf_counter()
        key = self.cache_key(request) if self._cache is not None else None
        if self._cache is not None and key is not None:
            entry = await asyncio.to_thread(self._cache.get, key)
            if entry is not None:
                latency = time.perf_counter() - started
                self._count(cached=True)
                return self._response(request, entry, latency, cached=True, attempts=0)

        result, attempts, latency = await self._call_with_retries(request)
        if self._cache is not None and key is not None:
            entry = CacheEntry(
                text=result.text,
                prompt_tokens=result.prompt_tokens,
                completion_tokens=result.completion_tokens,
                latency_s=latency,
                attempts=attempts,
                output_path=result.output_path,
                answer_probs=result.answer_probs,
                prompt_evaluated=result.prompt_evaluated,
                prompt_needed=result.prompt_needed,
                prompt_s=result.prompt_s,
                generation_s=result.generation_s,
            )
            await asyncio.to_thread(self._cache.put, key, entry)
        self._count(cached=False, result=result, latency=latency)
        return self._response(request, result, latency, cached=False, attempts=attempts)

    def _response(self, request: ModelRequest, result: ProviderResult | CacheEntry, latency: float, *,
                  cached: bool, attempts: int) -> ModelResponse:
        return ModelResponse(
            model=self._address,
            request=request,
            text=result.text,
            prompt_tokens=result.prompt_tokens,
            completion_tokens=result.completion_tokens,
            latency_s=latency,
            cached=cached,
            attempts=attempts,
            cost_usd=0.0 if cached else self._cost(result),
            output_path=result.output_path,
            answer_probs=result.answer_probs,
            # A cache hit computed nothing: the entry's figures are the original call's work, not this one's.
            prompt_evaluated=None if cached else result.prompt_evaluated,
            prompt_needed=None if cached else result.prompt_needed,
            prompt_s=None if cached else result.prompt_s,
            generation_s=None if cached else result.generation_s,
        )

    def _cost(self, result: ProviderResult | CacheEntry) -> float | None:
        """A fresh call's price (a cached one costs nothing); ``None`` when the model has no known price."""
        return self._price.cost(result.prompt_tokens, result.completion_tokens) if self._price is not None else None

    async def _call_with_retries(self, request: ModelRequest) -> tuple[ProviderResult, int, float]:
        """Return the result, the number of attempts and the latency of the successful attempt."""
        attempts = 0
        deadline = 0.0
        failure: ModelError = ModelError(f"{self._address}: no attempt made")
        while True:
            async with self._limiter:
                now = self._clock()
                if attempts == 0:
                    deadline = now + self._max_retry_s
                timeout = self._timeout_s if attempts == 0 else min(self._timeout_s, deadline - now)
                if timeout <= 0:
                    raise self._give_up(attempts, f"the {self._max_retry_s:g} s retry bound has passed", failure)
                attempts += 1
                self._usage = self._usage.model_copy(update={"attempts": self._usage.attempts + 1})
                try:
                    started = time.perf_counter()
                    result = await asyncio.wait_for(self._provider.generate(self._model_name, request), timeout)
                    return result, attempts, time.perf_counter() - started
                except TimeoutError:
                    failure = TransientModelError(f"{self._address}: no reply within {timeout:g} s")
                except TransientModelError as exc:
                    failure = exc
                except ModelError:
                    self._count_failure()
                    raise
            if attempts > self._max_retries:
                raise self._give_up(attempts, "", failure)
            delay, why = self._retry_delay(attempts, failure, deadline - self._clock())
            if why:
                raise self._give_up(attempts, why, failure)
            _log.warning("%s: attempt %d failed (%s); retrying in %.2f s", self._address, attempts, failure, delay)
            await self._sleep(delay)

    def _retry_delay(self, attempts: int, failure: ModelError, remaining: float) -> tuple[float, str]:
        """The wait before the next attempt, or why there is none (``remaining``: seconds left of the bound)."""
        asked = failure.retry_after_s if isinstance(failure, TransientModelError) else None
        if asked is not None and asked > 0:
            if asked >= remaining:
                return 0.0, (f"the provider asked to wait {asked:g} s, more than the {max(0.0, remaining):.3g} s "
                             f"left of the {self._max_retry_s:g} s retry bound")
            return min(asked * (1.0 + 0.1 * self._rng.random()), remaining), ""
        if remaining <= 0:
            return 0.0, f"the {self._max_retry_s:g} s retry bound has passed"
        return min(self._backoff.delay(attempts, self._rng), remaining), ""

    def _give_up(self, attempts: int, why: str, failure: ModelError) -> ModelError:
        """The final error of a call that is not retried any more (counted as a failed call)."""
        self._count_failure()
        because = f" ({why})" if why else ""
        error = ModelError(f"{self._address}: gave up after {attempts} attempts{because}; last error: {failure}")
        error.__cause__ = failure
        return error

    def _count(self, *, cached: bool, result: ProviderResult | None = None, latency: float = 0.0) -> None:
        u = self._usage
        if cached or result is None:
            self._usage = u.model_copy(update={"calls": u.calls + 1, "cached_calls": u.cached_calls + 1})
            return
        self._usage = u.model_copy(
            update={
                "calls": u.calls + 1,
                "prompt_tokens": u.prompt_tokens + result.prompt_tokens,
                "completion_tokens": u.completion_tokens + result.completion_tokens,
                "latency_s": u.latency_s + latency,
                "work": u.work + WorkTotals.of(
                    prompt_evaluated=result.prompt_evaluated, prompt_needed=result.prompt_needed,
                    prompt_s=result.prompt_s, generation_s=result.generation_s,
                    completion_tokens=result.completion_tokens),
            }
        )

    def _count_failure(self) -> None:
        self._usage = self._usage.model_copy(update={"failed_calls": self._usage.failed_calls + 1})

    def __repr__(self) -> str:
        return f"Model({self._address!r})"


def to_call_record(response: ModelResponse) -> CallRecord:
    """The store's record of one model call."""
    params: dict[str, object] = dict(response.request.config.model_dump(mode="json"))
    if response.request.constraint is not None:
        params["constraint"] = response.request.constraint.model_dump(mode="json", exclude_none=True)
    return CallRecord(
        model=response.model,
        messages=response.request.messages,
        params=params,
        raw_output=response.text,
        prompt_tokens=response.prompt_tokens,
        completion_tokens=response.completion_tokens,
        latency_s=response.latency_s,
        cached=response.cached,
        attempts=response.attempts,
        cost_usd=response.cost_usd,
        output_path=response.output_path,
        prompt_evaluated=response.prompt_evaluated,
        prompt_needed=response.prompt_needed,
        prompt_s=response.prompt_s,
        generation_s=response.generation_s,
    )
