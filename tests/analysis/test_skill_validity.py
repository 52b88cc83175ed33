"""The leaderboard recovers a known order: four simulated players of known skill (``mock/skill?p=0.2 .. 0.8``) on
every built-in game, every other seat and role scripted.

At ``N`` game numbers (the documented n: 4 players x 8 games x N matches, Undercover's tables counted per
rotation), the overall rating must rank them exactly by skill (Kendall's tau = 1) with every adjacent pair
separated, and every game's rating must agree with the skill order (tau > 0). A game whose truth is nearly flat
between two skills (Bluffing's and Undercover's rates move little with skill, see ``bench/skill_validity.py``) may
swap such a pair at this n; the bench prints the per-game recovery and the intervals' coverage, measured over
replicates against a long run's truth.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from playeval.analysis.skill_validity import (
    RunMatches,
    boards_by_numbers,
    coverage,
    one_seat_games,
    order_checks,
    skill_config,
    skill_run,
    true_rates,
)
from playeval.core.registry import default_registry
from playeval.store import Store

N = 60
"""Game numbers of the validity run: the n at which the overall order is recovered (see the module's note)."""


@pytest.mark.slow
async def test_the_leaderboard_recovers_the_order_of_known_skills(tmp_path: Path) -> None:
    registry = default_registry()
    games = registry.ids()
    with Store.open(f"sqlite:///{tmp_path / 'skill.db'}") as store:
        run_id = await skill_run(store, registry, skill_config(games, registry, n=N, seed=5))
        run = RunMatches.load(store, registry, run_id)
        board = boards_by_numbers(run, registry, range(N), resamples=200)
        checks = {check.scope: check for check in order_checks(board)}
        overall = checks.pop("overall")
        assert overall.tau == 1.0 and overall.separated, overall
        assert len(checks) == len(games)
        assert all(check.tau > 0 for check in checks.values()), checks
        # the intervals of four quarters of the run against an independent run's rates (another seed, twice the
        # game numbers): a loose check that they are not far too narrow; the bench measures coverage over more
        # replicates against a longer run
        truth_id = await skill_run(store, registry, skill_config(games, registry, n=2 * N, seed=6))
        truth = true_rates(boards_by_numbers(RunMatches.load(store, registry, truth_id), registry, range(2 * N),
                                             resamples=0))
        quarters = [boards_by_numbers(run, registry, range(k * N // 4, (k + 1) * N // 4), resamples=100, seed=k)
                    for k in range(4)]
        found = coverage(quarters, truth, one_seat_games(registry, games))
        rate = found.rate("win rate")
        assert rate is not None and rate >= 0.85, found
