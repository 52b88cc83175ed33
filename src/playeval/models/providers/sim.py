"""``mock/sim``: ``mock/player`` behind a simulated endpoint, for batch runs, benchmarks and fault injection.

An address carries the endpoint's behaviour as a query string, every parameter optional::

    mock/sim?latency=0.1&jitter=0.02&errors=0.2&timeouts=0.05&garbage=0.05&rate_limit=0.1&retry_after=0.2&seed=7

``latency``
    seconds every reply takes (default 0); each call waits ``latency`` ± up to ``jitter`` (default 0, at most
    ``latency``) with ``asyncio.sleep``, so waiting costs no CPU.
``errors``
    probability that a call fails with a server error (HTTP 5xx), a ``TransientModelError`` the wrapper retries.
``timeouts``
    probability that a call hangs for ``hang`` seconds (default 3600) -- past the wrapper's timeout, which cuts it.
``rate_limit``
    probability that a call is refused as rate limited (HTTP 429) with a ``Retry-After`` of ``retry_after`` seconds
    (default 1): a ``TransientModelError`` whose ``retry_after_s`` the wrapper waits.
``garbage``
    probability that a call returns text that is no move of any game (``SIM_GARBAGE``), which the game refuses.
``seed``
    an integer (default 0) mixed into every call's draw.

The probabilities are each in [0, 1] and add up to at most 1. Otherwise a call answers like ``mock/player``.
Draws are reproducible: each call's random generator is seeded from ``seed``, the address and the request, and
how many times in a row this endpoint has failed that same request (so a retry draws afresh). Those counts are
kept only while a request keeps failing, so memory does not grow with the run. Requests with identical
content in matches played at once share their count, so with concurrency above 1 which of them draws which
fault can depend on timing; at concurrency 1 a run repeats exactly.

**Across resumes.** The counts live in the process (one endpoint per hub), so a new process, such as
``playeval run --resume``, starts them at zero and draws every request's faults afresh from the same seed: the
same request meets the same faults in the same order. A call that gave up (a fault on every one of its
attempts) therefore gives up again, at the same move, on every resume; the resume stops there and says it made
no progress (``RunInterrupted.stalled``) instead of suggesting another. Such a run cannot be finished with the
same address; run it again with another ``seed`` or lower fault probabilities.
"""

from __future__ import annotations

import asyncio
import hashlib
import random
from dataclasses import dataclass, fields
from urllib.parse import parse_qsl

from playeval.core.rng import derive_seed
from playeval.models.errors import TransientModelError, UnknownModel
from playeval.models.providers.mock_player import mock_player_reply
from playeval.models.types import ModelRequest

SIM_NAME = "sim"
SIM_GARBAGE = "#@! garbled reply !@#"
_PROBABILITIES: tuple[str, ...] = ("errors", "timeouts", "rate_limit", "garbage")


@dataclass(frozen=True)
class SimSettings:
    """How a simulated endpoint behaves (see the module docstring for each parameter)."""

    latency: float = 0.0
    jitter: float = 0.0
    errors: float = 0.0
    timeouts: float = 0.0
    rate_limit: float = 0.0
    garbage: float = 0.0
    retry_after: float = 1.0
    hang: float = 3600.0
    seed: int = 0

    def __post_init__(self) -> None:
        for name in ("latency", "jitter", "retry_after", "hang"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be >= 0 seconds")
        if self.jitter > self.latency:
            raise ValueError(f"jitter ({self.jitter:g}) must not exceed latency ({self.latency:g})")
        for name in _PROBABILITIES:
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"{name} is a probability, between 0 and 1")
        if sum(getattr(self, name) for name in _PROBABILITIES) > 1.0 + 1e-9:
            raise ValueError(f"{' + '.join(_PROBABILITIES)} must add up to at most 1")


_PARAMETERS: tuple[str, ...] = tuple(field.name for field in fields(SimSettings))


def is_sim(model_name: str) -> bool:
    """Whether a ``mock`` model name is a simulated endpoint (``sim`` or ``sim?...``)."""
    return model_name == SIM_NAME or model_name.startswith(SIM_NAME + "?")


