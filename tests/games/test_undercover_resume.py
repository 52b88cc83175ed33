"""An Undercover run killed with SIGKILL mid-round resumes without losing or duplicating anything, and a judge or
voter that talks garbage never stalls or aborts a table (its questions become "no verdict", its votes
abstentions)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from playeval.core.events import ActionApplied, Event, MatchEnded, MatchStarted, ReplyRejected
from playeval.core.registry import default_registry
from playeval.engine.match import state_from_events
from playeval.store import Store

SCRIPT = Path(__file__).with_name("undercover_slow_run.py")
TABLES = 6


def _actions(events: list[Event]) -> list[ActionApplied]:
    return [event for event in events if isinstance(event, ActionApplied)]


def test_kill_dash_nine_mid_round_then_resume(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'undercover.db'}"
    proc = subprocess.Popen([sys.executable, str(SCRIPT), url, "start"], stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "SLOW_RUN_DELAY": "0.02"})
    assert proc.stdout is not None
    run_id = proc.stdout.readline().strip()
    assert run_id, "the run did not start"
    with Store.open(url) as store:
        deadline = time.monotonic() + 120
        cut: dict[str, list[Event]] = {}
        while time.monotonic() < deadline:  # wait for a table past its first vote, in the middle of a round
            running = [m for m in store.run_matches(run_id) if m.status == "running"]
            logs = {m.id: store.events(m.id) for m in running}
            if any(sum(a.action.kind == "vote" for a in _actions(log)) >= 2 for log in logs.values()):
                os.kill(proc.pid, signal.SIGKILL)
                proc.wait(timeout=30)
                cut = {match_id: store.events(match_id) for match_id in logs}
                break
            time.sleep(0.02)
        assert cut, "no table reached a vote before the deadline"
        done_before = sum(1 for m in store.run_matches(run_id) if m.status == "finished")
    assert done_before < TABLES, "the kill came after the run had finished"

    subprocess.run([sys.executable, str(SCRIPT), url, "resume", run_id], check=True, timeout=300,
                   env={**os.environ, "SLOW_RUN_DELAY": "0"})

    game = default_registry().get("undercover")
    with Store.open(url) as store:
        matches = store.run_matches(run_id)
        assert sorted(m.match_index for m in matches) == list(range(TABLES))
        assert Counter(m.id for m in matches).most_common(1)[0][1] == 1
        assert all(m.status == "finished" and m.outcome is not None and m.outcome.status == "finished"
                   for m in matches), [(m.status, m.outcome) for m in matches]  # none aborted by the garbage
        rejected_roles: Counter[str] = Counter()
        for match in matches:
            events = store.events(match.id)
            assert sum(isinstance(e, MatchStarted) for e in events) == 1
            assert sum(isinstance(e, MatchEnded) for e in events) == 1
            if match.id in cut:  # everything recorded before the kill is still there, first and unchanged
                before = [e.model_dump() for e in cut[match.id]]
                assert [e.model_dump() for e in events[:len(before)]] == before
            state = state_from_events(game, match.spec, events)
            spoken = Counter((s.round, s.seat) for s in state.statements)
            voted = Counter((v.round, v.voter) for v in state.votes)
            assert max(spoken.values(), default=1) == 1 and max(voted.values(), default=1) == 1
            for statement in state.statements:
                assert len(statement.marks) == 3 * int(match.spec.params["judges"])
            rejected_roles.update(e.role or ("vote" if "no player" in e.reason else "seat")
                                  for e in events if isinstance(e, ReplyRejected))
        marks = [m for match in matches for s in state_from_events(game, match.spec, store.events(match.id)).statements
                 for m in s.marks]
        votes = [v for match in matches for v in state_from_events(game, match.spec, store.events(match.id)).votes]
    assert rejected_roles["judge"] > 0 and rejected_roles["vote"] > 0  # the garbage was there, and re-asked
    assert any(m.value is None and m.reason for m in marks)  # a question with no verdict, with its reason
    assert any(v.target is None and v.reason for v in votes)  # an abstention, with its reason
