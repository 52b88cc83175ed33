"""The step-wise game master: a match moved one request at a time, with no coroutine living per match.

Batch runs, the terminal and the web arena all move matches with these functions, each starting from the
recorded log:

* :func:`advance` plays every open ask whose seat or role has a player (a model, a scripted player) until
  the match ends or only people's asks are open (``players[party] is None``), whose asks it records once.
  Several open asks (a parallel phase, such as a secret vote) are played at once and recorded in the order
  the game lists them (accepted moves first, then the seats that ran out of re-asks), so a batch run's log does
  not depend on which model answered first.
* :func:`submit` takes a person's reply: it checks that the person's seat (or a role they play) has an open
  ask, records the reply and then the applied action or the refusal with its reason. A person is never
  forfeited for a bad reply; they simply try again.
* :func:`abandon` ends a match from outside; :func:`take_over` hands a person's seat to a model.

A seat or role that runs out of re-asks makes the game's stand-in move where it has one (``Game.default_move``:
an abstention from a vote, a judge's "no verdict"); else a seat is eliminated where the game eliminates such
seats, and otherwise forfeits the match, and a role aborts it (no seat is to blame). Whoever calls these makes sure one
model step runs at a time per match (the web arena's lease); the log stays the single truth, so a step that
starts from a fresh read of the log can be run by any process, after any restart.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from playeval.core.ask import Ask
from playeval.core.errors import MoveError, PlayevalError, RuleViolation
from playeval.core.events import ActionApplied, AskIssued, Event, MatchEnded, SeatEliminated, SeatTakenOver
from playeval.core.game import Game
from playeval.core.match import Action, MatchSpec, Outcome
from playeval.engine.master import Move, OpenMoves, ask_recorded, current_asks, judge, play_move, state_from_events
from playeval.engine.recorder import Recorder
from playeval.engine.transcripts import watch
from playeval.players.base import Player

__all__ = ["MatchOver", "NotYourTurn", "StepResult", "SubmitResult", "abandon", "advance", "submit", "take_over"]


class NotYourTurn(PlayevalError):
    """A reply from a seat (or role) that has no open ask; nothing was recorded."""

    def __init__(self, party: str, to_move: Sequence[str]) -> None:
        moving = " and ".join(to_move) or "nobody"
        super().__init__(f"it is not the {party}'s turn: the {moving} is to move")
        self.party = party
        self.to_move = tuple(to_move)


class MatchOver(PlayevalError):
    """A reply or an abandon for a match that has already ended; nothing was recorded."""

    def __init__(self) -> None:
        super().__init__("the match is over")


@dataclass(frozen=True)
class StepResult:
    """Where a match stands after :func:`advance`.

    ``waiting_for`` are the people's seats and roles whose moves are awaited (empty once the match is over);
    ``moves`` counts the moves played by this call.
    """

    state: Any
    outcome: Outcome | None
    waiting_for: tuple[str, ...]
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


def ended(events: Sequence[Event]) -> Outcome | None:
    """The recorded outcome of a log, if it has one."""
    for event in reversed(events):
        if isinstance(event, MatchEnded):
            return event.outcome
    return None


def forfeit(game: Game[Any], state: Any, seat: str, err: MoveError) -> Outcome:
    reason = f"{seat} forfeits after {err.kind} errors; last: {err.reason}"
    return Outcome(status="forfeit", reason=reason, rounds=game.rounds(state), forfeit_seat=seat)


def _role_failed(game: Game[Any], state: Any, role: str, err: MoveError) -> Outcome:
    reason = f"the {role} (a role, not a player) gave no usable reply after {err.kind} errors; last: {err.reason}"
    return Outcome(status="aborted", reason=reason, rounds=game.rounds(state))


async def advance(game: Game[Any], spec: MatchSpec, events: Sequence[Event], players: Mapping[str, Player | None],
                  recorder: Recorder, match_id: str) -> StepResult:
    """Play the open asks that have players, from the state folded out of ``events``, until people must move.

    A match whose log already ends with an outcome is left alone; one whose rules have ended it but whose
    outcome was not yet recorded (a step cut short) gets its outcome recorded now.
    """
    log = list(events)
    state = state_from_events(game, spec, log)
    recorded = ended(log)
    if recorded is not None:
        return StepResult(state=state, outcome=recorded, waiting_for=(), moves=0)
    moves = 0
    open_moves = OpenMoves(log)  # kept as the loop appends to the log
    transcript = watch(game, state)  # with $PLAYEVAL_CHECKS: each step's transcript must begin with the last
    outcome = game.outcome(state)
    while outcome is None:
        asks = current_asks(game, state, log, open_moves, spec=spec)
        if not asks:
            raise PlayevalError(f"{game.id}: the match has neither an open ask nor an outcome")
        waiting: list[Ask] = []
        runnable: list[tuple[Ask, Player]] = []
        for ask in asks:
            player = players.get(ask.party)
            if player is None:
                waiting.append(ask)
            else:
                runnable.append((ask, player))
        for ask in waiting:
            if not ask_recorded(log, ask, open_moves):
                log.append(AskIssued(seat=ask.seat, role=ask.role, kind=ask.kind, attempt=ask.attempt))
                recorder.append_event(match_id, log[-1])
        if not runnable:
            return StepResult(state=state, outcome=None, waiting_for=tuple(ask.party for ask in waiting),
                              moves=moves)
        plays = (play_move(game, state, ask, player, asked=ask_recorded(log, ask, open_moves))
                 for ask, player in runnable)
        # One open ask (most turns) is awaited directly: a task per move would cost more than a scripted move.
        played = [await next(plays)] if len(runnable) == 1 else await asyncio.gather(*plays)
        state, outcome = _record(game, state, played, recorder, match_id, log)
        if transcript is not None:
            transcript.check(state)
        moves += len(played)
        if outcome is None:
            outcome = game.outcome(state)
    recorder.finish_match(match_id, outcome)
    return StepResult(state=state, outcome=outcome, waiting_for=(), moves=moves)


def _record(game: Game[Any], state: Any, played: list[Move], recorder: Recorder, match_id: str,
            log: list[Event]) -> tuple[Any, Outcome | None]:
    """Record the moves of one step in the order of their asks and fold them into ``state``; the accepted moves
    first, then the failures (so that a seat put out mid-phase does not void the votes cast for it). Returns
    an outcome when a failure ends the match."""
    single = len(played) == 1
    accepted = [move for move in played if move.failure is None]
    failed = [move for move in played if move.failure is not None]
    for move in accepted:
        recorder.append_move(match_id, move.attempts)
        for attempt in move.attempts:
            log.extend(attempt.events(()))
        state = move.state if single else _reapply(game, state, move)
    for move in failed:
        assert move.failure is not None
        recorder.append_move(match_id, move.attempts)
        log.extend(event for attempt in move.attempts for event in attempt.events(()))
        ask = move.ask
        hook = getattr(game, "default_move", None)  # a game written before the hook has none
        stand_in = hook(state, ask, move.failure.reason) if hook is not None else None
        if stand_in is not None:
            log.append(ActionApplied(action=stand_in))
            recorder.append_event(match_id, log[-1])
            state = game.apply(state, stand_in)
            continue
        if ask.seat is None:
            return state, _role_failed(game, state, ask.party, move.failure)
        eliminated = game.eliminate(state, ask.seat, move.failure.reason)
        if eliminated is None:
            return state, forfeit(game, state, ask.seat, move.failure)
        log.append(SeatEliminated(seat=ask.seat, error=move.failure.kind,  # type: ignore[arg-type]
                                  reason=move.failure.reason))
        recorder.append_event(match_id, log[-1])
        state = eliminated
    return state, None


def _reapply(game: Game[Any], state: Any, move: Move) -> Any:
    """A parallel phase's move applied after the moves recorded before it (the game promises this works)."""
    action = move.attempts[-1].action
    assert action is not None
    try:
        return game.apply(state, action)
    except RuleViolation as err:
        raise PlayevalError(f"{game.id}: the {action.party}'s move of a parallel phase was refused once another "
                            f"move of that phase was applied ({err.reason}); the game's phase depends on order"
                            ) from err


