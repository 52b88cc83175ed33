"""A judge's answer probabilities from an OpenAI-compatible server's ``logprobs``: asked only for a judge's
request, read from the alternatives of the token that chose each answer, and dropped (never asked again) by a
server that refuses them."""

from __future__ import annotations

import json
import math
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from playeval.core.messages import user
from playeval.core.verdicts import VerdictQuestion
from playeval.models import ModelRequest
from playeval.models.providers.openai import OpenAIProvider

GUESS = VerdictQuestion(answers=("yes", "no"), accept=("yes",), lead="Verdict: ")


def _token(text: str, alternatives: dict[str, float]) -> dict[str, Any]:
    top = [{"token": token, "logprob": logprob, "bytes": None} for token, logprob in alternatives.items()]
    return {"token": text, "logprob": alternatives.get(text, -0.1), "bytes": None, "top_logprobs": top}


@dataclass
class LogprobServer:
    """Replies 'Verdict: yes\\nReason: ok.' in tokens where ' yes' is chosen after 'Verdict:'; ``refuse``: a 400
    for any request asking logprobs."""

    refuse: bool = False
    posts: list[dict[str, Any]] = field(default_factory=list)
    url: str = ""

    def post(self, body: dict[str, Any]) -> tuple[int, object]:
        self.posts.append(body)
        if self.refuse and body.get("logprobs"):
            return 400, {"error": {"message": "logprobs is not supported by this server"}}
        tokens = [_token("Verdict", {"Verdict": -0.01}), _token(":", {":": -0.01}),
                  _token(" yes", {" yes": math.log(0.7), " no": math.log(0.2), " maybe": math.log(0.1)}),
                  _token("\n", {"\n": -0.01}), _token("Reason: ok.", {"Reason: ok.": -0.01})]
        choice: dict[str, Any] = {"index": 0, "finish_reason": "stop",
                                  "message": {"role": "assistant", "content": "Verdict: yes\nReason: ok."}}
        if body.get("logprobs"):
            choice["logprobs"] = {"content": tokens}
        return 200, {"id": "c", "object": "chat.completion", "created": 0, "model": body["model"],
                     "choices": [choice], "usage": {"prompt_tokens": 5, "completion_tokens": 5, "total_tokens": 10}}


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[LogprobServer]:
    yield from _run(LogprobServer(), monkeypatch)


def _run(fake: LogprobServer, monkeypatch: pytest.MonkeyPatch) -> Iterator[LogprobServer]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self._send(404, {"detail": "Not Found"})

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            self._send(*fake.post(json.loads(self.rfile.read(length) or b"{}")))

        def _send(self, status: int, payload: object) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: object) -> None:
            return None

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()
    fake.url = f"http://127.0.0.1:{httpd.server_address[1]}"
    monkeypatch.setenv("PLAYEVAL_OPENAI_BASE_URL", f"{fake.url}/v1")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    try:
        yield fake
    finally:
        httpd.shutdown()
        httpd.server_close()


def _judge_request(answers: VerdictQuestion | None = GUESS) -> ModelRequest:
    return ModelRequest(messages=(user("Is 'x/3' the rule 'divide by 3'?"),), answers=answers)


async def test_a_judges_answers_are_read_from_the_token_that_chose_them(server: LogprobServer) -> None:
    provider = OpenAIProvider()
    result = await provider.generate("judge-model?format=parse", _judge_request())
    assert server.posts[-1]["logprobs"] is True and server.posts[-1]["top_logprobs"] == 20
    [probs] = result.answer_probs
    assert probs["yes"] == pytest.approx(0.7 / 0.9) and probs["no"] == pytest.approx(0.2 / 0.9)  # 'maybe' is no answer
    plain = await provider.generate("judge-model?format=parse", _judge_request(None))
    assert "logprobs" not in server.posts[-1] and plain.answer_probs == ()
    await provider.aclose()


async def test_a_server_that_refuses_logprobs_is_asked_again_without_and_never_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    for fake in _run(LogprobServer(refuse=True), monkeypatch):
        provider = OpenAIProvider()
        first = await provider.generate("judge-model?format=parse", _judge_request())
        second = await provider.generate("judge-model?format=parse", _judge_request())
        assert first.text == second.text == "Verdict: yes\nReason: ok."
        assert first.answer_probs == second.answer_probs == ()
        assert [bool(post.get("logprobs")) for post in fake.posts] == [True, False, False]
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
