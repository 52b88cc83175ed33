"""OpenAI and any OpenAI-compatible server (vLLM, Ollama, llama.cpp's server, OpenRouter) via the ``openai`` SDK.

The base URL comes from ``PLAYEVAL_OPENAI_BASE_URL`` or ``OPENAI_BASE_URL``,
the key from ``OPENAI_API_KEY``. A server on another host than openai.com
needs no key (a placeholder is sent). The client is built, and the key
checked, at the first call. ``PLAYEVAL_OPENAI_CONCURRENCY`` (a whole number, at
least 1; default 8) is how many calls may be in flight to the server at once,
read when the provider is created: the hub sizes the provider's semaphore from
it (``max_concurrency``), so a server that decodes N conversations together
(llama.cpp's ``--parallel N``, vLLM's ``--max-num-seqs``) is sent up to N.

A request's output constraint is sent to servers that enforce one (see
``openai_structured``): the server behind the base URL is identified once per
provider instance, at the first constrained call (``GET /props``: llama.cpp;
``GET /version``: vLLM; ``GET /openapi.json``: llama-cpp-python; openai.com:
JSON schema; anything else is sent a JSON schema, and nothing more if it
refuses that first one). Each result records
the path its call took. ``openai/NAME?format=parse`` (or another path) forces
a path. A 429 or 503 with ``Retry-After`` (seconds or an HTTP date) or
``retry-after-ms`` raises ``TransientModelError`` carrying that wait.

A judge's request (``ModelRequest.answers``) asks for ``logprobs`` with the 20 likeliest alternatives of each
token; the answers' probabilities are read from the alternatives of the token that chose each answer
(``models.answer_reading``), an answer missing from them counting as none. A reply wrapped in JSON (the schema
path) and a server that refuses ``logprobs`` (it is then not asked again) give no probabilities: the word decides.
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import os
import re
import time
import urllib.error
import urllib.request
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import urlparse

from playeval.core.verdicts import VerdictQuestion
from playeval.models.answer_reading import AnswerSpot, answer_of, answer_probs
from playeval.models.errors import MissingAPIKey, ModelError, TransientModelError
from playeval.models.providers.openai_structured import (
    JSON_OVERHEAD_TOKENS,
    Endpoint,
    OutputPath,
    Shaped,
    identify,
    refuses_schema,
    shape,
    split_model_name,
    unwrap,
)
from playeval.models.types import ModelRequest, ProviderResult

if TYPE_CHECKING:
    from openai import AsyncOpenAI

BASE_URL_ENVS = ("PLAYEVAL_OPENAI_BASE_URL", "OPENAI_BASE_URL")
KEY_ENV = "OPENAI_API_KEY"
CONCURRENCY_ENV = "PLAYEVAL_OPENAI_CONCURRENCY"
DEFAULT_CONCURRENCY = 8
"""Calls in flight at once when ``PLAYEVAL_OPENAI_CONCURRENCY`` is unset: enough to keep a small server's slots
busy without queueing a rate-limited API's requests behind one another for long."""
PLACEHOLDER_KEY = "not-needed"
OPENAI_BASE_URL = "https://api.openai.com/v1"
PROBE_TIMEOUT_S = 5.0
TOP_LOGPROBS = 20
"""Alternatives asked per token of a judge's reply (the most openai.com gives)."""


def _one_line(text: str) -> str:
    return " ".join(text.split())[:300]


def _base_url() -> str | None:
    for env in BASE_URL_ENVS:
        value = os.environ.get(env, "").strip()
        if value:
            return value
    return None


def concurrency(env: Mapping[str, str] | None = None) -> int:
    """How many calls may be in flight to the server at once: ``PLAYEVAL_OPENAI_CONCURRENCY`` from ``env``
    (default the process environment), else ``DEFAULT_CONCURRENCY``. Anything but a whole number of at least 1
    is refused in one line, before any call."""
    raw = (os.environ if env is None else env).get(CONCURRENCY_ENV, "").strip()
    if not raw:
        return DEFAULT_CONCURRENCY
    if re.fullmatch(r"[0-9]+", raw) is None or int(raw) < 1:
        raise ModelError(f"{CONCURRENCY_ENV} must be a whole number of calls in flight, at least 1, not {raw!r}")
    return int(raw)


def is_openai_host(base_url: str | None) -> bool:
    if base_url is None:
        return True
    host = (urlparse(base_url).hostname or "").lower()
    return host == "openai.com" or host.endswith(".openai.com")


def server_root(base_url: str) -> str:
    """The server's root URL: the base URL without its trailing ``/v1``."""
    root = base_url.rstrip("/")
    return root[: -len("/v1")] if root.endswith("/v1") else root


