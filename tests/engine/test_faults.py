"""Fault injection: batch runs against ``mock/sim`` endpoints that fail, hang, rate-limit and reply garbage, and a
provider that rejects every call; nothing lost, nothing duplicated, interrupted matches resumed."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from sqlalchemy import func, select
from typer.testing import CliRunner

from playeval.cli import run_cmd
from playeval.cli.main import app
from playeval.core.events import MatchEnded, MatchStarted
from playeval.core.messages import user
from playeval.core.registry import default_registry
from playeval.engine import BatchRunner, RunConfig, RunInterrupted, create_run, interruption_lines, plan_matches
from playeval.models import DEFAULT_MODEL, ModelError, ModelHub, ModelRequest
from playeval.models.providers.mock_player import player_reply
from playeval.store import Store
from playeval.store.schema import EventRow, MatchRow, ModelCallRow

SIM = "mock/sim?latency=0.002&jitter=0.001&errors=0.2&timeouts=0.05&garbage=0.05&rate_limit=0.05&retry_after=0.01"


def faulty_hub() -> ModelHub:
    """Short timeouts and backoffs; max_retries=8 so a call gives up only when 9 draws in a row fail (about 3 in a
    million with 30 % of calls failing): a run this size finishes, but every retry path is taken."""
    return ModelHub(use_cache=False, timeout_s=0.05, max_retries=8, backoff_base_s=0.001, backoff_cap_s=0.004)


def check_complete(store: Store, run_id: str, planned: int) -> None:
    """Every planned match is there once, ended with an outcome, with a gap-free log that starts and ends once."""
    matches = store.run_matches(run_id)
    assert len(matches) == planned
    assert sorted(m.match_index for m in matches if m.match_index is not None) == list(range(planned))
    for match in matches:
        assert match.status == "finished" and match.outcome is not None, match.id
        if match.outcome.status != "finished":  # a forfeit or an abort says why
            assert match.outcome.reason, match.id
        records = store.event_records(match.id)
        assert [r.seq for r in records] == list(range(1, len(records) + 1)), match.id
        assert sum(isinstance(r.event, MatchStarted) for r in records) == 1
        assert sum(isinstance(r.event, MatchEnded) for r in records) == 1
        assert isinstance(records[-1].event, MatchEnded)
    with store.engine.connect() as conn:
        per_index = conn.execute(select(MatchRow.match_index, func.count()).where(MatchRow.run_id == run_id)
                                 .group_by(MatchRow.match_index)).all()
        assert all(count == 1 for _, count in per_index)
        ids = [m.id for m in matches]
        pairs = conn.execute(select(EventRow.match_id, EventRow.seq, func.count()).where(EventRow.match_id.in_(ids))
                             .group_by(EventRow.match_id, EventRow.seq)).all()
        assert all(count == 1 for _, _, count in pairs)


async def test_a_run_against_a_faulty_endpoint_ends_every_match_once(tmp_path: Path) -> None:
    registry = default_registry()
    config = RunConfig(games=("akinator", "bluffing"), models=(SIM,), opponent=SIM, n=20, concurrency=8, seed=5)
    planned = len(plan_matches(config, registry, DEFAULT_MODEL))
    assert planned >= 40
    with Store.open(f"sqlite:///{tmp_path / 'faults.db'}") as store:
        run_id = create_run(store, registry, config)
        started = time.monotonic()
        async with faulty_hub() as hub:
            await BatchRunner(store, hub, registry).run(run_id)
            usage = hub.total_usage()
        assert time.monotonic() - started < 60
        assert store.get_run(run_id).status == "finished"
        check_complete(store, run_id, planned)
        assert usage.attempts > usage.calls  # failed attempts were retried
        with store.engine.connect() as conn:
            retried = conn.scalar(select(func.count()).select_from(ModelCallRow).where(ModelCallRow.attempts > 1))
            garbage = conn.scalar(select(func.count()).select_from(ModelCallRow)
                                  .where(ModelCallRow.raw_output.like("%garbled reply%")))
        assert retried and garbage  # retried calls and refused garbage both made it into the record
        assert interruption_lines(store, run_id) == []


async def test_a_rate_limited_call_waits_at_least_retry_after() -> None:
    """Only 429s with Retry-After 0.05 s: a reply after k attempts took at least (k - 1) x 0.05 s."""
    async with ModelHub(use_cache=False, max_retries=8, backoff_base_s=0.0001, backoff_cap_s=0.0001) as hub:
        model = hub.get("mock/sim?rate_limit=0.5&retry_after=0.05&seed=2")
        waits = 0
        for n in range(12):
            request = ModelRequest(messages=(user(f"Question {n}: is it alive?"),))
            started = time.monotonic()
            response = await model.generate(request)
            assert time.monotonic() - started >= 0.05 * (response.attempts - 1)
            assert response.text == player_reply(request)
            waits += response.attempts - 1
    assert waits >= 2  # with half the calls refused, 12 calls met some refusals (seeded: always the same)


def rejecting_after(calls: int) -> tuple[Callable[[ModelRequest], str], list[int]]:
    """A script that answers like mock/player for ``calls`` calls, then rejects every call (an HTTP 400)."""
    count = [0]

    def reply(request: ModelRequest) -> str:
        count[0] += 1
        if count[0] > calls:
            raise ModelError("mock/flaky: HTTP 400 the endpoint rejects every request")
        return player_reply(request)

    return reply, count


def test_a_provider_that_rejects_every_call_leaves_its_matches_interrupted_and_resume_finishes_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    registry = default_registry()
    config = RunConfig(games=("akinator",), models=("mock/flaky",), opponent="mock/flaky", n=6, concurrency=3,
                       timeout_s=7.5)
    db = f"sqlite:///{tmp_path / 'down.db'}"

    async def run_until_rejected(store: Store, run_id: str) -> RunInterrupted:
        script, _ = rejecting_after(12)
        async with ModelHub(use_cache=False, mock_scripts={"flaky": script}) as hub:
            with pytest.raises(RunInterrupted, match=r"HTTP 400 .* left interrupted\. Finish it with") as caught:
                await BatchRunner(store, hub, registry).run(run_id)
        return caught.value

    with Store.open(db) as store:
        run_id = create_run(store, registry, config)
        stopped = asyncio.run(run_until_rejected(store, run_id))
        assert store.get_run(run_id).status == "interrupted"
        left = [m for m in store.run_matches(run_id) if m.status != "finished"]
        assert left and stopped.interrupted == len(left)
        assert all(m.status == "interrupted" and m.stop_reason is not None and "HTTP 400" in m.stop_reason
                   for m in left)
        lines = interruption_lines(store, run_id)
        assert len(lines) == 1 and lines[0].startswith(f"{len(left)} match") and "HTTP 400" in lines[0]
        played_before = {m.id: len(store.events(m.id)) for m in left}
        assert any(count > 1 for count in played_before.values())  # some were cut in mid-match, moves kept

    shown = CliRunner().invoke(app, ["results", run_id, "--db", db], env={"COLUMNS": "200"})
    assert shown.exit_code == 0, shown.output
    assert f"{len(left)} match" in shown.output and "interrupted: mock/flaky: HTTP 400" in shown.output
    assert f"playeval run --resume {run_id}" in shown.output

    # the endpoint works again: --resume (through the CLI) plays the interrupted matches on from their events
    working, _ = rejecting_after(10**9)
    hubs: list[ModelHub] = []

    def working_hub(use_cache: bool, timeout_s: float | None) -> ModelHub:
        hubs.append(ModelHub(use_cache=False, timeout_s=timeout_s, mock_scripts={"flaky": working}))
        return hubs[-1]

    monkeypatch.setattr(run_cmd, "ModelHub", working_hub)
    result = CliRunner().invoke(app, ["run", "--resume", run_id, "--db", db], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert f"{len(left)} match" in result.output and "interrupted: mock/flaky: HTTP 400" in result.output
    assert [hub.timeout_for("mock") for hub in hubs] == [7.5]  # the run's --timeout, kept for --resume
    with Store.open(db) as store:
        assert store.get_run(run_id).status == "finished"
        check_complete(store, run_id, len(plan_matches(config, registry, DEFAULT_MODEL)))
        for match_id, count in played_before.items():
            assert store.get_match(match_id).stop_reason is None
            assert len(store.events(match_id)) > count
        assert interruption_lines(store, run_id) == []


def test_a_seeded_give_up_that_recurs_on_resume_says_the_resume_cannot_progress(tmp_path: Path) -> None:
    """mock/sim's failure counts restart in each process, so a call that gave up gives up again at the same move on
    every resume: the resume must say it made no progress (and why), not suggest resuming again."""
    registry = default_registry()
    config = RunConfig(games=("akinator",), models=("mock/sim?errors=0.5&seed=3",), opponent="scripted", n=2)

    async def play(store: Store, run_id: str) -> RunInterrupted:
        # a fresh hub is a fresh endpoint, as in a new process; one retry, so two faults in a row give up
        async with ModelHub(use_cache=False, timeout_s=0.05, max_retries=1, backoff_base_s=0.001,
                            backoff_cap_s=0.001) as hub:
            with pytest.raises(RunInterrupted) as caught:
                await BatchRunner(store, hub, registry).run(run_id)
        return caught.value

    with Store.open(f"sqlite:///{tmp_path / 'stuck.db'}") as store:
        run_id = create_run(store, registry, config)
        first = asyncio.run(play(store, run_id))
        assert f"Finish it with: playeval run --resume {run_id}" in str(first)
        assert "gave up after 2 attempts" in str(first)
        seqs = {m.id: store.last_seq(m.id) for m in store.run_matches(run_id)}
        for _ in range(2):
            again = asyncio.run(play(store, run_id))
            assert "This resume made no progress: it stopped with the same error" in str(again)
            assert "Finish it with" not in str(again) and "mock/sim" in str(again)
            assert again.stalled
            assert {m.id: store.last_seq(m.id) for m in store.run_matches(run_id)} == seqs
            assert store.get_run(run_id).status == "interrupted"


def test_a_resume_that_moves_before_the_same_error_is_not_stalled(tmp_path: Path) -> None:
    registry = default_registry()
    config = RunConfig(games=("akinator",), models=("mock/flaky",), opponent="scripted", n=1)

    async def play(store: Store, run_id: str, calls: int) -> RunInterrupted:
        script, _ = rejecting_after(calls)
        async with ModelHub(use_cache=False, mock_scripts={"flaky": script}) as hub:
            with pytest.raises(RunInterrupted) as caught:
                await BatchRunner(store, hub, registry).run(run_id)
        return caught.value

    with Store.open(f"sqlite:///{tmp_path / 'moves.db'}") as store:
        run_id = create_run(store, registry, config)
        assert "Finish it with" in str(asyncio.run(play(store, run_id, 3)))
        moved = asyncio.run(play(store, run_id, 2))  # two more moves, then the same HTTP 400
        assert "Finish it with" in str(moved) and "no progress" not in str(moved)
        assert "This resume made no progress" in str(asyncio.run(play(store, run_id, 0)))  # not one move
