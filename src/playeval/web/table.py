"""A match as the arena reads it at one moment, and where its table stands.

:class:`Loaded` is what the store holds about a match (its record, its arena row with the people's seats, its
log). :class:`Table` is the state folded from that log: who holds each seat now (take-overs applied), who plays
each role, which asks are open and whose they are. An ask is a person's when it goes to a seat a person still
holds, or to a role bound to such a seat (``RoleAssignment.seat``); every other open ask is a model's (or a
scripted player's), to be played by the model step.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from playeval.core.ask import Ask
from playeval.core.errors import NotFoundError
from playeval.core.events import (
    ActionApplied,
    AskIssued,
    Event,
    MatchEnded,
    RoleAssignment,
    SeatAssignment,
    SeatEliminated,
    SeatTakenOver,
)
from playeval.core.game import Game
from playeval.core.held import live_state
from playeval.core.match import MatchSpec, Outcome
from playeval.engine.master import ask_recorded, current_asks, state_from_events
from playeval.engine.plan import RunConfig, role_assignments
from playeval.engine.players import assignments
from playeval.store import EventRecord, MatchRecord, Store, WebMatchRecord, WebSeatRecord
from playeval.web.errors import NO_SUCH_MATCH, NotFound

HUMAN = "human"
MAX_MATCH_ID_CHARS = 32


@dataclass(frozen=True)
class Loaded:
    """A match as read from the store at one moment."""

    match: MatchRecord
    web: WebMatchRecord | None
    records: tuple[EventRecord, ...]

    @property
    def events(self) -> list[Event]:
        return [record.event for record in self.records]

    @property
    def seq(self) -> int:
        return self.records[-1].seq if self.records else 0

    @property
    def finished(self) -> bool:
        return self.match.status == "finished" or any(isinstance(r.event, MatchEnded) for r in self.records)

    @property
    def people(self) -> tuple[WebSeatRecord, ...]:
        return self.web.people if self.web is not None else ()

    def person(self, seat: str) -> WebSeatRecord | None:
        return next((person for person in self.people if person.seat == seat), None)

    def upto(self, seq: int) -> Loaded:
        """The match as it stood when its log ended at ``seq``."""
        return Loaded(match=self.match, web=self.web, records=tuple(r for r in self.records if r.seq <= seq))


def load(store: Store, match_id: str, *, arena_only: bool = True) -> Loaded:
    """A match as stored now; ``NotFound`` when there is none (or, with ``arena_only``, not an arena one)."""
    if not match_id.isalnum() or len(match_id) > MAX_MATCH_ID_CHARS:
        raise NotFound(NO_SUCH_MATCH)
    try:
        match = store.get_match(match_id)
    except NotFoundError:
        raise NotFound(NO_SUCH_MATCH) from None
    try:
        web: WebMatchRecord | None = store.get_web_match(match_id)
    except NotFoundError:
        if arena_only:
            raise NotFound(NO_SUCH_MATCH) from None
        web = None
    return Loaded(match=match, web=web, records=tuple(store.event_records(match_id)))


def bind_roles(game: Game[Any], spec: MatchSpec, seats: Mapping[str, SeatAssignment], local_model: str,
               roles: Mapping[str, str] | None = None) -> tuple[RoleAssignment, ...]:
    """Every role's binding as a run would make it (``engine.plan.role_assignments``): the arena's ``roles``
    (``ArenaSettings.roles``), else the game's default, with ``local`` meaning ``local_model``, and
    ``seat:NAME`` whoever holds that seat (refused for a role whose asks show what that seat may not see)."""
    config = RunConfig(games=(game.id,), models=(local_model,), opponent=local_model, n=1, roles=dict(roles or {}))
    return role_assignments(game, config, seats, local_model, spec=spec)


@dataclass(frozen=True)
class Table:
    """Where a match stands: its state, its seats and roles as they are now, and its open asks.

    ``asks`` is empty once the match is over (recorded, or ended by the rules and about to be recorded).
    ``shown`` is the state the views are built from: ``state`` with the held text of roles blanked until the
    match is over (``core.held.live_state``); moves are judged against ``state``.
    """

    game: Game[Any]
    loaded: Loaded
    state: Any
    shown: Any
    seats: dict[str, SeatAssignment]
    roles: dict[str, RoleAssignment]
    asks: tuple[Ask, ...]
    rules_outcome: Outcome | None

    @property
    def live(self) -> bool:
        return not self.loaded.finished and self.rules_outcome is None

    @property
    def people(self) -> tuple[str, ...]:
        """The seats people hold now (a seat taken over by a model is no longer a person's)."""
        return tuple(name for name, seat in self.seats.items() if seat.player_kind == HUMAN)

    def seat_of(self, party: str) -> str | None:
        """The seat that answers ``party``'s asks: the seat itself, or the seat a role is bound to."""
        if party in self.seats:
            return party
        role = self.roles.get(party)
        return role.seat if role is not None else None

    def for_person(self, ask: Ask) -> bool:
        """Whether a person answers this ask (their seat's, or a role bound to their seat)."""
        return self.seat_of(ask.party) in self.people

    def asks_of(self, seat: str) -> tuple[Ask, ...]:
        """The open asks the person in ``seat`` answers (none once a model holds the seat)."""
        if seat not in self.people:
            return ()
        return tuple(ask for ask in self.asks if self.seat_of(ask.party) == seat)

    def waiting_for(self) -> tuple[str, ...]:
        """The people's seats with an open ask, in table order."""
        asked = {self.seat_of(ask.party) for ask in self.asks if self.for_person(ask)}
        return tuple(name for name in self.seats if name in asked)

    def model_due(self) -> bool:
        """Whether the model step has something to do: an open ask a model plays, a person's open ask not yet
        recorded (its time runs from its record), or an outcome the rules reached but nobody recorded."""
        if self.loaded.finished:
            return False
        if self.rules_outcome is not None:
            return True
        events = self.loaded.events
        return any(not self.for_person(ask) or not ask_recorded(events, ask) for ask in self.asks)

    def asked_at(self, party: str) -> datetime | None:
        """When the party's open move was first asked: the first ``AskIssued`` since its last closed move."""
        first: datetime | None = None
        for record in reversed(self.loaded.records):
            event = record.event
            if _closes(event, party):
                break
            if isinstance(event, AskIssued) and event.party == party:
                first = record.created_at
        return first


def _closes(event: Event, party: str) -> bool:
    if isinstance(event, ActionApplied):
        return event.action.party == party
    return isinstance(event, SeatEliminated | SeatTakenOver) and event.seat == party


def build_table(game: Game[Any], loaded: Loaded, local_model: str) -> Table:
    """The table of ``loaded``. Roles missing from the log (logs of schema version 1 had none) get the game's
    default binding (not the arena's ``roles``: those apply to tables set up under them)."""
    events = loaded.events
    spec = loaded.match.spec
    seat_list, role_list = assignments(events)
    seats = {seat.seat: seat for seat in seat_list}
    roles = {role.role: role for role in role_list}
    missing = [info.name for info in game.roles if info.name not in roles]
    if missing:
        roles.update((role.role, role) for role in bind_roles(game, spec, seats, local_model)
                     if role.role in missing)
    state = state_from_events(game, spec, events)
    rules = game.outcome(state)
    asks = current_asks(game, state, events, spec=spec) if not loaded.finished and rules is None else ()
    shown = live_state(game, spec, events, state, over=loaded.finished)
    return Table(game=game, loaded=loaded, state=state, shown=shown, seats=seats, roles=roles, asks=tuple(asks),
                 rules_outcome=rules)


def seat_key(table: Table, ask: Ask) -> tuple[str, str, int, str, int]:
    """What identifies one open ask of a party: the same key at two moments means the same move is awaited."""
    closed = sum(1 for event in table.loaded.events if isinstance(event, ActionApplied)
                 and event.action.party == ask.party)
    return ask.party, ask.kind, ask.attempt, ask.display, closed