def retry_after_s(headers: Mapping[str, str], *, now: float | None = None) -> float | None:
    """The wait a response asks for: ``retry-after-ms``, else ``Retry-After`` in seconds or as an HTTP date."""
    lowered = {key.lower(): value for key, value in headers.items()}
    millis = lowered.get("retry-after-ms")
    if millis is not None:
        try:
            return max(0.0, float(millis) / 1000)
        except ValueError:
            pass
    value = lowered.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def _get_json(url: str) -> object:
    """The JSON body of ``GET url``, or ``None`` when it fails, is not 200 or is not JSON."""
    try:
        with urllib.request.urlopen(url, timeout=PROBE_TIMEOUT_S) as response:
            if response.status != 200:
                return None
            return json.loads(response.read())
    except (OSError, ValueError):  # URLError and HTTPError are OSErrors
        return None


class OpenAIProvider:
    name = "openai"

    def __init__(self) -> None:
        self.max_concurrency = concurrency()
        """Calls the hub lets through at once (its semaphore for this provider is sized from this)."""
        self._client: AsyncOpenAI | None = None
        self._official = True
        self._base: str = OPENAI_BASE_URL
        self._endpoint: Endpoint | None = None
        self._endpoint_lock = asyncio.Lock()
        self._schema_ok: bool | None = None
        """Whether a server other than openai.com takes JSON schemas: unknown until its first constrained call."""
        self._schema_lock = asyncio.Lock()
        self._logprobs_ok = True
        """False once the server refused ``logprobs``: judges' verdicts from it are then words."""

    @property
    def endpoint(self) -> Endpoint | None:
        """The server identified behind the base URL (``None`` until the first constrained call)."""
        return self._endpoint

    def check_model(self, model_name: str) -> None:
        """Fail early, before any request: a malformed ``?format=`` option, or the official API without a key."""
        split_model_name(model_name)
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
            self._base = base_url or OPENAI_BASE_URL
        return self._client

    async def _identify(self) -> Endpoint:
        """The server behind the base URL, probed once (concurrent first calls wait for the one probe)."""
        if self._endpoint is not None:
            return self._endpoint
        async with self._endpoint_lock:
            if self._endpoint is None:
                self._endpoint = await self._probe()
            return self._endpoint

    async def _probe(self) -> Endpoint:
        if self._official:
            return Endpoint("openai")
        root = server_root(self._base)
        props = await asyncio.to_thread(_get_json, f"{root}/props")
        version = None if props is not None else await asyncio.to_thread(_get_json, f"{root}/version")
        openapi = None
        if props is None and version is None:
            openapi = await asyncio.to_thread(_get_json, f"{root}/openapi.json")
        found = identify(props, version, openapi)
        return found if found is not None else Endpoint("generic")

    async def _path(self, fmt: str, request: ModelRequest) -> tuple[OutputPath | None, Endpoint]:
        if request.constraint is None:
            return None, Endpoint("generic")
        if fmt == "parse":
            return "parse", Endpoint("generic")
        endpoint = await self._identify() if fmt in ("auto", "guided") else Endpoint("generic")
        path: OutputPath = endpoint.default_path if fmt == "auto" else fmt  # type: ignore[assignment]
        return ("parse" if path == "json_schema" and self._schema_ok is False else path), endpoint

    async def generate(self, model_name: str, request: ModelRequest) -> ProviderResult:
        client = self._get_client()  # checks the key before the SDK is imported
        name, fmt = split_model_name(model_name)
        path, endpoint = await self._path(fmt, request)
        shaped = shape(request.constraint, path, endpoint) if path is not None else Shaped(None, {})
        if shaped.path != "json_schema" or self._schema_ok is not None:
            return await self._complete(client, name, request, shaped)
        async with self._schema_lock:  # the first schema sent to this server is the trial; the others wait for it
            if self._schema_ok is False:
                return await self._complete(client, name, request, Shaped("parse", {}))
            try:
                result = await self._complete(client, name, request, shaped)
            except _SchemaRefused:
                self._schema_ok = False  # this server takes no JSON schema: from now on, parse and re-ask
                return await self._complete(client, name, request, Shaped("parse", {}))
            self._schema_ok = True
            return result

    def _params(self, name: str, request: ModelRequest, shaped: Shaped) -> dict[str, Any]:
        config = request.config
        params: dict[str, Any] = {
            "model": name,
            "messages": [{"role": m.role, "content": m.content} for m in request.messages],
            "temperature": config.temperature,
            "top_p": config.top_p,
            **shaped.params,
        }
        max_tokens = config.max_tokens + (JSON_OVERHEAD_TOKENS if shaped.wrapped else 0)
        # openai.com wants max_completion_tokens (reasoning models reject max_tokens); other servers know max_tokens.
        params["max_completion_tokens" if self._official else "max_tokens"] = max_tokens
        if config.stop and not shaped.wrapped:  # a stop string inside the JSON would cut it short
            params["stop"] = list(config.stop)
        if config.seed is not None:
            params["seed"] = config.seed
        if self._reads_answers(request, shaped):
            params["logprobs"] = True
            params["top_logprobs"] = TOP_LOGPROBS
        return params

    def _reads_answers(self, request: ModelRequest, shaped: Shaped) -> bool:
        return request.answers is not None and not shaped.wrapped and self._logprobs_ok

    def _on_trial(self, shaped: Shaped) -> bool:
        """This call carries the first JSON schema sent to this server (whose refusal means: never again)."""
        return shaped.path == "json_schema" and self._schema_ok is None

    async def _complete(self, client: AsyncOpenAI, name: str, request: ModelRequest, shaped: Shaped) -> ProviderResult:
        import openai

        address = f"openai/{name}"
        try:
            completion = await client.chat.completions.create(**self._params(name, request, shaped))
        except openai.BadRequestError as exc:
            if not (self._reads_answers(request, shaped) and "logprob" in str(exc.message).lower()):
                if self._on_trial(shaped) and refuses_schema(exc.status_code, exc.message):
                    raise _SchemaRefused from exc
                raise _as_model_error(exc, address) from exc
            self._logprobs_ok = False  # this server takes no logprobs: ask again without, and never ask again
            return await self._complete(client, name, request, shaped)
        except (openai.RateLimitError, openai.InternalServerError) as exc:
            if self._on_trial(shaped) and refuses_schema(exc.status_code, exc.message):
                raise _SchemaRefused from exc
            wait = retry_after_s(exc.response.headers)
            raise TransientModelError(f"{address}: {type(exc).__name__}: {_one_line(exc.message)}",
                                      retry_after_s=wait) from exc
        except openai.APIConnectionError as exc:
            raise TransientModelError(f"{address}: {type(exc).__name__}: {_one_line(str(exc))}") from exc
        except openai.APIStatusError as exc:
            if self._on_trial(shaped) and refuses_schema(exc.status_code, exc.message):
                raise _SchemaRefused from exc
            raise _as_model_error(exc, address) from exc
        except openai.OpenAIError as exc:
            raise ModelError(f"{address}: {_one_line(str(exc))}") from exc
        if not completion.choices:
            raise TransientModelError(f"{address}: the reply had no choices")
        text = completion.choices[0].message.content or ""
        usage = completion.usage
        probs = (read_answers(request.answers, completion.choices[0].logprobs, text)
                 if request.answers is not None and self._reads_answers(request, shaped) else ())
        return ProviderResult(
            answer_probs=probs,
            text=(unwrap(text) if shaped.wrapped else text).strip(),
            prompt_tokens=usage.prompt_tokens if usage is not None else 0,
            completion_tokens=usage.completion_tokens if usage is not None else 0,
            output_path=shaped.path,
        )

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.close()
            self._client = None


