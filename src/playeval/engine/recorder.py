"""Where the engine writes a match as it happens.

``playeval.store.Store`` satisfies this protocol; ``MemoryRecorder`` keeps
everything in lists, for benchmarks and tests that need no database.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from playeval.core.ask import CallRecord
from playeval.core.events import Event, MatchEnded, MatchStarted, SeatAssignment
from playeval.core.match import MatchSpec, Outcome


class Recorder(Protocol):
    def create_match(self, *, spec: MatchSpec, seats: Sequence[SeatAssignment], run_id: str | None = None,
                     match_index: int | None = None, evaluated_model: str | None = None) -> str: ...

    def append_event(self, match_id: str, event: Event) -> int: ...

    def add_calls(self, match_id: str | None, seat: str | None, calls: Sequence[CallRecord]) -> list[int]: ...

    def mark_calls(self, call_ids: Sequence[int], *, parsed: str | None, error: str | None) -> None: ...

    def finish_match(self, match_id: str, outcome: Outcome) -> None: ...


@dataclass
class MemoryRecorder:
    """An in-memory recorder: the event log of each match in a dict."""

    events: dict[str, list[Event]] = field(default_factory=dict)
    calls: list[CallRecord] = field(default_factory=list)
    outcomes: dict[str, Outcome] = field(default_factory=dict)

    def create_match(self, *, spec: MatchSpec, seats: Sequence[SeatAssignment], run_id: str | None = None,
                     match_index: int | None = None, evaluated_model: str | None = None) -> str:
        match_id = f"m{len(self.events):06d}"
        self.events[match_id] = [MatchStarted(spec=spec, seats=tuple(seats))]
        return match_id

    def append_event(self, match_id: str, event: Event) -> int:
        self.events[match_id].append(event)
        return len(self.events[match_id])

    def add_calls(self, match_id: str | None, seat: str | None, calls: Sequence[CallRecord]) -> list[int]:
        start = len(self.calls)
        self.calls.extend(calls)
        return list(range(start + 1, len(self.calls) + 1))

    def mark_calls(self, call_ids: Sequence[int], *, parsed: str | None, error: str | None) -> None:
        return None

    def finish_match(self, match_id: str, outcome: Outcome) -> None:
        self.events[match_id].append(MatchEnded(outcome=outcome))
        self.outcomes[match_id] = outcome
