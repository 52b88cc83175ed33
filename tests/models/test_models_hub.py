"""The model hub, the mock provider and the API providers (against a fake server on localhost)."""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
from pathlib import Path

import pytest
from models_fakes import FakeAPI, FakeProvider, ask

from playeval.core.messages import assistant, system, user
from playeval.models import (
    DEFAULT_MODEL,
    KNOWN_LOCAL_MODELS,
    GenerationConfig,
    MissingAPIKey,
    ModelError,
    ModelHub,
    ModelRequest,
    TransientModelError,
    UnknownModel,
)
from playeval.models.providers.anthropic import split_system
from playeval.models.registry import split_address


def test_unknown_provider_lists_known_providers() -> None:
    hub = ModelHub(use_cache=False)
    with pytest.raises(UnknownModel) as info:
        hub.get("gemini/pro")
    message = str(info.value)
    assert "\n" not in message
    assert "'gemini'" in message and "local, openai, anthropic, mock" in message


@pytest.mark.parametrize("address", ["qwen", "local/", "/x", ""])
def test_malformed_address(address: str) -> None:
    with pytest.raises(UnknownModel, match="provider/name"):
        ModelHub(use_cache=False).get(address)


def test_address_splits_on_first_slash() -> None:
    assert split_address("local//abs/dir/m.gguf") == ("local", "/abs/dir/m.gguf")
    assert split_address("openai/meta-llama/Llama-3-8b") == ("openai", "meta-llama/Llama-3-8b")


def test_unknown_local_and_mock_names() -> None:
    hub = ModelHub(use_cache=False)
    with pytest.raises(UnknownModel, match=r"local/qwen2\.5-coder-1\.5b"):
        hub.get("local/llama-70b")
    with pytest.raises(UnknownModel, match="mock/echo"):
        hub.get("mock/nope")


def test_same_address_same_model_and_catalog() -> None:
    hub = ModelHub(use_cache=False)
    assert hub.get("mock/echo") is hub.get("mock/echo")
    assert hub.get("mock/echo") is not ModelHub(use_cache=False).get("mock/echo")
    assert DEFAULT_MODEL in KNOWN_LOCAL_MODELS
    assert set(KNOWN_LOCAL_MODELS) == {"local/qwen2.5-coder-1.5b", "local/smollm2-135m", "local/gemma-3-270m"}


