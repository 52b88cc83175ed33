"""Building the views a viewer may see, from a match's records: the arena's privacy rules live here.

A viewer holds one seat (the person who started the match, proven by the token) or none (anyone reading a
watched or finished match). A view carries the public transcript (``game.transcript``), the viewer's own
ask when it is their move, the reason their last reply was refused, the outcome, and the secret only when
the viewer's seat owns it or the match is over. Never the spec's parameters, never model messages (their
system prompts hold secrets), never an opponent's ask.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from playeval.core.events import Event, MatchEnded
from playeval.core.game import Game, evaluated_seat
from playeval.core.match import Outcome
from playeval.engine.master import pending_rejections, state_from_events
from playeval.games.akinator.rules import MAX_QUESTION_CHARS as AKINATOR_QUESTION_CHARS
from playeval.games.bluffing.parsing import MAX_ANSWER_CHARS, MAX_QUESTION_CHARS
from playeval.games.taboo.parsing import MAX_CLUE_CHARS, MAX_REPLY_CHARS
from playeval.store import EventRecord, MatchRecord, RetroRecord, WebMatchRecord
from playeval.web.views import (
    LineView,
    MatchSummary,
    MatchView,
    OutcomeView,
    ReplayView,
    RetroView,
    SeatView,
    TurnView,
    ViewStatus,
)

HIDDEN_LABEL = "Model (hidden until the end)"
YOU_LABEL = "You"
PERSON_LABEL = "Person"

_MAX_CHARS: dict[tuple[str, str], int] = {
    ("akinator", "move"): AKINATOR_QUESTION_CHARS,
    ("taboo", "clue"): MAX_CLUE_CHARS,
    ("taboo", "answer"): MAX_REPLY_CHARS,
    ("taboo", "final_guess"): MAX_REPLY_CHARS,
    ("bluffing", "move"): MAX_QUESTION_CHARS,
    ("bluffing", "verdict"): MAX_QUESTION_CHARS,
    ("bluffing", "answer"): MAX_ANSWER_CHARS,
}


def max_chars(game_id: str, kind: str) -> int | None:
    """The longest reply the rules accept for this kind of ask (``None``: the reply is one of the choices)."""
    return _MAX_CHARS.get((game_id, kind))


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


@dataclass(frozen=True)
class Position:
    """Where a live match stands: the state, the seat to move (``None`` once the rules have ended it)."""

    state: Any
    to_move: str | None
    rules_outcome: Outcome | None


def position(game: Game[Any], loaded: Loaded) -> Position:
    state = state_from_events(game, loaded.match.spec, loaded.events)
    outcome = game.outcome(state)
    if loaded.finished or outcome is not None:
        return Position(state=state, to_move=None, rules_outcome=outcome)
    return Position(state=state, to_move=game.next_ask(state).seat, rules_outcome=None)


def _seat_views(loaded: Loaded, viewer: str | None) -> list[SeatView]:
    web = loaded.web
    hidden = web is not None and web.anonymous and not loaded.finished
    views: list[SeatView] = []
    for assignment in loaded.match.seats:
        if web is not None and assignment.seat == web.human_seat:
            is_you = viewer == assignment.seat
            views.append(SeatView(seat=assignment.seat, label=YOU_LABEL if is_you else PERSON_LABEL, is_you=is_you,
                                  model=None))
        elif hidden:
            views.append(SeatView(seat=assignment.seat, label=HIDDEN_LABEL, is_you=False, model=None))
        else:
            name = assignment.model or assignment.player_kind
            views.append(SeatView(seat=assignment.seat, label=name, is_you=False, model=assignment.model))
    return views


def _outcome_view(outcome: Outcome | None, viewer: str | None) -> OutcomeView | None:
    if outcome is None:
        return None
    you_won = None if viewer is None or outcome.status == "aborted" else outcome.winner == viewer
    return OutcomeView(status=outcome.status, winner=outcome.winner, reason=outcome.reason, rounds=outcome.rounds,
                       you_won=you_won)


def _last_rejection(events: Sequence[Event], seat: str) -> str | None:
    """The reason the seat's last reply was refused, while that move is still to be made."""
    return next((r.reason for r in reversed(pending_rejections(events)) if r.seat == seat), None)


