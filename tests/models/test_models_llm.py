"""Real llama.cpp inference on the packaged models (marked ``llm``).

These use the real model directory (``$PLAYEVAL_MODEL_DIR`` or the user's
cache) so the 1 GB default model is joined once, not once per test. A
missing weights package skips its test with the install command.
"""

from __future__ import annotations

import importlib.util
import re
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from playeval.core.ask import OutputConstraint
from playeval.core.messages import Message, assistant, system, user
from playeval.models import (
    DEFAULT_MODEL,
    GenerationConfig,
    MissingWeights,
    ModelError,
    ModelHub,
    ModelRequest,
)
from playeval.models.catalog import LOCAL_MODELS
from playeval.models.weights import default_model_dir, locate_weights

pytestmark = pytest.mark.llm

YES_NO = OutputConstraint(choices=("Yes", "No"))
BICYCLE: tuple[Message, ...] = (
    system("We play twenty questions. The secret object is: a bicycle. Answer each question truthfully."),
    user("Does it have wheels? Answer Yes or No."),
)


@pytest.fixture(scope="session")
def real_model_dir() -> Path:
    return default_model_dir()


def require_local(name: str) -> None:
    if importlib.util.find_spec("llama_cpp") is None:
        pytest.skip("llama-cpp-python is not installed: pip install 'playeval[local]'")
    try:
        locate_weights(LOCAL_MODELS[name].weights)
    except MissingWeights as exc:
        pytest.skip(str(exc))


@pytest.fixture
async def hub(real_model_dir: Path) -> AsyncIterator[ModelHub]:
    hub = ModelHub(use_cache=False, model_dir=real_model_dir)
    yield hub
    await hub.aclose()


def request(
    messages: tuple[Message, ...] = BICYCLE,
    *,
    constraint: OutputConstraint | None = None,
    max_tokens: int = 24,
    affinity: str | None = None,
    temperature: float = 0.0,
    seed: int | None = None,
) -> ModelRequest:
    return ModelRequest(
        messages=messages,
        config=GenerationConfig(temperature=temperature, max_tokens=max_tokens, seed=seed),
        constraint=constraint,
        affinity=affinity,
    )


async def test_smollm2_replies(hub: ModelHub) -> None:
    require_local("smollm2-135m")
    response = await hub.get("local/smollm2-135m").generate(request(max_tokens=16))
    assert response.text.strip() and response.text == response.text.strip()
    assert response.prompt_tokens > 0 and 0 < response.completion_tokens <= 16


async def test_smollm2_choices_constraint(hub: ModelHub) -> None:
    require_local("smollm2-135m")
    model = hub.get("local/smollm2-135m")
    for question in ("Does it have wheels?", "Is it a kind of fruit?", "Can you ride it?"):
        messages = (BICYCLE[0], user(f"{question} Answer Yes or No."))
        response = await model.generate(request(messages, constraint=YES_NO))
        assert response.text in ("Yes", "No")


async def test_smollm2_grammar_constraint_and_bad_grammar(hub: ModelHub) -> None:
    require_local("smollm2-135m")
    model = hub.get("local/smollm2-135m")
    digits = OutputConstraint(grammar="root ::= [1-9] [0-9]?")
    response = await model.generate(request((user("How many legs does a spider have?"),), constraint=digits))
    assert re.fullmatch(r"[1-9][0-9]?", response.text)
    with pytest.raises(ModelError, match="invalid GBNF grammar"):
        await model.generate(request(constraint=OutputConstraint(grammar='root ::= "unterminated')))
    # The process survived and the model still works.
    assert (await model.generate(request(constraint=YES_NO))).text in ("Yes", "No")


async def test_smollm2_is_deterministic_and_affinity_does_not_change_output(hub: ModelHub) -> None:
    require_local("smollm2-135m")
    model = hub.get("local/smollm2-135m")
    first = await model.generate(request(max_tokens=24, affinity="guesser"))
    again = await model.generate(request(max_tokens=24, affinity="guesser"))
    other = await model.generate(request(max_tokens=24, affinity="answerer"))
    plain = await model.generate(request(max_tokens=24))
    assert not again.cached
    assert first.text == again.text == other.text == plain.text


async def test_smollm2_seeded_sampling_is_reproducible(hub: ModelHub) -> None:
    require_local("smollm2-135m")
    model = hub.get("local/smollm2-135m")
    story = (user("Tell me a one-sentence story about a cat."),)
    a = await model.generate(request(story, temperature=0.9, seed=11, max_tokens=24))
    b = await model.generate(request(story, temperature=0.9, seed=11, max_tokens=24))
    assert a.text == b.text


async def test_smollm2_multi_turn_conversation(hub: ModelHub) -> None:
    require_local("smollm2-135m")
    model = hub.get("local/smollm2-135m")
    messages: tuple[Message, ...] = BICYCLE
    for turn in range(3):
        response = await model.generate(request(messages, constraint=YES_NO, affinity="answerer"))
        assert response.text in ("Yes", "No")
        messages = (*messages, assistant(response.text), user(f"Question {turn + 2}: is it made of metal?"))


