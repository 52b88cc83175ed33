"""A team game's side tables on a run with ``--baselines``: the baseline players seated among the models get rows
of their own, apart from the models', and each model's row on a team is marked against the random baseline's row
on that team. The run is played by the engine with mock models (``RunConfig(baselines=True)``), as ``playeval run
undercover ... --baselines`` plays it."""

from __future__ import annotations

import asyncio
from collections import defaultdict

import pytest
from typer.testing import CliRunner

from playeval.analysis import match_rows, summarize
from playeval.analysis.chance import RANDOM_BASELINE, interval_verdict
from playeval.analysis.intervals import match_rate_interval
from playeval.analysis.sides import ALL, SideResults, side_results, stored_matches
from playeval.cli.main import app
from playeval.core.baselines import is_baseline
from playeval.core.registry import default_registry
from playeval.engine import BatchRunner, RunConfig, create_run
from playeval.models import ModelHub
from playeval.report import build_report
from playeval.report.tables import team_sections
from playeval.store import Store

MODELS = ("mock/skill?p=1&seed=1", "mock/player")


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """(database url, run id): three game numbers of Undercover, the two models and both baselines at each table."""
    url = f"sqlite:///{tmp_path_factory.mktemp('sides') / 'u.db'}"
    config = RunConfig(games=("undercover",), models=MODELS, opponent="scripted", n=3, seed=1, baselines=True,
                       roles={"judge": "scripted"})

    async def play() -> str:
        with Store.open(url) as store:
            run_id = create_run(store, default_registry(), config)
            async with ModelHub(use_cache=False) as hub:
                await BatchRunner(store, hub, default_registry()).run(run_id)
            return run_id

    return url, asyncio.run(play())


@pytest.fixture(scope="module")
def results(run: tuple[str, str]) -> SideResults:
    url, run_id = run
    with Store.open(url, write=False) as store:
        found = side_results(store, [run_id], default_registry(), "undercover")
    assert found is not None
    return found


def test_baselines_are_rows_apart_and_models_are_marked_on_each_side(results: SideResults) -> None:
    assert {row.model for row in results.rows} == set(MODELS)
    assert {row.model for row in results.baselines} == {RANDOM_BASELINE, "baseline/naive"}
    assert all(is_baseline(row.model) and row.verdict is None for row in results.baselines)
    chance = {row.side: row for row in results.baselines if row.model == RANDOM_BASELINE}
    assert set(chance) == {"civilian", "undercover", ALL}
    for row in results.rows:
        if row.side == ALL:
            assert row.verdict is None
            continue
        expected = interval_verdict((row.wins.low, row.wins.high),
                                    (chance[row.side].wins.low, chance[row.side].wins.high))
        assert expected is not None and row.verdict == expected
    assert results.verdicts


def test_every_interval_is_over_the_matches_of_the_run(run: tuple[str, str], results: SideResults) -> None:
    url, run_id = run
    clusters: dict[tuple[str, str], list[tuple[int, int]]] = defaultdict(list)
    with Store.open(url, write=False) as store:
        matches = stored_matches(store, [run_id], "undercover")
        outcomes = summarize(match_rows(store, run_id, default_registry()))
    for match in matches:  # counted straight from the stored outcomes: per match, each player's seats and wins
        held: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
        for seat in match.seats:
            result = match.outcome.result_for(seat.seat)
            assert seat.model is not None and result.team is not None
            held[(seat.model, result.team)][0] += bool(result.won)
            held[(seat.model, result.team)][1] += 1
        for key, (won, seats) in held.items():
            clusters[key].append((won, seats))
    for row in (*results.rows, *results.baselines):
        if row.side == ALL:
            continue
        mine = clusters[(row.model, row.side)]
        assert (row.matches, row.seats) == (len(mine), sum(seats for _, seats in mine))
        assert (row.wins.low, row.wins.high) == match_rate_interval(mine)
        assert row.n_text() == (f"{len(mine)} ({row.seats} seats)" if row.seats > len(mine) else str(len(mine)))
    # a baseline never forfeits, so ``results`` counts its seats as the side table does: the same interval
    for result in (r for r in outcomes if r.model == RANDOM_BASELINE):
        side = next(row for row in results.baselines if row.model == RANDOM_BASELINE and row.side == result.team)
        assert (result.win_low, result.win_high, result.scored_matches) == (side.wins.low, side.wins.high,
                                                                             side.matches)


def test_analyze_results_and_the_report_list_the_baselines_apart(run: tuple[str, str]) -> None:
    url, run_id = run
    done = CliRunner().invoke(app, ["analyze", "undercover", run_id, "--db", url], env={"COLUMNS": "250"})
    assert done.exit_code == 0, done.output
    lines = [" ".join(line.split()) for line in done.output.splitlines()]
    assert "vs random" in lines[2] and lines.count("baselines") == 2  # the side table and the judges' scores
    below = lines[lines.index("baselines") + 1:]
    sides = ("civilian", "undercover", "all")
    assert [line.split()[:2] for line in below[:6]] == [[name, side] for name in ("naive", "random") for side in sides]
    marks = [line for line in lines if line.startswith(f"{MODELS[1]} civilian ")]
    assert "chance" in marks[0] and "chance" not in marks[1]  # the side table's row, then the judges' scores
    counts = CliRunner().invoke(app, ["results", run_id, "--db", url], env={"COLUMNS": "250"})
    table = counts.output.split("re-asks and abstentions per model")[1]
    assert "baselines" in table and "random" in table.split("baselines")[1]
    with Store.open(url, write=False) as store:
        data = build_report(store, run_id, default_registry())
    [section] = team_sections(data)
    sides = section.tables[0]
    [(start, label)] = sides.sections
    assert label == "Baselines" and start == len(data.teams[0].results.rows)
    assert [cell.text for cell in (row[0] for row in sides.rows[start:])] == ["naive"] * 3 + ["random"] * 3
    marked = [row[3].sub for row in sides.rows[:start] if row[1].text != "overall"]
    assert marked and all(len(sub) == 2 and sub[1].endswith("chance") for sub in marked)


def test_the_team_elo_rates_the_models_and_leaves_the_baselines_out(run: tuple[str, str]) -> None:
    from playeval.analysis.sides import elo_games

    url, run_id = run
    with Store.open(url, write=False) as store:
        matches = stored_matches(store, [run_id], "undercover")
    games = elo_games(default_registry().get("undercover"), matches)
    held = {seat.model for game in games for seat in game}
    assert games and held and not any(model.startswith("baseline/") for model in held)
    assert any(seat.model.startswith("baseline/") for match in matches for seat in match.seats if seat.model)
