"""Two arena server processes on one PostgreSQL database serve the same game interchangeably.

A throwaway PostgreSQL server is started as the store tests do (``tests/pg_server.py``), then two
``playeval serve`` processes on free localhost ports, both with
``mock/player``. A game is started on A and every move (and every read) goes through B.
"""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from pg_server import PgServer

from playeval.core.events import ActionApplied, MatchEnded, MatchStarted
from playeval.store import Store

pytestmark = pytest.mark.postgres


@pytest.fixture
def database_url(postgres_server: PgServer) -> str:
    return postgres_server.create_database(f"arena_{secrets.token_hex(4)}")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _start(url: str, tmp_path: Path, name: str, workers: int) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    env = {**os.environ, "PLAYEVAL_HOME": str(tmp_path / name), "PLAYEVAL_CACHE_DIR": str(tmp_path / name / "cache")}
    log = (tmp_path / f"{name}.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "playeval.cli.main", "serve", "--db", url, "--models", "mock/player", "--no-cache",
         "--host", "127.0.0.1", "--port", str(port), "--workers", str(workers)],
        env=env, stdout=log, stderr=subprocess.STDOUT)
    return process, f"http://127.0.0.1:{port}"


def _wait_ready(process: subprocess.Popen[bytes], base: str, log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"server exited with {process.returncode}:\n{log.read_text(errors='replace')}")
        try:
            if httpx.get(f"{base}/api/models", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise AssertionError(f"server at {base} did not come up:\n{log.read_text(errors='replace')}")


@pytest.fixture
def servers(database_url: str, tmp_path: Path) -> Iterator[tuple[str, str]]:
    Store.open(database_url).close()  # migrate once, before both servers start
    # B runs two worker processes itself, so the game crosses three processes
    started = [_start(database_url, tmp_path, name, workers) for name, workers in (("a", 1), ("b", 2))]
    try:
        for (process, base), name in zip(started, ("a", "b"), strict=True):
            _wait_ready(process, base, tmp_path / f"{name}.log")
        yield started[0][1], started[1][1]
    finally:
        for process, _ in started:
            process.terminate()
        for process, _ in started:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)


def _view(client: httpx.Client, match_id: str, headers: dict[str, str], statuses: set[str]) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        response = client.get(f"/api/matches/{match_id}", headers=headers)
        assert response.status_code == 200, response.text
        view: dict[str, Any] = response.json()
        if view["status"] in statuses:
            return view
        time.sleep(0.05)
    raise AssertionError(f"match {match_id} never reached {statuses}")


def test_a_game_started_on_one_server_is_finished_through_the_other(servers: tuple[str, str], database_url: str,
                                                                     tmp_path: Path) -> None:
    a, b = servers
    with httpx.Client(base_url=a, timeout=10) as on_a, httpx.Client(base_url=b, timeout=10) as on_b:
        created = on_a.post("/api/matches", json={"game": "bluffing", "inputs": {
            "statement": "I have sailed around an island alone.", "secret": "false"}})
        assert created.status_code == 201, created.text
        match_id, headers = created.json()["id"], {"X-Match-Token": created.json()["token"]}
        assert on_b.get(f"/api/matches/{match_id}").status_code == 404  # B knows it, and still wants the token
        answers = iter(["Last August, off the coast of Wales.", "Only a radio for company."])
        moves = 0
        while True:
            view = _view(on_b, match_id, headers, {"your_turn", "finished"})
            if view["status"] == "finished":
                break
            moved = on_b.post(f"/api/matches/{match_id}/moves", json={"text": next(answers), "seq": view["seq"]},
                              headers=headers)
            assert moved.status_code == 200, moved.text
            moves += 1
        with on_b.stream("GET", f"/api/matches/{match_id}/stream", headers=headers) as stream:
            text = "".join(stream.iter_text())
    assert moves == 2
    assert view["outcome"]["winner"] == "bluffer" and view["outcome"]["you_won"] is True
    assert text.count("event: state") == 1 and '"status":"finished"' in text
    with Store.open(database_url) as store:
        matches = store.list_matches()
        assert [m.id for m in matches] == [match_id] and matches[0].status == "finished"
        events = store.events(match_id)
        assert store.get_web_match(match_id).lease_owner is None
    assert sum(isinstance(e, MatchStarted) for e in events) == 1
    assert sum(isinstance(e, MatchEnded) for e in events) == 1
    actions = [e.action for e in events if isinstance(e, ActionApplied)]
    assert [a.seat for a in actions] == ["questioner", "bluffer", "questioner", "bluffer", "questioner"]
    logs = (tmp_path / "a.log").read_text(errors="replace") + (tmp_path / "b.log").read_text(errors="replace")
    assert created.json()["token"] not in logs and "sailed around" not in logs and "Wales" not in logs
