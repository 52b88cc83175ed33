"""Requests, responses and the provider contract of the model layer."""

from __future__ import annotations

from typing import Protocol

from pydantic import BaseModel, ConfigDict, Field, InstanceOf

from playeval.core.ask import OutputConstraint
from playeval.core.messages import Message
from playeval.core.scripted import AskOrigin
from playeval.core.verdicts import VerdictQuestion


class GenerationConfig(BaseModel):
    """Sampling parameters. ``seed`` makes sampling reproducible where the backend allows it."""

    model_config = ConfigDict(frozen=True)

    temperature: float = 0.0
    top_p: float = 1.0
    max_tokens: int = 128
    seed: int | None = None
    stop: tuple[str, ...] = ()


class ModelRequest(BaseModel):
    """One generation request. Everything in it is part of the cache key except ``affinity`` and ``origin``.

    ``affinity`` is a hint (for example the seat name) that lets an in-process
    backend keep one context per conversation so it can reuse the prompt
    prefix; it never changes the output.

    ``origin`` is the match and ask the request answers (``core.scripted.AskOrigin``), which a player in a match
    attaches only for a provider that declares ``reads_origin`` (the mock: ``mock/player`` plays a game it was not
    written for through the game's scripted players); it holds the match's spec, secrets included, so no other
    provider is handed it. It is left out of every dump (the cache's key, records).
    """

    model_config = ConfigDict(frozen=True)

    messages: tuple[Message, ...]
    config: GenerationConfig = Field(default_factory=GenerationConfig)
    constraint: OutputConstraint | None = None
    answers: VerdictQuestion | None = None
    """A judge's question: where the reply holds its answer words. A provider that can reads the probability of
    each allowed answer there (``ProviderResult.answer_probs``); the others ignore it."""
    affinity: str | None = None
    origin: InstanceOf[AskOrigin] | None = Field(default=None, exclude=True, repr=False)


class ProviderResult(BaseModel):
    """What a provider returns for one call."""

    model_config = ConfigDict(frozen=True)

    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    output_path: str | None = None
    """How the provider enforced the request's constraint (see ``CallRecord.output_path``); ``None`` when the
    request carried none."""
    answer_probs: tuple[dict[str, float], ...] = ()
    """For a request with ``answers``: per answer in the reply, in order, the probability of each allowed answer
    (an empty dict where the provider could not read them); empty when the provider gives none."""
    prompt_evaluated: int | None = None
    """Prompt tokens the backend actually computed (a prefix it reused from its cache is not); ``None`` from a
    provider that cannot tell (a remote API)."""
    prompt_needed: int | None = None
    """Prompt tokens a perfect prefix cache would have computed: the prompt minus its longest common prefix with
    any earlier prompt and reply of the same model. Beside ``prompt_evaluated`` it shows the reuse a backend
    missed; ``None`` when the provider does not track it."""
    prompt_s: float | None = None
    """Seconds the backend spent evaluating the prompt (``None`` when it cannot tell)."""
    generation_s: float | None = None
    """Seconds the backend spent generating the reply (``None`` when it cannot tell)."""


class ModelResponse(BaseModel):
    """What the ``Model`` wrapper returns: the provider result plus accounting."""

    model_config = ConfigDict(frozen=True)

    model: str
    request: ModelRequest
    text: str
    prompt_tokens: int
    completion_tokens: int
    latency_s: float
    cached: bool
    attempts: int
    cost_usd: float | None = None
    output_path: str | None = None
    answer_probs: tuple[dict[str, float], ...] = ()
    prompt_evaluated: int | None = None
    """The work figures of ``ProviderResult``; ``None`` for a cache hit (nothing was computed) and from a
    provider that does not report them."""
    prompt_needed: int | None = None
    prompt_s: float | None = None
    generation_s: float | None = None


class Provider(Protocol):
    """A thin backend: one ``generate`` per call, no retries, no cache.

    ``name`` is the address prefix (``local``, ``openai``...). Transient
    failures raise ``TransientModelError`` so the wrapper retries them; any
    other ``ModelError`` is final.
    """

    name: str
    max_concurrency: int

    async def generate(self, model_name: str, request: ModelRequest) -> ProviderResult: ...

    async def aclose(self) -> None: ...
