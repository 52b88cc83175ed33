"""The three GameArena games behave as before Core v2: the seeded mock and scripted runs that wrote the v1
fixture (tests/fixtures/v1/README.md), played again now, print byte-identical transcripts and results. ("all" in
those commands meant these three games; it now takes in every registered game.)"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "fixtures" / "v1" / "golden"
RUNS = (
    ("3f06a7517d5b", ["akinator,bluffing,taboo", "--models", "mock/player,mock/garbage", "--opponent", "mock/player",
                      "--n", "2",
                      "--seed", "11"]),
    ("39d8d356903c", ["akinator,bluffing,taboo", "--models", "mock/player", "--opponent", "scripted", "--n", "2",
                      "--seed", "5"]),
    ("adb49725875e", ["akinator,taboo", "--models", "mock/player", "--opponent", "mock/player", "--n", "1",
                      "--level", "3", "--seed", "3"]),
)


def playeval_bin() -> str:
    found = shutil.which("playeval", path=str(Path(sys.executable).parent)) or shutil.which("playeval")
    assert found, "the playeval command is not installed"
    return found


@pytest.mark.parametrize(("old_id", "args"), RUNS, ids=[old for old, _ in RUNS])
def test_a_seeded_run_replays_the_old_transcript_and_results(old_id: str, args: list[str], tmp_path: Path) -> None:
    env = {**os.environ, "COLUMNS": "200", "PLAYEVAL_DB": f"sqlite:///{tmp_path / 'new.db'}"}

    def run(*command: str) -> str:
        done = subprocess.run([playeval_bin(), *command], capture_output=True, text=True, env=env, timeout=300,
                              check=False)
        assert done.returncode == 0, done.stderr
        return done.stdout

    run("run", *args)
    transcript = run("transcript")
    assert transcript == (GOLDEN / f"transcript_{old_id}.txt").read_text("utf-8")
    results = run("results").splitlines()
    golden = (GOLDEN / f"results_{old_id}.txt").read_text("utf-8").splitlines()
    assert results[1:len(golden)] == golden[1:]  # the first line names the run, whose id is new
    added = "\n".join(results[len(golden):])  # the cost table added since: mock models are priced at 0
    assert "cost: every model call of the run" in added and "unknown" not in added and "$0" in added
    assert results[0].replace(results[0].split()[1], "") == golden[0].replace(golden[0].split()[1], "")
