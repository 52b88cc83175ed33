"""Building the views a viewer may see, from a match's table: the arena's privacy rules live here.

A viewer holds one seat (proven by that seat's token) or none (anyone reading a watched or finished match). A
view carries the public transcript (``game.transcript``), the seats as players (roles never appear as players),
the viewer's own open asks (to their seat, or to a role bound to their seat) with the reason their last reply
was refused, the hidden information the game discloses to the viewer's seat (in its live form: key, value and
the holder's label, never the label meant for the end nor who else holds it; everything once the match is
over), the game's own structured view for the viewer (``Game.panel``, with forms only for the viewer's open asks)
and at the end the outcome with every seat's result. Never the spec's parameters, never model messages
(their system prompts hold secrets), never another seat's ask, and nothing of the log but what the game's
transcript says: the replies of an open parallel phase (a secret vote) stay hidden until the game shows them.
The transcript and the panel are built from the table's live state (``Table.shown``): a role's held text (a
judge's reason, written with the rule in view; ``core.held``) stays out of every view until the match is over.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from playeval.core.ask import Ask
from playeval.core.events import ActionApplied, MatchEnded, SeatAssignment
from playeval.core.game import Game, panel_of
from playeval.core.hidden import live_disclosures, revealed_disclosures
from playeval.core.info import panel_role, score_line
from playeval.core.match import Outcome
from playeval.engine.master import pending_rejections
from playeval.store import MatchRecord, RetroRecord, WebMatchRecord
from playeval.web.table import HUMAN, Loaded, Table
from playeval.web.views import (
    ClockView,
    DisclosureView,
    HeldView,
    InviteView,
    LineView,
    MatchSummary,
    MatchView,
    OutcomeView,
    PanelView,
    ReplayView,
    RetroView,
    SeatResultView,
    SeatView,
    TurnView,
    ViewStatus,
)

HIDDEN_LABEL = "Model (hidden until the end)"
YOU_LABEL = "You"
PERSON_LABEL = "Person"
GAME_LABEL = "Game"
"""The label of a transcript line whose speaker is not a seat (the game itself, a role)."""


def _seat_views(current: Sequence[SeatAssignment], loaded: Loaded, viewer: str | None, *,
                live: bool) -> list[SeatView]:
    web = loaded.web
    hidden = web is not None and web.anonymous and live
    started = {seat.seat: seat for seat in loaded.match.seats}
    views: list[SeatView] = []
    for assignment in current:
        name = assignment.seat
        is_you = viewer == name
        if assignment.player_kind == HUMAN:
            person = loaded.person(name)
            joined = person is None or person.joined_at is not None
            views.append(SeatView(seat=name, label=YOU_LABEL if is_you else PERSON_LABEL, is_you=is_you, model=None,
                                  person=True, joined=joined))
            continue
        taken_over = started.get(name, assignment).player_kind == HUMAN
        if hidden:
            views.append(SeatView(seat=name, label=HIDDEN_LABEL, is_you=is_you, model=None, taken_over=taken_over))
        else:
            views.append(SeatView(seat=name, label=assignment.model or assignment.player_kind, is_you=is_you,
                                  model=assignment.model, taken_over=taken_over))
    return views


def _recorded_outcome(loaded: Loaded) -> Outcome | None:
    for record in reversed(loaded.records):
        if isinstance(record.event, MatchEnded):
            return record.event.outcome
    return loaded.match.outcome


def _outcome_view(outcome: Outcome | None, seats: Sequence[SeatView], viewer: str | None,
                  game: Game[Any]) -> OutcomeView | None:
    if outcome is None:
        return None
    labels = {seat.seat: seat.label for seat in seats}
    results = []
    score_info = getattr(game, "score", None)
    for seat in seats:
        result = outcome.result_for(seat.seat)
        results.append(SeatResultView(seat=seat.seat, label=labels[seat.seat], team=result.team, won=result.won,
                                      placement=result.placement, eliminated_round=result.eliminated_round,
                                      elimination=result.elimination, score=result.score,
                                      forfeited=result.forfeited, score_text=score_line(score_info, result.score)))
    you_won = outcome.result_for(viewer).won if viewer is not None and viewer in labels else None
    return OutcomeView(status=outcome.status, winners=list(outcome.winners), winning_team=outcome.winning_team,
                       winner=outcome.winner, reason=outcome.reason, rounds=outcome.rounds, you_won=you_won,
                       results=results)


def _status(table: Table, viewer: str | None) -> ViewStatus:
    loaded = table.loaded
    if loaded.finished:
        return "finished"
    if loaded.web is None or loaded.web.mode == "watch" or viewer is None:
        return "watching"
    if viewer not in table.people:
        return "left"
    if table.asks_of(viewer):
        return "your_turn"
    if table.rules_outcome is not None or any(not table.for_person(ask) for ask in table.asks):
        return "thinking"
    return "waiting"


def _awaited(table: Table, viewer: str | None) -> list[str]:
    """Who has an open ask now, other than the viewer: seats in table order, then roles (a judge)."""
    parties = {ask.party for ask in table.asks if viewer is None or table.seat_of(ask.party) != viewer}
    seats = [name for name in table.seats if name in parties]
    return seats + sorted(parties - set(seats))


def _recorded(table: Table, viewer: str | None) -> str | None:
    """The kind of the viewer's last move, while others still answer asks of that kind and no move of another
    kind came after it: the viewer has moved in a phase that is still open (a secret vote)."""
    if viewer is None or not table.live or table.asks_of(viewer):
        return None
    open_kinds = {ask.kind for ask in table.asks if table.seat_of(ask.party) != viewer}
    for event in reversed(table.loaded.events):
        if not isinstance(event, ActionApplied):
            continue
        if event.action.kind not in open_kinds:
            return None
        if table.seat_of(event.action.party) == viewer:
            return event.action.kind
    return None


def turn_view(table: Table, seat: str, ask: Ask) -> TurnView:
    choices = list(ask.constraint.choices) if ask.constraint is not None and ask.constraint.choices else None
    return TurnView(seat=seat, role=ask.role, party=ask.party, kind=ask.kind, display=ask.display,
                    instructions=ask.instructions, choices=choices, max_chars=None if choices else ask.max_chars,
                    one_line=ask.one_line)


def _last_rejection(table: Table, asks: Sequence[Ask]) -> str | None:
    """The reason the viewer's last reply was refused, while that move is still to be made."""
    events = table.loaded.events
    for ask in asks:
        refused = pending_rejections(events, ask.party)
        if refused:
            return refused[-1].reason
    return None