def _status(loaded: Loaded, where: Position, viewer: str | None) -> ViewStatus:
    if loaded.finished:
        return "finished"
    if loaded.web is None or loaded.web.mode == "watch":
        return "watching"
    if where.to_move is not None and where.to_move == viewer:
        return "your_turn"
    return "thinking"


def match_view(game: Game[Any], loaded: Loaded, viewer: str | None, *, survey_given: bool = False,
               token: str | None = None) -> MatchView:
    """The view of ``loaded`` for a viewer holding seat ``viewer`` (``None``: the public)."""
    where = position(game, loaded)
    seats = _seat_views(loaded, viewer)
    labels = {seat.seat: seat.label for seat in seats}
    status = _status(loaded, where, viewer)
    turn: TurnView | None = None
    rejected: str | None = None
    if status == "your_turn" and viewer is not None:
        ask = game.next_ask(where.state)
        choices = list(ask.constraint.choices) if ask.constraint and ask.constraint.choices else None
        turn = TurnView(seat=ask.seat, kind=ask.kind, display=ask.display, instructions=ask.instructions,
                        choices=choices, max_chars=None if choices else max_chars(game.id, ask.kind))
        rejected = _last_rejection(loaded.events, viewer)
    over = loaded.finished
    secret = loaded.match.spec.secret if over or (viewer is not None and viewer == game.secret_owner) else None
    is_play = loaded.web is not None and loaded.web.mode == "play"
    return MatchView(
        id=loaded.match.id,
        game=game.id,
        title=game.title,
        level=loaded.match.level,
        mode=loaded.web.mode if loaded.web is not None else "watch",
        seq=loaded.seq,
        status=status,
        you=viewer,
        seats=seats,
        transcript=[LineView(seat=seat, label=labels.get(seat, seat), text=text)
                    for seat, text in game.transcript(where.state)],
        turn=turn,
        rejected=rejected,
        outcome=_outcome_view(loaded.match.outcome, viewer) if over else None,
        secret=secret,
        survey_open=over and is_play and viewer is not None and not survey_given,
        token=token,
    )


def replay_view(game: Game[Any], loaded: Loaded, retro: Sequence[RetroRecord]) -> ReplayView:
    """The public, permanent view of a match (a batch run's too), with its retrospective outputs."""
    public = match_view(game, loaded, None)
    mode = loaded.web.mode if loaded.web is not None else "batch"
    return ReplayView(
        id=public.id, game=public.game, title=public.title, level=public.level, mode=mode, seq=public.seq,
        status=public.status, seats=public.seats, transcript=public.transcript, outcome=public.outcome,
        secret=public.secret,
        retro=[RetroView(round=r.round, kind=r.kind, model=r.model, output=r.output, error=r.error)
               for r in sorted(retro, key=lambda r: (r.round, r.kind))] if loaded.finished else [],
        created_at=loaded.match.created_at, ended_at=loaded.match.ended_at,
    )


def summary(game: Game[Any], web: WebMatchRecord, match: MatchRecord) -> MatchSummary:
    """A line of the public match list (watched matches, and finished ones)."""
    loaded = Loaded(match=match, web=web, records=())
    finished = match.status == "finished"
    return MatchSummary(id=match.id, game=game.id, title=game.title, level=match.level, mode=web.mode,
                        status="finished" if finished else "live", seats=_seat_views(loaded, None),
                        outcome=_outcome_view(match.outcome, None) if finished else None,
                        created_at=match.created_at, ended_at=match.ended_at)


def person_seat(game: Game[Any]) -> str:
    """The seat a person takes by default: the one that is not evaluated (it holds the secret)."""
    target = evaluated_seat(game)
    return next(seat.name for seat in game.seats if seat.name != target)
