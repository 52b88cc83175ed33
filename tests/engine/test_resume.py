"""A run killed with SIGKILL halfway is resumed without losing or duplicating a match."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from playeval.core.events import MatchStarted
from playeval.store import Store

SCRIPT = Path(__file__).with_name("slow_run.py")


def finished(store: Store, run_id: str) -> int:
    return sum(1 for m in store.run_matches(run_id) if m.status == "finished")


def test_kill_dash_nine_then_resume(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'runs.db'}"
    proc = subprocess.Popen([sys.executable, str(SCRIPT), url, "start"], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    run_id = proc.stdout.readline().strip()
    assert run_id, "the run did not start"
    with Store.open(url) as store:
        deadline = time.monotonic() + 120
        while finished(store, run_id) < 8 and time.monotonic() < deadline:
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        before = store.run_matches(run_id)
    done_before = sum(1 for m in before if m.status == "finished")
    assert 8 <= done_before < 20, f"kill came too late or too early: {done_before} finished"
    interrupted = [m for m in before if m.status == "running"]

    subprocess.run([sys.executable, str(SCRIPT), url, "resume", run_id], check=True, timeout=300)

    with Store.open(url) as store:
        matches = store.run_matches(run_id)
        assert len(matches) == 20
        assert sorted(m.match_index for m in matches) == list(range(20))
        assert all(m.status == "finished" and m.outcome is not None for m in matches)
        for match in matches:
            events = store.events(match.id)
            assert sum(isinstance(e, MatchStarted) for e in events) == 1
            assert [e.type for e in events].count("match_ended") == 1
            assert match.outcome is not None and match.outcome.rounds == 20
        # a match cut mid-way was continued from its log, not restarted under a new id
        for cut in interrupted:
            assert cut.id in {m.id for m in matches}
        assert Counter(m.id for m in matches).most_common(1)[0][1] == 1
        assert store.get_run(run_id).status == "finished"
