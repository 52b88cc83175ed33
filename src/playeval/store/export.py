"""Exporting a run as JSON lines, and reading such a file back.

The file is self-contained: a ``run`` header line, then one ``match`` line per
match holding its spec (secret included), seats, outcome, full event log and
model calls, so every match can be replayed and re-scored from the file alone.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, TextIO

from pydantic import BaseModel, ConfigDict

from playeval.core.errors import PlayevalError
from playeval.core.events import SCHEMA_VERSION
from playeval.store.records import CallRow, EventRecord, MatchRecord, RetroRecord, RunRecord
from playeval.store.store import Store


class ExportedMatch(BaseModel):
    """A match as read back from an export: its record, its log and its calls."""

    model_config = ConfigDict(frozen=True)

    match: MatchRecord
    events: tuple[EventRecord, ...]
    calls: tuple[CallRow, ...]
    retro: tuple[RetroRecord, ...] = ()


class ExportedRun(BaseModel):
    model_config = ConfigDict(frozen=True)

    schema_version: int
    run: RunRecord
    matches: tuple[ExportedMatch, ...]


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
    """Parse a file written by :func:`export_run_jsonl` back into typed records."""
    header: dict[str, Any] | None = None
    matches: list[ExportedMatch] = []
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        line: dict[str, Any] = json.loads(text)
        kind = line.pop("type", None)
        version = line.pop("schema_version", None)
        if not isinstance(version, int) or version > SCHEMA_VERSION:
            raise PlayevalError(f"line {number}: unsupported export schema version {version!r}")
        if kind == "run" and header is None:
            header = line
        elif kind == "match" and header is not None:
            events = line.pop("events")
            calls = [_call_v2(call) for call in line.pop("calls")] if version < 2 else line.pop("calls")
            retro = line.pop("retro", [])  # exports written before the retrospective analysis have none
            matches.append(
                ExportedMatch(
                    match=MatchRecord.model_validate(line),
                    events=tuple(EventRecord.model_validate(event) for event in events),
                    calls=tuple(CallRow.model_validate(call) for call in calls),
                    retro=tuple(RetroRecord.model_validate(record) for record in retro),
                )
            )
        else:
            raise PlayevalError(f"line {number}: expected {_expected(header)}, found {kind!r}")
    if header is None:
        raise PlayevalError("empty export: no run header line")
    return ExportedRun(schema_version=SCHEMA_VERSION, run=RunRecord.model_validate(header), matches=tuple(matches))


def _call_v2(call: dict[str, Any]) -> dict[str, Any]:
    """A call of a version-1 export as the store now keeps it: the retrospective analysis's calls, written under
    pseudo-seats ``retro:<kind>``, belong to the role of that name (store migration 0004 does the same)."""
    seat = call.get("seat")
    if isinstance(seat, str) and seat.startswith("retro:"):
        return {**call, "seat": None, "role": seat}
    return call


def _expected(header: dict[str, Any] | None) -> str:
    return "a 'run' header first" if header is None else "'match'"
