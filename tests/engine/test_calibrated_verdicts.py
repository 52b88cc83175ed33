"""A judge's verdicts decided by the calibration found for its model: applied by runs, the arena and the library,
recorded with the run and the match, replayed as recorded, kept on resume, and off with --no-calibration.

The judge is a scripted mock that always says ``no`` while giving ``yes`` a probability of 0.4; its calibration
(in the test's own ``PLAYEVAL_CALIBRATION_DIR``) accepts from 0.3, so a calibrated verdict flips to ``yes`` and
the player wins on its first guess, while the judge's own word keeps refusing it.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping
from pathlib import Path

import pytest
from typer.testing import CliRunner

from playeval.cli import run_cmd
from playeval.cli.main import app
from playeval.core.events import ActionApplied, MatchStarted
from playeval.core.match import MatchSpec
from playeval.core.registry import default_registry
from playeval.core.verdicts import VerdictRecord, recorded_verdicts
from playeval.engine import BatchRunner, RunConfig, RunInterrupted, create_run, run_config, state_from_events
from playeval.library import guess_rule as library
from playeval.models import Calibration, CalibrationEntry, ModelError, ModelHub, ModelRequest, save_calibration
from playeval.models.providers.mock import MockScript
from playeval.models.types import ProviderResult
from playeval.report.build import build_report
from playeval.store import Store
from playeval.web.bodies import StartWatch
from playeval.web.settings import ArenaSettings
from playeval.web.starting import TableMaker

GAME = "static_picnic"
JUDGE = "mock/judge"
THRESHOLD = 0.3
LABEL = f"judge.json for {JUDGE}"


def judge(request: ModelRequest) -> ProviderResult:
    """Always ``no`` in words, with ``yes`` at 0.4: below the word's 0.5, above the calibrated 0.3."""
    return ProviderResult(text="Verdict: no\nReason: not quite.", answer_probs=({"yes": 0.4, "no": 0.6},))


SCRIPTS: dict[str, MockScript] = {"judge": judge}


def calibrate(identity: str = JUDGE, threshold: float = THRESHOLD, name: str = "judge.json") -> Path:
    """A calibration file for ``identity`` in the test's calibration directory (conftest points it at tmp)."""
    calibration = Calibration(model=JUDGE, identity=identity, made_at="2025-01-01T00:00:00Z", command="test",
                              cases="built-in", entries=[CalibrationEntry(game=GAME, kind="verdict",
                                                                          threshold=threshold, applied=True, cases=40)])
    return save_calibration(calibration, Path(os.environ["PLAYEVAL_CALIBRATION_DIR"]) / name)


def config(*, calibration: bool = True, n: int = 1) -> RunConfig:
    return RunConfig(games=(GAME,), models=("mock/player",), opponent="scripted", n=n, roles={"judge": JUDGE},
                     calibration=calibration)


async def play(store: Store, run_id: str, scripts: Mapping[str, MockScript] | None = None) -> None:
    async with ModelHub(use_cache=False, mock_scripts=scripts or SCRIPTS) as hub:
        await BatchRunner(store, hub, default_registry()).run(run_id)


def judge_records(store: Store, match_id: str) -> list[VerdictRecord]:
    return [record for event in store.events(match_id) if isinstance(event, ActionApplied)
            and event.action.party == "judge" for record in recorded_verdicts(event.action.data)]


def replayed(store: Store, match_id: str) -> tuple[str, ...]:
    """The winners the fold of the stored log gives (what a replay and the analysis read)."""
    match = store.get_match(match_id)
    game = default_registry().get(match.game)
    outcome = game.outcome(state_from_events(game, match.spec, store.events(match_id)))
    assert outcome is not None
    return outcome.winners


async def test_a_run_decides_by_the_calibration_and_records_it(tmp_path: Path) -> None:
    path = calibrate()
    with Store.open(f"sqlite:///{tmp_path / 'run.db'}") as store:
        run_id = create_run(store, default_registry(), config())
        recorded = run_config(store, run_id)
        held = recorded.calibrations[JUDGE]
        assert (held.path, held.identity) == (str(path), JUDGE)
        assert held.games[GAME].by_kind == {"verdict": THRESHOLD} and held.games[GAME].label == LABEL
        await play(store, run_id)
        [match] = store.run_matches(run_id)
        assert match.spec.thresholds[JUDGE].by_kind == {"verdict": THRESHOLD}
        [record] = judge_records(store, match.id)
        assert record.word == "no" and record.accepted and record.decided == "threshold"
        assert (record.threshold, record.calibration, record.p_accept) == (THRESHOLD, LABEL, pytest.approx(0.4))
        assert match.outcome is not None and match.outcome.winners == ("player",)  # the flipped verdict won it
        assert replayed(store, match.id) == ("player",)
        game = default_registry().get(match.game)
        [guess] = state_from_events(game, match.spec, store.events(match.id)).guesses
        assert guess.reason is not None and "the judge's own word was no" in guess.reason  # its reason was for "no"
        notes = build_report(store, run_id, default_registry()).notes
        assert "judge verdicts: 1 recorded, 1 by a calibrated threshold" in notes
        assert any(note.startswith(f"calibration of {JUDGE}: {path}") for note in notes)


