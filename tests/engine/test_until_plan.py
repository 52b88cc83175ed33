"""Later rounds of a ``--until-separated`` run: recorded allocations are planned after the first round, on the
setups a uniform run draws for those game numbers, and a resume plans the same."""

from __future__ import annotations

from pathlib import Path

from baseline_games import baseline_registry

from playeval.engine import RunConfig, create_run, plan_matches, run_config
from playeval.engine.batch import pending_matches
from playeval.engine.plan import Allocated, UntilSeparated
from playeval.store import Store

MODELS = ("mock/a", "mock/b", "mock/c")


def _config(rounds: tuple[tuple[Allocated, ...], ...] = ()) -> RunConfig:
    return RunConfig(games=("pick", "trio"), models=MODELS, opponent="scripted", n=2, seed=3,
                     until=UntilSeparated(budget=100, rounds=rounds))


def test_allocations_follow_the_first_round_on_a_uniform_runs_setups() -> None:
    registry = baseline_registry()
    rounds = ((Allocated(game="pick", number=2, models=("mock/b", "mock/c")),
               Allocated(game="trio", number=2, models=MODELS)),)
    planned = plan_matches(_config(rounds), registry, "local/x")
    first = _config().first_round_size
    assert first == 2 * (3 + 3) and _config(rounds).size == first + 2 + 3
    later = planned[first:]
    assert [m.index for m in later] == list(range(first, first + 5))
    assert [m.game for m in later] == ["pick", "pick", "trio", "trio", "trio"]
    assert [m.evaluated_models for m in later[:2]] == [("mock/b",), ("mock/c",)]
    uniform = plan_matches(RunConfig(games=("pick", "trio"), models=MODELS, opponent="scripted", n=3, seed=3),
                           registry, "local/x")
    same_number = [m for m in uniform if m.game == "pick" and m.game_number == 2]
    assert later[0].spec == same_number[0].spec and later[0].seed == same_number[0].seed
    # a table's allocation seats every entry in every seat once
    seats = {(s.seat, s.model) for m in later[2:] for s in m.seats if s.evaluated}
    assert len(seats) == 9


def test_a_run_without_later_rounds_is_stored_as_before() -> None:
    plain = RunConfig(games=("pick",), models=MODELS, opponent="scripted", n=2)
    assert "until" not in plain.model_dump(mode="json")
    assert "until" in _config().model_dump(mode="json")


def test_recorded_rounds_are_planned_on_resume(tmp_path: Path) -> None:
    registry = baseline_registry()
    with Store.open(f"sqlite:///{tmp_path / 'r.db'}") as store:
        run_id = create_run(store, registry, _config())
        assert pending_matches(store, run_id, registry).total == 12
        config = run_config(store, run_id)
        grown = config.model_copy(update={"until": config.until.model_copy(update={  # type: ignore[union-attr]
            "rounds": ((Allocated(game="pick", number=2, models=("mock/a", "mock/b")),),)})})
        store.update_run_config(run_id, grown.model_dump(mode="json"))
        again = run_config(store, run_id)
        assert again.until is not None and len(again.allocations) == 1
        pending = pending_matches(store, run_id, registry)
        assert pending.total == 14 and [m.index for m in pending][-2:] == [12, 13]
