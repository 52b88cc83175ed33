"""Load test of the web arena with Locust: simulated people playing whole games, then a check of the database.

    .venv/bin/python bench/arena_load.py [--users 200] [--time 2m] [--only sqlite|postgresql] [--think 0.5-1.5]

Locust is installed into its own virtualenv (``~/.cache/playeval/locust-venv``, made on first use; one error
line if it cannot be). Two configurations run one after the other, each against a fresh database:

* SQLite, ``playeval serve`` with one worker;
* PostgreSQL (a throwaway server, as the tests start theirs: ``tests/pg_server.py``), two workers.

Each starts ``playeval serve --models mock/player`` on a free port of 127.0.0.1 and runs ``locust --headless``
with ``bench/arena_locustfile.py`` for ``--time`` with ``--users`` people (spawned 50 a second), who then finish
the game they are in (``--stop-timeout``). ``mock/player`` answers instantly, so the latencies exclude model
time. Printed per endpoint: requests, requests/s, p50 and p99 latency, errors; then the database is checked
against what the people counted (the server's confirmations): matches started and finished, the people's moves
(``reply`` events of the person's seat), each log's events numbered 1..n without gaps or repeats, one
``match_ended`` per finished match. Nothing may be lost or duplicated.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import math
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from _support import free_port, pg_server
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from playeval.store import Store
from playeval.store.schema import EventRow, WebMatchRow

BENCH = Path(__file__).resolve().parent
LOCUSTFILE = BENCH / "arena_locustfile.py"
LOCUST_VENV = Path.home() / ".cache" / "playeval" / "locust-venv"
LOCUST_VERSION = "2.47.0"
PERSON_SEAT = "answerer"
ENDPOINTS = ("start", "view", "stream", "move")
SPAWN_RATE = 50
STOP_TIMEOUT_S = 60


class LoadError(RuntimeError):
    """The load test cannot run here; the message says why, in one line."""


@dataclass(frozen=True)
class Config:
    name: str
    workers: int


def locust_bin() -> Path:
    """The ``locust`` of the benchmark's own virtualenv, made and installed on first use."""
    locust = LOCUST_VENV / "bin" / "locust"
    if locust.is_file():
        return locust
    LOCUST_VENV.parent.mkdir(parents=True, exist_ok=True)
    for command in ([sys.executable, "-m", "venv", str(LOCUST_VENV)],
                    [str(LOCUST_VENV / "bin" / "pip"), "install", "-q", f"locust=={LOCUST_VERSION}"]):
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["no message"])[-1]
            raise LoadError(f"cannot install locust into {LOCUST_VENV}: {last}")
    return locust


@contextlib.contextmanager
def database(config: Config, root: Path) -> Iterator[str]:
    """A fresh database for ``config``: a SQLite file, or a database in a throwaway PostgreSQL server."""
    if config.name == "sqlite":
        yield f"sqlite:///{root / 'arena.db'}"
        return
    try:
        pg = pg_server()
    except ImportError as err:
        raise LoadError(str(err)) from None
    bin_dir = pg.find_pg_bin()
    if bin_dir is None:
        raise LoadError(f"no PostgreSQL server binaries: {pg.INSTALL_HINT}")
    try:
        server = pg.start_server(bin_dir)
    except pg.PgUnavailable as err:
        raise LoadError(f"PostgreSQL cannot start: {err}") from None
    try:
        yield server.create_database("arena_load")
    finally:
        server.stop()


@contextlib.contextmanager
def serving(url: str, workers: int, log: Path) -> Iterator[str]:
    """``playeval serve`` on a free port of 127.0.0.1 until the block ends; its base URL."""
    port = free_port()
    command = [str(Path(sys.executable).parent / "playeval"), "serve", "--host", "127.0.0.1", "--port", str(port),
               "--models", "mock/player", "--no-cache", "--workers", str(workers), "--db", url]
    with open(log, "w", encoding="utf-8") as out:
        server = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_ready(base, server)
        yield base
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def _wait_ready(base: str, server: subprocess.Popen[bytes], timeout_s: float = 90.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise LoadError(f"playeval serve exited with {server.returncode} before answering")
        with contextlib.suppress(urllib.error.URLError, ConnectionError, TimeoutError):
            with urllib.request.urlopen(f"{base}/api/models", timeout=2) as response:
                if response.status == 200:
                    return
        time.sleep(0.3)
    raise LoadError(f"playeval serve did not answer within {timeout_s:g} s")


def run_locust(base: str, users: int, duration: str, think: str, out: Path) -> dict[str, Any]:
    """Run the people; what they counted (the locustfile's results)."""
    results = out / "played.json"
    env = {**os.environ, "PLAYEVAL_LOAD_RESULTS": str(results), "PLAYEVAL_LOAD_THINK_S": think}
    command = [str(locust_bin()), "-f", str(LOCUSTFILE), "--headless", "--host", base, "-u", str(users),
               "-r", str(SPAWN_RATE), "-t", duration, "--stop-timeout", str(STOP_TIMEOUT_S), "--csv",
               str(out / "locust"), "--only-summary", "--loglevel", "WARNING"]
    with open(out / "locust.log", "w", encoding="utf-8") as log:
        done = subprocess.run(command, stdout=log, stderr=subprocess.STDOUT, env=env, check=False)
    if not results.is_file():
        raise LoadError(f"locust wrote no results (exit {done.returncode}); see {out / 'locust.log'}")
    played: dict[str, Any] = json.loads(results.read_text(encoding="utf-8"))
    return played


def report_requests(out: Path, seconds: float) -> list[str]:
    """Per endpoint: requests, requests/s, p50 and p99 (ms), errors; from Locust's CSV."""
    lines = [f"  {'endpoint':<10} {'requests':>9} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7}"]
    with open(out / "locust_stats.csv", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            name = row["Name"]
            if name not in (*ENDPOINTS, "Aggregated"):
                continue
            count = int(row["Request Count"])
            lines.append(f"  {name:<10} {count:>9} {count / seconds:>8.1f} {row['50%']:>8} {row['99%']:>8} "
                         f"{row['Failure Count']:>7}")
    return lines


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile (``share`` in 0..1) of non-empty ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(share * len(ordered)) - 1))]


