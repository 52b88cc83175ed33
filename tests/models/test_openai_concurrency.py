"""How many calls a run keeps in flight to an OpenAI-compatible server: ``playeval run --concurrency N`` plays N
matches at once and ``PLAYEVAL_OPENAI_CONCURRENCY`` caps the calls the provider lets through, so a server that
decodes N conversations together (llama.cpp's ``--parallel N``) gets N. Checked against a fake server on
127.0.0.1 that holds each completion a moment and counts how many it holds at once, not against a real
llama.cpp or vLLM server."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from openai_fakes import FakeServer, serve
from typer.testing import CliRunner

from playeval.cli.main import app
from playeval.models.errors import ModelError
from playeval.models.providers.openai import CONCURRENCY_ENV, DEFAULT_CONCURRENCY, concurrency
from playeval.store import Store

SRC = Path(__file__).resolve().parents[2] / "src"
HOLD_S = 0.15
"""How long the fake server holds each completion: long enough that the matches' calls overlap."""


def _question(body: dict[str, Any]) -> str:
    """The guesser's move the grammar sent with the request asks for (its turn's number is in the grammar)."""
    number = re.search(r'"Question (\d+): "', str(body.get("grammar", "")))
    assert number is not None, body.keys()
    return f"Question {number.group(1)}: is it bigger than a bread box?"


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeServer]:
    for running in serve(FakeServer(kind="llama_cpp", reply=_question, delay_s=HOLD_S)):
        monkeypatch.setenv("PLAYEVAL_OPENAI_BASE_URL", f"{running.url}/v1")
        yield running


@pytest.mark.parametrize(("matches", "matches_at_once", "calls_at_once", "expected"),
                         [(4, 4, "4", 4), (2, 1, "4", 1), (4, 4, "2", 2)])
def test_a_run_keeps_as_many_calls_in_flight_as_matches_up_to_the_providers_limit(
    server: FakeServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    matches: int, matches_at_once: int, calls_at_once: str, expected: int,
) -> None:
    monkeypatch.setenv(CONCURRENCY_ENV, calls_at_once)
    monkeypatch.setenv("PLAYEVAL_DB", f"sqlite:///{tmp_path / 'runs.db'}")
    result = CliRunner().invoke(app, ["run", "akinator", "--level", "3", "--models", "openai/fake",
                                      "--opponent", "scripted", "--n", str(matches),
                                      "--concurrency", str(matches_at_once), "--no-cache"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    with Store.open() as store:
        run_id = store.latest_run_id()
        assert run_id is not None
        played = store.run_matches(run_id)
    assert [m.status for m in played] == ["finished"] * matches
    assert len(server.posts) == matches * 16  # every guesser turn of level 3 was one completion
    assert server.max_in_flight == expected


def test_the_limit_defaults_to_eight_and_a_bad_value_is_refused_in_one_line() -> None:
    assert concurrency({}) == DEFAULT_CONCURRENCY == 8
    assert concurrency({CONCURRENCY_ENV: " 12 "}) == 12
    for bad in ("0", "-3", "2.5", "four", "٣", "²"):
        with pytest.raises(ModelError, match=rf"^{CONCURRENCY_ENV} must be a whole number") as refused:
            concurrency({CONCURRENCY_ENV: bad})
        assert repr(bad) in str(refused.value)


def test_a_run_with_a_bad_limit_stops_before_anything_is_recorded(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "OPENAI_BASE_URL")}
    env.update({"PYTHONPATH": os.pathsep.join(filter(None, [str(SRC), env.get("PYTHONPATH")])),
                "PLAYEVAL_DB": f"sqlite:///{tmp_path / 'runs.db'}", "COLUMNS": "200",
                "PLAYEVAL_OPENAI_BASE_URL": "http://127.0.0.1:9/v1", CONCURRENCY_ENV: "0"})
    proc = subprocess.run([sys.executable, "-m", "playeval.cli.main", "run", "akinator", "--models", "openai/fake",
                           "--opponent", "scripted", "--n", "1"],
                          env=env, capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip() == (f"error: {CONCURRENCY_ENV} must be a whole number of calls in flight, "
                                   "at least 1, not '0'"), proc.stderr
    with Store.open(f"sqlite:///{tmp_path / 'runs.db'}") as store:
        assert store.latest_run_id() is None
