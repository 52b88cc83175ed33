"""A call's work figures (prompt tokens evaluated and needed, prompt and generation seconds) in the store:
migration 0006, a round trip, the run's sums, and an export read back."""

from __future__ import annotations

import io

import pytest
from alembic import command
from sqlalchemy import inspect, text
from store_factories import call, seats, spec

from playeval.core.ask import CallRecord
from playeval.store import Store, export_run_jsonl, read_run_jsonl
from playeval.store.migrate import alembic_config, current_revision

FIGURES = ("prompt_evaluated", "prompt_needed", "prompt_s", "generation_s")


def _worked(**figures: object) -> CallRecord:
    return call().model_copy(update={"prompt_evaluated": 1620, "prompt_needed": 1537, "prompt_s": 2.5,
                                     "generation_s": 0.75, **figures})


def _match(store: Store) -> tuple[str, str]:
    run_id = store.create_run("akinator", 2, {"models": ["mock/echo"], "n": 1})
    return run_id, store.create_match(spec=spec(), seats=seats(), run_id=run_id, match_index=0,
                                      evaluated_model="mock/echo")


def test_0006_adds_the_columns_and_old_calls_read_as_none(db_url: str) -> None:
    with Store.open(db_url) as store:
        run_id, match_id = _match(store)
        with store.engine.begin() as connection:
            command.downgrade(alembic_config(connection), "0005")
            assert current_revision(connection) == "0005"
            columns = {column["name"] for column in inspect(connection).get_columns("model_calls")}
            assert not columns & set(FIGURES)
            connection.execute(text(
                "INSERT INTO model_calls (match_id, seat, model, messages, params, raw_output, prompt_tokens, "
                "completion_tokens, latency_s, cached, attempts, created_at) VALUES (:match, 'guesser', 'local/x', "
                "'[]', '{}', 'old reply', 12, 3, 0.5, false, 1, '2026-11-25 00:00:00')"), {"match": match_id})
    with Store.open(db_url) as store:
        with store.engine.connect() as connection:
            assert current_revision(connection) == "0006"
        [old] = store.calls(match_id)
        assert old.raw_output == "old reply" and old.prompt_tokens == 12
        assert [getattr(old, name) for name in FIGURES] == [None, None, None, None]
        [totals] = store.call_totals(run_id)
        assert totals.work.calls == 0 and totals.work.prompt_evaluated is None and totals.work.generation_s is None
        store.add_calls(match_id, [_worked()], seat="guesser")
        with store.engine.begin() as connection:  # and back down: the figures go, the calls stay
            command.downgrade(alembic_config(connection), "0005")
            assert connection.execute(text("SELECT count(*) FROM model_calls")).scalar_one() == 2


def test_a_call_with_figures_round_trips(store: Store) -> None:
    _, match_id = _match(store)
    store.add_calls(match_id, [_worked(), call()], seat="guesser")
    worked, plain = store.calls(match_id)
    assert [getattr(worked, name) for name in FIGURES] == [1620, 1537, 2.5, 0.75]
    assert [getattr(plain, name) for name in FIGURES] == [None, None, None, None]
    assert worked.to_call_record() == _worked()


def test_the_run_sums_only_the_calls_that_reported(store: Store) -> None:
    run_id, match_id = _match(store)
    store.add_calls(match_id, [_worked(), _worked(prompt_needed=None, generation_s=None), call(cached=True)],
                    seat="guesser")
    [totals] = store.call_totals(run_id)
    assert totals.calls == 3 and totals.work.calls == 2
    assert totals.work.prompt_evaluated == 3240 and totals.work.prompt_needed == 1537
    assert totals.work.prompt_s == pytest.approx(5.0) and totals.work.generation_s == pytest.approx(0.75)
    assert totals.work.generated_tokens == 7  # only the first call's reply was timed


def test_an_export_keeps_the_figures(store: Store) -> None:
    run_id, match_id = _match(store)
    store.add_calls(match_id, [_worked()], seat="guesser")
    out = io.StringIO()
    export_run_jsonl(store, run_id, out)
    [match] = read_run_jsonl(out.getvalue().splitlines()).matches
    assert match.calls[0].prompt_needed == 1537 and match.calls[0].prompt_s == 2.5
