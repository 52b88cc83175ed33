"""The arena's leaderboard on a table game: a model's win rate has its 95% interval over matches, not seats (the
seats of one Undercover table share its fate), with its n as matches and the seats beside them, as ``playeval
results`` gives them; and the Undercover board shows CK-Arena's team Elo, as ``playeval leaderboard`` does.

The fixture is a run the engine plays (``playeval run undercover --baselines`` with mock models and the scripted
judge): four game numbers, each at four tables, the two models and both baselines seated together, so that a model
often holds two seats of one table.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from pathlib import Path

import pytest
from arena_client import make_settings, running

from playeval.analysis import match_rows, summarize
from playeval.analysis.intervals import match_rate_interval, wilson_interval
from playeval.analysis.leaderboard import load_leaderboard
from playeval.core.registry import default_registry
from playeval.engine import BatchRunner, RunConfig, create_run
from playeval.models import ModelHub
from playeval.store import Store
from playeval.web.board import leaderboard
from playeval.web.board_state import WEB_RESAMPLES

MODELS = ("mock/skill?p=1&seed=1", "mock/player")


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """(database url, run id)."""
    url = f"sqlite:///{tmp_path_factory.mktemp('board-undercover') / 'u.db'}"
    config = RunConfig(games=("undercover",), models=MODELS, opponent="scripted", n=4, seed=1, baselines=True,
                       roles={"judge": "scripted"})

    async def play() -> str:
        with Store.open(url) as store:
            run_id = create_run(store, default_registry(), config)
            async with ModelHub(use_cache=False) as hub:
                await BatchRunner(store, hub, default_registry()).run(run_id)
            return run_id

    return url, asyncio.run(play())


def test_a_model_s_row_has_its_interval_over_matches_with_n_as_matches(run: tuple[str, str]) -> None:
    url, run_id = run
    registry = default_registry()
    with Store.open(url, write=False) as store:
        view = leaderboard(store, registry, game="undercover")
        rows_of_run = match_rows(store, run_id, registry)
    results = {result.model: result for result in summarize(rows_of_run, by_team=False)}
    per_match: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for row in rows_of_run:  # counted straight from the stored outcomes: per match, each player's wins and seats
        if row.won is not None:
            assert row.match_id is not None
            per_match[row.model][row.match_id][0] += int(row.won)
            per_match[row.model][row.match_id][1] += 1
    rows = {row.model: row for row in view.rows}
    assert set(rows) == set(results) == {*MODELS, "baseline/random", "baseline/naive"}
    for model, row in rows.items():
        result = results[model]  # what `playeval results` counts: matches, scored seats, wins, n, clustered
        assert (row.matches, row.scored, row.wins, row.n, row.clustered) == (
            result.played, result.scored, result.wins, result.scored_matches, result.clustered)
        clusters = sorted((wins, seats) for wins, seats in per_match[model].values())
        assert (row.ci_low, row.ci_high) == match_rate_interval(clusters)
    clustered = [row for row in rows.values() if row.clustered]
    assert clustered and all(row.scored > row.n for row in clustered)  # several seats of one table: n < seats
    seats_only = {row.model: wilson_interval(row.wins, row.scored) for row in clustered}
    assert all((row.ci_low, row.ci_high) != seats_only[row.model] for row in clustered)
    # seats of one table taken as independent trials would claim more than the matches show
    assert any((row.ci_high or 0) - (row.ci_low or 0) > (seats_only[row.model][1] or 0) - (seats_only[row.model][0]
                                                                                             or 0)
               for row in clustered)
    [board] = view.boards
    assert all(rate.n == results[rate.player].scored_matches and rate.seats == results[rate.player].scored
               for rate in board.rates)


def test_the_undercover_board_shows_its_team_elo_as_the_command_line_does(run: tuple[str, str]) -> None:
    url, _ = run
    registry = default_registry()
    with Store.open(url, write=False) as store:
        view = leaderboard(store, registry, game="undercover")
        command_line = load_leaderboard(store, registry, resamples=WEB_RESAMPLES)
    [board] = view.boards
    [expected] = command_line.boards
    assert expected.team_elo  # the fixture's tables have a model on each side
    assert [(row.model, round(row.rating, 9), row.games) for row in board.team_elo] == [
        (row.model, round(row.rating, 9), row.games) for row in expected.team_elo]
    assert all(row.low <= row.rating <= row.high for row in board.team_elo)
    assert any("team Elo" in note for note in view.notes)


async def test_the_api_and_the_page_carry_the_team_elo(tmp_path: Path, run: tuple[str, str]) -> None:
    url, _ = run
    async with running(make_settings(tmp_path, db=url)) as client:
        served = (await client.get("/api/leaderboard", params={"game": "undercover"})).json()
        script = (await client.get("/static/leaderboard.js")).text
    with Store.open(url, write=False) as store:
        assert served == leaderboard(store, default_registry(), game="undercover").model_dump(mode="json")
    [board] = served["boards"]
    assert {row["model"] for row in board["team_elo"]} >= set(MODELS)
    assert all(set(row) == {"model", "rating", "low", "high", "games"} for row in board["team_elo"])
    assert "board.team_elo" in script and "Team Elo" in script  # the page draws the column the API gives
