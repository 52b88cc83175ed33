"""OpenAI and any OpenAI-compatible server (vLLM, Ollama, llama.cpp's server, OpenRouter) via the ``openai`` SDK.

The base URL comes from ``PLAYEVAL_OPENAI_BASE_URL`` or ``OPENAI_BASE_URL``,
the key from ``OPENAI_API_KEY``. A server on another host than openai.com
needs no key (a placeholder is sent). The client is built, and the key
checked, at the first call. Output constraints are not forwarded: whether a
compatible server enforces them cannot be known, and the game's parser
re-asks anyway.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any
from urllib.parse import urlparse

from playeval.models.errors import MissingAPIKey, ModelError, TransientModelError
from playeval.models.types import ModelRequest, ProviderResult

if TYPE_CHECKING:
    from openai import AsyncOpenAI

BASE_URL_ENVS = ("PLAYEVAL_OPENAI_BASE_URL", "OPENAI_BASE_URL")
KEY_ENV = "OPENAI_API_KEY"
PLACEHOLDER_KEY = "not-needed"


def _one_line(text: str) -> str:
    return " ".join(text.split())[:300]


def _base_url() -> str | None:
    for env in BASE_URL_ENVS:
        value = os.environ.get(env, "").strip()
        if value:
            return value
    return None


def is_openai_host(base_url: str | None) -> bool:
    if base_url is None:
        return True
    host = (urlparse(base_url).hostname or "").lower()
    return host == "openai.com" or host.endswith(".openai.com")


class OpenAIProvider:
    name = "openai"
    max_concurrency = 8

    def __init__(self) -> None:
        self._client: AsyncOpenAI | None = None
        self._official = True

    def check_model(self, model_name: str) -> None:
        """Fail early, before any request, when the official API is addressed without a key."""
        if not os.environ.get(KEY_ENV, "").strip() and is_openai_host(_base_url()):
            raise MissingAPIKey("openai", KEY_ENV)

    def _get_client(self) -> AsyncOpenAI:
        if self._client is None:
            base_url = _base_url()
            key = os.environ.get(KEY_ENV, "").strip()
            official = is_openai_host(base_url)
            if not key:
                if official:
                    raise MissingAPIKey("openai", KEY_ENV)
                key = PLACEHOLDER_KEY
            from openai import AsyncOpenAI

            # The Model wrapper owns retries and timeouts.
            self._client = AsyncOpenAI(api_key=key, base_url=base_url, max_retries=0)
            self._official = official
        return self._client

    async def generate(self, model_name: str, request: ModelRequest) -> ProviderResult:
        client = self._get_client()  # checks the key before the SDK is imported
        import openai

        config = request.config
        params: dict[str, Any] = {
            "model": model_name,
            "messages": [{"role": m.role, "content": m.content} for m in request.messages],
            "temperature": config.temperature,
            "top_p": config.top_p,
        }
        # openai.com wants max_completion_tokens (reasoning models reject max_tokens); other servers know max_tokens.
        params["max_completion_tokens" if self._official else "max_tokens"] = config.max_tokens
        if config.stop:
            params["stop"] = list(config.stop)
        if config.seed is not None:
            params["seed"] = config.seed
        try:
            completion = await client.chat.completions.create(**params)
        except (openai.RateLimitError, openai.APIConnectionError, openai.InternalServerError) as exc:
            raise TransientModelError(f"openai/{model_name}: {type(exc).__name__}: {_one_line(str(exc))}") from exc
        except openai.APIStatusError as exc:
            raise ModelError(f"openai/{model_name}: HTTP {exc.status_code}: {_one_line(exc.message)}") from exc
        except openai.OpenAIError as exc:
            raise ModelError(f"openai/{model_name}: {_one_line(str(exc))}") from exc
        if not completion.choices:
            raise TransientModelError(f"openai/{model_name}: the reply had no choices")
        text = completion.choices[0].message.content or ""
        usage = completion.usage
        return ProviderResult(
            text=text.strip(),
            prompt_tokens=usage.prompt_tokens if usage is not None else 0,
            completion_tokens=usage.completion_tokens if usage is not None else 0,
        )

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.close()
            self._client = None