def test_constructing_a_hub_and_naming_models_imports_no_sdk(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from playeval.models import ModelHub\n"
        f"hub = ModelHub(cache_path={str(tmp_path / 'c.sqlite')!r})\n"
        "for a in ('local/qwen2.5-coder-1.5b', 'openai/gpt-4o', 'anthropic/claude-x', 'mock/echo'):\n"
        "    hub.get(a)\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'llama_cpp', 'openai', 'anthropic', 'numpy'}))\n"
    )
    env = {**os.environ, "OPENAI_API_KEY": "sk-test", "ANTHROPIC_API_KEY": "sk-test"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    assert out.stdout.strip() == "[]"
    assert not (tmp_path / "c.sqlite").exists()


def test_missing_openai_key_is_one_line_when_the_model_is_named() -> None:
    with pytest.raises(MissingAPIKey) as info:
        ModelHub(use_cache=False).get("openai/gpt-4o")
    assert str(info.value) == "openai: no API key; set the environment variable OPENAI_API_KEY"
    assert info.value.env_var == "OPENAI_API_KEY"


def test_missing_anthropic_key_is_one_line_when_the_model_is_named() -> None:
    with pytest.raises(MissingAPIKey) as info:
        ModelHub(use_cache=False).get("anthropic/claude-sonnet-4-5")
    assert "\n" not in str(info.value) and "ANTHROPIC_API_KEY" in str(info.value)


async def test_mock_models() -> None:
    hub = ModelHub(use_cache=False)
    request = ModelRequest(messages=(system("be brief"), user("is it red?"), assistant("no"), user("is it big?")))
    echo = await hub.get("mock/echo").generate(request)
    assert echo.text == "is it big?"
    assert echo.completion_tokens == 3 and echo.prompt_tokens == 2 + 3 + 1 + 3
    assert (await hub.get("mock/garbage").generate(request)).text == "~~ not a move ~~"
    assert (await hub.get("mock/yes").generate(request)).text == "Yes"


async def test_mock_slow_sleeps(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYEVAL_MOCK_DELAY", "0.05")
    response = await ModelHub(use_cache=False).get("mock/slow").generate(ask("x"))
    assert response.text == "x" and response.latency_s >= 0.05


async def test_mock_ignores_constraints() -> None:
    from playeval.core.ask import OutputConstraint

    response = (
        await ModelHub(use_cache=False)
        .get("mock/garbage")
        .generate(ask(constraint=OutputConstraint(choices=("Yes", "No"))))
    )
    assert response.text == "~~ not a move ~~"


async def test_scripted_list_is_consumed_in_order_then_exhausted(tmp_path: Path) -> None:
    # Even with the cache on, a scripted mock is never served from the cache.
    hub = ModelHub(cache_path=tmp_path / "c.sqlite", mock_scripts={"guesser": ["Question 1: is it alive?", "Yes"]})
    model = hub.get("mock/guesser")
    assert (await model.generate(ask())).text == "Question 1: is it alive?"
    second = await model.generate(ask())
    assert second.text == "Yes" and not second.cached
    with pytest.raises(ModelError, match="mock/guesser: script exhausted after 2 replies"):
        await model.generate(ask())
    assert model.usage.failed_calls == 1


async def test_scripted_function_sees_the_request() -> None:
    hub = ModelHub(use_cache=False, mock_scripts={"upper": lambda request: request.messages[-1].content.upper()})
    assert (await hub.get("mock/upper").generate(ask("abc"))).text == "ABC"


def test_a_string_is_not_a_script() -> None:
    hub = ModelHub(use_cache=False, mock_scripts={"bad": "Yes"})
    with pytest.raises(TypeError, match="list of replies"):
        hub.get("mock/bad")


async def test_hub_usage_and_aclose(tmp_path: Path) -> None:
    async with ModelHub(cache_path=tmp_path / "c.sqlite") as hub:
        await hub.get("mock/echo").generate(ask("a"))
        await hub.get("mock/yes").generate(ask("a"))
        assert set(hub.usage()) == {"mock/echo", "mock/yes"}
        assert hub.total_usage().calls == 2


async def test_plugin_provider_from_entry_point(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.metadata.entry_points

    def fake_entry_points(**kwargs: str) -> object:
        if kwargs.get("group") == "playeval.providers":
            return importlib.metadata.EntryPoints(
                [importlib.metadata.EntryPoint("fake", "models_fakes:FakeProvider", "playeval.providers")]
            )
        return real(**kwargs)

    monkeypatch.setattr(importlib.metadata, "entry_points", fake_entry_points)
    hub = ModelHub(use_cache=False)
    response = await hub.get("fake/thing").generate(ask("hi"))
    assert response.text == "thing: hi #1"
    with pytest.raises(UnknownModel, match="local, openai, anthropic, mock, baseline, fake"):
        hub.get("other/x")


def test_anthropic_message_shaping() -> None:
    text, turns = split_system((system("rules"), user("a"), user("b"), assistant("c"), system("more rules"), user("d")))
    assert text == "rules\n\nmore rules"
    assert turns == [
        {"role": "user", "content": "a\n\nb"},
        {"role": "assistant", "content": "c"},
        {"role": "user", "content": "d"},
    ]


def _chat_reply(text: str) -> dict[str, object]:
    return {
        "id": "x",
        "object": "chat.completion",
        "created": 0,
        "model": "m",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 12, "completion_tokens": 2, "total_tokens": 14},
    }


async def test_openai_compatible_server_without_key(fake_api: FakeAPI, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", f"{fake_api.url}/v1")
    fake_api.replies = [(200, _chat_reply("  Yes  "))]
    hub = ModelHub(use_cache=False)
    response = await hub.get("openai/qwen2.5").generate(
        ask("q", config=GenerationConfig(max_tokens=9, seed=4, stop=("\n",)))
    )
    assert response.text == "Yes" and (response.prompt_tokens, response.completion_tokens) == (12, 2)
    path, body, headers = fake_api.requests[0]
    assert path == "/v1/chat/completions"
    assert body["model"] == "qwen2.5" and body["max_tokens"] == 9 and body["seed"] == 4 and body["stop"] == ["\n"]
    assert body["messages"] == [{"role": "user", "content": "q"}]
    assert headers.get("authorization") == "Bearer not-needed"
    await hub.aclose()


async def test_openai_errors_are_mapped(fake_api: FakeAPI, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYEVAL_OPENAI_BASE_URL", f"{fake_api.url}/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    hub = ModelHub(use_cache=False, max_retries=0)
    provider = hub.provider("openai")
    fake_api.replies = [
        (429, {"error": {"message": "slow down"}}),
        (503, {"error": {"message": "overloaded"}}),
        (400, {"error": {"message": "bad\nrequest"}}),
    ]
    with pytest.raises(TransientModelError, match="RateLimitError"):
        await provider.generate("m", ask())
    with pytest.raises(TransientModelError, match="InternalServerError"):
        await provider.generate("m", ask())
    with pytest.raises(ModelError, match="HTTP 400") as info:
        await provider.generate("m", ask())
    assert not isinstance(info.value, TransientModelError) and "\n" not in str(info.value)
    assert fake_api.requests[0][2].get("authorization") == "Bearer sk-test"
    await hub.aclose()


async def test_openai_transient_errors_are_retried_by_the_wrapper(
    fake_api: FakeAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", f"{fake_api.url}/v1")
    fake_api.replies = [(500, {"error": {"message": "oops"}}), (200, _chat_reply("No"))]
    hub = ModelHub(use_cache=False, backoff_base_s=0.001)
    response = await hub.get("openai/m").generate(ask())
    assert response.text == "No" and response.attempts == 2
    await hub.aclose()


async def test_anthropic_against_fake_server(fake_api: FakeAPI, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", fake_api.url)
    fake_api.replies = [
        (
            200,
            {
                "id": "msg_1",
                "type": "message",
                "role": "assistant",
                "model": "claude-x",
                "content": [{"type": "text", "text": "Yes"}],
                "stop_reason": "end_turn",
                "stop_sequence": None,
                "usage": {"input_tokens": 21, "output_tokens": 1},
            },
        ),
        (529, {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
    ]
    hub = ModelHub(use_cache=False)
    provider = hub.provider("anthropic")
    request = ModelRequest(messages=(system("rules"), user("q")), config=GenerationConfig(max_tokens=5))
    result = await provider.generate("claude-x", request)
    assert result.text == "Yes" and (result.prompt_tokens, result.completion_tokens) == (21, 1)
    path, body, _ = fake_api.requests[0]
    assert path == "/v1/messages"
    assert body["system"] == "rules" and body["messages"] == [{"role": "user", "content": "q"}]
    assert body["max_tokens"] == 5 and "temperature" not in body
    with pytest.raises(TransientModelError):
        await provider.generate("claude-x", request)
    await hub.aclose()


def test_fake_provider_is_a_provider() -> None:
    from playeval.models import Provider

    provider: Provider = FakeProvider()
    assert provider.name == "fake"
