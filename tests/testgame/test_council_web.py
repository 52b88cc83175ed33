"""Acceptance: two people and two models at one Council table, in a real browser, with Council installed only through
the ``playeval.games`` entry point.

``playeval serve`` runs in a subprocess that sees the installed game (``council_installed``), with ``mock/player``
as its only model (it plays the two model seats, and the judge role, which Council binds to ``local``: the arena's
model when the local model is not served). Two Chromium contexts are two people: the first sets the table up from
the home page like a user (Council's card, then the set-up form built from the game's declarations), invites the
second to the east seat and passes the link on; the second opens it. Both give clues and cast secret votes until
the end. Checked: each person saw only their own team's word while the game was played, neither saw the other's
vote before the vote closed, both see the outcome and the revealed words at the end, no token reached a URL the
server saw, and no page logged an error.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
MODEL = "mock/player"
TIMEOUT_MS = 20_000
SEATS = ("north", "east", "south", "west")
WORDS = ("river", "mountain", "lantern", "anchor", "orchard", "glacier", "violin", "compass")
CLUES = {"north": "Something you could draw on a postcard", "east": "It might turn up in a picture"}
VOTES = {"north": "west", "east": "north"}
"""With the models' votes (mock/player votes as Council's scripted seats do) every round is a tie."""

if not CHROMIUM.exists():
    if os.environ.get("CI"):
        pytest.fail(f"{CHROMIUM} is missing; CI must install Debian's chromium package", pytrace=False)
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium); browser tests skipped",
                allow_module_level=True)

from playwright.sync_api import Browser, ConsoleMessage, Page, expect, sync_playwright  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Server:
    url: str
    log: Path


@pytest.fixture
def server(council_installed: dict[str, str], tmp_path: Path) -> Iterator[Server]:
    port = _free_port()
    log = tmp_path / "server.log"
    env = {**council_installed, "PLAYEVAL_HOME": str(tmp_path / "home"), "PLAYEVAL_CACHE_DIR": str(tmp_path / "cache"),
           "PLAYEVAL_MOCK_DELAY": "0.2"}
    for key in ("PLAYEVAL_DB", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_BASE_URL"):
        env.pop(key, None)
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "playeval.cli.main", "serve", "--db", f"sqlite:///{tmp_path / 'arena.db'}",
             "--models", MODEL, "--no-cache", "--host", "127.0.0.1", "--port", str(port)],
            env=env, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"playeval serve exited with {process.returncode}:\n{log.read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(url + "/api/games", timeout=2) as response:
                    if response.status == 200:
                        break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"playeval serve did not answer within 60 s:\n{log.read_text()[-3000:]}")
            time.sleep(0.2)
        yield Server(url=url, log=log)
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        try:
            yield launched
        finally:
            launched.close()


@dataclass
class Person:
    """One person's browser: their page, its console errors, and what they were shown while the game was live."""

    seat: str
    page: Page
    errors: list[str] = field(default_factory=list)
    seen: list[str] = field(default_factory=list)

    def console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.errors.append(f"console: {message.text}")

    def page_error(self, error: Exception) -> None:
        self.errors.append(f"page error: {error}")

    def status(self) -> str:
        return self.page.locator("#status").get_attribute("data-status") or ""

    def seq(self) -> int:
        return int(self.page.locator("#status").get_attribute("data-seq") or "0")

    def look(self, match_id: str) -> list[str]:
        """What this person has in front of them now while the game is live: the page's text, and the API's view
        for their cookie (either left out once it shows the finished game, where everything is revealed)."""
        live: list[str] = []
        text = self.page.locator("#match").inner_text()
        if self.status() != "finished":  # read after the text: the text was taken before the end
            live.append(text)
        view = self.page.evaluate("async (id) => (await fetch(`/api/matches/${id}`)).text()", match_id)
        if '"status":"finished"' not in view:
            live.append(view)
        self.seen.extend(live)
        return live


def _person(browser: Browser, seat: str) -> tuple[Person, object]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    person = Person(seat=seat, page=page)
    page.on("console", person.console)
    page.on("pageerror", person.page_error)
    return person, context


def _shot(page: Page, directory: Path, name: str) -> None:
    """A screenshot in the test's folder and, when ``PLAYEVAL_SCREENSHOT_DIR`` is set, there too."""
    dirs = [directory, *([Path(os.environ["PLAYEVAL_SCREENSHOT_DIR"])] if os.environ.get("PLAYEVAL_SCREENSHOT_DIR")
                         else [])]
    for folder in dirs:
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def _mentions(text: str, word: str) -> bool:
    return re.search(rf"\b{re.escape(word)}\b", text, flags=re.IGNORECASE) is not None


def _votes_in(text: str) -> bool:
    return any(f"{seat} for " in text for seat in SEATS)


def _act(person: Person) -> int | None:
    """Make the person's move if it is their turn: a clue, or a vote; the vote's round, if it was one."""
    page = person.page
    before = person.seq()
    round_: int | None = None
    if page.locator("#choices").is_visible():
        round_ = int(page.locator("#turn-display").inner_text().split()[1].rstrip(":"))
        expect(page.locator("#choices button")).to_have_text(
            ["east", "west"] if person.seat == "north" else ["north", "south"])
        page.locator(f"#choices button[data-choice={VOTES[person.seat]}]").click()
    else:
        textarea = page.locator("#move-text")
        expect(page.locator("#counter")).to_have_text("0 / 80")
        textarea.fill(CLUES[person.seat])
        textarea.press("Enter")
    page.wait_for_function("(seq) => Number(document.querySelector('#status').dataset.seq) > seq", arg=before)
    return round_


