"""Usage totals of one model: calls, cache hits, tokens, time."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from playeval.core.work import WorkTotals


class Usage(BaseModel):
    """Totals over the calls made through one ``Model``.

    ``calls`` counts successful ``generate`` calls, of which ``cached_calls``
    came from the response cache. Tokens and ``latency_s`` count only calls
    that reached the provider (what was actually spent); ``attempts`` counts
    every provider call, retries included. ``work`` sums what the backend
    reported computing for the fresh calls (prompt tokens evaluated and
    needed, seconds of prompt and of generation), over the calls that
    reported it, with how many did (``work.calls``).
    """

    model_config = ConfigDict(frozen=True)

    calls: int = 0
    cached_calls: int = 0
    failed_calls: int = 0
    attempts: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0
    work: WorkTotals = WorkTotals()

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            calls=self.calls + other.calls,
            cached_calls=self.cached_calls + other.cached_calls,
            failed_calls=self.failed_calls + other.failed_calls,
            attempts=self.attempts + other.attempts,
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
            latency_s=self.latency_s + other.latency_s,
            work=self.work + other.work,
        )
