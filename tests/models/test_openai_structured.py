"""Structured output through OpenAI-compatible servers, against fake llama.cpp, vLLM and plain servers on
127.0.0.1: what each is sent, that the server is identified once, and the output path each call records."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from typing import Any

import pytest
from openai_fakes import FakeServer, serve

from playeval.core.ask import OutputConstraint
from playeval.core.messages import user
from playeval.models import ModelHub, ModelRequest, TransientModelError, UnknownModel
from playeval.models.gbnf_regex import GrammarNotRegular, grammar_regex
from playeval.models.providers.openai import OpenAIProvider, retry_after_s
from playeval.models.providers.openai_structured import split_model_name

MOVE = (
    'root ::= "Question 3: " text "?" | verdict\nverdict ::= "I believe your statement is: " ("True" | "False")\n'
    "text ::= [^\\n?]+\n"
)
CHOICES = OutputConstraint(choices=("Yes", "No", "Maybe"))


@pytest.fixture(params=["llama_cpp", "llama_cpp_python", "vllm", "plain", "lenient"])
def server(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeServer]:
    yield from _serve_at(FakeServer(kind=request.param), monkeypatch)


def _serve_at(fake: FakeServer, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeServer]:
    for running in serve(fake):
        monkeypatch.setenv("PLAYEVAL_OPENAI_BASE_URL", f"{running.url}/v1")
        monkeypatch.delenv("OPENAI_API_KEY", raising=False)
        yield running


def _request(constraint: OutputConstraint | None) -> ModelRequest:
    return ModelRequest(messages=(user("Ask a question."),), constraint=constraint)


async def _ask(provider: OpenAIProvider, name: str, constraint: OutputConstraint | None) -> tuple[str, str | None]:
    result = await provider.generate(name, _request(constraint))
    return result.text, result.output_path


EXPECTED_PATH = {
    "llama_cpp": "llama_grammar", "llama_cpp_python": "llama_grammar", "vllm": "guided", "plain": "parse",
    "lenient": "json_schema",
}


async def test_each_server_gets_the_constraint_it_takes_and_is_identified_once(server: FakeServer) -> None:
    provider = OpenAIProvider()
    try:
        results = await asyncio.gather(*(_ask(provider, "qwen", OutputConstraint(grammar=MOVE)) for _ in range(4)))
        results.append(await _ask(provider, "qwen", OutputConstraint(grammar=MOVE)))
    finally:
        await provider.aclose()
    assert {path for _, path in results} == {EXPECTED_PATH[server.kind]}
    assert {text for text, _ in results} == {"Question 3: is it an animal?"}  # the JSON wrapper is removed
    assert server.gets == {"llama_cpp": ["/props"], "vllm": ["/props", "/version"]}.get(
        server.kind, ["/props", "/version", "/openapi.json"])
    body = server.posts[-1]
    if server.kind.startswith("llama_cpp"):
        assert body["grammar"] == MOVE and "response_format" not in body
    elif server.kind == "vllm":
        assert body["structured_outputs"] == {"regex": grammar_regex(MOVE)} and "grammar" not in body
    elif server.kind == "plain":
        # One refusal, then nothing is sent again: 5 calls, one extra request for the refused schema.
        assert len(server.posts) == 6
        assert sum("response_format" in posted for posted in server.posts) == 1
        assert "response_format" not in body
    else:
        move = body["response_format"]["json_schema"]["schema"]["properties"]["move"]
        assert move == {"type": "string", "pattern": grammar_regex(MOVE)}
        assert body["max_tokens"] == 128 + 16


async def test_choices_go_as_choices_and_an_unconstrained_call_records_no_path(server: FakeServer) -> None:
    server.reply = lambda body: "Maybe"
    provider = OpenAIProvider()
    try:
        text, path = await _ask(provider, "qwen", CHOICES)
        free_text, free_path = await _ask(provider, "qwen", None)
    finally:
        await provider.aclose()
    assert text == "Maybe" and path == EXPECTED_PATH[server.kind]
    assert free_path is None and free_text == "Maybe"
    constrained = server.posts[0]
    if server.kind.startswith("llama_cpp"):
        assert constrained["grammar"] == 'root ::= "Yes" | "No" | "Maybe"\n'
    elif server.kind == "vllm":
        assert constrained["structured_outputs"] == {"choice": ["Yes", "No", "Maybe"]}
    elif server.kind == "lenient":
        assert constrained["response_format"]["json_schema"]["schema"]["properties"]["move"]["enum"] == [
            "Yes", "No", "Maybe"]
    assert not {"grammar", "structured_outputs", "response_format"} & set(server.posts[-1])


async def test_an_older_vllm_gets_the_guided_fields(monkeypatch: pytest.MonkeyPatch) -> None:
    for running in _serve_at(FakeServer(kind="vllm", vllm_version="0.8.5"), monkeypatch):
        provider = OpenAIProvider()
        try:
            assert (await _ask(provider, "m", CHOICES))[1] == "guided"
            assert (await _ask(provider, "m", OutputConstraint(grammar=MOVE)))[1] == "guided"
        finally:
            await provider.aclose()
        assert running.posts[0]["guided_choice"] == ["Yes", "No", "Maybe"]
        assert running.posts[1]["guided_regex"] == grammar_regex(MOVE)


@pytest.mark.parametrize("fmt", ["parse", "json_schema", "llama_grammar"])
async def test_an_address_can_force_the_path(fmt: str, monkeypatch: pytest.MonkeyPatch) -> None:
    for running in _serve_at(FakeServer(kind="llama_cpp"), monkeypatch):
        provider = OpenAIProvider()
        try:
            text, path = await _ask(provider, f"qwen?format={fmt}", OutputConstraint(grammar=MOVE))
        finally:
            await provider.aclose()
        assert path == fmt and text == "Question 3: is it an animal?"
        body = running.posts[0]
        assert body["model"] == "qwen"
        assert ("grammar" in body) == (fmt == "llama_grammar")
        assert ("response_format" in body) == (fmt == "json_schema")
        assert running.gets == []  # a forced path needs no probe


def test_a_malformed_format_option_is_refused_before_any_call() -> None:
    assert split_model_name("gpt-4o") == ("gpt-4o", "auto")
    assert split_model_name("qwen?format=guided") == ("qwen", "guided")
    for bad in ("qwen?format=xml", "qwen?mode=parse", "?format=parse"):
        with pytest.raises(UnknownModel, match="openai/"):
            split_model_name(bad)


async def test_a_non_regular_grammar_falls_back_to_parse_on_json_schema(monkeypatch: pytest.MonkeyPatch) -> None:
    nested = 'root ::= "(" root ")" | "x"\n'
    with pytest.raises(GrammarNotRegular, match="refers to itself"):
        grammar_regex(nested)
    for running in _serve_at(FakeServer(kind="lenient"), monkeypatch):
        provider = OpenAIProvider()
        try:
            assert (await _ask(provider, "m", OutputConstraint(grammar=nested)))[1] == "parse"
        finally:
            await provider.aclose()
        assert "response_format" not in running.posts[0]


def test_game_grammars_become_regular_expressions_that_accept_what_they_accept() -> None:
    regex = re.compile(grammar_regex(MOVE))
    assert regex.fullmatch("Question 3: is it red?")
    assert regex.fullmatch("I believe your statement is: False")
    assert not regex.fullmatch("Question 3: is it red?\nQuestion 4: or blue?")
    assert not regex.fullmatch("I believe your statement is: Maybe")
    word = re.compile(grammar_regex('root ::= "Guess: " part ([ -] part)?\npart ::= [A-Za-z]{1,5}\n'))
    assert word.fullmatch("Guess: ice-cream") and word.fullmatch("Guess: ice-creams") is None
    assert word.fullmatch("Guess: ice cream") and word.fullmatch("Guess: ice-cream-cake") is None
    assert grammar_regex('root ::= "a.b" [\\]x-z] "\\n"\n') == "^(a\\.b[\\]x-z]\\n)$"


async def test_a_429_with_retry_after_seconds_carries_the_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    for running in _serve_at(FakeServer(kind="lenient"), monkeypatch):
        running.status_queue.append((429, {"Retry-After": "7"}))
        later = format_datetime(datetime.now(UTC) + timedelta(seconds=30), usegmt=True)
        running.status_queue.append((429, {"Retry-After": later}))
        running.status_queue.append((503, {}))
        provider = OpenAIProvider()
        try:
            with pytest.raises(TransientModelError, match="RateLimitError") as seconds:
                await _ask(provider, "m", None)
            with pytest.raises(TransientModelError) as dated:
                await _ask(provider, "m", None)
            with pytest.raises(TransientModelError) as unsaid:
                await _ask(provider, "m", None)
        finally:
            await provider.aclose()
        assert seconds.value.retry_after_s == 7.0
        assert dated.value.retry_after_s is not None and 25.0 < dated.value.retry_after_s <= 30.0
        assert unsaid.value.retry_after_s is None


def test_retry_after_forms() -> None:
    assert retry_after_s({"retry-after-ms": "1500", "Retry-After": "9"}) == 1.5
    assert retry_after_s({"Retry-After": "0.25"}) == 0.25
    assert retry_after_s({"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"}, now=1445412470.0) == 10.0
    assert retry_after_s({"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"}, now=1445412490.0) == 0.0
    assert retry_after_s({"Retry-After": "soon"}) is None
    assert retry_after_s({}) is None


async def test_the_path_reaches_the_call_record_and_the_cache_replays_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    from playeval.models import to_call_record

    for running in _serve_at(FakeServer(kind="llama_cpp"), monkeypatch):
        async with ModelHub(cache_path=tmp_path / "cache.sqlite") as hub:
            model = hub.get("openai/qwen")
            fresh = await model.generate(_request(OutputConstraint(grammar=MOVE)))
            again = await model.generate(_request(OutputConstraint(grammar=MOVE)))
        assert to_call_record(fresh).output_path == "llama_grammar"
        assert again.cached and again.output_path == "llama_grammar"
        assert fresh.cost_usd is None  # a served model with no price in the table: unknown, not 0
        assert again.cost_usd == 0.0
        assert len(running.posts) == 1


async def test_a_server_refusing_the_first_schema_with_a_500_gets_parse_from_then_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for running in _serve_at(FakeServer(kind="llama_cpp_python"), monkeypatch):
        provider = OpenAIProvider()
        try:
            first = await _ask(provider, "m?format=json_schema", OutputConstraint(grammar=MOVE))
            second = await _ask(provider, "m?format=json_schema", CHOICES)
        finally:
            await provider.aclose()
        assert first == ("Question 3: is it an animal?", "parse") and second[1] == "parse"
        assert ["response_format" in body for body in running.posts] == [True, False, False]
