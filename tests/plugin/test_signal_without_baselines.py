"""A plugin game written before baselines were (the Signal example declares no baseline and no split sets) still
works: ``playeval games`` and ``GET /api/games`` say it has none, and ``run --baselines`` plays its models, adds no
baseline to its lineups and says why, while the built-in game beside it gets its baselines."""

from __future__ import annotations

import sys
from pathlib import Path

from typer.testing import CliRunner

from playeval.cli.games_cmd import NO_BASELINES, NO_SPLIT
from playeval.cli.main import app
from playeval.core.baselines import game_baselines
from playeval.core.game import split_sets_of
from playeval.core.registry import default_registry
from playeval.store import Store

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))

from arena_client import make_settings, running


def _cli(*args: str) -> str:
    done = CliRunner().invoke(app, list(args), env={"COLUMNS": "240"})
    assert done.exit_code == 0, done.output
    return done.output


def test_the_plugin_declares_no_baselines_and_the_listing_says_so(signal_installed: dict[str, str]) -> None:
    game = default_registry().get("signal")
    assert game_baselines(game) == () and split_sets_of(game) is None
    listing = _cli("games")
    chance = listing.split("baselines (playeval run --baselines)")[1]
    [row] = [line for line in chance.splitlines() if line.startswith("│ signal ")]
    assert NO_BASELINES.split(":")[0] in row and NO_SPLIT in row
    [akinator] = [line for line in chance.splitlines() if line.startswith("│ akinator ")]
    assert "baseline/random" in akinator  # the built-in games beside it keep theirs


async def test_the_api_lists_no_baselines_for_it(signal_installed: dict[str, str], tmp_path: Path) -> None:
    async with running(make_settings(tmp_path)) as client:
        games = {game["id"]: game for game in (await client.get("/api/games")).json()}
    assert games["signal"]["baselines"] == [] and games["signal"]["split_sets"] is None
    assert games["bluffing"]["split_sets"] == ["half1", "half2"]


def test_a_run_with_baselines_plays_it_without_any(signal_installed: dict[str, str], tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'b.db'}"
    out = _cli("run", "signal,bluffing", "--models", "mock/player", "--opponent", "mock/player", "--n", "1",
               "--seed", "3", "--baselines", "--no-cache", "--db", db)
    text = " ".join(out.split())
    assert "no baselines for signal (the game declares none)" in text
    assert "baselines on the same setups: bluffing: random, naive" in text
    with Store.open(db) as store:
        run_id = store.latest_run_id()
        assert run_id is not None
        matches = store.run_matches(run_id)
    played = {(match.spec.game, match.evaluated_model) for match in matches}
    assert played == {("signal", "mock/player"), ("bluffing", "mock/player"), ("bluffing", "baseline/random"),
                      ("bluffing", "baseline/naive")}
    assert all(match.status == "finished" for match in matches)