def _disclosures(table: Table, viewer: str | None) -> list[DisclosureView | HeldView]:
    """The viewer's own hidden parts in their live form while the match is played; every part revealed, with who
    held it, once it is over (``core.hidden``)."""
    loaded = table.loaded
    spec = loaded.match.spec
    if not loaded.finished:
        held = (viewer,) if viewer is not None else ()
        return [HeldView(key=item.key, value=item.value, label=item.label)
                for item in live_disclosures(table.game, spec, held, state=table.state)]
    return [DisclosureView(key=item.key, value=item.value, label=item.label, revealed_label=item.revealed_label,
                           seats=list(item.seats), yours=viewer in item.seats)
            for item in revealed_disclosures(table.game, spec, state=table.state)]


def speaker_label(game: Game[Any], speaker: str) -> str:
    """How a transcript line that no seat spoke is labelled: a role's by the role ("Judge", "Judge#2"), anything
    else as the game's own."""
    if panel_role(speaker) in {role.name for role in game.roles}:
        return speaker[:1].upper() + speaker[1:]
    return GAME_LABEL


def _transcript(table: Table, seats: Sequence[SeatView]) -> list[LineView]:
    labels = {seat.seat: seat.label for seat in seats}
    return [LineView(seat=speaker, label=labels.get(speaker) or speaker_label(table.game, speaker), text=text)
            for speaker, text in table.game.transcript(table.shown)]


