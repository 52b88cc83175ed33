"""Anthropic's Messages API via the ``anthropic`` SDK; the key comes from ``ANTHROPIC_API_KEY``.

System messages go into the ``system`` parameter and consecutive messages of
the same role are merged, as the API wants alternating turns. Sampling
parameters are not sent: the API version the current SDK speaks rejects
``temperature``, ``top_p`` and ``top_k``; the response cache is what makes
reruns reproducible. Output constraints are not forwarded either: the
Messages API takes no grammar or pattern (a tool with an input schema could
carry choices, but not the games' line formats), so a constrained call
records the ``parse`` output path and the game's parser re-asks on a format
error.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

from playeval.core.messages import Message
from playeval.models.errors import MissingAPIKey, ModelError, TransientModelError
from playeval.models.types import ModelRequest, ProviderResult

if TYPE_CHECKING:
    from anthropic import AsyncAnthropic

KEY_ENV = "ANTHROPIC_API_KEY"
_TRANSIENT_NAMES = (
    "RateLimitError",
    "APIConnectionError",
    "APITimeoutError",
    "InternalServerError",
    "OverloadedError",
    "ServiceUnavailableError",
    "DeadlineExceededError",
)


def _one_line(text: str) -> str:
    return " ".join(text.split())[:300]


def _transient_errors(module: ModuleType) -> tuple[type[BaseException], ...]:
    """The SDK's retry-worthy error classes (not every SDK version has all of them)."""
    found = (getattr(module, name, None) for name in _TRANSIENT_NAMES)
    return tuple(cls for cls in found if isinstance(cls, type) and issubclass(cls, BaseException))


def split_system(messages: Sequence[Message]) -> tuple[str, list[dict[str, str]]]:
    """The joined system text, and the other turns with consecutive same-role turns merged."""
    system_parts = [m.content for m in messages if m.role == "system"]
    turns: list[dict[str, str]] = []
    for message in messages:
        if message.role == "system":
            continue
        if turns and turns[-1]["role"] == message.role:
            turns[-1]["content"] += "\n\n" + message.content
        else:
            turns.append({"role": message.role, "content": message.content})
    return "\n\n".join(system_parts), turns


class AnthropicProvider:
    name = "anthropic"
    max_concurrency = 4

    def __init__(self) -> None:
        self._client: AsyncAnthropic | None = None

    def check_model(self, model_name: str) -> None:
        """Fail early, before any request, when no key is set."""
        if not os.environ.get(KEY_ENV, "").strip():
            raise MissingAPIKey("anthropic", KEY_ENV)

    def _get_client(self) -> AsyncAnthropic:
        if self._client is None:
            key = os.environ.get(KEY_ENV, "").strip()
            if not key:
                raise MissingAPIKey("anthropic", KEY_ENV)
            from anthropic import AsyncAnthropic

            # The Model wrapper owns retries and timeouts.
            self._client = AsyncAnthropic(api_key=key, max_retries=0)
        return self._client

    async def generate(self, model_name: str, request: ModelRequest) -> ProviderResult:
        client = self._get_client()  # checks the key before the SDK is imported
        import anthropic

        system, turns = split_system(request.messages)
        params: dict[str, Any] = {
            "model": model_name,
            "max_tokens": request.config.max_tokens,
            "messages": turns,
        }
        if system:
            params["system"] = system
        if request.config.stop:
            params["stop_sequences"] = list(request.config.stop)
        transient = _transient_errors(anthropic)
        try:
            reply = await client.messages.create(**params)
        except transient as exc:
            raise TransientModelError(f"anthropic/{model_name}: {type(exc).__name__}: {_one_line(str(exc))}") from exc
        except anthropic.APIStatusError as exc:
            raise ModelError(f"anthropic/{model_name}: HTTP {exc.status_code}: {_one_line(exc.message)}") from exc
        except anthropic.AnthropicError as exc:
            raise ModelError(f"anthropic/{model_name}: {_one_line(str(exc))}") from exc
        text = "".join(getattr(block, "text", "") for block in reply.content if block.type == "text")
        return ProviderResult(
            text=text.strip(),
            prompt_tokens=reply.usage.input_tokens,
            completion_tokens=reply.usage.output_tokens,
            output_path="parse" if request.constraint is not None else None,
        )

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.close()
            self._client = None
