"""The local backend's work in ``playeval results``' cost table and in ``playeval analyze usage``: the ratio of
prompt tokens evaluated to needed and the rates where calls reported them, a dash where none did."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from playeval.analysis.load import ALL_MODELS
from playeval.cli.main import app
from playeval.cli.usage_tables import NONE, evaluated_text, rates_text
from playeval.core.ask import CallRecord
from playeval.core.errors import NotFoundError
from playeval.core.messages import user
from playeval.core.work import WorkTotals
from playeval.store import Store

LOCAL = "local/qwen2.5-coder-1.5b"


def _local_call(evaluated: int, needed: int) -> CallRecord:
    return CallRecord(model=LOCAL, messages=(user("Ask a question."),), raw_output="Is it alive?", prompt_tokens=900,
                      completion_tokens=40, latency_s=3.0, prompt_evaluated=evaluated, prompt_needed=needed,
                      prompt_s=1.0, generation_s=2.0)


@pytest.fixture
def run_id(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A mock run, with two calls of a local model that reported their work added to its first match."""
    monkeypatch.setenv("PLAYEVAL_DB", f"sqlite:///{tmp_path / 'runs.db'}")
    played = CliRunner().invoke(app, ["run", "akinator", "--models", "mock/player", "--opponent", "scripted",
                                      "--n", "1", "--no-cache"])
    assert played.exit_code == 0, played.output
    with Store.open() as store:
        found = store.latest_run_id()
        assert found is not None
        match = store.run_matches(found)[0]
        store.add_calls(match.id, [_local_call(1000, 900), _local_call(620, 637)], seat="guesser")
    return found


def _line(output: str, model: str) -> str:
    return next(line for line in output.splitlines() if line.strip().startswith(model))


def test_results_show_the_ratio_where_reported_and_a_dash_elsewhere(run_id: str) -> None:
    shown = CliRunner().invoke(app, ["results", run_id], env={"COLUMNS": "140"})
    assert shown.exit_code == 0, shown.output
    cost_part = shown.output[shown.output.index("cost: every model call"):]
    assert "prompt evaluated / needed" in cost_part and "tok/s in / out" in cost_part
    local = _line(cost_part, LOCAL)
    assert "1,620 / 1,537 (1.05x)" in local
    assert "810.0 / 20.0" in local  # 1,620 tokens in 2 s of prompt; 80 tokens in 4 s of generation
    mock = _line(cost_part, "mock/player")
    assert NONE in mock and "x)" not in mock
    assert "1,620 / 1,537 (1.05x)" in _line(cost_part, ALL_MODELS)
    table_lines = cost_part.split("\n\n")[0].splitlines()
    assert max(len(line) for line in table_lines) <= 140


def test_analyze_usage_prints_the_work_per_model(run_id: str) -> None:
    shown = CliRunner().invoke(app, ["analyze", "usage", run_id], env={"COLUMNS": "140"})
    assert shown.exit_code == 0, shown.output
    local = _line(shown.output, LOCAL).split()
    # model, calls, cached, reported, tokens in, evaluated / needed (ratio), tokens out, seconds, tok/s
    assert local[:5] == [LOCAL, "2", "0", "2", "1,800"]
    assert local[5:9] == ["1,620", "/", "1,537", "(1.05x)"]
    assert local[9:] == ["80", "2.0", "/", "4.0", "810.0", "/", "20.0"]
    assert max(len(line.rstrip()) for line in shown.output.split("\n\n")[0].splitlines()) <= 140
    mock = _line(shown.output, "mock/player").split()
    assert mock[3] == "0" and mock[5] == NONE and mock[-2:] == [NONE, NONE]


def test_analyze_usage_of_a_missing_run_is_refused(tmp_path: Path) -> None:
    shown = CliRunner().invoke(app, ["analyze", "usage", "nosuchrun", "--db", f"sqlite:///{tmp_path / 'x.db'}"])
    assert isinstance(shown.exception, NotFoundError) and "nosuchrun" in str(shown.exception)  # main's one line


def test_the_texts_of_partial_figures() -> None:
    assert evaluated_text(WorkTotals()) == NONE and rates_text(WorkTotals()) == NONE
    timed = WorkTotals(calls=1, generation_s=2.0, generated_tokens=10)
    assert evaluated_text(timed) == NONE and rates_text(timed) == f"{NONE} / 5.0"
    unneeded = WorkTotals(calls=1, prompt_evaluated=30, prompt_needed=0)
    assert evaluated_text(unneeded) == "30 / 0"
