"""One clear line for each kind of bad input; no tracebacks."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from playeval.engine import state_from_events
from playeval.games.akinator import Akinator
from playeval.store.export import read_run_jsonl


def run_cli(*args: str, tmp_path: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_BASE_URL")}
    base.update({"PLAYEVAL_DB": f"sqlite:///{tmp_path / 'cli.db'}", "PLAYEVAL_CACHE_DIR": str(tmp_path / "cache"),
                 "COLUMNS": "200"})
    base.update(env or {})
    return subprocess.run([sys.executable, "-m", "playeval.cli.main", *args], capture_output=True, text=True,
                          env=base, timeout=120, check=False)


def error_line(result: subprocess.CompletedProcess[str]) -> str:
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    errors = [line for line in lines if line.startswith("error:")]
    assert len(errors) == 1, result.stderr
    return errors[0]


def test_missing_api_key_names_the_variable(tmp_path: Path) -> None:
    result = run_cli("run", "akinator", "--models", "openai/gpt-4o", "--opponent", "scripted", "--n", "1",
                     tmp_path=tmp_path)
    assert "OPENAI_API_KEY" in error_line(result)
    result = run_cli("run", "akinator", "--models", "anthropic/claude-sonnet-4-5", "--opponent", "scripted",
                     "--n", "1", tmp_path=tmp_path)
    assert "ANTHROPIC_API_KEY" in error_line(result)


def test_unknown_provider_lists_the_known_ones(tmp_path: Path) -> None:
    line = error_line(run_cli("run", "akinator", "--models", "nosuch/model", "--n", "1", tmp_path=tmp_path))
    for provider in ("local", "openai", "anthropic", "mock"):
        assert provider in line


def test_unknown_local_model_and_game(tmp_path: Path) -> None:
    line = error_line(run_cli("run", "akinator", "--models", "local/not-a-model", "--n", "1", tmp_path=tmp_path))
    assert "qwen2.5-coder-1.5b" in line
    assert "akinator" in error_line(run_cli("run", "chess", "--n", "1", tmp_path=tmp_path))


def test_bad_level_and_unknown_run(tmp_path: Path) -> None:
    assert "level" in error_line(run_cli("run", "akinator", "--level", "7", "--opponent", "scripted",
                                         "--models", "mock/yes", tmp_path=tmp_path))
    assert "abc" in error_line(run_cli("results", "abc", tmp_path=tmp_path))


def test_games_lists_levels_and_seats(tmp_path: Path) -> None:
    result = run_cli("games", tmp_path=tmp_path)
    assert result.returncode == 0
    for text in ("akinator", "guesser", "answerer", "L3"):
        assert text in result.stdout


def test_mock_run_results_and_export(tmp_path: Path) -> None:
    result = run_cli("run", "akinator", "--models", "mock/garbage,mock/yes", "--opponent", "scripted", "--n", "2",
                     tmp_path=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "mock/garbage" in result.stdout and "mock/yes" in result.stdout
    results = run_cli("results", tmp_path=tmp_path)
    assert results.returncode == 0 and "mock/garbage" in results.stdout
    run_id = results.stdout.split("run ", 1)[1].split(":", 1)[0]
    out = tmp_path / "run.jsonl"
    exported = run_cli("export", run_id, "--format", "jsonl", "-o", str(out), tmp_path=tmp_path)
    assert exported.returncode == 0, exported.stderr
    lines = out.read_text().splitlines()
    assert len(lines) == 1 + 4
    # self-contained: every outcome can be re-derived from the export alone
    run = read_run_jsonl(lines)
    game = Akinator()
    for exported_match in run.matches:
        match = exported_match.match
        state = state_from_events(game, match.spec, [record.event for record in exported_match.events])
        assert match.outcome is not None and match.outcome.status == "forfeit"  # both mocks never make a legal move
        assert game.outcome(state) is None and game.rounds(state) == match.outcome.rounds == 0
        assert len(exported_match.calls) == 3  # the ask and two re-asks, each a recorded model call
