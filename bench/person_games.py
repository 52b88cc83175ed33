"""A person's game of each rule game and of Undercover through the arena's pages, against a real model.

Starts ``playeval serve`` on a fresh SQLite database with the model given (the embedded one by default, which also
judges), drives Debian's Chromium with Playwright as a person would (the play page's set-up form with its defaults,
the game's own forms), and prints:

* per game, how long the person waited on the page after each of their moves until they could move again (the
  model's moves in between: a judge's verdict in the rule games, five seats' sentences and votes in Undercover);
* per game and role, the model calls the store recorded for the match (count, median and longest seconds).

The person's moves are fixed (ask for examples, a wrong guess, a guess of the rule's words, skip the checks; in
Undercover, bland sentences that never name a word, and a vote for the first seat offered), so the figures measure
the model, not the player. Run it with nothing else on the machine::

    .venv/bin/python bench/person_games.py [--model local/qwen2.5-coder-1.5b] [--games math,undercover]

Needs ``/usr/bin/chromium`` and the ``[test]`` extra (Playwright).
"""

from __future__ import annotations

import argparse
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import Page, expect, sync_playwright

from playeval.store import Store

RULE_GAMES = ("static_picnic", "dynamic_picnic", "functions_picnic", "math")
CHROMIUM = "/usr/bin/chromium"
WAIT_MS = 600_000
"""How long the page may take to offer the person's next move (a slow model's five seats in Undercover)."""
SENTENCES = ("It often turns up where people gather", "Most of us could recognise it at once",
             "You would know it from quite far away", "It has a certain presence about it")


@dataclass
class Played:
    game: str
    match_id: str
    waits: list[tuple[str, float]] = field(default_factory=list)
    """(the person's move, seconds until the page offered the next move or the end)."""
    outcome: str = ""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _serve(model: str, db: str, port: int, log: Path) -> subprocess.Popen[bytes]:
    command = [str(Path(sys.executable).parent / "playeval"), "serve", "--models", model, "--port", str(port),
               "--db", db, "--no-cache"]
    server = subprocess.Popen(command, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server stopped (exit {server.returncode}); see {log}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2):
                return server
        except (urllib.error.URLError, OSError):
            time.sleep(0.5)
    server.terminate()
    raise SystemExit(f"the server did not answer within 300 s; see {log}")


def _status(page: Page) -> str:
    return page.locator("#status").get_attribute("data-status") or ""


def _seq(page: Page) -> int:
    return int(page.locator("#status").get_attribute("data-seq") or "0")


def _next_turn(page: Page, before: int) -> float:
    """Seconds until the page moved past ``before`` and either offers a move again or shows the end."""
    start = time.monotonic()
    page.wait_for_function(
        "(seq) => { const s = document.querySelector('#status');"
        " return Number(s.dataset.seq) > seq && (s.dataset.status === 'your_turn' || s.dataset.status === 'finished')"
        " && (s.dataset.status === 'finished' || document.querySelector('#panel-form form') !== null); }",
        arg=before, timeout=WAIT_MS)
    return time.monotonic() - start


def _submit(page: Page, action: str) -> None:
    page.locator(f"#panel-form form[data-action={action}] button[type=submit]").click()


def play_rule_game(page: Page, base: str, game: str) -> Played:
    page.goto(f"{base}/play/{game}?level=1")
    page.locator("#start").click()
    page.wait_for_url(re.compile(r"/matches/"), timeout=WAIT_MS)
    played = Played(game=game, match_id=page.url.rsplit("/", 1)[-1])
    start = time.monotonic()
    expect(page.locator("#status")).to_have_attribute("data-status", "your_turn", timeout=WAIT_MS)
    played.waits.append(("start (first examples)", time.monotonic() - start))
    moves = (("more", "ask for 2 more examples"), ("guess", "a wrong guess"), ("skip", "skip the check"),
             ("guess", "a second guess"), ("skip", "skip the check"))
    for action, label in moves:
        if _status(page) == "finished":
            break
        form = page.locator(f"#panel-form form[data-action={action}]")
        if not form.is_visible():
            break
        before = _seq(page)
        if action == "more":
            page.locator("#field-more-n").fill("2")
        elif action == "guess":
            page.locator("#field-guess-rule").fill("things that are found in a kitchen" if "wrong" in label
                                                   else "items that are animals")
        _submit(page, action)
        played.waits.append((label, _next_turn(page, before)))
    played.outcome = page.locator("#outcome-heading").inner_text() if _status(page) == "finished" \
        else "still on after the fixed moves"
    return played


def play_undercover(page: Page, base: str, model: str) -> Played:
    page.goto(f"{base}/play/undercover")
    page.locator("#option-max_rounds").fill("2")
    page.select_option("#opponent", model)
    page.locator("#start").click()
    page.wait_for_url(re.compile(r"/matches/[0-9a-f]+$"), timeout=WAIT_MS)
    played = Played(game="undercover", match_id=page.url.rsplit("/", 1)[-1])
    start = time.monotonic()
    page.wait_for_function("() => ['your_turn', 'finished'].includes(document.querySelector('#status').dataset.status)",
                           timeout=WAIT_MS)
    played.waits.append(("start (the seats before the person)", time.monotonic() - start))
    said = 0
    while _status(page) != "finished":
        before = _seq(page)
        vote = page.locator("#panel-form form[data-action=vote]")
        if vote.is_visible():
            vote.locator("input[type=radio]").first.check()
            _submit(page, "vote")
            label = "vote"
        else:
            page.locator("#field-say-sentence").fill(SENTENCES[said % len(SENTENCES)])
            _submit(page, "say")
            said += 1
            label = f"sentence {said}"
        played.waits.append((label, _next_turn(page, before)))
    played.outcome = page.locator("#outcome-heading").inner_text()
    return played


def _calls(db: str, match_id: str) -> dict[str, list[float]]:
    with Store.open(db, write=False) as store:
        calls = store.calls(match_id)
    found: dict[str, list[float]] = {}
    for call in calls:
        found.setdefault(call.role or call.seat or "?", []).append(call.latency_s)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default="local/qwen2.5-coder-1.5b")
    parser.add_argument("--games", default=",".join((*RULE_GAMES, "undercover")))
    args = parser.parse_args()
    games = [name.strip() for name in args.games.split(",") if name.strip()]
    root = Path(tempfile.mkdtemp(prefix="person-games-"))
    db = f"sqlite:///{root / 'arena.db'}"
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    server = _serve(args.model, db, port, root / "server.log")
    results: list[Played] = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            for game in games:
                began = time.monotonic()
                played = play_undercover(page, base, args.model) if game == "undercover" \
                    else play_rule_game(page, base, game)
                results.append(played)
                print(f"{game}: {played.outcome} in {time.monotonic() - began:.1f} s (match {played.match_id})",
                      flush=True)
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=30)
    print(f"\nmodel {args.model}; server log {root / 'server.log'}\n")
    for played in results:
        print(f"## {played.game} ({played.outcome})")
        for label, seconds in played.waits:
            print(f"  waited {seconds:6.1f} s after: {label}")
        for role, latencies in sorted(_calls(db, played.match_id).items()):
            print(f"  calls of {role}: {len(latencies)}, median {statistics.median(latencies):.1f} s, "
                  f"longest {max(latencies):.1f} s")


if __name__ == "__main__":
    main()
