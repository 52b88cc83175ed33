"""Exporting a run as JSON lines, on SQLite and (marked postgres) PostgreSQL."""

from __future__ import annotations

import io
import json

from store_factories import call, outcome, seats, spec

from playeval.core.events import (
    SCHEMA_VERSION,
    ActionApplied,
    AskIssued,
    MatchEnded,
    MatchStarted,
    ReplyReceived,
    parse_event,
)
from playeval.core.match import Action
from playeval.store import Store, export_run_jsonl, read_run_jsonl


def _played_run(store: Store) -> tuple[str, list[str]]:
    run_id = store.create_run("akinator", 2, {"models": ["mock/echo"], "n": 2, "seed": 7})
    match_ids = []
    for index in range(2):
        match_id = store.create_match(
            spec=spec(seed=index), seats=seats(), run_id=run_id, match_index=index, evaluated_model="mock/echo"
        )
        store.append_event(match_id, AskIssued(seat="guesser", kind="question", attempt=0))
        call_ids = store.add_calls(match_id, [call()], seat="guesser")
        store.mark_calls(call_ids, parsed="Is it alive?", error=None)
        store.append_event(
            match_id, ReplyReceived(seat="guesser", text="Question 1: Is it alive?", call_ids=tuple(call_ids))
        )
        store.append_event(match_id, ActionApplied(action=Action(seat="guesser", kind="question", text="Is it alive?")))
        if index == 0:
            store.finish_match(match_id, outcome())
        match_ids.append(match_id)
    return run_id, match_ids


def test_export_lines_are_self_contained_json(store: Store) -> None:
    run_id, match_ids = _played_run(store)
    out = io.StringIO()
    assert export_run_jsonl(store, run_id, out) == 2

    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [line["type"] for line in lines] == ["run", "match", "match"]
    header = lines[0]
    assert header["id"] == run_id and header["schema_version"] == SCHEMA_VERSION
    assert header["config"] == {"models": ["mock/echo"], "n": 2, "seed": 7}

    first, second = lines[1], lines[2]
    assert [first["id"], second["id"]] == match_ids
    assert first["schema_version"] == SCHEMA_VERSION
    assert first["spec"]["setup"] == {"secret": "giraffe"}
    assert [seat["seat"] for seat in first["seats"]] == ["guesser", "answerer"]
    assert first["outcome"]["winners"] == ["guesser"] and second["outcome"] is None
    assert [event["seq"] for event in first["events"]] == [1, 2, 3, 4, 5]
    events = [parse_event(event["event"]) for event in first["events"]]
    assert isinstance(events[0], MatchStarted) and isinstance(events[-1], MatchEnded)
    assert events[0].spec == spec(seed=0)
    reply = events[2]
    assert isinstance(reply, ReplyReceived)
    assert list(reply.call_ids) == [row["id"] for row in first["calls"]]
    assert first["calls"][0]["messages"][0]["role"] == "system"
    assert first["calls"][0]["parsed"] == "Is it alive?"


def test_export_reads_back_into_equal_records(store: Store) -> None:
    run_id, match_ids = _played_run(store)
    out = io.StringIO()
    export_run_jsonl(store, run_id, out)

    exported = read_run_jsonl(io.StringIO(out.getvalue()))
    assert exported.run == store.get_run(run_id)
    assert [item.match for item in exported.matches] == store.run_matches(run_id)
    for item, match_id in zip(exported.matches, match_ids, strict=True):
        assert list(item.events) == store.event_records(match_id)
        assert list(item.calls) == store.calls(match_id)


def test_export_of_empty_run(store: Store) -> None:
    run_id = store.create_run("akinator", 1, {})
    out = io.StringIO()
    assert export_run_jsonl(store, run_id, out) == 0
    exported = read_run_jsonl(out.getvalue().splitlines())
    assert exported.run.id == run_id and exported.matches == ()
