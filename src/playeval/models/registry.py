"""The model hub: turns ``provider/name`` addresses into ``Model`` objects.

A hub is an ordinary object the caller creates (one per run or server). It
holds one provider instance per provider name, built on first use, one
semaphore per provider sized by its ``max_concurrency``, and one response
cache shared by its models. Built-in providers are ``local``, ``openai``,
``anthropic``, ``mock`` and ``baseline`` (a game's baseline players,
``core.baselines``); others can register through the entry-point group
``playeval.providers`` (an entry point names a class or function that takes
no arguments and returns a provider), loaded only when asked for.

Each attempt of a call is cut after a timeout: the hub's ``timeout_s`` when
given (``playeval run --timeout``), else the provider's own ``timeout_s``
attribute, else ``PROVIDER_TIMEOUTS_S`` for its name, else
``DEFAULT_TIMEOUT_S``; never more than ``MAX_TIMEOUT_S`` (one hour: a larger
``timeout_s`` is refused, a provider's own is cut to it). ``max_retry_s`` bounds the time one call may spend on
all its attempts (see ``Model``).
"""

from __future__ import annotations

import asyncio
import importlib.metadata
from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Protocol, Self, runtime_checkable

from playeval.core.baselines import BASELINE_PROVIDER
from playeval.models.cache import ResponseCache, default_cache_path
from playeval.models.errors import UnknownModel
from playeval.models.model import DEFAULT_MAX_RETRY_S, MAX_TIMEOUT_S, Model, check_timeout
from playeval.models.providers.mock import MockScript
from playeval.models.types import Provider
from playeval.models.usage import Usage

ENTRY_POINT_GROUP = "playeval.providers"
BUILTIN_PROVIDERS: tuple[str, ...] = ("local", "openai", "anthropic", "mock", BASELINE_PROVIDER)
DEFAULT_TIMEOUT_S = 60.0
"""Seconds an attempt of a remote call may take when neither the run nor the provider says otherwise."""
PROVIDER_TIMEOUTS_S: Mapping[str, float] = MappingProxyType({"local": 300.0})
"""Timeouts of providers that differ from the default: local inference on a CPU can take minutes."""


@runtime_checkable
class ChecksModelNames(Protocol):
    """A provider that can tell at once whether it knows a model name (raising ``UnknownModel`` if not)."""

    def check_model(self, model_name: str) -> None: ...


@runtime_checkable
class ChecksReadiness(Protocol):
    """A provider that can tell at once whether a model can be called (its weights and runtime installed), raising
    a one-line ``ModelError`` if not."""

    def check_ready(self, model_name: str) -> None: ...


def split_address(address: str) -> tuple[str, str]:
    """``provider/name`` split at the first ``/`` (so ``local//abs/path.gguf`` keeps its path)."""
    provider, sep, name = address.partition("/")
    if not sep or not provider or not name:
        raise UnknownModel(f"model address {address!r} is not provider/name, e.g. local/qwen2.5-coder-1.5b")
    return provider, name


