"""bench/real_model.py's own parts, without a model: the calls read from a run's database (one an older playeval
wrote too), the commands it accepts, and the before/after comparison."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
import real_model

from playeval.core.ask import CallRecord
from playeval.core.match import MatchSpec
from playeval.core.messages import user
from playeval.store import Store


def _call(model: str, **figures: object) -> CallRecord:
    return CallRecord(model=model, messages=(user("hi"),), raw_output="ok", prompt_tokens=100, completion_tokens=10,
                      latency_s=2.0, **figures)  # type: ignore[arg-type]


def test_calls_are_summed_per_model_with_the_work_figures(tmp_path: Path) -> None:
    db = tmp_path / "x.db"
    with Store.open(f"sqlite:///{db}") as store:
        run_id = store.create_run("akinator", 1, {})
        match_id = store.create_match(spec=MatchSpec(game="akinator", level=1, seed=1), seats=(), run_id=run_id,
                                      match_index=0)
        store.add_calls(match_id, [
            _call("local/a", prompt_evaluated=90, prompt_needed=60, prompt_s=0.5, generation_s=0.25),
            _call("local/a", prompt_evaluated=30, prompt_needed=30, prompt_s=0.25, generation_s=0.25),
            _call("openai/b")], seat="s")
    local, remote = real_model.read_calls(db)
    assert (local.model, local.calls, local.call_s, local.prompt_tokens) == ("local/a", 2, 4.0, 200)
    assert (local.evaluated, local.needed) == (120, 90) and local.ratio == pytest.approx(4 / 3)
    assert local.rate_in == pytest.approx(160.0) and local.rate_out == pytest.approx(40.0)
    assert remote.evaluated is None and remote.ratio is None and remote.rate_out is None
    run = real_model.RunFigures(command="run x", side="now", exit_code=0, wall_s=9.0, peak_rss_mb=300.0,
                                models=(local, remote))
    assert run.total.calls == 3 and run.total.evaluated == 120 and run.total.prompt_tokens == 300
    text = real_model.format_run(run)
    assert "1.33x" in text and "160.0" in text and "peak RSS 300 MB" in text


def test_a_database_without_the_work_columns_reads_as_unknown_work(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    with sqlite3.connect(db) as connection:
        connection.execute("CREATE TABLE model_calls (id INTEGER PRIMARY KEY, model TEXT, prompt_tokens INTEGER, "
                           "completion_tokens INTEGER, latency_s REAL, cached BOOLEAN)")
        connection.execute("INSERT INTO model_calls VALUES (1, 'local/a', 50, 5, 1.5, 0)")
    [old] = real_model.read_calls(db)
    assert (old.calls, old.prompt_tokens, old.evaluated, old.generation_s) == (1, 50, None, None)
    assert real_model.read_calls(tmp_path / "none.db") == ()


def test_the_comparison_gives_the_change_in_percent() -> None:
    figures = real_model.ModelFigures(model="local/a", calls=2, call_s=10.0, prompt_tokens=100, completion_tokens=8)
    before = real_model.RunFigures(command="run x", side="main", exit_code=0, wall_s=20.0, peak_rss_mb=400.0,
                                   models=(figures,))
    after = real_model.RunFigures(command="run x", side="now", exit_code=0, wall_s=15.0, peak_rss_mb=400.0,
                                  models=(figures,))
    lines = real_model.format_compared(before, after).splitlines()
    wall = next(line for line in lines if line.strip().startswith("wall s"))
    assert wall.split()[-3:] == ["20.0", "15.0", "-25.0%"]
    evaluated = next(line for line in lines if "local/a: prompt evaluated" in line)
    assert evaluated.split()[-3:] == ["-", "-", "-"]
    assert real_model.change(0.0, 1.0) == "-"


def test_commands_and_the_models_shortcut() -> None:
    assert real_model.check_command("run taboo --models local/x --n 1") is None
    assert real_model.check_command("results") is not None
    assert real_model.check_command("run taboo --db sqlite:///y.db") is not None
    assert real_model.with_models(real_model.DEFAULT_COMMANDS[1], "local/s") == \
        "run undercover --models local/s --n 1 --seed 1"
    assert real_model.with_models("run math --n 1", "local/s") == "run math --n 1 --models local/s"
    argv = real_model.command_argv("run math --n 1", "sqlite:///t.db")
    assert argv[1:] == ["-m", "playeval.cli.main", "run", "math", "--n", "1", "--no-cache", "--db", "sqlite:///t.db"]
