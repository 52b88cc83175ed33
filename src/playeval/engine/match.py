"""Playing one match: the game-master loop.

Each step is fixed: issue the ask, take the reply, parse it (a format error),
apply it (a rule violation), record everything. A rejected reply is re-asked
with the reason until the player's allowance is spent, then the seat
forfeits. A match can start from recorded events (resume): the state is the
fold of its applied actions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from playeval.core.ask import Ask
from playeval.core.errors import MoveError
from playeval.core.events import ActionApplied, AskIssued, Event, ReplyReceived, ReplyRejected
from playeval.core.game import Game, replay
from playeval.core.match import MatchSpec, Outcome
from playeval.engine.recorder import Recorder
from playeval.players.base import Player


def state_from_events(game: Game[Any], spec: MatchSpec, events: Sequence[Event]) -> Any:
    return replay(game, spec, (event.action for event in events if isinstance(event, ActionApplied)))


async def play_match(game: Game[Any], spec: MatchSpec, players: Mapping[str, Player], recorder: Recorder,
                     match_id: str, prior_events: Sequence[Event] = ()) -> Outcome:
    """Play ``match_id`` to its end (continuing after ``prior_events``) and record the outcome."""
    state = state_from_events(game, spec, prior_events)
    while (outcome := game.outcome(state)) is None:
        ask = game.next_ask(state)
        moved = await _take_move(game, state, ask, players[ask.seat], recorder, match_id)
        if isinstance(moved, Outcome):
            outcome = moved
            break
        state = moved
    recorder.finish_match(match_id, outcome)
    return outcome


async def _take_move(game: Game[Any], state: Any, ask: Ask, player: Player, recorder: Recorder,
                     match_id: str) -> Any:
    """The new state after one accepted move, or a forfeit ``Outcome``."""
    while True:
        recorder.append_event(match_id, AskIssued(seat=ask.seat, kind=ask.kind, attempt=ask.attempt))
        reply = await player.act(ask)
        call_ids = recorder.add_calls(match_id, ask.seat, reply.calls)
        recorder.append_event(match_id, ReplyReceived(seat=ask.seat, text=reply.text, call_ids=tuple(call_ids)))
        try:
            action = game.parse(state, ask, reply.text)
            new_state = game.apply(state, action)
        except MoveError as err:
            recorder.mark_calls(call_ids, parsed=None, error=f"{err.kind}: {err.reason}")
            recorder.append_event(match_id, ReplyRejected(seat=ask.seat, error=err.kind,  # type: ignore[arg-type]
                                                          reason=err.reason, text=reply.text))
            if ask.attempt >= player.max_retries:
                return _forfeit(game, state, ask.seat, err)
            ask = ask.retry(reply.text, err.reason)
            continue
        recorder.mark_calls(call_ids, parsed=action.text, error=None)
        recorder.append_event(match_id, ActionApplied(action=action))
        return new_state


def _forfeit(game: Game[Any], state: Any, seat: str, err: MoveError) -> Outcome:
    rounds = game.rounds(state)
    reason = f"{seat} forfeits after {err.kind} errors; last: {err.reason}"
    return Outcome(status="forfeit", winner=None, reason=reason, rounds=rounds, forfeit_seat=seat)