def _as_model_error(exc: Any, address: str) -> ModelError:
    return ModelError(f"{address}: HTTP {exc.status_code}: {_one_line(exc.message)}")


def read_answers(question: VerdictQuestion, logprobs: Any, text: str) -> tuple[dict[str, float], ...]:
    """The answers' probabilities at each answer of ``text``, from a chat completion's ``logprobs`` (its
    ``content``: tokens with their ``top_logprobs``); an empty dict where an answer's token was not found."""
    content = getattr(logprobs, "content", None) or []
    spot = AnswerSpot(question)
    readings: dict[int, dict[str, float]] = {}
    so_far = ""
    for token in content:
        found = spot.at(so_far)
        if found is not None:
            rest, offset = found
            alternatives = [(answer_of(str(alt.token), rest, question.answers), float(alt.logprob))
                            for alt in (getattr(token, "top_logprobs", None) or [])]
            probs = answer_probs(alternatives, question.answers)
            if probs is not None:
                readings[offset] = probs
        so_far += str(token.token)
    # The readings are at offsets of the reply as generated; ``text`` is the same reply with its ends stripped.
    lead = len(so_far) - len(so_far.lstrip())
    return tuple(readings.get(offset + lead, {}) for offset, _ in question.positions(text.strip()))


class _SchemaRefused(Exception):
    """The server answered a JSON-schema request with a 400 naming the schema."""