def _clock(loaded: Loaded, label: str) -> ClockView:
    """The match's time from its log: from its first event to its last once over, else to now."""
    records = loaded.records
    if not records:
        return ClockView(label=label, elapsed_s=0.0, running=not loaded.finished)
    end = records[-1].created_at if loaded.finished else datetime.now(UTC)
    start = records[0].created_at
    if start.tzinfo is None:  # SQLite hands back naive UTC times
        start = start.replace(tzinfo=UTC)
    if end.tzinfo is None:
        end = end.replace(tzinfo=UTC)
    return ClockView(label=label, elapsed_s=max(0.0, (end - start).total_seconds()), running=not loaded.finished)


def _panel(table: Table, viewer: str | None, asks: Sequence[Ask]) -> PanelView | None:
    panel = panel_of(table.game, table.shown, viewer)
    if panel is None:
        return None
    open_asks = {(ask.party, ask.kind) for ask in asks}
    return PanelView(lists=list(panel.lists), counters=list(panel.counters),
                     forms=[form for form in panel.forms if (form.party, form.kind) in open_asks],
                     clock=_clock(table.loaded, panel.clock) if panel.clock is not None else None)


def match_view(table: Table, viewer: str | None, *, survey_given: bool = False, token: str | None = None,
               invites: Sequence[InviteView] | None = None) -> MatchView:
    """The view of ``table`` for a viewer holding seat ``viewer`` (``None``: the public)."""
    loaded = table.loaded
    game = table.game
    over = loaded.finished
    seats = _seat_views(list(table.seats.values()), loaded, viewer, live=not over)
    status = _status(table, viewer)
    asks = table.asks_of(viewer) if status == "your_turn" and viewer is not None else ()
    turns = [turn_view(table, viewer, ask) for ask in asks] if viewer is not None else []
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
        transcript=_transcript(table, seats),
        turns=turns,
        turn=turns[0] if turns else None,
        rejected=_last_rejection(table, asks),
        waiting_for=[seat for seat in table.waiting_for() if seat != viewer] if not over else [],
        awaited=_awaited(table, viewer) if not over else [],
        recorded=_recorded(table, viewer),
        disclosures=_disclosures(table, viewer),
        outcome=_outcome_view(_recorded_outcome(loaded), seats, viewer, table.game) if over else None,
        survey_open=over and is_play and viewer is not None and not survey_given,
        panel=_panel(table, viewer, asks),
        token=token,
        invites=list(invites) if invites is not None else None,
    )


def replay_view(table: Table, retro: Sequence[RetroRecord]) -> ReplayView:
    """The public, permanent view of a match (a batch run's too), with its retrospective outputs."""
    loaded = table.loaded
    public = match_view(table, None)
    mode = loaded.web.mode if loaded.web is not None else "batch"
    return ReplayView(
        id=public.id, game=public.game, title=public.title, level=public.level, mode=mode, seq=public.seq,
        status=public.status, seats=public.seats, transcript=public.transcript, disclosures=public.disclosures,
        outcome=public.outcome,
        retro=[RetroView(round=r.round, kind=r.kind, model=r.model, output=r.output, error=r.error)
               for r in sorted(retro, key=lambda r: (r.round, r.kind))] if loaded.finished else [],
        created_at=loaded.match.created_at, ended_at=loaded.match.ended_at,
    )


def summary(game: Game[Any], web: WebMatchRecord, match: MatchRecord) -> MatchSummary:
    """A line of the public match list (watched matches, and finished ones): the seats as the match began."""
    loaded = Loaded(match=match, web=web, records=())
    finished = match.status == "finished"
    seats = _seat_views(match.seats, loaded, None, live=not finished)
    return MatchSummary(id=match.id, game=game.id, title=game.title, level=match.level, mode=web.mode,
                        status="finished" if finished else "live", seats=seats,
                        outcome=_outcome_view(match.outcome, seats, None, game) if finished else None,
                        created_at=match.created_at, ended_at=match.ended_at)
