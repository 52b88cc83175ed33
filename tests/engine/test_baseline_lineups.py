"""``--baselines``: each game's baseline players join its lineups after the models, on the same setups, while a run
without them plans exactly as before baselines existed, and a resume plans what was recorded."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path
from typing import ClassVar

import pytest
from baseline_games import TRIO, Pick, baseline_registry
from pydantic import ValidationError

from playeval.core.baselines import BaselineInfo
from playeval.core.errors import ConfigError
from playeval.core.registry import default_registry
from playeval.engine import (
    PendingMatches,
    PlannedMatch,
    RunConfig,
    baseline_lines,
    check_config,
    create_run,
    iter_plan,
    plan_matches,
    run_config,
    with_baselines,
)
from playeval.store import Store

MODELS = ("mock/a", "mock/b", "mock/c")
GAMES = ("pick", "trio", "plain")


def _config(*, baselines: bool, n: int = 4, games: tuple[str, ...] = GAMES) -> RunConfig:
    return RunConfig(games=games, models=MODELS, opponent="scripted", n=n, seed=11, baselines=baselines)


def _full(planned: list[PlannedMatch]) -> str:
    rows = [[m.index, m.game, m.game_number, m.rotation, m.seed, m.spec.model_dump(mode="json"),
             [[s.seat, s.model, s.player_kind, s.evaluated, s.prompt_variant] for s in m.seats],
             [[r.role, r.model, r.seat] for r in m.roles]] for m in planned]
    return hashlib.sha256(json.dumps(rows, sort_keys=True).encode()).hexdigest()


def _short(planned: list[PlannedMatch]) -> str:
    rows = [[m.index, m.game, m.game_number, m.rotation, m.seed, [[s.seat, s.model, s.evaluated] for s in m.seats]]
            for m in planned]
    return hashlib.sha256(json.dumps(rows, sort_keys=True).encode()).hexdigest()


def test_without_baselines_every_index_seed_and_lineup_is_as_before() -> None:
    # fingerprints of the plans made by the code before baselines existed (commit 3a6d8d9), for a run of the test
    # games (specs included) and one of three built-in games, a table among them (indexes, seeds and lineups)
    planned = plan_matches(_config(baselines=False), baseline_registry(), "local/x")
    assert len(planned) == 36 and _full(planned) == "2e327847bbc987d586527071cae0a28fbc711955aafb49926d1bc01671a3def3"
    builtin = RunConfig(games=("akinator", "undercover", "taboo"), models=MODELS, opponent="scripted", n=3, seed=5)
    planned = plan_matches(builtin, default_registry(), "local/x")
    assert len(planned) == 27 and _short(planned) == (
        "f8d106e94b1574930a429d801c4668be13d749af2a8f8ea353ce08a491498724")


def test_baselines_follow_the_models_on_the_same_setups() -> None:
    registry = baseline_registry()
    before = plan_matches(_config(baselines=False), registry, "local/x")
    config = with_baselines(_config(baselines=True), registry)
    assert config.baseline_names == {"pick": ("random", "naive"), "trio": ("random",), "plain": ()}
    after = plan_matches(config, registry, "local/x")
    assert config.matches_per_number == 5 + 4 + 3 and len(after) == config.size == 4 * 12
    assert [m.index for m in after] == list(range(config.size))
    for number in range(4):
        for game in GAMES:
            lineups = [m for m in after if m.game_number == number and m.game == game]
            old = [m for m in before if m.game_number == number and m.game == game]
            # one setup per game number, the same as without baselines: seed, secret, prompt variants
            assert {m.spec.model_dump_json() for m in lineups} == {old[0].spec.model_dump_json()}
            assert {m.seed for m in lineups} == {old[0].seed}
            if game == "trio":  # a table: the baseline is rotated in like a model, through every seat once
                assert [m.rotation for m in lineups] == [0, 1, 2, 3]
                for seat in TRIO:
                    held = Counter(next(s.model for s in m.seats if s.seat == seat) for m in lineups)
                    assert held == Counter({**dict.fromkeys(MODELS, 1), "baseline/random": 1})
                continue
            # one evaluated seat: the models' matches unchanged (seats, roles, rotation), then the baselines
            assert [(m.seats, m.roles, m.rotation) for m in lineups[:3]] == [(m.seats, m.roles, m.rotation)
                                                                             for m in old]
            extra = [m.evaluated_models for m in lineups[3:]]
            assert extra == ([("baseline/random",), ("baseline/naive",)] if game == "pick" else [])
            for m in lineups[3:]:  # the seat the game does not evaluate keeps the opponent
                host = next(s for s in m.seats if s.seat == "host")
                assert host.player_kind == "scripted" and not host.evaluated


def test_a_match_index_is_known_without_planning_the_ones_before_it() -> None:
    registry = baseline_registry()
    config = with_baselines(_config(baselines=True, n=5), registry)
    whole = plan_matches(config, registry, "local/x")
    assert list(iter_plan(config, registry, "local/x", numbers=[2, 4])) == [m for m in whole
                                                                           if m.game_number in (2, 4)]
    finished = {0, 3, 11, 12, 13, 30, 59}
    pending = PendingMatches(config, registry, finished)
    assert pending.total == 60 and len(pending) == 60 - len(finished)
    assert list(pending) == [m for m in whole if m.index not in finished]
    # a config not looked up yet plans the same (the plan looks the baselines up itself)
    assert plan_matches(_config(baselines=True, n=5), registry, "local/x") == whole


def test_a_resume_plans_what_was_recorded_whatever_the_games_declare_by_then(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    registry = baseline_registry()
    with Store.open(f"sqlite:///{tmp_path / 'runs.db'}") as store:
        run_id = create_run(store, registry, _config(baselines=True))
        recorded = run_config(store, run_id)
        assert recorded.baselines and recorded.baseline_names["pick"] == ("random", "naive")
        planned = plan_matches(recorded, registry, "local/x")
        later = (*Pick.baselines, BaselineInfo(name="passive", description="names nothing"))
        monkeypatch.setattr(Pick, "baselines", later)  # a newer version of the game offers one more
        assert with_baselines(_config(baselines=True), registry).baseline_names["pick"] == ("random", "naive",
                                                                                            "passive")
        assert plan_matches(run_config(store, run_id), registry, "local/x") == planned
        assert PendingMatches(run_config(store, run_id), registry, set()).total == len(planned)


def test_a_run_recorded_before_baselines_loads_without_them() -> None:
    old = {"games": ["pick"], "level": 1, "models": ["mock/a"], "opponent": "scripted", "n": 2, "seed": 0}
    config = RunConfig.model_validate(old)
    assert config.baselines is False and config.baseline_names == {}
    assert config.lineup("pick") == ("mock/a",) and config.matches_per_number == 1
    # and a run without baselines is stored as it was before them; one with them keeps what it looked up
    assert not {"baselines", "baseline_names"} & set(config.model_dump(mode="json"))
    on = with_baselines(_config(baselines=True), baseline_registry())
    stored = on.model_dump(mode="json")
    assert stored["baselines"] is True and stored["baseline_names"]["trio"] == ["random"]
    assert RunConfig.model_validate(stored) == on


def test_baseline_names_are_checked() -> None:
    with pytest.raises(ValidationError, match="only for a run with baselines on"):
        RunConfig(games=("pick",), models=MODELS, opponent="scripted", n=1, baseline_names={"pick": ("random",)})
    with pytest.raises(ValidationError, match="games not in the run: taboo"):
        RunConfig(games=("pick",), models=MODELS, opponent="scripted", n=1, baselines=True,
                  baseline_names={"pick": ("random",), "taboo": ()})
    with pytest.raises(ConfigError, match="have not been looked up"):
        _ = _config(baselines=True).matches_per_number
    twice = RunConfig(games=("pick",), models=("mock/a", "baseline/random"), opponent="scripted", n=1,
                      baselines=True)
    with pytest.raises(ConfigError, match=r"baseline/random is both a model of the run and one of pick's"):
        with_baselines(twice, baseline_registry())


def test_a_baseline_named_as_a_model_must_be_one_the_game_offers() -> None:
    registry = baseline_registry()
    check_config(registry, RunConfig(games=("pick",), models=("baseline/naive",), opponent="scripted", n=1))
    bad = RunConfig(games=("pick", "trio"), models=("baseline/naive",), opponent="scripted", n=1)
    with pytest.raises(ConfigError, match=r"--models baseline/naive: trio has no baseline player 'naive' "
                                          r"\(it offers: random\)"):
        check_config(registry, bad)


def test_the_header_says_which_games_have_no_baselines() -> None:
    config = with_baselines(_config(baselines=True), baseline_registry())
    assert baseline_lines(config) == ["baselines on the same setups: pick: random, naive; trio: random",
                                      "no baselines for plain (the game declares none)"]
    assert baseline_lines(_config(baselines=False)) == []


class _Late(Pick):
    """A game that declares its baselines out of alphabetical order: the lineup keeps the declared order."""

    id: ClassVar[str] = "late"
    baselines: ClassVar[tuple[BaselineInfo, ...]] = (BaselineInfo(name="naive", description="lowest"),
                                                     BaselineInfo(name="random", description="any"))


def test_the_baselines_come_in_the_order_the_game_declares_them() -> None:
    registry = baseline_registry()
    registry.add("late", _Late)
    config = RunConfig(games=("late",), models=("mock/a",), opponent="scripted", n=1, baselines=True)
    assert [m.evaluated_models for m in plan_matches(config, registry, "local/x")] == [
        ("mock/a",), ("baseline/naive",), ("baseline/random",)]