async def test_cached_real_reply(tmp_path: Path, real_model_dir: Path) -> None:
    require_local("smollm2-135m")
    async with ModelHub(cache_path=tmp_path / "c.sqlite", model_dir=real_model_dir) as hub:
        model = hub.get("local/smollm2-135m")
        first = await model.generate(request(constraint=YES_NO))
        second = await model.generate(request(constraint=YES_NO))
        assert second.cached and second.text == first.text and model.usage.attempts == 1


async def test_gguf_path_address_uses_the_files_chat_template(hub: ModelHub) -> None:
    require_local("smollm2-135m")
    [path] = locate_weights(LOCAL_MODELS["smollm2-135m"].weights)
    response = await hub.get(f"local/{path}").generate(request(constraint=YES_NO))
    assert response.text in ("Yes", "No")


async def test_gemma_base_model_with_transcript(hub: ModelHub) -> None:
    require_local("gemma-3-270m")
    model = hub.get("local/gemma-3-270m")
    free = await model.generate(request(max_tokens=32))
    assert free.completion_tokens > 0
    assert "User:" not in free.text and "Assistant:" not in free.text
    constrained = await model.generate(request(constraint=YES_NO))
    assert constrained.text in ("Yes", "No")


async def test_default_model_assembles_and_answers(hub: ModelHub, real_model_dir: Path) -> None:
    require_local("qwen2.5-coder-1.5b")
    model = hub.get(DEFAULT_MODEL)
    started = time.perf_counter()
    response = await model.generate(request(constraint=YES_NO))
    elapsed = time.perf_counter() - started
    assert response.text == "Yes", f"answered {response.text!r} in {elapsed:.1f} s"
    assert (real_model_dir / "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf").is_file()
    fruit = (BICYCLE[0], user("Is it a kind of fruit? Answer Yes or No."))
    assert (await model.generate(request(fruit, constraint=YES_NO))).text == "No"


async def test_a_judges_answer_probabilities_are_read_under_the_grammar(tmp_path: Path) -> None:
    """The embedded model reports, for every answer of a judge's reply, probabilities over the allowed answers
    that sum to one, whose likeliest is the answer greedy decoding chose; a cached replay gives the same."""
    require_local("smollm2-135m")
    from playeval.core.verdicts import VerdictQuestion

    guess = VerdictQuestion(answers=("yes", "no"), accept=("yes",), lead="Verdict: ")
    lines = VerdictQuestion(answers=("yes", "no"), accept=("yes",), context=r"(?:\A|\n)\d+", lead=". ")
    scale = VerdictQuestion(answers=("yes", "partly", "no"), accept=("yes", "partly"))
    asks = [
        (guess, OutputConstraint(grammar='root ::= "Verdict: " ("yes" | "no") "\\nReason: " [^\\n]{1,40}\n'),
         ("The rule: divide by 3. The guess: x/3. Is the guess right? Reply 'Verdict: yes' or 'Verdict: no', "
          "then a reason."), 1),
        (lines, OutputConstraint(grammar='root ::= "1. " a "\\n2. " a "\\n3. " a "\\n"\na ::= "yes" | "no"\n'),
         "Which fit 'fruit'? 1. apple 2. chair 3. pear. Answer each line '<n>. yes' or '<n>. no'.", 3),
        (scale, OutputConstraint(choices=("yes", "partly", "no")), "Is a bicycle a vehicle? yes, partly or no.", 1),
    ]
    async with ModelHub(use_cache=True, cache_path=tmp_path / "cache.sqlite", model_dir=default_model_dir()) as cached:
        model = cached.get("local/smollm2-135m")
        for question, constraint, prompt, count in asks:
            req = ModelRequest(messages=(user(prompt),), config=GenerationConfig(max_tokens=40),
                               constraint=constraint, answers=question)
            fresh = await model.generate(req)
            words = [word for _, word in question.positions(fresh.text)]
            assert len(fresh.answer_probs) == len(words) == count, fresh.text
            for probs, word in zip(fresh.answer_probs, words, strict=True):
                assert set(probs) == set(question.answers) and sum(probs.values()) == pytest.approx(1.0)
                assert max(probs, key=lambda answer: probs[answer]) == word
            again = await model.generate(req)
            assert again.cached and again.answer_probs == fresh.answer_probs


async def test_measuring_verdicts_only_stops_early_with_the_same_words_and_probabilities(tmp_path: Path) -> None:
    """A judge measured on labelled cases stops where its reply only explains (``verdicts_only``): the verdict
    and its probability are those of the whole reply."""
    require_local("smollm2-135m")
    from playeval.core.registry import default_registry
    from playeval.players.llm import LLMPlayer

    game = default_registry().get("math")
    cases = game.judge_cases()[100:103]  # type: ignore[attr-defined]
    async with ModelHub(use_cache=False, model_dir=default_model_dir()) as local:
        model = local.get("local/smollm2-135m")
        full, short = LLMPlayer(model, seed=0), LLMPlayer(model, seed=0, verdicts_only=True)
        for case in cases:
            ask = game.judge_case_ask(case)  # type: ignore[attr-defined]
            whole, cut = await full.act(ask), await short.act(ask)
            assert "Reason:" in whole.text and "Reason" not in cut.text
            assert [v.word for v in cut.verdicts] == [v.word for v in whole.verdicts]
            assert [v.p_accept for v in cut.verdicts] == pytest.approx([v.p_accept for v in whole.verdicts])
            assert all(v.p_accept is not None for v in cut.verdicts)
