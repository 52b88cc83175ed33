"""The game master's fixed step, shared by the match loop (``engine.match``) and the step-wise web engine.

One move is: issue the ask, take the reply, parse it (a format error), apply it (a rule violation) and
record every step. A rejected reply is re-asked with the reason until the player's allowance is spent,
then the seat forfeits. Where a move stands is read off the log: the rejections recorded since the last
applied action rebuild the re-ask exactly, so a match resumed mid-move continues the same move.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from playeval.core.ask import Ask
from playeval.core.errors import MoveError
from playeval.core.events import ActionApplied, AskIssued, Event, ReplyReceived, ReplyRejected
from playeval.core.game import Game, replay
from playeval.core.match import Action, MatchSpec, Outcome
from playeval.engine.recorder import Recorder
from playeval.players.base import Player


def state_from_events(game: Game[Any], spec: MatchSpec, events: Sequence[Event]) -> Any:
    """The game state: the fold of the applied actions of a log."""
    return replay(game, spec, (event.action for event in events if isinstance(event, ActionApplied)))


def pending_rejections(events: Sequence[Event]) -> list[ReplyRejected]:
    """The rejections recorded since the last applied action: the re-asks of the move under way."""
    found: list[ReplyRejected] = []
    for event in reversed(events):
        if isinstance(event, ActionApplied):
            break
        if isinstance(event, ReplyRejected):
            found.append(event)
    found.reverse()
    return found


def current_ask(game: Game[Any], state: Any, events: Sequence[Event]) -> Ask:
    """The ask of the move under way, with every rejected reply of that seat and its reason folded in."""
    ask = game.next_ask(state)
    for rejection in pending_rejections(events):
        if rejection.seat == ask.seat:
            ask = ask.retry(rejection.text, rejection.reason)
    return ask


def ask_recorded(events: Sequence[Event], ask: Ask) -> bool:
    """Whether the log already ends with this ask (issued, not yet answered)."""
    if not events:
        return False
    last = events[-1]
    return isinstance(last, AskIssued) and last.seat == ask.seat and last.attempt == ask.attempt


@dataclass(frozen=True)
class Judged:
    """A reply as the game master judged it: the new state and the action, or the error."""

    state: Any
    action: Action | None
    error: MoveError | None


def judge_reply(game: Game[Any], state: Any, ask: Ask, text: str, call_ids: Sequence[int], recorder: Recorder,
                match_id: str) -> Judged:
    """Record a reply to ``ask``, parse and apply it, and record the action or the rejection."""
    recorder.append_event(match_id, ReplyReceived(seat=ask.seat, text=text, call_ids=tuple(call_ids)))
    try:
        action = game.parse(state, ask, text)
        new_state = game.apply(state, action)
    except MoveError as err:
        recorder.mark_calls(call_ids, parsed=None, error=f"{err.kind}: {err.reason}")
        recorder.append_event(match_id, ReplyRejected(seat=ask.seat, error=err.kind,  # type: ignore[arg-type]
                                                      reason=err.reason, text=text))
        return Judged(state=state, action=None, error=err)
    recorder.mark_calls(call_ids, parsed=action.text, error=None)
    recorder.append_event(match_id, ActionApplied(action=action))
    return Judged(state=new_state, action=action, error=None)


async def take_move(game: Game[Any], state: Any, ask: Ask, player: Player, recorder: Recorder, match_id: str,
                    *, already_asked: bool = False) -> Any:
    """The new state after one accepted move of ``player``, or a forfeit ``Outcome``.

    ``already_asked``: the log already holds this ask (a resumed move), so it is not recorded twice.
    """
    while True:
        if not already_asked:
            recorder.append_event(match_id, AskIssued(seat=ask.seat, kind=ask.kind, attempt=ask.attempt))
        already_asked = False
        reply = await player.act(ask)
        call_ids = recorder.add_calls(match_id, ask.seat, reply.calls)
        judged = judge_reply(game, state, ask, reply.text, call_ids, recorder, match_id)
        if judged.error is None:
            return judged.state
        if ask.attempt >= player.max_retries:
            return forfeit(game, state, ask.seat, judged.error)
        ask = ask.retry(reply.text, judged.error.reason)


def forfeit(game: Game[Any], state: Any, seat: str, err: MoveError) -> Outcome:
    rounds = game.rounds(state)
    reason = f"{seat} forfeits after {err.kind} errors; last: {err.reason}"
    return Outcome(status="forfeit", winner=None, reason=reason, rounds=rounds, forfeit_seat=seat)
