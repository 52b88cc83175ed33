"""Fixtures for model-layer tests: a fake HTTP API on localhost and an isolated model directory."""

from __future__ import annotations

import json
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest
from models_fakes import FakeAPI, on_loopback


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

    with on_loopback(Handler) as url:
        api.url = url
        yield api


@pytest.fixture
def model_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty model directory, also set as ``$PLAYEVAL_MODEL_DIR``."""
    path = tmp_path / "models"
    monkeypatch.setenv("PLAYEVAL_MODEL_DIR", str(path))
    return path
