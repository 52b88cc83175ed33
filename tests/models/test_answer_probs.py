"""A judge's answer probabilities from an OpenAI-compatible server's ``logprobs``: asked only for a judge's
request, read from the alternatives of the token that chose each answer, and dropped (never asked again) by a
server that refuses them."""

from __future__ import annotations

import math
from typing import Any

import pytest
from models_fakes import FakeAPI

from playeval.core.messages import user
from playeval.core.verdicts import VerdictQuestion
from playeval.models import ModelRequest
from playeval.models.providers.openai import OpenAIProvider

GUESS = VerdictQuestion(answers=("yes", "no"), accept=("yes",), lead="Verdict: ")


def _token(text: str, alternatives: dict[str, float]) -> dict[str, Any]:
    top = [{"token": token, "logprob": logprob, "bytes": None} for token, logprob in alternatives.items()]
    return {"token": text, "logprob": alternatives.get(text, -0.1), "bytes": None, "top_logprobs": top}


def _completion(logprobs: bool) -> dict[str, object]:
    """'Verdict: yes\nReason: ok.' in tokens where ' yes' is chosen after 'Verdict:'; with its logprobs when asked."""
    tokens = [_token("Verdict", {"Verdict": -0.01}), _token(":", {":": -0.01}),
              _token(" yes", {" yes": math.log(0.7), " no": math.log(0.2), " maybe": math.log(0.1)}),
              _token("\n", {"\n": -0.01}), _token("Reason: ok.", {"Reason: ok.": -0.01})]
    choice: dict[str, Any] = {"index": 0, "finish_reason": "stop",
                              "message": {"role": "assistant", "content": "Verdict: yes\nReason: ok."}}
    if logprobs:
        choice["logprobs"] = {"content": tokens}
    return {"id": "c", "object": "chat.completion", "created": 0, "model": "judge-model", "choices": [choice],
            "usage": {"prompt_tokens": 5, "completion_tokens": 5, "total_tokens": 10}}


@pytest.fixture
def server(fake_api: FakeAPI, monkeypatch: pytest.MonkeyPatch) -> FakeAPI:
    monkeypatch.setenv("PLAYEVAL_OPENAI_BASE_URL", f"{fake_api.url}/v1")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    return fake_api


def _judge_request(answers: VerdictQuestion | None = GUESS) -> ModelRequest:
    return ModelRequest(messages=(user("Is 'x/3' the rule 'divide by 3'?"),), answers=answers)


async def test_a_judges_answers_are_read_from_the_token_that_chose_them(server: FakeAPI) -> None:
    server.replies += [(200, _completion(True)), (200, _completion(False))]
    provider = OpenAIProvider()
    result = await provider.generate("judge-model?format=parse", _judge_request())
    asked = server.requests[-1][1]
    assert asked["logprobs"] is True and asked["top_logprobs"] == 20
    [probs] = result.answer_probs
    assert probs["yes"] == pytest.approx(0.7 / 0.9) and probs["no"] == pytest.approx(0.2 / 0.9)  # 'maybe' is no answer
    plain = await provider.generate("judge-model?format=parse", _judge_request(None))
    assert "logprobs" not in server.requests[-1][1] and plain.answer_probs == ()
    await provider.aclose()


async def test_a_server_that_refuses_logprobs_is_asked_again_without_and_never_again(server: FakeAPI) -> None:
    refusal = {"error": {"message": "logprobs is not supported by this server"}}
    server.replies += [(400, refusal), (200, _completion(False)), (200, _completion(False))]
    provider = OpenAIProvider()
    first = await provider.generate("judge-model?format=parse", _judge_request())
    second = await provider.generate("judge-model?format=parse", _judge_request())
    assert first.text == second.text == "Verdict: yes\nReason: ok."
    assert first.answer_probs == second.answer_probs == ()
    assert [bool(body.get("logprobs")) for _, body, _ in server.requests] == [True, False, False]
    await provider.aclose()


def test_a_reply_with_leading_white_space_keeps_its_readings() -> None:
    """The provider strips the reply; the readings, taken at offsets of the reply as generated, still line up."""
    from types import SimpleNamespace

    from playeval.models.providers.openai import read_answers

    lines = VerdictQuestion(answers=("yes", "no"), accept=("yes",), context=r"(?:\A|\n)\d+", lead=". ")

    def token(text: str, alternatives: dict[str, float]) -> SimpleNamespace:
        return SimpleNamespace(token=text, top_logprobs=[SimpleNamespace(token=t, logprob=v)
                                                         for t, v in alternatives.items()])

    content = [token("\n", {}), token("1", {}), token(".", {}), token(" yes", {" yes": -0.2, " no": -2.0}),
               token("\n", {}), token("2", {}), token(". ", {}), token("no", {"no": -0.1, "yes": -3.0})]
    probs = read_answers(lines, SimpleNamespace(content=content), "\n1. yes\n2. no")
    assert len(probs) == 2 and probs[0]["yes"] > 0.5 and probs[1]["no"] > 0.5
