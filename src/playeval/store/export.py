"""Exporting a run as JSON lines, and reading such a file back.

The file is self-contained: a ``run`` header line, then one ``match`` line per
match holding its spec (secret included), seats, outcome, full event log and
model calls, so every match can be replayed and re-scored from the file alone.

Reading checks that the file is whole: every line parses (a line cut short is
named by its number), each match belongs to the run and appears once, its log
runs from seq 1 without a gap, a repeat or a step back and ends as its status
says, and every call its log or its retrospective outputs name is there.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any, TextIO

from pydantic import ValidationError

from playeval.core.errors import PlayevalError
from playeval.core.events import SCHEMA_VERSION, ReplyReceived
from playeval.store.records import (
    CallRow,
    EventRecord,
    ExportedMatch,
    ExportedRun,
    MatchRecord,
    RetroRecord,
    RunRecord,
)
from playeval.store.store import Store


def _write_line(out: TextIO, line: dict[str, Any]) -> None:
    out.write(json.dumps(line, ensure_ascii=False, separators=(",", ":")))
    out.write("\n")


def export_run_jsonl(store: Store, run_id: str, out: TextIO) -> int:
    """Write run ``run_id`` to ``out`` as JSON lines; returns the number of matches written."""
    run = store.get_run(run_id)
    header: dict[str, Any] = {"type": "run", "schema_version": SCHEMA_VERSION, **run.model_dump(mode="json")}
    _write_line(out, header)
    count = 0
    for match in store.run_matches(run_id):
        line: dict[str, Any] = {
            "type": "match",
            "schema_version": SCHEMA_VERSION,
            **match.model_dump(mode="json"),
            "events": [record.model_dump(mode="json") for record in store.event_records(match.id)],
            "calls": [call.model_dump(mode="json") for call in store.calls(match.id)],
            "retro": [record.model_dump(mode="json") for record in store.retro_outputs(match.id)],
        }
        _write_line(out, line)
        count += 1
    return count


def read_run_jsonl(lines: Iterable[str]) -> ExportedRun:
    """Parse a file written by :func:`export_run_jsonl` back into typed records, checking that it is whole.

    Raises :class:`PlayevalError` naming the line of the first problem: a line that is not whole JSON (cut
    short), a record that does not validate, a match of another run or seen twice, a log with an event
    removed, repeated or out of order, a finished match whose log does not end, a call named but missing.
    """
    header: RunRecord | None = None
    matches: list[ExportedMatch] = []
    seen = _Seen()
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        line = _json_line(number, text)
        kind = line.pop("type", None)
        version = line.pop("schema_version", None)
        if not isinstance(version, int) or version > SCHEMA_VERSION:
            raise PlayevalError(f"line {number}: unsupported export schema version {version!r}")
        try:
            if kind == "run" and header is None:
                header = RunRecord.model_validate(line)
            elif kind == "match" and header is not None:
                matches.append(_match(line, version))
            else:
                raise PlayevalError(f"line {number}: expected {_expected(header)}, found {kind!r}")
        except ValidationError as err:
            first = err.errors()[0]
            where = ".".join(str(part) for part in first.get("loc", ())) or kind
            raise PlayevalError(f"line {number}: invalid {where}: {first.get('msg', err)}") from None
        if kind == "match":
            _check_match(number, matches[-1], header, seen)
    if header is None:
        raise PlayevalError("empty export: no run header line")
    return ExportedRun(schema_version=SCHEMA_VERSION, run=header, matches=tuple(matches))


def _json_line(number: int, text: str) -> dict[str, Any]:
    try:
        line = json.loads(text)
    except json.JSONDecodeError as err:
        raise PlayevalError(f"line {number}: not a whole JSON line ({err.msg}, column {err.colno}); the file "
                            "was cut short or changed") from None
    if not isinstance(line, dict):
        raise PlayevalError(f"line {number}: expected a JSON object, found {type(line).__name__}")
    return line


def _match(line: dict[str, Any], version: int) -> ExportedMatch:
    events = line.pop("events", [])
    calls = [_call_v2(call) for call in line.pop("calls", [])] if version < 2 else line.pop("calls", [])
    retro = line.pop("retro", [])  # exports written before the retrospective analysis have none
    return ExportedMatch(
        match=MatchRecord.model_validate(line),
        events=tuple(EventRecord.model_validate(event) for event in events),
        calls=tuple(CallRow.model_validate(call) for call in calls),
        retro=tuple(RetroRecord.model_validate(record) for record in retro),
    )


@dataclass
class _Seen:
    """What the lines read so far hold: match ids, match indexes (to the match holding each) and call ids."""

    matches: set[str] = field(default_factory=set)
    indexes: dict[int, str] = field(default_factory=dict)
    calls: set[int] = field(default_factory=set)


def _check_match(number: int, item: ExportedMatch, run: RunRecord | None, seen: _Seen) -> None:
    """Raise for a match line that does not fit its run, the lines before it, or itself; then note it as seen."""
    match = item.match
    where = f"line {number}: match {match.id}"
    if run is None or match.run_id != run.id:
        raise PlayevalError(f"{where} belongs to run {match.run_id!r}, not to this file's run "
                            f"{None if run is None else run.id!r}")
    if match.id in seen.matches:
        raise PlayevalError(f"{where} appears twice")
    if match.match_index is not None and match.match_index in seen.indexes:
        raise PlayevalError(f"{where}: a second match with index {match.match_index} "
                            f"(match {seen.indexes[match.match_index]} has it)")
    problem = _log_problem(item, seen.calls)
    if problem is not None:
        raise PlayevalError(f"{where}: {problem}")
    seen.matches.add(match.id)
    if match.match_index is not None:
        seen.indexes[match.match_index] = match.id
    seen.calls.update(call.id for call in item.calls)


def _log_problem(item: ExportedMatch, earlier_calls: set[int]) -> str | None:
    """What is wrong with a match's log and calls (``earlier_calls``: the ids of the lines before), or ``None``."""
    seqs = [record.seq for record in item.events]
    seen: set[int] = set()
    for seq in seqs:
        if seq in seen:
            return f"event seq {seq} appears twice"
        seen.add(seq)
    for previous, seq in pairwise(seqs):
        if seq < previous:
            return f"events out of order (seq {seq} after seq {previous})"
    for position, seq in enumerate(seqs, start=1):
        if seq != position:
            return f"event seq {position} is missing (the log goes on at seq {seq})"
    types = [record.event.type for record in item.events]
    if not types or types[0] != "match_started":
        return "its log does not start with match_started"
    ended = types[-1] == "match_ended"
    if ended != (item.match.status == "finished") or "match_ended" in types[:-1]:
        return (f"its status is {item.match.status} but its log "
                f"{'ends with' if ended else 'does not end with'} match_ended")
    calls = {call.id for call in item.calls}
    if len(calls) != len(item.calls) or not calls.isdisjoint(earlier_calls):
        return "a model call appears twice"
    if any(call.match_id != item.match.id for call in item.calls):
        return "it holds a model call of another match"
    named = [(f"seq {record.seq}", call_id) for record in item.events if isinstance(record.event, ReplyReceived)
             for call_id in record.event.call_ids]
    named += [(f"retrospective output {retro.kind} of round {retro.round}", call_id) for retro in item.retro
              for call_id in retro.call_ids]
    for place, call_id in named:
        if call_id not in calls:
            return f"{place} names model call {call_id}, which is not in the file"
    return None


def _call_v2(call: dict[str, Any]) -> dict[str, Any]:
    """A call of a version-1 export as the store now keeps it: the retrospective analysis's calls, written under
    pseudo-seats ``retro:<kind>``, belong to the role of that name (store migration 0004 does the same)."""
    seat = call.get("seat")
    if isinstance(seat, str) and seat.startswith("retro:"):
        return {**call, "seat": None, "role": seat}
    return call


def _expected(header: RunRecord | None) -> str:
    return "a 'run' header first" if header is None else "'match'"
