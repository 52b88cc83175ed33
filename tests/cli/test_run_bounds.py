"""``playeval run`` in a real process: SIGTERM stops a run the way Ctrl-C does (its unfinished matches marked
interrupted with the reason, resumable), and a run of the largest legal ``--n`` starts at once."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from playeval.engine import MAX_N
from playeval.store import Store

pytestmark = pytest.mark.timeout(300)

SRC = Path(__file__).resolve().parents[2] / "src"


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY")}
    env.update({"PYTHONPATH": os.pathsep.join(filter(None, [str(SRC), env.get("PYTHONPATH")])),
                "PLAYEVAL_DB": f"sqlite:///{tmp_path / 'runs.db'}", "PLAYEVAL_CACHE_DIR": str(tmp_path / "cache"),
                "COLUMNS": "200"})
    return env


def _start(tmp_path: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "playeval.cli.main", "run", *args], env=_env(tmp_path),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _wait_for_matches(db: str, at_least: int, seconds: float) -> str:
    """The id of the run once it has ``at_least`` matches stored, each with moves."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        time.sleep(0.2)
        with Store.open(db) as store:
            run_id = store.latest_run_id()
            if run_id is None:
                continue
            matches = store.run_matches(run_id)
            if len(matches) >= at_least and all(len(store.events(m.id)) > 2 for m in matches):
                return run_id
    raise AssertionError(f"the run had not stored {at_least} matches with moves after {seconds} s")


def test_sigterm_marks_the_unfinished_matches_interrupted_and_resume_finishes_them(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'runs.db'}"
    model = "mock/sim?latency=0.6"  # a match takes 12 s: its first commit (after 5 s) comes before its end
    proc = _start(tmp_path, "akinator", "--models", model, "--opponent", "scripted", "--n", "3", "--concurrency", "3")
    try:
        run_id = _wait_for_matches(db, 3, 120)
    finally:
        proc.send_signal(signal.SIGTERM)
    _, stderr = proc.communicate(timeout=30)
    assert proc.returncode not in (0, -signal.SIGTERM), stderr  # it stopped on its own, not killed by the signal
    errors = [line for line in stderr.splitlines() if line.startswith("error:")]
    expected = (f"error: run {run_id} stopped: the process got SIGTERM; 3 matches left interrupted. "
                f"Finish it with: playeval run --resume {run_id}")
    assert errors == [expected], stderr
    assert "Traceback" not in stderr
    with Store.open(db) as store:
        assert store.get_run(run_id).status == "interrupted"
        matches = store.run_matches(run_id)
        assert [(m.status, m.stop_reason) for m in matches] == [("interrupted", "the process got SIGTERM")] * 3
        played = {m.id: len(store.events(m.id)) for m in matches}

    resumed = subprocess.run([sys.executable, "-m", "playeval.cli.main", "run", "--resume", run_id],
                             env=_env(tmp_path), capture_output=True, text=True, timeout=240, check=False)
    assert resumed.returncode == 0, resumed.stderr
    assert "3 matches interrupted: the process got SIGTERM; playing on from their events" in resumed.stderr
    with Store.open(db) as store:
        assert store.get_run(run_id).status == "finished"
        for match in store.run_matches(run_id):
            assert match.status == "finished" and match.stop_reason is None
            assert len(store.events(match.id)) > played[match.id]  # played on from its moves, not restarted


def test_a_run_of_the_largest_n_starts_at_once(tmp_path: Path) -> None:
    """Planning is lazy: ``--n`` at its maximum plays its first match within seconds (every match planned up
    front took minutes and gigabytes)."""
    db = f"sqlite:///{tmp_path / 'runs.db'}"
    started = time.monotonic()
    proc = _start(tmp_path, "akinator,taboo", "--models", "mock/sim?latency=0.05", "--opponent", "scripted",
                  "--n", str(MAX_N), "--concurrency", "2")
    try:
        run_id = _wait_for_matches(db, 2, 60)
        took = time.monotonic() - started
    finally:
        proc.send_signal(signal.SIGTERM)
    _, stderr = proc.communicate(timeout=30)
    assert f"of {2 * MAX_N} matches to play" in stderr.replace(",", "")
    assert took < 30, f"the first matches were stored after {took:.1f} s"
    with Store.open(db) as store:
        assert store.get_run(run_id).config["n"] == MAX_N
        indexes = {m.match_index for m in store.run_matches(run_id)}
    # the matches taken in plan order, a few at a time (how many landed before SIGTERM depends on the machine): every
    # index below the last one stored, but for the match that started beside it (--concurrency 2 starts two at
    # once, and their rows may be stored in either order; CI once stopped with 5 stored and 4 not yet)
    missing = set(range(max(indexes) + 1)) - indexes
    assert len(missing) <= 1 and len(indexes) <= 50, sorted(indexes)
