"""One try of a move, as it is recorded: the ask (unless already in the log), the reply with the model calls
behind it, and the action it became or the reason it was refused.

A move is one or more tries (re-asks after refused replies); a recorder writes a move's tries together, so a
log never holds half a move of a model.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from playeval.core.ask import Ask, CallRecord
from playeval.core.errors import MoveError
from playeval.core.events import ActionApplied, AskIssued, Event, ReplyReceived, ReplyRejected
from playeval.core.match import Action


@dataclass(frozen=True)
class Attempt:
    ask: Ask
    text: str
    calls: tuple[CallRecord, ...] = ()
    action: Action | None = None
    error: MoveError | None = None
    ask_recorded: bool = False
    """The log already holds this try's ask (a person's turn, or a move resumed after a crash)."""
    _shared: tuple[Event, ...] | None = field(default=None, init=False, repr=False, compare=False)
    """The events without call ids, once built (functools.cached_property takes a lock per read on Python 3.11)."""

    @property
    def parsed(self) -> str | None:
        """What the model calls behind the reply are marked with: the move read from them."""
        return self.action.text if self.action is not None else None

    @property
    def call_error(self) -> str | None:
        """What the model calls behind a refused reply are marked with: the error and its reason."""
        return None if self.error is None else f"{self.error.kind}: {self.error.reason}"

    @property
    def event_count(self) -> int:
        """How many events :meth:`events` returns (counted without building them)."""
        return (not self.ask_recorded) + 1 + (self.error is not None or self.action is not None)

    def events(self, call_ids: Sequence[int]) -> list[Event]:
        """The events of this try, given the stored ids of its model calls. Without ids they are built once: the
        game master's log and a recorder share them (events are immutable)."""
        if not call_ids:
            shared = self._shared
            if shared is None:
                shared = tuple(self._build_events(()))
                object.__setattr__(self, "_shared", shared)  # a cache on a frozen dataclass
            return list(shared)
        return self._build_events(tuple(call_ids))

    def _build_events(self, call_ids: tuple[int, ...]) -> list[Event]:
        ask = self.ask
        found: list[Event] = []
        if not self.ask_recorded:
            found.append(AskIssued(seat=ask.seat, role=ask.role, kind=ask.kind, attempt=ask.attempt))
        found.append(ReplyReceived(seat=ask.seat, role=ask.role, text=self.text, call_ids=call_ids))
        if self.error is not None:
            found.append(ReplyRejected(seat=ask.seat, role=ask.role, error=self.error.kind,  # type: ignore[arg-type]
                                       reason=self.error.reason, text=self.text))
        elif self.action is not None:
            found.append(ActionApplied(action=self.action))
        return found
