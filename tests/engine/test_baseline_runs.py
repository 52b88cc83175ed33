"""A run with ``--baselines`` plays each game's baselines beside the models: their matches are stored with the
baseline as the evaluated model, cost nothing, are never looked up as calibrated models, and the results table
shows them as rows."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from baseline_games import baseline_registry
from typer.testing import CliRunner

from playeval.analysis.load import run_costs
from playeval.cli import results_cmd, run_cmd
from playeval.cli.main import app
from playeval.engine import BatchRunner, CalibrationBook, RunConfig, create_run, run_config
from playeval.engine import calibrations as calibration_module
from playeval.models import ModelHub
from playeval.store import Store

STRONG = "mock/skill?p=1&seed=2"
WEAK = "mock/skill?p=0&seed=2"


async def test_a_run_with_baselines_plays_and_records_them_as_evaluated_players(tmp_path: Path) -> None:
    registry = baseline_registry()
    config = RunConfig(games=("pick", "trio"), models=(STRONG, WEAK), opponent="scripted", n=3, seed=1,
                       baselines=True, concurrency=4)
    with Store.open(f"sqlite:///{tmp_path / 'runs.db'}") as store:
        run_id = create_run(store, registry, config)
        async with ModelHub(use_cache=False) as hub:
            await BatchRunner(store, hub, registry).run(run_id)
        matches = store.run_matches(run_id)
        assert len(matches) == run_config(store, run_id).size == 3 * (4 + 3)
        assert all(m.status == "finished" for m in matches)
        pick = {m.evaluated_model: m for m in matches if m.spec.game == "pick" and m.match_index is not None
                and m.match_index < 7}
        assert set(pick) == {STRONG, WEAK, "baseline/random", "baseline/naive"}
        # the strong simulated player always names the secret at once; the naive baseline tries 1, 2, 3
        assert all(m.outcome is not None for m in matches)
        strong = [m for m in matches if m.evaluated_model == STRONG]
        assert strong and all(m.outcome is not None and m.outcome.winners == ("picker",) for m in strong)
        for match in (m for m in matches if m.evaluated_model == "baseline/naive"):
            assert match.outcome is not None
            secret = str(match.spec.setup["secret"])
            assert (match.outcome.winners == ("picker",)) == (secret in ("1", "2", "3"))
        trio = [m for m in matches if m.spec.game == "trio"]
        assert {s.model for m in trio for s in m.seats} == {STRONG, WEAK, "baseline/random"}
        costs = {row.model: row for row in run_costs(store, run_id)}
        assert costs["baseline/random"].cost_usd == 0.0 and costs["baseline/naive"].prompt_tokens == 0
        assert costs["all models"].cost_usd == 0.0  # known: a baseline never makes a run's cost unknown


def test_a_baseline_is_never_looked_up_for_a_calibration(monkeypatch: pytest.MonkeyPatch) -> None:
    looked: list[str] = []

    def find(address: str) -> None:
        looked.append(address)

    monkeypatch.setattr(calibration_module, "find_calibration", find)
    (Path(os.environ["PLAYEVAL_CALIBRATION_DIR"])).mkdir(parents=True, exist_ok=True)
    (Path(os.environ["PLAYEVAL_CALIBRATION_DIR"]) / "any.json").write_text("{}", "utf-8")
    book = CalibrationBook()
    assert book.calibration("baseline/random") is None and book.thresholds("pick", ["baseline/naive"]) == {}
    book.calibration("mock/a")
    assert looked == ["mock/a"]


def test_the_cli_runs_with_baselines_and_prints_them_as_rows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYEVAL_DB", f"sqlite:///{tmp_path / 'cli.db'}")
    monkeypatch.setattr(run_cmd, "default_registry", baseline_registry)
    monkeypatch.setattr(results_cmd, "default_registry", baseline_registry)
    runner = CliRunner()
    result = runner.invoke(app, ["run", "pick,plain", "--models", STRONG, "--opponent", "scripted", "--n", "2",
                                 "--baselines"], env={"COLUMNS": "240"})
    assert result.exit_code == 0, result.output
    assert "baselines on the same setups: pick: random, naive" in result.output
    assert "no baselines for plain (the game declares none)" in result.output
    assert "of 8 matches to play" in result.output
    rows = {(cells[0], cells[1]) for cells in map(str.split, result.output.splitlines())
            if len(cells) > 2 and cells[0] in ("pick", "plain")}  # the results table's (game, model)
    # baselines stand under the models, by name, in a group of their own
    assert rows == {("pick", STRONG), ("pick", "random"), ("pick", "naive"), ("plain", STRONG)}
    assert "baselines" in result.output
    with Store.open(os.environ["PLAYEVAL_DB"]) as store:
        latest = store.latest_run_id()
        assert latest is not None and run_config(store, latest).baselines
    refused = runner.invoke(app, ["run", "--resume", str(latest), "--baselines"])
    assert refused.exit_code != 0 and "a resumed run keeps the lineups it was recorded with" in refused.output
    resumed = runner.invoke(app, ["run", "--resume", str(latest)], env={"COLUMNS": "240"})
    assert resumed.exit_code == 0 and "0 of 8 matches to play" in resumed.output
