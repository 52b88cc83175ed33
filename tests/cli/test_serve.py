"""``playeval serve`` as a person starts it: a real process answering on loopback, and its clear errors."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from playeval.core.registry import default_registry
from playeval.web.pages import offered_games

PLAYEVAL = [sys.executable, "-m", "playeval.cli.main"]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PLAYEVAL_HOME"] = str(tmp_path / "home")
    env["PLAYEVAL_CACHE_DIR"] = str(tmp_path / "cache")
    return env


def _first_answer(process: subprocess.Popen[str], url: str) -> httpx.Response:
    """``url``'s answer once the server ``process`` is up (within 60 s; its output in the failure if it stops)."""
    deadline = time.monotonic() + 60
    while True:
        try:
            return httpx.get(url, timeout=2)
        except httpx.TransportError as err:
            if process.poll() is not None or time.monotonic() > deadline:
                said = process.stdout.read() if process.stdout else ""
                raise AssertionError(f"the server did not come up: {said}") from err
            time.sleep(0.3)


def test_serve_prints_the_address_and_answers(tmp_path: Path) -> None:
    port = _free_port()
    db = f"sqlite:///{tmp_path / 'arena.db'}"
    process = subprocess.Popen([*PLAYEVAL, "serve", "--models", "mock/player", "--port", str(port), "--db", db],
                               env=_env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        games = _first_answer(process, f"http://127.0.0.1:{port}/api/games")
        assert games.status_code == 200
        assert {game["id"] for game in games.json()} == set(default_registry().ids())
        models = httpx.get(f"http://127.0.0.1:{port}/api/models", timeout=5).json()
        assert models["models"] == ["mock/player"]
        home = httpx.get(f"http://127.0.0.1:{port}/", timeout=5)
        assert home.status_code == 200 and "text/html" in home.headers["content-type"]
    finally:
        process.terminate()
        output, _ = process.communicate(timeout=30)
    assert f"http://127.0.0.1:{port}/" in output


def test_serve_refuses_a_port_in_use(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = int(taken.getsockname()[1])
        result = subprocess.run([*PLAYEVAL, "serve", "--models", "mock/player", "--port", str(port),
                                 "--db", f"sqlite:///{tmp_path / 'a.db'}"],
                                env=_env(tmp_path), capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 2
    assert f"cannot listen on 127.0.0.1:{port}" in result.stderr and "--port" in result.stderr


@pytest.mark.parametrize(("args", "message"), [
    (["--models", "nosuch/model"], "unknown model provider 'nosuch'"),
    (["--models", "mock/player", "--workers", "2"], "several workers need a shared PostgreSQL database"),
])
def test_serve_fails_clearly_before_starting(tmp_path: Path, args: list[str], message: str) -> None:
    result = subprocess.run([*PLAYEVAL, "serve", "--port", str(_free_port()),
                             "--db", f"sqlite:///{tmp_path / 'a.db'}", *args],
                            env=_env(tmp_path), capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 2 and message in result.stderr


def test_mock_player_is_offered_beside_the_models_when_asked(tmp_path: Path) -> None:
    """``--mock-player`` (``bash scripts/quickstart.sh --mock-player`` passes it on) adds mock/player after the
    served models; the start-up lines list the games the arena offers, from the registry."""
    port = _free_port()
    db = f"sqlite:///{tmp_path / 'arena.db'}"
    process = subprocess.Popen([*PLAYEVAL, "serve", "--models", "mock/echo", "--mock-player", "--port", str(port),
                                "--db", db], env=_env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True)
    try:
        models = _first_answer(process, f"http://127.0.0.1:{port}/api/models").json()
        assert models["models"] == ["mock/echo", "mock/player"] and models["default"] == "mock/echo"
    finally:
        process.terminate()
        output, _ = process.communicate(timeout=30)
    assert f"games: {offered_games(default_registry())}" in " ".join(output.split())


def test_the_quick_start_banner_reads_the_games_from_the_registry() -> None:
    script = (Path(__file__).parents[2] / "scripts" / "quickstart.sh").read_text()
    names = [game.presentation.name for game in default_registry()]
    assert not [name for name in names if name in script]  # no hard-coded list to fall behind
    snippet = script.split("-c '", 1)[1].split("')\"", 1)[0]
    printed = subprocess.run([sys.executable, "-c", snippet], capture_output=True, text=True, check=True).stdout
    assert printed.strip() == offered_games(default_registry())
    assert all(name in printed for name in names) and printed.count(" and ") == 1
    assert "--mock-player" in script and 'serve --models "$model" "$@"' in script
