"""A seeded run on the embedded model, played twice without the response cache, records byte-identical
transcripts (marked ``llm``): the engine's kept caches, copies and re-asks change no reply."""

from __future__ import annotations

import hashlib
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from playeval.models.catalog import LOCAL_MODELS
from playeval.models.weights import MissingWeights, locate_weights

pytestmark = pytest.mark.llm


def transcript(db: Path) -> tuple[str, int]:
    """A digest of every match's outcome and every call's prompt and reply, in order, and the number of calls."""
    digest = hashlib.sha256()
    with sqlite3.connect(db) as connection:
        for row in connection.execute("SELECT match_index, status, outcome FROM matches ORDER BY match_index"):
            digest.update(repr(row).encode())
        calls = connection.execute(
            "SELECT m.match_index, c.seat, c.role, c.messages, c.raw_output, c.prompt_evaluated FROM model_calls c "
            "JOIN matches m ON m.id = c.match_id ORDER BY m.match_index, c.id").fetchall()
    for row in calls:
        digest.update(repr(row[:5]).encode())
    assert all(row[5] is not None for row in calls), "a fresh local call reports the prompt tokens it evaluated"
    return digest.hexdigest(), len(calls)


def test_an_undercover_table_of_the_small_model_replays_byte_for_byte(tmp_path: Path) -> None:
    pytest.importorskip("llama_cpp")
    try:
        locate_weights(LOCAL_MODELS["smollm2-135m"].weights)
    except MissingWeights as exc:
        pytest.skip(str(exc))
    runs = []
    for attempt in (1, 2):
        db = tmp_path / f"run{attempt}.db"
        done = subprocess.run(
            [sys.executable, "-m", "playeval.cli.main", "run", "undercover", "--models", "local/smollm2-135m",
             "--role", "judge=local/smollm2-135m", "--no-calibration", "--n", "2", "--seed", "3", "--no-cache",
             "--db", f"sqlite:///{db}"], capture_output=True, text=True, timeout=900, check=False)
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
        runs.append(transcript(db))
    assert runs[0][1] >= 10, "two tables' worth of calls"
    assert runs[0] == runs[1]
