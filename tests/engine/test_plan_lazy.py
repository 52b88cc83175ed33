"""A run's plan is bounded and lazy: ``n`` has a maximum checked before anything is planned, and the matches are
planned as they are taken, with the same indexes and setups as the whole plan."""

from __future__ import annotations

import time
from itertools import islice

import pytest
from pydantic import ValidationError

from playeval.core.registry import default_registry
from playeval.engine import MAX_N, PendingMatches, RunConfig, first_matches, iter_plan, plan_matches, run_addresses
from playeval.models import DEFAULT_MODEL

MODELS = ("mock/a", "mock/b", "mock/c")


def _config(n: int, games: tuple[str, ...] = ("akinator", "undercover")) -> RunConfig:
    return RunConfig(games=games, models=MODELS, opponent="scripted", n=n, seed=3)


def test_n_above_the_maximum_is_refused_before_planning() -> None:
    with pytest.raises(ValidationError, match="less than or equal to 100000"):
        _config(MAX_N + 1)
    with pytest.raises(ValidationError):
        _config(0)


def test_the_lazy_plan_is_the_whole_plan() -> None:
    config = _config(4)
    registry = default_registry()
    planned = plan_matches(config, registry, "local/x")
    assert len(planned) == config.size == 4 * 2 * 3 and [m.index for m in planned] == list(range(config.size))
    assert first_matches(config, registry, "local/x") == planned[:config.matches_per_number]
    assert list(iter_plan(config, registry, "local/x", numbers=[1, 3])) == [m for m in planned
                                                                           if m.game_number in (1, 3)]


def test_pending_matches_skip_the_finished_ones_without_changing_any_index() -> None:
    config = _config(4)
    registry = default_registry()
    planned = plan_matches(config, registry, DEFAULT_MODEL)  # the model of the roles bound to ``local``
    finished = {0, 1, 2, 3, 4, 5, 9, 23}  # all of game number 0, and some of the others
    pending = PendingMatches(config, registry, finished)
    assert pending.total == 24 and len(pending) == 24 - len(finished)
    assert list(pending) == [m for m in planned if m.index not in finished]
    assert list(PendingMatches(config, registry, set(range(24)))) == []


def test_a_run_of_the_largest_n_plans_its_first_matches_at_once() -> None:
    config = _config(MAX_N)
    registry = default_registry()
    started = time.monotonic()
    pending = PendingMatches(config, registry, set())
    first = list(islice(pending, 7))
    assert time.monotonic() - started < 5
    assert len(pending) == pending.total == MAX_N * 6
    assert [m.index for m in first] == list(range(7)) and first[6].game_number == 1


def test_a_run_checks_only_the_models_of_roles_its_matches_ask() -> None:
    """Dynamic Picnic's default plays a banked rule: its game master and validator (bound to the local model by
    default) are never asked, so a run of it needs no local model; a run of generated rules still does."""
    registry = default_registry()
    for rules, asked in (("bank", False), ("generated", True)):
        config = RunConfig(games=("dynamic_picnic",), models=("mock/player",), opponent="scripted", n=1, seed=3,
                           roles={"judge": "mock/player"}, options={"dynamic_picnic": {"rules": rules}})
        first = first_matches(config, registry, "local/x")
        assert "local/x" in run_addresses(first)  # the plan binds them either way
        assert ("local/x" in run_addresses(first, registry)) is asked