def parse_sim(model_name: str) -> SimSettings:
    """The settings of ``sim?name=value&...``; ``UnknownModel`` with a one-line reason for anything else."""
    if not is_sim(model_name):
        raise UnknownModel(f"mock/{model_name} is not a simulated endpoint (mock/sim?...)")
    query = model_name[len(SIM_NAME) + 1:]
    try:
        pairs = parse_qsl(query, keep_blank_values=True, strict_parsing=True) if query else []
    except ValueError:
        raise UnknownModel(f"mock/{model_name}: the query is not name=value&name=value") from None
    values: dict[str, float | int] = {}
    for key, raw in pairs:
        if key not in _PARAMETERS:
            raise UnknownModel(f"mock/{model_name}: unknown parameter {key!r}; known: {', '.join(_PARAMETERS)}")
        if key in values:
            raise UnknownModel(f"mock/{model_name}: {key} is given twice")
        try:
            values[key] = int(raw) if key == "seed" else float(raw)
        except ValueError:
            kind = "an integer" if key == "seed" else "a number"
            raise UnknownModel(f"mock/{model_name}: {key} must be {kind}, not {raw!r}") from None
    try:
        return SimSettings(**values)  # type: ignore[arg-type]
    except ValueError as exc:
        raise UnknownModel(f"mock/{model_name}: {exc}") from None


class SimEndpoint:
    """One simulated endpoint: draws each call's fate, waits, then fails or answers like ``mock/player``."""

    def __init__(self, address: str, settings: SimSettings) -> None:
        self._address = address
        self._settings = settings
        self._failing: dict[str, int] = {}
        """Request key -> how many times in a row it has failed; dropped when it succeeds."""

    @property
    def settings(self) -> SimSettings:
        return self._settings

    async def reply(self, request: ModelRequest) -> str:
        key = _digest(self._address, request)
        failures = self._failing.get(key, 0)
        s = self._settings
        rng = random.Random(derive_seed(s.seed, key, failures))
        draw = rng.random()
        delay = s.latency + (rng.uniform(-s.jitter, s.jitter) if s.jitter else 0.0)
        fault = _fault(s, draw)
        if fault is None or fault == "garbage":
            self._failing.pop(key, None)
            if delay > 0:
                await asyncio.sleep(delay)
            return SIM_GARBAGE if fault == "garbage" else await mock_player_reply(request)
        self._failing[key] = failures + 1
        if fault == "timeouts":
            await asyncio.sleep(s.hang)  # the wrapper's timeout cancels this first
            self._failing.pop(key, None)
            return await mock_player_reply(request)
        if delay > 0:
            await asyncio.sleep(delay)
        if fault == "rate_limit":
            raise TransientModelError(f"simulated HTTP 429 rate limit; retry after {s.retry_after:g} s",
                                      retry_after_s=s.retry_after)
        raise TransientModelError("simulated HTTP 503 server error")


def _digest(address: str, request: ModelRequest) -> str:
    """A stable digest of what tells requests apart (the address, the conversation, the sampling seed and the
    output constraint): cheaper than the cache's key, which serialises the whole request as JSON."""
    digest = hashlib.blake2b(digest_size=16)
    constraint = request.constraint
    for part in (address, str(request.config.seed), repr(constraint.choices) if constraint else "",
                 constraint.grammar or "" if constraint else ""):
        digest.update(part.encode())
        digest.update(b"\x1f")
    for message in request.messages:
        digest.update(message.role.encode())
        digest.update(b"\x1e")
        digest.update(message.content.encode())
        digest.update(b"\x1f")
    return digest.hexdigest()


def _fault(settings: SimSettings, draw: float) -> str | None:
    """Which fault (a name in ``_PROBABILITIES``) a uniform draw in [0, 1) falls on, or ``None`` for a good reply."""
    edge = 0.0
    for name in _PROBABILITIES:
        edge += getattr(settings, name)
        if draw < edge:
            return name
    return None
