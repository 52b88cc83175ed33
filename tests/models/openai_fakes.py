"""A fake OpenAI-compatible server on 127.0.0.1, shared by the tests of the ``openai`` provider: it answers as
llama.cpp's server, vLLM, llama-cpp-python's server or a plain one would, records what it was sent, and counts
the chat completions it is working on at once (each can be held ``delay_s`` seconds, as a server decoding)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

from models_fakes import on_loopback


@dataclass
class FakeServer:
    """An OpenAI-compatible server: ``kind`` is ``llama_cpp``, ``llama_cpp_python``, ``vllm``, ``plain`` (refuses
    unknown fields with a 400) or ``lenient`` (takes anything). ``reply`` makes the completion text from the
    request body; ``max_in_flight`` is the most completions it was working on at the same time."""

    kind: str
    url: str = ""
    gets: list[str] = field(default_factory=list)
    posts: list[dict[str, Any]] = field(default_factory=list)
    reply: Callable[[dict[str, Any]], str] = lambda body: "Question 3: is it an animal?"
    status_queue: list[tuple[int, dict[str, str]]] = field(default_factory=list)
    vllm_version: str = "0.11.2"
    delay_s: float = 0.0
    in_flight: int = 0
    max_in_flight: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def get(self, path: str) -> tuple[int, object]:
        self.gets.append(path)
        if path == "/props" and self.kind == "llama_cpp":
            return 200, {"default_generation_settings": {"n_ctx": 4096}, "total_slots": 1, "chat_template": "x"}
        if path == "/version" and self.kind == "vllm":
            return 200, {"version": self.vllm_version}
        if path == "/openapi.json" and self.kind == "llama_cpp_python":
            return 200, {"openapi": "3.1.0", "info": {"title": "llama.cpp Python API", "version": "0.3.36"}}
        return 404, {"detail": "Not Found"}

    def post(self, body: dict[str, Any]) -> tuple[int, object, dict[str, str]]:
        with self._lock:
            self.posts.append(body)
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            if self.delay_s:
                time.sleep(self.delay_s)  # this handler's own thread: the others go on meanwhile
            return self._answer(body)
        finally:
            with self._lock:
                self.in_flight -= 1

    def _answer(self, body: dict[str, Any]) -> tuple[int, object, dict[str, str]]:
        if self.status_queue:
            status, headers = self.status_queue.pop(0)
            return status, {"error": {"message": "Rate limit reached", "type": "requests"}}, headers
        if self.kind == "llama_cpp_python" and "response_format" in body:
            message = "1 validation error: ('body', 'response_format', 'type') Input should be 'text' or 'json_object'"
            return 500, {"error": {"message": message}}, {}
        if self.kind == "plain" and ({"response_format", "grammar", "structured_outputs"} & set(body)):
            field_name = next(iter({"response_format", "grammar", "structured_outputs"} & set(body)))
            return 400, {"error": {"message": f"Unrecognized request argument supplied: {field_name}"}}, {}
        text = self.reply(body)
        if "response_format" in body:
            text = json.dumps({"move": text})
        completion = {
            "id": "c1", "object": "chat.completion", "created": 0, "model": body["model"],
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18},
        }
        return 200, completion, {}


def serve(server: FakeServer) -> Iterator[FakeServer]:
    """``server`` answering on a free port of 127.0.0.1 (its ``url`` set) until the iteration ends."""

    class Handler(BaseHTTPRequestHandler):
        def _send(self, status: int, payload: object, headers: dict[str, str]) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for key, value in headers.items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            status, payload = server.get(self.path)
            self._send(status, payload, {})

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            self._send(*server.post(json.loads(self.rfile.read(length) or b"{}")))

        def log_message(self, format: str, *args: object) -> None:
            return None

    with on_loopback(Handler) as url:
        server.url = url
        yield server