def test_two_people_play_council_with_two_models(server: Server, browser: Browser, tmp_path: Path) -> None:
    shots = tmp_path / "screenshots"
    north, north_context = _person(browser, "north")
    east, east_context = _person(browser, "east")
    try:
        # the first person sets the table up like a user: home page, Council's card, the set-up form
        page = north.page
        page.goto(server.url + "/")
        expect(page.locator("#game-council")).to_be_visible()
        expect(page.locator("#game-council .role")).to_have_text(
            "Give clues your partner understands; vote out the other team.")
        page.select_option("#opponent", MODEL)
        page.locator("#game-council button[type=submit]").click()
        page.wait_for_url(re.compile(r"/play/council\?"))
        expect(page.locator("#seat")).to_have_value("north")
        expect(page.locator("#seat option")).to_have_count(4)
        expect(page.locator("#roles-note")).to_contain_text("judge")
        expect(page.locator("#others select")).to_have_count(3)
        page.select_option("#other-east", "person")
        page.select_option("#other-south", MODEL)
        page.locator("#option-rounds").fill("2")
        _shot(page, shots, "70-council-setup")
        page.locator("#start").click()
        expect(page.locator("#invites")).to_be_visible()
        _shot(page, shots, "71-council-invite")
        expect(page.locator("#invite-list .invite")).to_have_count(1)
        link = page.locator("#invite-list .invite-url").input_value()
        match_id = re.search(r"/matches/([0-9a-f]+)/join#token=[A-Za-z0-9_-]{43}$", link)
        assert match_id is not None and "?" not in link, link
        match_id_text = match_id.group(1)
        token = link.split("#token=")[1]
        page.locator("#go").click()
        page.wait_for_url(re.compile(rf"/matches/{match_id_text}$"))
        expect(page.locator("#invites")).to_be_visible()  # the table waits for its guest
        expect(page.locator("#seats li[data-seat=east] .seat-name")).to_have_text("Person (invited)")

        # the second person opens the link: the join page posts the token and drops it from the address
        east.page.goto(link)
        east.page.wait_for_url(re.compile(rf"/matches/{match_id_text}$"))
        assert "token" not in east.page.url
        expect(east.page.locator("#seats li[data-seat=east] .seat-name")).to_have_text("You")
        expect(north.page.locator("#invites")).to_be_hidden()
        red = north.page.locator("#secrets .secret-value").inner_text().strip()
        blue = east.page.locator("#secrets .secret-value").inner_text().strip()
        assert red in WORDS and blue in WORDS and red != blue
        expect(north.page.locator("#secrets .secret-label")).to_have_text("Your team's word")

        # both play: clues in seat order, and a secret vote each round, north voting first
        voted: dict[int, list[str]] = {}
        checked_open_vote = False
        deadline = time.monotonic() + 240
        while not (north.status() == "finished" and east.status() == "finished"):
            assert time.monotonic() < deadline, "the game did not end"
            for person, other_word in ((north, blue), (east, red)):
                for shown in person.look(match_id_text):
                    assert not _mentions(shown, other_word), f"{person.seat} saw the other team's word:\n{shown}"
            acted = False
            for person in (north, east):
                if person.status() != "your_turn":
                    continue
                if person is east and east.page.locator("#choices").is_visible():
                    open_round = int(east.page.locator("#turn-display").inner_text().split()[1].rstrip(":"))
                    if "north" not in voted.get(open_round, []):
                        continue
                    if open_round == 1:  # north has voted, east not yet: the vote is open, and nobody sees north's
                        _shot(north.page, shots, "72-council-north-voted")
                        _shot(east.page, shots, "73-council-east-to-vote")
                        for looker in (north, east):
                            texts = looker.look(match_id_text)
                            assert len(texts) == 2 and not any(_votes_in(text) for text in texts), texts
                        checked_open_vote = True
                vote_round = _act(person)
                if vote_round is not None:
                    voted.setdefault(vote_round, []).append(person.seat)
                acted = True
            if not acted:
                north.page.wait_for_timeout(100)

        assert checked_open_vote and voted == {1: ["north", "east"], 2: ["north", "east"]}
        _shot(east.page, shots, "74-council-east-outcome")
        for person in (north, east):
            page = person.page
            expect(page.locator("#outcome")).to_be_visible()
            expect(page.locator("#outcome-heading")).to_have_text("Nobody won: a draw")
            expect(page.locator("#outcome-reason")).to_contain_text("2 red and 2 blue seats left after 2 rounds")
            expect(page.locator("#reveal-red_word")).to_have_text(red)
            expect(page.locator("#reveal-blue_word")).to_have_text(blue)
            expect(page.locator("#reveal")).to_contain_text("The red team's word")
            expect(page.locator("#reveal")).to_contain_text("The blue team's word")
            expect(page.locator("#results-body tr")).to_have_count(4)
            expect(page.locator("#results-body")).to_contain_text(MODEL)
            expect(page.locator("#secrets")).to_be_hidden()
            expect(page.locator("#turn")).to_be_hidden()
            tallies = page.locator("#transcript .msg.system .msg-text")
            expect(tallies).to_have_count(2)
            expect(tallies.first).to_have_text(
                "Round 1 votes: east for north, north for west, south for west, west for north; a tie, nobody is out.")
            expect(page.locator("#seats li")).to_have_count(4)
            expect(page.locator("#seats")).not_to_contain_text("Judge")
        assert len(north.seen) > 5 and len(east.seen) > 5
        assert north.errors == [] and east.errors == [], north.errors + east.errors
    finally:
        north_context.close()  # type: ignore[attr-defined]
        east_context.close()  # type: ignore[attr-defined]
    assert token not in server.log.read_text(errors="replace")
