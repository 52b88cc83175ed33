"""What a backend computed for model calls, summed: prompt tokens evaluated and needed, and the seconds spent.

A backend running the model itself (llama.cpp) can say how much of each prompt it evaluated (a prefix reused
from its cache is not evaluated) and how long the prompt and the reply took; a remote API cannot. The figures
are summed over the calls that reported them, so a model whose calls never reported any shows none (``None``)
rather than a zero that would read as "no work".
"""

from __future__ import annotations

from typing import TypeVar

from pydantic import BaseModel, ConfigDict

_Number = TypeVar("_Number", int, float)


def _plus(first: _Number | None, second: _Number | None) -> _Number | None:
    """The sum of the two, a missing one counting as nothing; ``None`` when both are missing."""
    if first is None:
        return second
    if second is None:
        return first
    return first + second


class WorkTotals(BaseModel):
    """The work figures of some calls (``CallRecord.prompt_evaluated`` and the others), each summed over the calls
    that reported it; ``None`` where none did.

    ``calls`` counts the calls that reported at least one figure; ``generated_tokens`` sums the completion tokens
    of the calls that reported ``generation_s``, so that the generation rate divides tokens by the time of the
    same calls (a cached call's tokens were not generated now).
    """

    model_config = ConfigDict(frozen=True)

    calls: int = 0
    prompt_evaluated: int | None = None
    prompt_needed: int | None = None
    prompt_s: float | None = None
    generation_s: float | None = None
    generated_tokens: int = 0

    @classmethod
    def of(cls, *, prompt_evaluated: int | None, prompt_needed: int | None, prompt_s: float | None,
           generation_s: float | None, completion_tokens: int) -> WorkTotals:
        """The figures of one call (all ``None`` when it reported none: then it counts for nothing)."""
        reported = any(value is not None for value in (prompt_evaluated, prompt_needed, prompt_s, generation_s))
        return cls(calls=int(reported), prompt_evaluated=prompt_evaluated, prompt_needed=prompt_needed,
                   prompt_s=prompt_s, generation_s=generation_s,
                   generated_tokens=completion_tokens if generation_s is not None else 0)

    def __add__(self, other: WorkTotals) -> WorkTotals:
        return WorkTotals(
            calls=self.calls + other.calls,
            prompt_evaluated=_plus(self.prompt_evaluated, other.prompt_evaluated),
            prompt_needed=_plus(self.prompt_needed, other.prompt_needed),
            prompt_s=_plus(self.prompt_s, other.prompt_s),
            generation_s=_plus(self.generation_s, other.generation_s),
            generated_tokens=self.generated_tokens + other.generated_tokens,
        )

    @property
    def reported(self) -> bool:
        """Whether any call reported a figure."""
        return self.calls > 0

    @property
    def excess(self) -> float | None:
        """Prompt tokens evaluated per token a perfect prefix cache would have evaluated (1.0: no reuse missed);
        ``None`` without both figures or when nothing was needed."""
        if self.prompt_evaluated is None or not self.prompt_needed:
            return None
        return self.prompt_evaluated / self.prompt_needed

    @property
    def prompt_rate(self) -> float | None:
        """Prompt tokens evaluated per second of prompt evaluation; ``None`` without both figures."""
        if self.prompt_evaluated is None or not self.prompt_s:
            return None
        return self.prompt_evaluated / self.prompt_s

    @property
    def generation_rate(self) -> float | None:
        """Tokens generated per second of generation; ``None`` without a generation time."""
        if not self.generation_s:
            return None
        return self.generated_tokens / self.generation_s