class ModelHub:
    """Models by address, sharing providers, concurrency limits and a response cache."""

    def __init__(
        self,
        use_cache: bool = True,
        cache_path: Path | None = None,
        mock_scripts: Mapping[str, MockScript] | None = None,
        *,
        model_dir: Path | None = None,
        timeout_s: float | None = None,
        max_retries: int = 4,
        max_retry_s: float = DEFAULT_MAX_RETRY_S,
        backoff_base_s: float = 0.5,
        backoff_cap_s: float = 20.0,
    ) -> None:
        self._cache = (
            ResponseCache(cache_path if cache_path is not None else default_cache_path()) if use_cache else None
        )
        self._mock_scripts: Mapping[str, MockScript] = MappingProxyType(dict(mock_scripts or {}))
        self._model_dir = model_dir
        self._timeout_s = timeout_s
        if timeout_s is not None:
            check_timeout(timeout_s)
        self._max_retries = max_retries
        self._max_retry_s = max_retry_s
        self._backoff_base_s = backoff_base_s
        self._backoff_cap_s = backoff_cap_s
        self._factories: Mapping[str, Callable[[], Provider]] = MappingProxyType(
            {
                "local": self._build_local,
                "openai": _build_openai,
                "anthropic": _build_anthropic,
                "mock": self._build_mock,
                BASELINE_PROVIDER: _build_baseline,
            }
        )
        self._providers: dict[str, Provider] = {}
        self._limiters: dict[str, asyncio.Semaphore] = {}
        self._models: dict[str, Model] = {}

    @property
    def cache(self) -> ResponseCache | None:
        return self._cache

    def known_providers(self) -> list[str]:
        """Built-in provider names, then those registered by installed plugins."""
        plugins = sorted(
            ep.name
            for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
            if ep.name not in BUILTIN_PROVIDERS
        )
        return [*BUILTIN_PROVIDERS, *plugins]

    def get(self, address: str) -> Model:
        """The model at ``address`` (the same object for the same address)."""
        model = self._models.get(address)
        if model is not None:
            return model
        provider_name, model_name = split_address(address)
        provider = self.provider(provider_name)
        if isinstance(provider, ChecksModelNames):
            provider.check_model(model_name)
        cacheable = bool(getattr(provider, "cacheable", True))
        model = Model(
            address,
            provider,
            model_name,
            cache=self._cache if cacheable else None,
            limiter=self._limiters[provider_name],
            timeout_s=self.timeout_for(provider_name),
            max_retries=self._max_retries,
            max_retry_s=self._max_retry_s,
            backoff_base_s=self._backoff_base_s,
            backoff_cap_s=self._backoff_cap_s,
        )
        self._models[address] = model
        return model

    def check(self, address: str) -> Model:
        """The model at ``address``, checked ready to be called before anything is recorded: a known provider and
        name, its API key (see :meth:`get`), and for a model run here its weights and runtime installed (nothing
        is loaded). Raises the provider's one-line ``ModelError``."""
        model = self.get(address)
        provider_name, model_name = split_address(address)
        provider = self.provider(provider_name)
        if isinstance(provider, ChecksReadiness):
            provider.check_ready(model_name)
        return model

    def timeout_for(self, provider_name: str) -> float:
        """Seconds an attempt of a call to ``provider_name`` may take (see the module docstring)."""
        if self._timeout_s is not None:
            return self._timeout_s
        own = getattr(self.provider(provider_name), "timeout_s", None)
        if isinstance(own, int | float) and own > 0:
            return min(float(own), MAX_TIMEOUT_S)  # nan fails ``own > 0``; inf is cut
        return PROVIDER_TIMEOUTS_S.get(provider_name, DEFAULT_TIMEOUT_S)

    def provider(self, name: str) -> Provider:
        """The hub's instance of provider ``name``, built on first use."""
        provider = self._providers.get(name)
        if provider is None:
            provider = self._build(name)
            self._providers[name] = provider
            self._limiters[name] = asyncio.Semaphore(max(1, int(provider.max_concurrency)))
        return provider

    def _build(self, name: str) -> Provider:
        factory = self._factories.get(name)
        if factory is not None:
            return factory()
        for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
            if ep.name == name:
                built: Provider = ep.load()()
                return built
        raise UnknownModel(f"unknown model provider {name!r}; known providers: {', '.join(self.known_providers())}")

    def _build_local(self) -> Provider:
        from playeval.models.providers.local import LocalProvider

        return LocalProvider(model_dir=self._model_dir)

    def _build_mock(self) -> Provider:
        from playeval.models.providers.mock import MockProvider

        return MockProvider(self._mock_scripts)

    def usage(self) -> dict[str, Usage]:
        """Usage totals per address of every model handed out so far."""
        return {address: model.usage for address, model in self._models.items()}

    def total_usage(self) -> Usage:
        total = Usage()
        for model in self._models.values():
            total = total + model.usage
        return total

    async def aclose(self) -> None:
        """Close every provider (clients, loaded models) and the cache."""
        providers = list(self._providers.values())
        self._providers.clear()
        self._limiters.clear()
        self._models.clear()
        for provider in providers:
            await provider.aclose()
        if self._cache is not None:
            self._cache.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()


def _build_openai() -> Provider:
    from playeval.models.providers.openai import OpenAIProvider

    return OpenAIProvider()


def _build_baseline() -> Provider:
    from playeval.models.providers.baseline import BaselineProvider

    return BaselineProvider()


def _build_anthropic() -> Provider:
    from playeval.models.providers.anthropic import AnthropicProvider

    return AnthropicProvider()
