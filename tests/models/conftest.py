"""Fixtures for model-layer tests: a fake HTTP API on localhost and an isolated model directory."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from models_fakes import FakeAPI


@pytest.fixture
def fake_api() -> Iterator[FakeAPI]:
    api = FakeAPI(url="")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = json.loads(self.rfile.read(length) or b"{}")
            api.requests.append((self.path, body, {k.lower(): v for k, v in self.headers.items()}))
            status, reply = api.replies.pop(0) if api.replies else (500, {"error": {"message": "no reply queued"}})
            data = json.dumps(reply).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: object) -> None:
            return None

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    api.url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        yield api
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def model_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty model directory, also set as ``$PLAYEVAL_MODEL_DIR``."""
    path = tmp_path / "models"
    monkeypatch.setenv("PLAYEVAL_MODEL_DIR", str(path))
    return path