def report_arrived(played: dict[str, Any], users: int, think: str) -> list[str]:
    """Per endpoint, p50 and p99 (ms) of the requests after the crowd arrived: from the last person's spawn
    (``users / SPAWN_RATE`` s after the first request) and one longest think later."""
    timings: list[tuple[float, str, float]] = [tuple(item) for item in played["timings"]]  # type: ignore[misc]
    if not timings:
        return []
    arrived = min(when for when, _, _ in timings) + users / SPAWN_RATE + float(think.partition("-")[2] or think)
    lines = [f"  after everyone arrived ({arrived - min(when for when, _, _ in timings):.0f} s in):"]
    for name in ENDPOINTS:
        latencies = [ms for when, called, ms in timings if called == name and when >= arrived]
        if latencies:
            lines.append(f"  {name:<10} {len(latencies):>9} {'':>8} {percentile(latencies, 0.5):>8.0f} "
                         f"{percentile(latencies, 0.99):>8.0f}")
    return lines


def check_database(url: str, played: dict[str, Any]) -> list[str]:
    """Compare the store with what the people counted; lines saying what matched and what did not."""
    expected: dict[str, dict[str, Any]] = played["matches"]
    with Store.open(url) as store, Session(store.engine) as session:
        arena = set(session.scalars(select(WebMatchRow.match_id)))
        finished = {match.id for match in store.list_matches(status="finished")} & arena
        moves: Counter[str] = Counter()
        ended: Counter[str] = Counter()
        for match_id, kind, payload in session.execute(
                select(EventRow.match_id, EventRow.type, EventRow.payload)
                .where(EventRow.type.in_(("reply", "match_ended")))):
            if kind == "reply" and payload.get("seat") == PERSON_SEAT:
                moves[match_id] += 1
            elif kind == "match_ended":
                ended[match_id] += 1
        broken_logs = [match_id for match_id, count, top, low in session.execute(
            select(EventRow.match_id, func.count(), func.max(EventRow.seq), func.min(EventRow.seq))
            .group_by(EventRow.match_id)) if not (low == 1 and top == count)]
        events = session.scalar(select(func.count()).select_from(EventRow)) or 0
    problems: list[str] = []
    if arena != set(expected):
        problems.append(f"matches: {len(arena - set(expected))} in the store no person started, "
                        f"{len(set(expected) - arena)} started and missing")
    wrong_moves = [match_id for match_id, counted in expected.items() if moves[match_id] != counted["moves"]]
    if wrong_moves:
        problems.append(f"moves: {len(wrong_moves)} matches whose stored moves differ from the people's count")
    seen_finished = {match_id for match_id, counted in expected.items() if counted["finished"]}
    if finished != seen_finished:
        problems.append(f"finished: {len(finished - seen_finished)} finished unseen, "
                        f"{len(seen_finished - finished)} seen finished but not stored so")
    if any(count != 1 for match_id, count in ended.items() if match_id in arena) or set(ended) & arena != finished:
        problems.append("match_ended: not exactly one per finished match")
    if broken_logs:
        problems.append(f"logs: {len(broken_logs)} matches whose events are not numbered 1..n")
    lines = [(f"  people counted: {played['starts']} matches started, {played['finishes']} finished, "
             f"{played['moves']} moves ({played['refused']} refused by the rules)"),
             (f"  database:       {len(arena)} matches, {len(finished)} finished, "
             f"{sum(moves[match_id] for match_id in arena)} person moves, {events} events in all")]
    lines += [f"  MISMATCH {problem}" for problem in problems] or ["  nothing lost, nothing duplicated"]
    return lines


def run(config: Config, users: int, duration: str, think: str) -> list[str]:
    out = Path(tempfile.mkdtemp(prefix=f"playeval-load-{config.name}-"))
    lines = [f"== {config.name}, {config.workers} worker(s), {users} people, {duration} (files in {out})"]
    with database(config, out) as url:
        with serving(url, config.workers, out / "server.log") as base:
            began = time.monotonic()
            played = run_locust(base, users, duration, think, out)
            seconds = time.monotonic() - began
        lines += report_requests(out, seconds)
        lines += report_arrived(played, users, think)
        lines += check_database(url, played)
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Load test of the web arena with Locust (127.0.0.1 only).")
    parser.add_argument("--users", type=int, default=200, help="simulated people (default 200)")
    parser.add_argument("--time", default="2m", help="how long each configuration runs, Locust's form (default 2m)")
    parser.add_argument("--only", choices=("sqlite", "postgresql"), help="run one configuration")
    parser.add_argument("--think", default="2-5",
                        help="seconds a person reads and thinks before each move and game, MIN-MAX (default 2-5)")
    args = parser.parse_args(argv)
    if args.users < 1:
        print("error: --users must be at least 1", file=sys.stderr)
        return 2
    configs = [Config("sqlite", 1), Config("postgresql", 2)]
    try:
        locust_bin()
        for config in configs:
            if args.only in (None, config.name):
                print("\n".join(run(config, args.users, args.time, args.think)), flush=True)
    except LoadError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print("(latencies are the server's: mock/player answers instantly, so no model time is included; Locust runs on "
          "the same machine and its CPU use counts)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
