"""A database written before Core v2 (tests/fixtures/v1, event schema 1, store migration 0003) opens after it,
and the commands give the same numbers and texts as the code that wrote it printed (tests/fixtures/v1/golden).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from playeval.core.events import MatchEnded
from playeval.store import Store, read_run_jsonl

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "v1"
GOLDEN = FIXTURE / "golden"
RUNS = ("3f06a7517d5b", "39d8d356903c", "adb49725875e")


def playeval_bin() -> str:
    found = shutil.which("playeval", path=str(Path(sys.executable).parent)) or shutil.which("playeval")
    assert found, "the playeval command is not installed"
    return found


@pytest.fixture
def old_db(tmp_path: Path) -> str:
    """A copy of the old database (opening it migrates it), as a URL."""
    copy = tmp_path / "v1.db"
    shutil.copy(FIXTURE / "playeval-v1.db", copy)
    return f"sqlite:///{copy}"


def _run(*args: str, db: str) -> str:
    env = {**os.environ, "COLUMNS": "200", "PLAYEVAL_DB": db}
    done = subprocess.run([playeval_bin(), *args], capture_output=True, text=True, env=env, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("run_id", RUNS)
def test_results_transcripts_and_metrics_print_as_before(old_db: str, run_id: str) -> None:
    for command, golden in (("results", "results"), ("transcript", "transcript"), ("analyze", "metrics")):
        args = ("analyze", "metrics", run_id) if command == "analyze" else (command, run_id)
        printed = _run(*args, db=old_db)
        expected = (GOLDEN / f"{golden}_{run_id}.txt").read_text("utf-8")
        if command == "results":
            # Everything printed before, then the cost table added since: the old calls had no price recorded.
            assert printed.startswith(expected), command
            added = printed[len(expected):]
            assert "cost: every model call of the run" in added and "unknown" in added
            assert re.search(r"\$\d", added) is None  # no price shown for a call that was never priced
        else:
            assert printed == expected, command


@pytest.mark.parametrize("run_id", RUNS)
def test_an_export_reads_back_as_the_old_export_did(old_db: str, run_id: str, tmp_path: Path) -> None:
    out = tmp_path / "new.jsonl"
    _run("export", run_id, "-o", str(out), db=old_db)
    old = read_run_jsonl((GOLDEN / f"export_{run_id}.jsonl").read_text("utf-8").splitlines())
    new = read_run_jsonl(out.read_text("utf-8").splitlines())
    assert new.model_dump(exclude={"schema_version"}) == old.model_dump(exclude={"schema_version"})
    assert new.matches and all(match.events for match in new.matches)
    # the old events keep the schema version they were written with
    assert {record.schema_version for match in new.matches for record in match.events} == {1}


def test_the_migration_keeps_arena_people_and_moves_retro_calls_to_roles(old_db: str) -> None:
    with Store.open(old_db) as store:
        web = store.get_web_match("3828a46aa4408986")
        assert web.mode == "play" and web.person_seats == ("answerer",)
        assert web.people[0].token_sha256 is not None and web.people[0].joined_at == web.created_at
        assert store.get_web_match("0628e39f35a04019").people == ()  # a watched match has no people
        run_calls = [call for match in store.run_matches(RUNS[0]) for call in store.calls(match.id)]
        retro = [call for call in run_calls if call.role is not None]
        assert retro and all(call.role.startswith("retro:") and call.seat is None for call in retro)
        assert not [call for call in run_calls if (call.seat or "").startswith("retro:")]
        # a live match of the old arena still folds, and an old outcome reads with its winner
        live = store.get_match("a692ec44403b9c9a")
        assert live.status == "running" and live.spec.hidden("secret") == "false"
        ended = [e for e in store.events("3828a46aa4408986") if isinstance(e, MatchEnded)]
        assert ended[0].outcome.winners == ("guesser",)
