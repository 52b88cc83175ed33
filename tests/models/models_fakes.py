"""Fakes shared by the model-layer tests: a scripted provider, a request helper, a fake HTTP API record and a
loopback server to run a fake API's handler on."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from playeval.core.ask import OutputConstraint
from playeval.core.messages import user
from playeval.models import GenerationConfig, ModelRequest, ProviderResult


class FakeProvider:
    """A provider that plays a script of outcomes and records what it saw.

    Each entry of ``script`` is an exception to raise, a float (seconds to
    sleep, then succeed) or None (succeed at once). After the script the
    provider succeeds. It tracks how many calls are in flight at once.
    """

    name = "fake"

    def __init__(self, script: list[BaseException | float | None] | None = None, max_concurrency: int = 4) -> None:
        self.max_concurrency = max_concurrency
        self._script = list(script or [])
        self.calls = 0
        self.in_flight = 0
        self.max_in_flight = 0
        self.delay_s = 0.0

    async def generate(self, model_name: str, request: ModelRequest) -> ProviderResult:
        self.calls += 1
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            step = self._script.pop(0) if self._script else None
            if isinstance(step, BaseException):
                raise step
            delay = step if isinstance(step, float) else self.delay_s
            if delay:
                await asyncio.sleep(delay)
            last = request.messages[-1].content
            return ProviderResult(text=f"{model_name}: {last} #{self.calls}", prompt_tokens=10, completion_tokens=3)
        finally:
            self.in_flight -= 1

    async def aclose(self) -> None:
        return None


def ask(
    text: str = "hello",
    *,
    config: GenerationConfig | None = None,
    constraint: OutputConstraint | None = None,
    affinity: str | None = None,
) -> ModelRequest:
    """A one-message request."""
    return ModelRequest(
        messages=(user(text),),
        config=config if config is not None else GenerationConfig(),
        constraint=constraint,
        affinity=affinity,
    )


@dataclass
class FakeAPI:
    """A tiny HTTP server on 127.0.0.1 that answers POSTs with queued (status, JSON body) replies."""

    url: str
    replies: list[tuple[int, dict[str, object]]] = field(default_factory=list)
    requests: list[tuple[str, dict[str, object], dict[str, str]]] = field(default_factory=list)


@contextmanager
def on_loopback(handler: type[BaseHTTPRequestHandler]) -> Iterator[str]:
    """``handler`` served on a free port of 127.0.0.1 (its base URL yielded) until the block ends."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
