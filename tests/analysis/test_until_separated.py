"""``--until-separated``: rounds until the overall order is separated or the budget is spent, each round recorded
before it is played, the same rounds on a rerun with the same seed, and fewer matches than uniform rounds."""

from __future__ import annotations

from pathlib import Path

from baseline_games import baseline_registry

from playeval.analysis.until_separated import BUDGET, SEPARATED, RoundReport, play_until_separated
from playeval.engine import BatchRunner, RunConfig, UntilSeparated, create_run, run_config
from playeval.models import ModelHub
from playeval.store import Store

SKILLS = ("mock/skill?p=0.1&seed=4", "mock/skill?p=0.5&seed=4", "mock/skill?p=0.9&seed=4")


def _config(budget: int, strategy: str = "adaptive", models: tuple[str, ...] = SKILLS) -> RunConfig:
    return RunConfig(games=("pick",), models=models, opponent="scripted", n=2, seed=7, concurrency=8,
                     until=UntilSeparated(budget=budget, strategy=strategy))


async def _play(store: Store, config: RunConfig) -> tuple[str, str, list[RoundReport]]:
    registry = baseline_registry()
    run_id = create_run(store, registry, config)
    reports: list[RoundReport] = []
    async with ModelHub(use_cache=False) as hub:
        why = await play_until_separated(BatchRunner(store, hub, registry), store, registry, run_id,
                                         on_round=reports.append, resamples=100)
    return run_id, why, reports


async def test_rounds_until_the_order_is_separated(tmp_path: Path) -> None:
    with Store.open(f"sqlite:///{tmp_path / 'a.db'}") as store:
        run_id, why, reports = await _play(store, _config(budget=2000))
        assert why == SEPARATED
        config = run_config(store, run_id)
        assert config.until is not None and config.until.stopped == SEPARATED
        assert len(store.run_matches(run_id)) == config.size
        assert all(m.status == "finished" for m in store.run_matches(run_id))
        last = reports[-1]
        assert last.stopped == SEPARATED and all(p.separated for p in last.pairs)
        assert [p.better for p in last.pairs] == [SKILLS[2], SKILLS[1]]
        # every later round went to the models of unseparated pairs (never a model alone), on new game numbers
        assert all(2 <= len(set(e.models)) <= len(SKILLS) for r in config.until.rounds for e in r)
        numbers = [e.number for r in config.until.rounds for e in r]
        assert len(numbers) == len(set(numbers)) and min(numbers) >= config.n
        # played again, a stopped run plays nothing more
        registry = baseline_registry()
        async with ModelHub(use_cache=False) as hub:
            again = await play_until_separated(BatchRunner(store, hub, registry), store, registry, run_id)
        assert again == SEPARATED and len(store.run_matches(run_id)) == config.size


async def test_the_same_seed_decides_the_same_rounds(tmp_path: Path) -> None:
    with Store.open(f"sqlite:///{tmp_path / 'b.db'}") as store:
        first, _, _ = await _play(store, _config(budget=2000))
        second, _, _ = await _play(store, _config(budget=2000))
        a, b = run_config(store, first).until, run_config(store, second).until
        assert a is not None and b is not None and a.rounds == b.rounds and a.rounds


async def test_the_budget_stops_a_run_that_cannot_separate(tmp_path: Path) -> None:
    twins = ("mock/skill?p=0.5&seed=1", "mock/skill?p=0.5&seed=2")
    with Store.open(f"sqlite:///{tmp_path / 'c.db'}") as store:
        run_id, why, reports = await _play(store, _config(budget=30, models=twins))
        assert why == BUDGET and reports[-1].stopped == BUDGET
        assert len(store.run_matches(run_id)) <= 30


async def test_adaptive_rounds_need_fewer_matches_than_uniform_ones(tmp_path: Path) -> None:
    with Store.open(f"sqlite:///{tmp_path / 'd.db'}") as store:
        adaptive, why_a, _ = await _play(store, _config(budget=3000))
        uniform, why_u, _ = await _play(store, _config(budget=3000, strategy="uniform"))
        assert why_a == why_u == SEPARATED
        assert len(store.run_matches(adaptive)) < len(store.run_matches(uniform))
