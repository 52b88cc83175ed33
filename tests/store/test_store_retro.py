"""Retrospective outputs: stored with their calls, read back in order, never replaced."""

from __future__ import annotations

import io

import pytest
from store_factories import call, seats, spec

from playeval.store import DuplicateRetro, Store, export_run_jsonl, read_run_jsonl


def test_retro_outputs_round_trip_with_their_calls(db_url: str) -> None:
    with Store.open(db_url) as store:
        match_id = store.create_match(spec=spec(), seats=seats())
        judged = store.add_retro(match_id, 2, "split", "mock/echo", output={"answers": ["Yes", "No"]}, error=None,
                                 calls=[call("1. Yes\n2. No")])
        store.add_retro(match_id, 2, "candidates", "mock/echo", output=["giraffe", "zebra"], error=None,
                        calls=[call("1. giraffe\n2. zebra")])
        store.add_retro(match_id, 1, "candidates", "mock/echo", output=None, error="format: no list",
                        calls=[call("nonsense"), call("more nonsense")])
        outputs = store.retro_outputs(match_id)
        assert [(o.kind, o.round) for o in outputs] == [("candidates", 1), ("candidates", 2), ("split", 2)]
        assert outputs[0].output is None and outputs[0].error == "format: no list"
        assert outputs[1].output == ["giraffe", "zebra"]
        assert outputs[2].output == {"answers": ["Yes", "No"]} and outputs[2].call_ids == judged.call_ids
        retro_calls = [c for c in store.calls(match_id) if c.role == "retro:candidates" and c.seat is None]
        assert [c.raw_output for c in retro_calls] == ["1. giraffe\n2. zebra", "nonsense", "more nonsense"]
        assert set(outputs[0].call_ids) == {c.id for c in retro_calls[1:]}


def test_a_retro_output_is_never_replaced(db_url: str) -> None:
    with Store.open(db_url) as store:
        match_id = store.create_match(spec=spec(), seats=seats())
        store.add_retro(match_id, 1, "judgement", "mock/echo", output={"level": "Unknown"}, error=None, calls=[])
        with pytest.raises(DuplicateRetro):
            store.add_retro(match_id, 1, "judgement", "mock/echo", output={"level": "True"}, error=None,
                            calls=[call()])
        outputs = store.retro_outputs(match_id)
        assert len(outputs) == 1 and outputs[0].output == {"level": "Unknown"}
        assert not [c for c in store.calls(match_id) if c.role == "retro:judgement"]  # the failed write left nothing


def test_the_export_carries_retro_outputs(db_url: str) -> None:
    with Store.open(db_url) as store:
        run_id = store.create_run("akinator", 1, {"games": ["akinator"]})
        match_id = store.create_match(spec=spec(), seats=seats(), run_id=run_id, match_index=0)
        store.add_retro(match_id, 1, "candidates", "mock/echo", output=["giraffe"], error=None, calls=[call()])
        buffer = io.StringIO()
        export_run_jsonl(store, run_id, buffer)
    exported = read_run_jsonl(buffer.getvalue().splitlines())
    (match,) = exported.matches
    assert [(r.round, r.kind, r.output) for r in match.retro] == [(1, "candidates", ["giraffe"])]
