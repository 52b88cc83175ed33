"""Round trips through the store, on SQLite and (marked postgres) PostgreSQL."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC

import pytest
from sqlalchemy import func, select
from store_factories import call, outcome, seats, spec

from playeval.core.errors import NotFoundError, PlayevalError
from playeval.core.events import (
    ActionApplied,
    AskIssued,
    Event,
    MatchEnded,
    MatchStarted,
    ReplyReceived,
    ReplyRejected,
)
from playeval.core.match import Action
from playeval.store import DuplicateMatch, MatchClosed, Store
from playeval.store.schema import EventRow, MatchRow, SeatRow


def _count(store: Store, column: object) -> int:
    with store.engine.connect() as connection:
        return int(connection.execute(select(func.count()).select_from(column)).scalar_one())  # type: ignore[arg-type]


def test_every_event_type_round_trips(store: Store) -> None:
    run_id = store.create_run("akinator", 2, {"models": ["mock/echo"], "n": 1, "seed": 7})
    match_id = store.create_match(spec=spec(), seats=seats(), run_id=run_id, match_index=0, evaluated_model="mock/echo")
    call_ids = store.add_calls(match_id, [call()], seat="guesser")
    middle: list[Event] = [
        AskIssued(seat="guesser", kind="question", attempt=0),
        ReplyRejected(seat="guesser", error="format", reason="no question mark", text="Is it alive"),
        ReplyRejected(seat="guesser", error="rule", reason="repeated question", text="Is it alive?"),
        ReplyReceived(seat="guesser", text="Question 1: Is it alive?", call_ids=tuple(call_ids)),
        ActionApplied(action=Action(seat="guesser", kind="question", text="Is it alive?")),
    ]
    seqs = [store.append_event(match_id, event) for event in middle]
    store.finish_match(match_id, outcome())

    assert seqs == [2, 3, 4, 5, 6]
    assert [record.seq for record in store.event_records(match_id)] == [1, 2, 3, 4, 5, 6, 7]
    expected = [MatchStarted(spec=spec(), seats=seats()), *middle, MatchEnded(outcome=outcome())]
    assert store.events(match_id) == expected
    assert {type(event) for event in store.events(match_id)} == {
        MatchStarted,
        AskIssued,
        ReplyRejected,
        ReplyReceived,
        ActionApplied,
        MatchEnded,
    }


def test_match_record_round_trips(store: Store) -> None:
    run_id = store.create_run("akinator", 2, {"models": ["mock/echo"], "opponent": "scripted", "concurrency": 2})
    match_id = store.create_match(spec=spec(), seats=seats(), run_id=run_id, match_index=3, evaluated_model="mock/echo")
    record = store.get_match(match_id)
    assert len(match_id) == 16 and int(match_id, 16) >= 0
    assert record.id == match_id
    assert (record.run_id, record.match_index) == (run_id, 3)
    assert (record.game, record.level, record.seed) == ("akinator", 2, 7)
    assert record.spec == spec()
    assert record.spec.hidden("secret") == "giraffe"
    assert record.seats == seats()
    assert record.status == "running"
    assert record.outcome is None
    assert record.ended_at is None
    assert record.evaluated_model == "mock/echo"
    assert record.created_at.tzinfo is not None and record.created_at.utcoffset() == UTC.utcoffset(None)


def test_seq_is_dense_and_ordered(store: Store) -> None:
    match_id = store.create_match(spec=spec(), seats=seats())
    for attempt in range(10):
        store.append_event(match_id, AskIssued(seat="guesser", kind="question", attempt=attempt))
    records = store.event_records(match_id)
    assert [record.seq for record in records] == list(range(1, 12))
    assert [record.type for record in records] == ["match_started"] + ["ask"] * 10
    attempts = [event.attempt for event in store.events(match_id) if isinstance(event, AskIssued)]
    assert attempts == list(range(10))
    assert all(record.schema_version == 2 for record in records)


def test_concurrent_appends_get_distinct_seqs(store: Store) -> None:
    match_ids = [store.create_match(spec=spec(seed=seed), seats=seats()) for seed in range(2)]

    def append_many(match_id: str, worker: int) -> list[int]:
        return [
            store.append_event(match_id, AskIssued(seat=f"w{worker}", kind="question", attempt=attempt))
            for attempt in range(15)
        ]

    with ThreadPoolExecutor(max_workers=6) as pool:
        futures = [pool.submit(append_many, match_id, worker) for match_id in match_ids for worker in range(3)]
        returned = [seq for future in futures for seq in future.result()]
    assert sorted(returned) == sorted(list(range(2, 47)) * 2)
    for match_id in match_ids:
        assert [record.seq for record in store.event_records(match_id)] == list(range(1, 47))


def test_duplicate_match_index_raises_and_writes_nothing(store: Store) -> None:
    run_id = store.create_run("akinator", 2, {})
    first = store.create_match(spec=spec(), seats=seats(), run_id=run_id, match_index=0)
    before = (_count(store, MatchRow), _count(store, SeatRow), _count(store, EventRow))

    with pytest.raises(DuplicateMatch) as caught:
        store.create_match(spec=spec(seed=8), seats=seats(), run_id=run_id, match_index=0)

    assert isinstance(caught.value, PlayevalError)
    assert caught.value.existing_match_id == first
    assert (caught.value.run_id, caught.value.match_index) == (run_id, 0)
    assert (_count(store, MatchRow), _count(store, SeatRow), _count(store, EventRow)) == before
    assert [match.id for match in store.run_matches(run_id)] == [first]


def test_same_index_in_other_run_and_live_matches_are_fine(store: Store) -> None:
    runs = [store.create_run("akinator", 2, {}) for _ in range(2)]
    for run_id in runs:
        store.create_match(spec=spec(), seats=seats(), run_id=run_id, match_index=0)
    live = [store.create_match(spec=spec(), seats=seats()) for _ in range(2)]
    assert len(set(live)) == 2
    assert store.get_match(live[0]).run_id is None


def test_create_match_checks_its_arguments(store: Store) -> None:
    with pytest.raises(NotFoundError, match="no run"):
        store.create_match(spec=spec(), seats=seats(), run_id="000000000000", match_index=0)
    with pytest.raises(ValueError, match="unique"):
        store.create_match(spec=spec(), seats=(seats()[0], seats()[0]))
    with pytest.raises(ValueError, match="run_id"):
        store.create_match(spec=spec(), seats=seats(), match_index=0)
    assert _count(store, MatchRow) == 0


def test_finish_match_sets_event_and_row_together(store: Store) -> None:
    match_id = store.create_match(spec=spec(), seats=seats())
    store.append_event(match_id, AskIssued(seat="guesser", kind="question", attempt=0))
    store.finish_match(match_id, outcome())

    record = store.get_match(match_id)
    assert record.status == "finished"
    assert record.outcome == outcome()
    assert record.ended_at is not None and record.ended_at >= record.created_at
    last = store.event_records(match_id)[-1]
    assert last.event == MatchEnded(outcome=outcome())
    assert last.created_at == record.ended_at


def test_finished_match_is_permanent(store: Store) -> None:
    match_id = store.create_match(spec=spec(), seats=seats())
    store.finish_match(match_id, outcome())
    with pytest.raises(MatchClosed):
        store.append_event(match_id, AskIssued(seat="guesser", kind="question", attempt=0))
    with pytest.raises(MatchClosed):
        store.finish_match(match_id, outcome())
    assert len(store.events(match_id)) == 2


def test_start_and_end_events_only_through_their_methods(store: Store) -> None:
    match_id = store.create_match(spec=spec(), seats=seats())
    with pytest.raises(TypeError, match="finish_match"):
        store.append_event(match_id, MatchEnded(outcome=outcome()))
    with pytest.raises(TypeError, match="create_match"):
        store.append_event(match_id, MatchStarted(spec=spec(), seats=seats()))


def test_unknown_ids_raise_not_found(store: Store) -> None:
    with pytest.raises(NotFoundError, match="no run with id 'nope'"):
        store.get_run("nope")
    with pytest.raises(NotFoundError):
        store.set_run_status("nope", "finished")
    with pytest.raises(NotFoundError):
        store.run_matches("nope")
    with pytest.raises(NotFoundError, match="no match with id 'nope'"):
        store.get_match("nope")
    with pytest.raises(NotFoundError):
        store.events("nope")
    with pytest.raises(NotFoundError):
        store.calls("nope")
    with pytest.raises(NotFoundError):
        store.append_event("nope", AskIssued(seat="guesser", kind="question", attempt=0))
    with pytest.raises(NotFoundError):
        store.finish_match("nope", outcome())
    with pytest.raises(NotFoundError):
        store.add_calls("nope", [call()], seat="guesser")


def test_calls_round_trip_and_marking(store: Store) -> None:
    match_id = store.create_match(spec=spec(), seats=seats())
    first = store.add_calls(match_id, [call("Is it alive?"), call("Question 1: Is it alive?", cached=True)],
                            seat="guesser")
    loose = store.add_calls(None, [call("unattached")])
    assert store.add_calls(match_id, [], seat="guesser") == []
    store.mark_calls(first[:1], parsed=None, error="format: no 'Question N:' prefix")
    store.mark_calls(first[1:], parsed="Is it alive?", error=None)

    rows = store.calls(match_id)
    assert [row.id for row in rows] == first
    assert loose[0] not in first
    assert [row.raw_output for row in rows] == ["Is it alive?", "Question 1: Is it alive?"]
    assert (rows[0].parsed, rows[0].error) == (None, "format: no 'Question N:' prefix")
    assert (rows[1].parsed, rows[1].error) == ("Is it alive?", None)
    assert rows[1].cached is True and rows[0].cached is False
    assert rows[0].seat == "guesser" and rows[0].match_id == match_id
    assert rows[0].to_call_record() == call("Is it alive?")
    assert rows[0].params == {"temperature": 0.0, "max_tokens": 96, "stop": ["\n"]}

    with pytest.raises(NotFoundError, match="999999"):
        store.mark_calls([first[0], 999999], parsed="x", error=None)
    assert store.calls(match_id)[0].parsed is None


def test_runs_listing_and_status(store: Store) -> None:
    assert store.latest_run_id() is None
    assert store.list_runs() == []
    config = {"models": ["mock/a", "mock/b"], "opponent": "scripted", "n": 4, "seed": 1, "concurrency": 2}
    run_ids = [store.create_run("akinator", level, config) for level in (1, 2, 3)]
    assert all(len(run_id) == 12 and int(run_id, 16) >= 0 for run_id in run_ids)
    assert store.latest_run_id() == run_ids[-1]
    assert [run.id for run in store.list_runs()] == run_ids[::-1]
    assert [run.id for run in store.list_runs(limit=2)] == run_ids[:0:-1]

    run = store.get_run(run_ids[0])
    assert (run.game, run.level, run.config, run.status) == ("akinator", 1, config, "running")
    store.set_run_status(run_ids[0], "interrupted")
    assert store.get_run(run_ids[0]).status == "interrupted"
    store.set_run_status(run_ids[0], "finished")
    assert store.get_run(run_ids[0]).status == "finished"
    with pytest.raises(ValueError, match="unknown run status"):
        store.set_run_status(run_ids[0], "paused")  # type: ignore[arg-type]


def test_run_matches_in_index_order(store: Store) -> None:
    run_id = store.create_run("akinator", 2, {})
    ids = {
        index: store.create_match(spec=spec(seed=index), seats=seats(), run_id=run_id, match_index=index)
        for index in (2, 0, 1)
    }
    other = store.create_run("akinator", 2, {})
    store.create_match(spec=spec(), seats=seats(), run_id=other, match_index=0)
    matches = store.run_matches(run_id)
    assert [match.match_index for match in matches] == [0, 1, 2]
    assert [match.id for match in matches] == [ids[0], ids[1], ids[2]]
    assert all(match.seats == seats() for match in matches)
    assert [match.seed for match in matches] == [0, 1, 2]
