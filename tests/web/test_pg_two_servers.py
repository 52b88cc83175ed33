"""Arena server processes on one PostgreSQL database serve the same game interchangeably.

A throwaway PostgreSQL server is started as the store tests do (``tests/pg_server.py``), then ``playeval serve``
processes on free localhost ports, all with ``mock/player``. A game is started on A and every move (and every
read) goes through B; two people at one table play through different servers; and with four processes sweeping
for time-outs at once, a guest who does not come is replaced exactly once.
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

from playeval.core.events import ActionApplied, MatchEnded, MatchStarted, SeatTakenOver
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


def _start(url: str, tmp_path: Path, name: str, workers: int,
           extra_env: dict[str, str] | None = None) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    env = {**os.environ, "PLAYEVAL_HOME": str(tmp_path / name), "PLAYEVAL_CACHE_DIR": str(tmp_path / name / "cache"),
           **(extra_env or {})}
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


def _run_servers(database_url: str, tmp_path: Path, workers: tuple[int, int],
                 extra_env: dict[str, str] | None = None) -> Iterator[tuple[str, str]]:
    Store.open(database_url).close()  # migrate once, before the servers start
    started = [_start(database_url, tmp_path, name, count, extra_env)
               for name, count in zip(("a", "b"), workers, strict=True)]
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


@pytest.fixture
def servers(database_url: str, tmp_path: Path) -> Iterator[tuple[str, str]]:
    # B runs two worker processes itself, so the game crosses three processes
    yield from _run_servers(database_url, tmp_path, (1, 2))


@pytest.fixture
def sweeping_servers(database_url: str, tmp_path: Path) -> Iterator[tuple[str, str]]:
    # two workers each (they read their settings from the environment): four processes sweep for time-outs
    env = {"PLAYEVAL_ARENA_JOIN_TIMEOUT_S": "1.5", "PLAYEVAL_ARENA_SWEEP_S": "0.1"}
    yield from _run_servers(database_url, tmp_path, (2, 2), env)


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


def _move(client: httpx.Client, match_id: str, text: str, headers: dict[str, str] | None = None) -> dict[str, Any]:
    view = _view(client, match_id, headers or {}, {"your_turn"})
    moved = client.post(f"/api/matches/{match_id}/moves", json={"text": text, "seq": view["seq"]}, headers=headers)
    assert moved.status_code == 200, moved.text
    result: dict[str, Any] = moved.json()
    return result


def test_two_people_at_one_table_play_through_two_servers(servers: tuple[str, str], database_url: str) -> None:
    a, b = servers
    with httpx.Client(base_url=a, timeout=10) as giver, httpx.Client(base_url=b, timeout=10) as guesser:
        created = giver.post("/api/matches", json={"game": "taboo", "model": "mock/player",
                                                   "seats": {"guesser": "person"}})
        assert created.status_code == 201, created.text
        match_id = created.json()["id"]
        token = created.json()["invites"][0]["url"].split("#token=")[1]
        word = next(item["value"] for item in created.json()["disclosures"])
        joined = guesser.post(f"/api/matches/{match_id}/join", json={"token": token})  # the guest joins through B
        assert joined.status_code == 200 and joined.json()["you"] == "guesser" and joined.json()["disclosures"] == []
        _move(giver, match_id, "It is often kept at home.")
        _move(guesser, match_id, "Something with fur, perhaps?")
        _move(giver, match_id, "It likes to sleep a lot.")
        end = _move(guesser, match_id, f"My guess of the word is: {word}")
        seen_by_giver = _view(giver, match_id, {}, {"finished"})
    assert end["status"] == "finished" and end["outcome"]["you_won"] is True
    assert seen_by_giver["outcome"]["you_won"] is False
    with Store.open(database_url) as store:
        events = store.events(match_id)
        people = {person.seat: person for person in store.get_web_match(match_id).people}
    assert [e.action.seat for e in events if isinstance(e, ActionApplied)] == ["clue_giver", "guesser"] * 2
    assert people["guesser"].joined_at is not None and people["guesser"].left_at is None


def test_a_guest_who_does_not_come_is_replaced_once_by_four_sweeping_processes(
        sweeping_servers: tuple[str, str], database_url: str) -> None:
    a, b = sweeping_servers
    with httpx.Client(base_url=a, timeout=10) as giver_a, httpx.Client(base_url=b, timeout=10) as giver_b:
        created = giver_a.post("/api/matches", json={"game": "taboo", "model": "mock/player",
                                                     "seats": {"guesser": "person"}})
        assert created.status_code == 201, created.text
        match_id, headers = created.json()["id"], {"X-Match-Token": created.json()["token"]}
        moved = giver_b.post(f"/api/matches/{match_id}/moves", json={"text": "It is often kept at home."},
                             headers=headers)
        assert moved.status_code == 200 and moved.json()["status"] == "waiting"
        deadline = time.monotonic() + 30  # no request arrives now: the servers' sweeps replace the guest
        while True:
            with Store.open(database_url) as store:
                events = store.events(match_id)
            if any(isinstance(e, ActionApplied) and e.action.seat == "guesser" for e in events):
                break
            assert time.monotonic() < deadline, "the guest was never replaced"
            time.sleep(0.1)
        time.sleep(1.0)  # let every process sweep a few more times
        for text in ("It likes to sleep a lot.", "You may find one on a farm."):
            view = _view(giver_b, match_id, headers, {"your_turn", "finished"})
            if view["status"] == "finished":
                break
            _move(giver_b, match_id, text, headers)
        _view(giver_b, match_id, headers, {"your_turn", "finished"})  # the model has answered the last clue
    with Store.open(database_url) as store:
        events = store.events(match_id)
        people = {person.seat: person for person in store.get_web_match(match_id).people}
    taken = [e for e in events if isinstance(e, SeatTakenOver)]
    assert [(e.seat, e.model) for e in taken] == [("guesser", "mock/player")]
    assert taken[0].reason == "the person invited to this seat did not join within 1.5 s; a model plays it"
    assert people["guesser"].joined_at is None and people["guesser"].left_at is not None
    seats = [e.action.seat for e in events if isinstance(e, ActionApplied)]
    assert seats == ["clue_giver", "guesser"] * (len(seats) // 2) and len(seats) >= 4  # one answer per clue
