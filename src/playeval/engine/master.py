"""The game master's fixed step, shared by batch runs, the terminal and the web (``engine.step``).

One move is: ask, take the reply, parse it (a format error), apply it (a rule violation); a refused reply is
re-asked with the reason until the player's allowance is spent. :func:`play_move` plays a move without writing
anything; the recorder then writes all its tries at once, so a log never holds half a model's move. Where a
move stands is read off the log: the refusals recorded since a seat's (or role's) last closed move rebuild its
re-ask exactly, so a match resumed mid-move continues the same move.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from playeval.core.ask import Ask, CallRecord
from playeval.core.attempt import Attempt
from playeval.core.errors import MoveError
from playeval.core.events import (
    ActionApplied,
    AskIssued,
    Event,
    ReplyReceived,
    ReplyRejected,
    SeatEliminated,
    SeatTakenOver,
)
from playeval.core.game import Game, fold
from playeval.core.held import live_asks
from playeval.core.match import MatchSpec
from playeval.core.verdicts import VERDICTS_KEY, VerdictRecord
from playeval.players.base import Player


def state_from_events(game: Game[Any], spec: MatchSpec, events: Sequence[Event]) -> Any:
    """The game state: the fold of the applied actions and eliminations of a log."""
    return fold(game, spec, events)


def _party_of(event: Event) -> str | None:
    if isinstance(event, ActionApplied):
        return event.action.party
    if isinstance(event, (AskIssued, ReplyReceived, ReplyRejected)):  # a tuple: faster than a union here
        return event.party
    if isinstance(event, (SeatEliminated, SeatTakenOver)):
        return event.seat
    return None


_CLOSING = (ActionApplied, SeatEliminated, SeatTakenOver)
"""The events that close a party's move."""


def _since_close(events: Sequence[Event], party: str) -> list[Event]:
    """The party's events since its last closed move (an applied action, an elimination, a take-over)."""
    found: list[Event] = []
    for event in reversed(events):
        if _party_of(event) != party:
            continue
        if isinstance(event, _CLOSING):
            break
        found.append(event)
    found.reverse()
    return found


class OpenMoves:
    """Each party's events since its last closed move in ``log``, a log that only grows while this is used: read
    off the log once per party, then kept up to date from the events added since (the game master's loop asks
    this twice a move, which would otherwise scan the log's tail each time)."""

    __slots__ = ("_log", "_seen", "_since")

    def __init__(self, log: Sequence[Event]) -> None:
        self._log = log
        self._seen = len(log)
        self._since: dict[str, list[Event]] = {}

    def since_close(self, party: str) -> list[Event]:
        """:func:`_since_close` of the log as it is now (the list is kept: do not change it)."""
        log = self._log
        if self._seen < len(log):
            since = self._since
            for index in range(self._seen, len(log)):
                event = log[index]
                kind = type(event)  # the events of a move by their exact type first: this runs for every event
                if kind is ActionApplied:
                    party_of: str | None = event.action.party  # type: ignore[union-attr]
                    closes = True
                elif kind is AskIssued or kind is ReplyReceived or kind is ReplyRejected:
                    party_of = event.party  # type: ignore[union-attr]
                    closes = False
                else:
                    party_of = _party_of(event)
                    closes = isinstance(event, _CLOSING)
                found = since.get(party_of) if party_of is not None else None
                if found is None:  # a party not asked about yet (read off the log when it is), or no party
                    continue
                if closes:
                    since[party_of] = []  # type: ignore[index]
                else:
                    found.append(event)
            self._seen = len(log)
        found = self._since.get(party)
        if found is None:
            found = self._since[party] = _since_close(log, party)
        return found


def pending_rejections(events: Sequence[Event], party: str, moves: OpenMoves | None = None) -> list[ReplyRejected]:
    """The party's refused replies since its last closed move: the re-asks of the move under way."""
    found = (moves or OpenMoves(events)).since_close(party)
    if not found:  # the party's last move is closed (most asks)
        return []
    return [event for event in found if isinstance(event, ReplyRejected)]


def current_asks(game: Game[Any], state: Any, events: Sequence[Event], moves: OpenMoves | None = None, *,
                 spec: MatchSpec) -> tuple[Ask, ...]:
    """The open asks, each with its party's refused replies and their reasons folded in (``moves``: kept over
    ``events`` by the caller, else read off them); a seat's ask is built from the live state, without the roles'
    held text (``core.held.live_asks``; ``spec``: the match's)."""
    moves = moves or OpenMoves(events)
    asks: list[Ask] = []
    for opened in live_asks(game, spec, events, state, game.next_asks(state)):
        ask = opened
        for rejection in pending_rejections(events, ask.party, moves):
            ask = ask.retry(rejection.text, rejection.reason)
        asks.append(ask)
    return tuple(asks)


def ask_recorded(events: Sequence[Event], ask: Ask, moves: OpenMoves | None = None) -> bool:
    """Whether the log holds this ask, issued and not yet answered."""
    pending = (moves or OpenMoves(events)).since_close(ask.party)
    if not pending:  # the party's last move is closed (most asks)
        return False
    last_ask = max((i for i, e in enumerate(pending) if isinstance(e, AskIssued) and e.attempt == ask.attempt),
                   default=None)
    if last_ask is None:
        return False
    return not any(isinstance(event, ReplyReceived) for event in pending[last_ask + 1:])


@dataclass(frozen=True)
class Move:
    """A move as played: every try, and the state after it; ``failure`` when the party ran out of re-asks."""

    attempts: tuple[Attempt, ...]
    state: Any
    failure: MoveError | None

    @property
    def ask(self) -> Ask:
        return self.attempts[0].ask


def judge(game: Game[Any], state: Any, ask: Ask, text: str, *, calls: tuple[CallRecord, ...] = (),
          ask_recorded: bool = False, verdicts: tuple[VerdictRecord, ...] = ()) -> tuple[Any, Attempt]:
    """A reply to ``ask`` read and applied against ``state``: the new state (unchanged when refused) and the try,
    with the model calls behind the reply and whether the log already holds the ask. ``verdicts`` (a judge's
    reply, ``Reply.verdicts``) are kept in the action's data, so the log says what decided each verdict."""
    try:
        action = game.parse(state, ask, text)
        if verdicts:
            action = action.model_copy(update={"data": {
                **action.data, VERDICTS_KEY: [record.model_dump(mode="json") for record in verdicts]}})
        new_state = game.apply(state, action)
    except MoveError as err:
        return state, Attempt(ask=ask, text=text, calls=calls, error=err, ask_recorded=ask_recorded)
    return new_state, Attempt(ask=ask, text=text, calls=calls, action=action, ask_recorded=ask_recorded)


async def play_move(game: Game[Any], state: Any, ask: Ask, player: Player, *, asked: bool = False) -> Move:
    """Ask ``player`` until a reply is accepted or its re-asks are spent; nothing is recorded here.

    ``asked``: the log already holds the first ask (it is not written again).
    """
    attempts: list[Attempt] = []
    while True:
        reply = await player.act(ask)
        new_state, attempt = judge(game, state, ask, reply.text, calls=reply.calls,
                                   ask_recorded=asked and not attempts, verdicts=reply.verdicts)
        attempts.append(attempt)
        if attempt.error is None:
            return Move(attempts=tuple(attempts), state=new_state, failure=None)
        if ask.attempt >= player.max_retries:
            return Move(attempts=tuple(attempts), state=state, failure=attempt.error)
        ask = ask.retry(reply.text, attempt.error.reason)
