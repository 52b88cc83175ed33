"""The step-wise game master: a match moved one request at a time, with no coroutine living per match.

A web match is played in short steps, each starting from the recorded log:

* :func:`advance` plays every seat that has a player (a model, a scripted player) until the match ends or
  the seat to move is a person's (``players[seat] is None``), whose ask it then records once;
* :func:`submit` takes a person's reply: it checks the turn, records the reply and then the applied action
  or the rejection with its reason. A person is never forfeited for a bad reply; they simply try again.

Both use the same parse/apply/re-ask/forfeit step as the batch loop (``engine.master``). Whoever calls them
makes sure one step runs at a time per match (the web arena's lease); the log stays the single truth, so a
step that starts from a fresh read of the log can be run by any process, after any restart.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from playeval.core.errors import PlayevalError
from playeval.core.events import AskIssued, Event, MatchEnded
from playeval.core.game import Game
from playeval.core.match import Action, MatchSpec, Outcome
from playeval.engine.master import ask_recorded, current_ask, judge_reply, state_from_events, take_move
from playeval.engine.recorder import Recorder
from playeval.players.base import Player

__all__ = ["MatchOver", "NotYourTurn", "StepResult", "SubmitResult", "abandon", "advance", "submit"]


class NotYourTurn(PlayevalError):
    """A reply from a seat that is not the one to move; nothing was recorded."""

    def __init__(self, seat: str, to_move: str) -> None:
        super().__init__(f"it is not the {seat}'s turn: the {to_move} is to move")
        self.seat = seat
        self.to_move = to_move


class MatchOver(PlayevalError):
    """A reply or an abandon for a match that has already ended; nothing was recorded."""

    def __init__(self) -> None:
        super().__init__("the match is over")


@dataclass(frozen=True)
class StepResult:
    """Where a match stands after :func:`advance`.

    ``waiting_for`` is the person's seat whose move is awaited (``None`` once the match is over);
    ``moves`` counts the actions applied by this call.
    """

    state: Any
    outcome: Outcome | None
    waiting_for: str | None
    moves: int


@dataclass(frozen=True)
class SubmitResult:
    """A person's reply as judged: the action it became, or the reason it was refused."""

    accepted: bool
    action: Action | None
    error: Literal["format", "rule"] | None
    reason: str | None
    outcome: Outcome | None
    state: Any


def _ended(events: Sequence[Event]) -> Outcome | None:
    for event in reversed(events):
        if isinstance(event, MatchEnded):
            return event.outcome
    return None


async def advance(game: Game[Any], spec: MatchSpec, events: Sequence[Event], players: Mapping[str, Player | None],
                  recorder: Recorder, match_id: str) -> StepResult:
    """Play the seats that have players, from the state folded out of ``events``, until a person must move.

    A match whose log already ends with an outcome is left alone; one whose rules have ended it but whose
    outcome was not yet recorded (a step cut short) gets its outcome recorded now.
    """
    recorded = _ended(events)
    state = state_from_events(game, spec, events)
    if recorded is not None:
        return StepResult(state=state, outcome=recorded, waiting_for=None, moves=0)
    moves = 0
    first = True
    while (outcome := game.outcome(state)) is None:
        if first:
            ask = current_ask(game, state, events)
            asked = ask_recorded(events, ask)
        else:
            ask, asked = game.next_ask(state), False
        first = False
        player = players[ask.seat]
        if player is None:
            if not asked:
                recorder.append_event(match_id, AskIssued(seat=ask.seat, kind=ask.kind, attempt=ask.attempt))
            return StepResult(state=state, outcome=None, waiting_for=ask.seat, moves=moves)
        moved = await take_move(game, state, ask, player, recorder, match_id, already_asked=asked)
        if isinstance(moved, Outcome):
            outcome = moved
            break
        state, moves = moved, moves + 1
    recorder.finish_match(match_id, outcome)
    return StepResult(state=state, outcome=outcome, waiting_for=None, moves=moves)


def submit(game: Game[Any], spec: MatchSpec, events: Sequence[Event], seat: str, text: str, recorder: Recorder,
           match_id: str) -> SubmitResult:
    """A person's reply for ``seat``, judged against the state folded out of ``events``.

    Raises :class:`MatchOver` or :class:`NotYourTurn` (recording nothing) when the reply cannot be taken.
    Otherwise records the reply and the action or the rejection; after a rejection the same ask is recorded
    again as the next attempt, so the log reads like a model's re-ask. When the reply ends the match, its
    outcome is recorded too.
    """
    state = state_from_events(game, spec, events)
    if _ended(events) is not None or game.outcome(state) is not None:
        raise MatchOver()
    ask = current_ask(game, state, events)
    if ask.seat != seat:
        raise NotYourTurn(seat, ask.seat)
    if not ask_recorded(events, ask):
        recorder.append_event(match_id, AskIssued(seat=ask.seat, kind=ask.kind, attempt=ask.attempt))
    judged = judge_reply(game, state, ask, text, (), recorder, match_id)
    if judged.error is not None:
        retry = ask.retry(text, judged.error.reason)
        recorder.append_event(match_id, AskIssued(seat=retry.seat, kind=retry.kind, attempt=retry.attempt))
        return SubmitResult(accepted=False, action=None, error=judged.error.kind,  # type: ignore[arg-type]
                            reason=judged.error.reason, outcome=None, state=state)
    outcome = game.outcome(judged.state)
    if outcome is not None:
        recorder.finish_match(match_id, outcome)
    return SubmitResult(accepted=True, action=judged.action, error=None, reason=None, outcome=outcome,
                        state=judged.state)


def abandon(game: Game[Any], spec: MatchSpec, events: Sequence[Event], recorder: Recorder, match_id: str,
            reason: str) -> Outcome:
    """Stop a live match from outside: record an ``aborted`` outcome with ``reason``.

    A match the rules had already ended (its outcome not yet recorded) gets that outcome instead.
    """
    if _ended(events) is not None:
        raise MatchOver()
    state = state_from_events(game, spec, events)
    outcome = game.outcome(state) or Outcome(status="aborted", winner=None, reason=reason,
                                             rounds=game.rounds(state))
    recorder.finish_match(match_id, outcome)
    return outcome
