"""The embedded engine on a real model (marked ``llm``): one copy of the weights, a cache per conversation kept
across calls, re-asks and parallel calls, with replies that do not depend on any of it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from playeval.core.ask import OutputConstraint
from playeval.core.messages import Message, assistant, system, user
from playeval.models import GenerationConfig, ModelError, ModelRequest
from playeval.models.catalog import LOCAL_MODELS
from playeval.models.providers.local import LocalProvider
from playeval.models.types import ProviderResult
from playeval.models.weights import MissingWeights, default_model_dir, locate_weights

pytestmark = pytest.mark.llm
SMOL = "smollm2-135m"
RULES = system("We play a word game. " + "Each player describes the secret word in one short sentence. " * 8)


@pytest.fixture(autouse=True)
def _require_smollm2() -> None:
    pytest.importorskip("llama_cpp")
    try:
        locate_weights(LOCAL_MODELS[SMOL].weights)
    except MissingWeights as exc:
        pytest.skip(str(exc))


@pytest.fixture
async def provider() -> AsyncIterator[LocalProvider]:
    local = LocalProvider(model_dir=default_model_dir())
    yield local
    await local.aclose()


def ask(messages: tuple[Message, ...], *, affinity: str | None = "seat", seed: int | None = 7,
        temperature: float = 0.9, max_tokens: int = 24, constraint: OutputConstraint | None = None) -> ModelRequest:
    return ModelRequest(messages=messages, affinity=affinity, constraint=constraint,
                        config=GenerationConfig(temperature=temperature, seed=seed, max_tokens=max_tokens))


def story(animal: str) -> tuple[Message, ...]:
    return (RULES, user(f"The secret word is {animal}. Describe it in one sentence."))


async def fresh_reply(request: ModelRequest) -> ProviderResult:
    local = LocalProvider(model_dir=default_model_dir())
    try:
        return await local.generate(SMOL, request)
    finally:
        await local.aclose()


async def test_a_conversation_evaluates_only_its_new_tail_and_replies_as_if_asked_afresh(
        provider: LocalProvider) -> None:
    first = await provider.generate(SMOL, ask(story("cat")))
    assert first.prompt_evaluated == first.prompt_tokens  # nothing cached yet
    follow = (*story("cat"), assistant(first.text), user("Now describe it again, differently."))
    second = await provider.generate(SMOL, ask(follow))
    assert second.prompt_evaluated is not None and second.prompt_needed is not None
    assert second.prompt_evaluated < second.prompt_tokens / 2, "the conversation's cache was not reused"
    assert second.prompt_needed <= second.prompt_evaluated <= second.prompt_needed + 8
    # The first turn asked again (a re-ask with the same seed) restores the state before the reply: same text.
    again = await provider.generate(SMOL, ask(story("cat")))
    assert again.text == first.text and again.prompt_evaluated is not None and again.prompt_evaluated <= 8


async def test_seeded_replies_do_not_depend_on_the_conversation_or_what_the_cache_holds(
        provider: LocalProvider) -> None:
    request = ask(story("owl"), affinity="judge")
    alone = await fresh_reply(request)
    await provider.generate(SMOL, ask(story("fox"), affinity="judge"))  # another prompt fills the sequence first
    await provider.generate(SMOL, ask(story("owl"), affinity="other"))
    after = await provider.generate(SMOL, request)
    assert after.text == alone.text
    plain = await provider.generate(SMOL, ask(story("owl"), affinity=None))
    assert plain.text == alone.text


async def test_a_new_conversation_copies_the_rules_another_one_holds(provider: LocalProvider) -> None:
    first = await provider.generate(SMOL, ask(story("cat"), affinity="seat1"))
    second = await provider.generate(SMOL, ask(story("dog"), affinity="seat2"))
    assert first.prompt_evaluated == first.prompt_tokens
    assert second.prompt_evaluated is not None and second.prompt_evaluated < second.prompt_tokens / 2
    assert second.text == (await fresh_reply(ask(story("dog"), affinity="seat2"))).text


async def test_conversations_beyond_the_sequences_are_saved_and_put_back_exactly() -> None:
    small = LocalProvider(model_dir=default_model_dir(), kv_mb=1)  # two sequences
    roomy = LocalProvider(model_dir=default_model_dir(), kv_mb=4096)  # 16 sequences: nothing saved
    try:
        talks: dict[str, tuple[Message, ...]] = {name: story(name) for name in ("ant", "bee", "elk")}
        for _ in range(3):
            for name in talks:
                a = await small.generate(SMOL, ask(talks[name], affinity=name))
                b = await roomy.generate(SMOL, ask(talks[name], affinity=name))
                assert a.text == b.text, name
                assert a.prompt_evaluated == b.prompt_evaluated, "a saved conversation was evaluated again"
                talks[name] = (*talks[name], assistant(a.text), user("And one more sentence?"))
    finally:
        await small.aclose()
        await roomy.aclose()


async def test_parallel_calls_give_the_replies_they_give_one_at_a_time(provider: LocalProvider) -> None:
    requests = [ask(story(name), affinity=name, seed=3) for name in ("cat", "dog", "fox", "owl")]
    together = await asyncio.gather(*(provider.generate(SMOL, r) for r in requests))
    for request, reply in zip(requests, together, strict=True):
        assert reply.text == (await fresh_reply(request)).text


async def test_grammar_checked_after_sampling_still_binds_every_reply(provider: LocalProvider) -> None:
    digits = OutputConstraint(grammar='root ::= [1-9] [0-9]? " legs"')
    for seed in range(4):
        reply = await provider.generate(SMOL, ask((user("How many legs has a spider?"),), seed=seed,
                                                  constraint=digits))
        assert reply.text.endswith(" legs") and reply.text[:-5].isdigit(), reply.text
        assert reply.output_path == "grammar"
    with pytest.raises(ModelError, match="invalid GBNF grammar"):
        await provider.generate(SMOL, ask((user("hi"),), constraint=OutputConstraint(grammar='root ::= "x')))
    assert (await provider.generate(SMOL, ask((user("hi"),), max_tokens=4))).completion_tokens > 0


async def test_a_prompt_longer_than_a_conversation_holds_is_a_clear_error(tmp_path: Path) -> None:
    short = LocalProvider(model_dir=default_model_dir(), n_ctx=128)
    try:
        with pytest.raises(ModelError, match=r"local/smollm2-135m: the prompt has \d+ tokens; a conversation "
                                             r"holds at most 127"):
            await short.generate(SMOL, ask((user("word " * 300),)))
        assert (await short.generate(SMOL, ask((user("hi"),), max_tokens=4))).text is not None
    finally:
        await short.aclose()


async def test_on_the_default_model_copied_rules_and_batched_steps_change_no_reply(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Qwen is where the batch-size paths showed (repacked weights broke this; plain buffers keep it exact)."""
    qwen = "qwen2.5-coder-1.5b"
    try:
        locate_weights(LOCAL_MODELS[qwen].weights)
    except MissingWeights as exc:
        pytest.skip(str(exc))
    requests = [ask(story(name), affinity=name, seed=5, max_tokens=12) for name in ("cat", "dog", "fox")]
    alone = []
    for request in requests:
        local = LocalProvider(model_dir=default_model_dir())
        try:
            alone.append((await local.generate(qwen, request)).text)
        finally:
            await local.aclose()
    monkeypatch.setenv("PLAYEVAL_LOCAL_BATCH", "3")
    shared = LocalProvider(model_dir=default_model_dir())
    try:
        first = await shared.generate(qwen, requests[0])  # then two that copy its rules and generate together
        rest = await asyncio.gather(*(shared.generate(qwen, request) for request in requests[1:]))
    finally:
        await shared.aclose()
    assert all(reply.prompt_evaluated is not None and reply.prompt_evaluated < 30 for reply in rest)
    assert [first.text, *(reply.text for reply in rest)] == alone


async def test_calls_given_up_by_their_callers_free_their_sequences(provider: LocalProvider) -> None:
    """Timeouts cancel waiting and running calls alike; none may keep a sequence (there are two) or the thread."""
    for seed in range(5):
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(provider.generate(SMOL, ask(story("yak"), affinity=f"gone{seed}", seed=seed,
                                                               max_tokens=400)), 0.05)
    reply = await asyncio.wait_for(provider.generate(SMOL, ask((user("hi"),), max_tokens=4)), 60)
    assert reply.completion_tokens > 0


async def test_a_refused_grammar_leaves_the_conversations_cache_alone(provider: LocalProvider) -> None:
    await provider.generate(SMOL, ask(story("emu")))
    with pytest.raises(ModelError, match="invalid GBNF grammar"):
        await provider.generate(SMOL, ask(story("emu"), constraint=OutputConstraint(grammar='root ::= "x')))
    again = await provider.generate(SMOL, ask(story("emu")))
    assert again.prompt_evaluated is not None and again.prompt_evaluated <= 8
