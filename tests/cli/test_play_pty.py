"""`playeval play akinator --as answerer` in a real pseudo-terminal, against a real local model."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest
import sqlalchemy as sa

from playeval.models import DEFAULT_MODEL
from playeval.store import Store

pytestmark = pytest.mark.llm


def playeval_bin() -> str:
    found = shutil.which("playeval", path=str(Path(sys.executable).parent)) or shutil.which("playeval")
    assert found, "the playeval command is not installed"
    return found


def test_person_answers_a_whole_game_in_a_terminal(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'play.db'}"
    env = {**os.environ, "PLAYEVAL_CACHE_DIR": str(tmp_path / "cache"), "COLUMNS": "120", "TERM": "xterm"}
    child = pexpect.spawn(playeval_bin(), ["play", "akinator", "--as", "answerer", "--model", DEFAULT_MODEL,
                                           "--seed", "4", "--db", db], env=env, encoding="utf-8", timeout=300)
    child.expect("Your secret object")
    child.sendline("a teapot")
    answered = 0
    while True:
        index = child.expect([r"you> ", r"(You won|You lost|forfeited)\.", pexpect.EOF])
        if index == 0:
            answered += 1
            # answer every question "No" and deny every guess that is not a teapot
            child.sendline("No")
            continue
        break
    transcript = child.before or ""
    child.expect(pexpect.EOF)
    assert index == 1, f"the game did not end with an outcome: {transcript[-500:]}"
    assert answered >= 1
    assert "The object: a teapot" in re.sub(r"\x1b\[[0-9;]*m", "", child.before or "")
    with Store.open(db) as store:
        # the match is recorded with the person's secret and a person in the answerer seat
        with store.engine.connect() as conn:
            rows = conn.execute(sa.text("select id, status from matches")).all()
        assert len(rows) == 1 and rows[0][1] == "finished"
        match = store.get_match(rows[0][0])
        assert match.spec.hidden("secret") == "a teapot"
        # the person holds the answerer's seat, so they judge the guesses too
        assert [(r.role, r.player_kind, r.seat) for r in match.roles] == [("judge", "human", "answerer")]
        seats = {s.seat: s for s in match.seats}
        assert seats["answerer"].player_kind == "human" and seats["guesser"].model == DEFAULT_MODEL
        assert match.outcome is not None and match.outcome.rounds == sum(
            1 for e in store.events(match.id) if e.type == "action" and e.action.seat == "guesser")


def test_person_asks_and_leaving_midway_is_recorded_as_aborted(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'play.db'}"
    env = {**os.environ, "PLAYEVAL_CACHE_DIR": str(tmp_path / "cache"), "COLUMNS": "120"}
    result = subprocess.run([playeval_bin(), "play", "akinator", "--as", "guesser", "--model", "local/smollm2-135m",
                             "--seed", "3", "--db", db], input="Is it alive?\nguess: a lamp\n", text=True,
                            capture_output=True, env=env, timeout=300, check=False)
    assert result.returncode == 0, result.stderr
    assert "Game abandoned" in result.stdout and "The object:" in result.stdout
    with Store.open(db) as store, store.engine.connect() as conn:
        [(match_id,)] = conn.execute(sa.text("select id from matches")).all()
        match = store.get_match(match_id)
    assert match.status == "finished" and match.outcome is not None
    assert match.outcome.status == "aborted" and match.outcome.rounds == 2
    assert {s.seat: s.player_kind for s in match.seats} == {"guesser": "human", "answerer": "llm"}