async def test_no_calibration_leaves_the_judges_own_words(tmp_path: Path) -> None:
    calibrate()
    with Store.open(f"sqlite:///{tmp_path / 'run.db'}") as store:
        run_id = create_run(store, default_registry(), config(calibration=False))
        assert run_config(store, run_id).calibrations == {}
        await play(store, run_id)
        [match] = store.run_matches(run_id)
        assert match.spec.thresholds == {}
        records = judge_records(store, match.id)
        assert records and all(r.decided == "word" and not r.accepted and r.threshold is None for r in records)
        assert match.outcome is not None and match.outcome.winners == ()
        assert replayed(store, match.id) == ()


async def test_a_calibration_fitted_for_another_identity_never_applies(tmp_path: Path) -> None:
    calibrate(identity="mock/another-judge")  # its model field even names mock/judge: the identity decides
    with Store.open(f"sqlite:///{tmp_path / 'run.db'}") as store:
        run_id = create_run(store, default_registry(), config())
        assert run_config(store, run_id).calibrations == {}
        await play(store, run_id)
        [match] = store.run_matches(run_id)
        assert match.spec.thresholds == {}
        assert all(record.decided == "word" for record in judge_records(store, match.id))


async def test_a_resumed_run_decides_by_the_thresholds_it_recorded(tmp_path: Path) -> None:
    path = calibrate()
    calls: list[int] = []

    def failing_once(request: ModelRequest) -> ProviderResult:
        calls.append(1)
        if len(calls) == 1:
            raise ModelError("mock/judge: the server went away")
        return judge(request)

    with Store.open(f"sqlite:///{tmp_path / 'run.db'}") as store:
        run_id = create_run(store, default_registry(), config(n=2))
        with pytest.raises(RunInterrupted):
            await play(store, run_id, {"judge": failing_once})
        [cut] = store.run_matches(run_id)  # stopped at its first verdict, before the second match began
        assert cut.status == "interrupted" and not judge_records(store, cut.id)
        calibrate(threshold=0.5, name=path.name)  # refitted since: 0.4 would now be refused
        await play(store, run_id, {"judge": failing_once})
        matches = store.run_matches(run_id)
        assert len(matches) == 2 and all(m.status == "finished" for m in matches)
        for match in matches:  # the match cut short and the one begun on resume alike
            records = judge_records(store, match.id)
            assert records[0].threshold == THRESHOLD and records[0].accepted
            assert match.outcome is not None and match.outcome.winners == ("player",)


def test_the_cli_applies_reports_and_turns_off_calibration(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calibrate()
    monkeypatch.setenv("PLAYEVAL_DB", f"sqlite:///{tmp_path / 'cli.db'}")
    monkeypatch.setattr(run_cmd, "ModelHub", functools.partial(ModelHub, mock_scripts=SCRIPTS))
    runner = CliRunner()
    base = ["run", GAME, "--models", "mock/player", "--opponent", "scripted", "--role", f"judge={JUDGE}", "--n", "1"]
    on = runner.invoke(app, base, env={"COLUMNS": "240"})
    assert on.exit_code == 0, on.output
    assert f"calibration of {JUDGE}:" in on.output and "verdict >= 0.3" in on.output
    assert "judge verdicts: 1 recorded, 1 by a calibrated threshold" in on.output
    off = runner.invoke(app, [*base, "--no-calibration"], env={"COLUMNS": "240"})
    assert off.exit_code == 0, off.output
    assert "calibration: off (--no-calibration)" in off.output
    assert "by the judge's own word" in off.output and "calibrated threshold" not in off.output
    with Store.open(os.environ["PLAYEVAL_DB"]) as store:
        latest = store.latest_run_id()
    refused = runner.invoke(app, ["run", "--resume", str(latest), "--no-calibration"])
    assert refused.exit_code != 0 and "a resumed run decides its verdicts as it was recorded" in refused.output


def test_the_arena_keeps_each_tables_thresholds_with_its_match(tmp_path: Path) -> None:
    calibrate()
    with Store.open(f"sqlite:///{tmp_path / 'arena.db'}") as store:
        for calibration, expected in ((True, {"verdict": THRESHOLD}), (False, None)):
            settings = ArenaSettings(models=("mock/player", JUDGE), roles={"judge": JUDGE}, calibration=calibration)
            maker = TableMaker(store, settings, default_registry().get)
            match_id = maker.watch(StartWatch(game=GAME, models={"player": "mock/player"}))
            spec: MatchSpec = store.get_match(match_id).spec
            held = spec.thresholds.get(JUDGE)
            assert (held.by_kind if held is not None else None) == expected
            start = store.events(match_id)[0]  # the log's start: where another process reads them from
            assert isinstance(start, MatchStarted) and start.spec == spec


@pytest.mark.parametrize(("calibration", "accepted"), [(True, True), (False, False)])
def test_the_library_judges_by_the_calibration_unless_told_not_to(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                   calibration: bool, accepted: bool) -> None:
    calibrate()
    monkeypatch.setattr(library, "ModelHub", functools.partial(ModelHub, mock_scripts=SCRIPTS))
    game = library.StaticGoingOnAPicnic(seed=3, judge=JUDGE, db=f"sqlite:///{tmp_path / 'lib.db'}",
                                        calibration=calibration)
    game.create_game_instance()
    assert game.validate_guess("things that share one simple property") is accepted
