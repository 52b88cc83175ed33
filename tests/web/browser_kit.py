"""What the browser tests share: a real arena server and Debian's Chromium driven by Playwright.

One server per test module (uvicorn in a subprocess, on a free 127.0.0.1 port, a fresh SQLite database,
``mock/player`` as the only model, a small ``PLAYEVAL_MOCK_DELAY`` so the "thinking" state can be seen, and the
guess-the-rule games' roles bound to their scripted players through the arena's ``roles`` setting, since
mock/player plays no judge). Without ``/usr/bin/chromium`` a test module importing this one is skipped (under CI,
``CI`` set, it fails).
Screenshots go to a temporary directory and, when ``PLAYEVAL_SCREENSHOT_DIR`` is set, there too.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from arena_client import rule_game_roles
from playwright.sync_api import Browser, ConsoleMessage, Page, Request, expect, sync_playwright

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
MODEL = "mock/player"
MOCK_DELAY = "0.6"
TIMEOUT_MS = 15_000

if not CHROMIUM.exists():  # a test module importing this one is skipped (a failure under CI)
    if os.environ.get("CI"):
        pytest.fail(f"{CHROMIUM} is missing; CI must install Debian's chromium package", pytrace=False)
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium); browser tests skipped",
                allow_module_level=True)

_SERVER = """
import importlib
import json
import sys
import uvicorn
from playeval.web import ArenaSettings, create_app

db_url, port, roles = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3])
for setup in sys.argv[4:]:  # a test's set-up modules (a fixed concept pair), from this folder
    importlib.import_module(setup).fix()
app = create_app(ArenaSettings(db=db_url, models=("mock/player",), use_cache=False, roles=roles))
uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", access_log=False)
"""


# ---- the server ---------------------------------------------------------------------------------------------


def db_url(root: Path) -> str:
    return f"sqlite:///{root / 'arena.db'}"


@dataclass
class Arena:
    url: str
    shots: list[Path]
    db: str
    surveys_sent: int = 0
    played: dict[str, str] = field(default_factory=dict)
    """game id -> the id of a finished match of it, for the replay checks."""


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_until_up(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the arena server exited with {process.returncode}:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url + "/api/games", timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.1)
    raise RuntimeError(f"the arena server did not answer within 30 s:\n{log.read_text()[-3000:]}")


@pytest.fixture(scope="module")
def arena(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Arena]:
    yield from serve(tmp_path_factory.mktemp("arena"), rule_game_roles())


def serve(root: Path, roles: dict[str, str], setup: tuple[str, ...] = ()) -> Iterator[Arena]:
    """An arena server on ``root`` with the role bindings ``roles``, until the generator is closed. ``setup``: modules
    of this folder whose ``fix()`` the server calls before it makes the app (a test module's own ``arena``
    fixture passes them)."""
    port = _free_port()
    log = root / "server.log"
    here = str(Path(__file__).resolve().parent)
    env = {
        **os.environ,
        "PLAYEVAL_HOME": str(root / "home"),
        "PLAYEVAL_CACHE_DIR": str(root / "cache"),
        "PLAYEVAL_MOCK_DELAY": MOCK_DELAY,
        "PYTHONPATH": os.pathsep.join(filter(None, [here, os.environ.get("PYTHONPATH", "")])),
    }
    for key in ("PLAYEVAL_DB", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_BASE_URL"):
        env.pop(key, None)
    with log.open("wb") as out:
        process = subprocess.Popen([sys.executable, "-c", _SERVER, db_url(root), str(port), json.dumps(roles),
                                    *setup],
                                   env=env, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(url, process, log)
        yield Arena(url=url, shots=_screenshot_dirs(root), db=db_url(root))
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _screenshot_dirs(root: Path) -> list[Path]:
    dirs = [root / "screenshots"]
    extra = os.environ.get("PLAYEVAL_SCREENSHOT_DIR")
    if extra:
        dirs.append(Path(extra))
    for directory in dirs:
        directory.mkdir(parents=True, exist_ok=True)
    return dirs


# ---- the browser ---------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        try:
            yield launched
        finally:
            launched.close()


@dataclass
class Watcher:
    """Console errors and uncaught exceptions of a page, and the moves it sent."""

    errors: list[str] = field(default_factory=list)
    allowed: list[re.Pattern[str]] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)
    checks: list[str] = field(default_factory=list)

    def console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.errors.append(f"console: {message.text} ({message.location.get('url', '')})")

    def page_error(self, error: Exception) -> None:
        self.errors.append(f"page error: {error}")

    def request(self, request: Request) -> None:
        if request.method == "POST" and request.url.endswith("/moves"):
            self.moves.append(request.post_data or "")
        if request.method == "POST" and request.url.endswith("/check"):
            self.checks.append(request.post_data or "")

    def unexpected(self) -> list[str]:
        return [error for error in self.errors if not any(pattern.search(error) for pattern in self.allowed)]


@dataclass
class Session:
    page: Page
    watcher: Watcher
    arena: Arena

    def go(self, path: str) -> None:
        self.page.goto(self.arena.url + path)

    def shot(self, name: str) -> None:
        first = self.arena.shots[0] / f"{name}.png"
        self.page.screenshot(path=str(first), full_page=True)
        for directory in self.arena.shots[1:]:
            shutil.copyfile(first, directory / first.name)


def open_session(browser: Browser, arena: Arena, **context_options: Any) -> Iterator[Session]:
    context = browser.new_context(**context_options)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    watcher = Watcher()
    page.on("console", watcher.console)
    page.on("pageerror", watcher.page_error)
    page.on("request", watcher.request)
    try:
        yield Session(page=page, watcher=watcher, arena=arena)
    finally:
        context.close()
    assert watcher.unexpected() == [], "the pages logged errors:\n" + "\n".join(watcher.unexpected())


@pytest.fixture
def session(browser: Browser, arena: Arena) -> Iterator[Session]:
    yield from open_session(browser, arena, viewport={"width": 1280, "height": 900})


@pytest.fixture
def phone(browser: Browser, arena: Arena) -> Iterator[Session]:
    yield from open_session(browser, arena, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                     device_scale_factor=2)


# ---- helpers -----------------------------------------------------------------------------------------------------


def match_id_of(page: Page) -> str:
    found = re.search(r"/matches/([^/?#]+)$", page.url)
    assert found, page.url
    return found.group(1)


def wait_for_turn(page: Page, lines: int) -> None:
    """Wait until the transcript has ``lines`` lines and the person is to move."""
    expect(page.locator("#transcript .msg")).to_have_count(lines, timeout=TIMEOUT_MS)
    expect(page.locator("#status")).to_have_attribute("data-status", "your_turn", timeout=TIMEOUT_MS)
    expect(page.locator("#turn")).to_be_visible()


def see_thinking(page: Page) -> None:
    """The model's move is in progress: the page says so and offers no input."""
    expect(page.locator("#status")).to_have_attribute("data-status", "thinking", timeout=TIMEOUT_MS)
    expect(page.locator("#status-text")).to_have_text("The model is thinking…")
    expect(page.locator("#turn")).to_be_hidden()


def transcript_of(page: Page) -> list[str]:
    return page.locator("#transcript .msg-text").all_text_contents()