def submit(game: Game[Any], spec: MatchSpec, events: Sequence[Event], party: str, text: str, recorder: Recorder,
           match_id: str) -> SubmitResult:
    """A person's reply for ``party`` (their seat, or a role they play), judged against the state of ``events``.

    Raises :class:`MatchOver` or :class:`NotYourTurn` (recording nothing) when the reply cannot be taken.
    Otherwise records the reply and the action or the refusal; after a refusal the same ask is recorded
    again as the next attempt, so the log reads like a model's re-ask. When the reply ends the match, its
    outcome is recorded too.
    """
    state = state_from_events(game, spec, events)
    if ended(events) is not None or game.outcome(state) is not None:
        raise MatchOver()
    asks = current_asks(game, state, events, spec=spec)
    ask = next((open_ask for open_ask in asks if open_ask.party == party), None)
    if ask is None:
        raise NotYourTurn(party, [open_ask.party for open_ask in asks])
    new_state, attempt = judge(game, state, ask, text, ask_recorded=ask_recorded(events, ask))
    transcript = watch(game, state)
    if transcript is not None and attempt.error is None:
        transcript.check(new_state)  # before anything is recorded
    recorder.append_move(match_id, [attempt])
    if attempt.error is not None:
        retry: Ask = ask.retry(text, attempt.error.reason)
        recorder.append_event(match_id, AskIssued(seat=retry.seat, role=retry.role, kind=retry.kind,
                                                  attempt=retry.attempt))
        return SubmitResult(accepted=False, action=None, error=attempt.error.kind,  # type: ignore[arg-type]
                            reason=attempt.error.reason, outcome=None, state=state)
    outcome = game.outcome(new_state)
    if outcome is not None:
        recorder.finish_match(match_id, outcome)
    return SubmitResult(accepted=True, action=attempt.action, error=None, reason=None, outcome=outcome,
                        state=new_state)


def abandon(game: Game[Any], spec: MatchSpec, events: Sequence[Event], recorder: Recorder, match_id: str,
            reason: str) -> Outcome:
    """Stop a live match from outside: record an ``aborted`` outcome with ``reason``.

    A match the rules had already ended (its outcome not yet recorded) gets that outcome instead.
    """
    if ended(events) is not None:
        raise MatchOver()
    state = state_from_events(game, spec, events)
    outcome = game.outcome(state) or Outcome(status="aborted", reason=reason, rounds=game.rounds(state))
    recorder.finish_match(match_id, outcome)
    return outcome


def take_over(events: Sequence[Event], recorder: Recorder, match_id: str, seat: str, *, model: str | None,
              reason: str) -> SeatTakenOver:
    """Hand a person's seat to a model (or, with ``model=None``, a scripted player) from here on."""
    if ended(events) is not None:
        raise MatchOver()
    event = SeatTakenOver(seat=seat, player_kind="llm" if model else "scripted", model=model, reason=reason)
    recorder.append_event(match_id, event)
    return event
