"""Where the engine writes a match as it happens.

``playeval.store.Store`` satisfies this protocol; ``MemoryRecorder`` keeps
everything in lists, for benchmarks and tests that need no database.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from playeval.core.ask import CallRecord
from playeval.core.attempt import Attempt
from playeval.core.events import Event, MatchEnded, MatchStarted, RoleAssignment, SeatAssignment
from playeval.core.match import MatchSpec, Outcome


class Recorder(Protocol):
    def create_match(self, *, spec: MatchSpec, seats: Sequence[SeatAssignment],
                     roles: Sequence[RoleAssignment] = (), run_id: str | None = None,
                     match_index: int | None = None, evaluated_model: str | None = None) -> str: ...

    def append_event(self, match_id: str, event: Event) -> int:
        """Append one event; returns its seq."""
        ...

    def append_move(self, match_id: str, attempts: Sequence[Attempt]) -> int:
        """Append a move's tries (their model calls, asks, replies, refusals and the action) all at once;
        returns the last seq."""
        ...

    def finish_match(self, match_id: str, outcome: Outcome) -> None: ...


@dataclass
class MemoryRecorder:
    """An in-memory recorder: the event log of each match in a dict."""

    events: dict[str, list[Event]] = field(default_factory=dict)
    calls: list[CallRecord] = field(default_factory=list)
    outcomes: dict[str, Outcome] = field(default_factory=dict)

    def create_match(self, *, spec: MatchSpec, seats: Sequence[SeatAssignment],
                     roles: Sequence[RoleAssignment] = (), run_id: str | None = None,
                     match_index: int | None = None, evaluated_model: str | None = None) -> str:
        match_id = f"m{len(self.events):06d}"
        self.events[match_id] = [MatchStarted(spec=spec, seats=tuple(seats), roles=tuple(roles))]
        return match_id

    def append_event(self, match_id: str, event: Event) -> int:
        self.events[match_id].append(event)
        return len(self.events[match_id])

    def append_move(self, match_id: str, attempts: Sequence[Attempt]) -> int:
        for attempt in attempts:
            start = len(self.calls)
            self.calls.extend(attempt.calls)
            self.events[match_id].extend(attempt.events(range(start + 1, len(self.calls) + 1)))
        return len(self.events[match_id])

    def finish_match(self, match_id: str, outcome: Outcome) -> None:
        self.events[match_id].append(MatchEnded(outcome=outcome))
        self.outcomes[match_id] = outcome
