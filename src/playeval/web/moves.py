"""People's moves: which open ask a reply answers, whether it is still the one awaited, and the dry run.

A person's move never waits for a model: it is judged against a fresh read of the log and appended, whole and
in one transaction (``web.tail.MoveTail``), only if the log still ends where that read ended. When another writer
got there first (a model's move, another person's vote, a take-over) the move is read, checked and judged again
from the new log; nothing of it was recorded. The dry run (:func:`check_reply`) judges a reply the same way and records
nothing, so a page can tell a person why a reply would be refused before they send it. It tells the person
nothing a refused move would not: the same rules, on the same ask.
"""

from __future__ import annotations

from playeval.core.ask import Ask
from playeval.core.attempt import Attempt
from playeval.core.events import ActionApplied, AskIssued, ReplyReceived
from playeval.engine.master import judge
from playeval.web.errors import Conflict
from playeval.web.table import Table, build_table, seat_key
from playeval.web.views import CheckView

TAKEN_OVER = "a model plays your seat now, so this move cannot be taken"


def open_ask(table: Table, seat: str, party: str | None) -> Ask:
    """The open ask of ``seat``'s person that a reply answers; 409 when there is none (or several to choose)."""
    if not table.live:
        raise Conflict("the match is over")
    if seat not in table.people:
        raise Conflict(TAKEN_OVER)
    asks = [ask for ask in table.asks_of(seat) if party is None or ask.party == party]
    if not asks:
        if party is not None and party != seat and table.seat_of(party) != seat:
            raise Conflict(f"the {party} is not yours to play")
        waiting = "the model's move" if any(not table.for_person(ask) for ask in table.asks) else "the other players"
        raise Conflict(f"it is not your turn: wait for {waiting}")
    if len(asks) > 1:
        parties = ", ".join(ask.party for ask in asks)
        raise Conflict(f"you have several open asks ({parties}); say which one this move answers with party")
    return asks[0]


def check_current(table: Table, seat: str, ask: Ask, seq: int | None, local_model: str) -> None:
    """409 unless the view at ``seq`` awaited this very move (a move on an outdated view is refused)."""
    loaded = table.loaded
    if seq is None or seq == loaded.seq:
        return
    if seq > loaded.seq:
        raise Conflict(f"seq {seq} is ahead of the match (its last seq is {loaded.seq}); reload it")
    then = build_table(table.game, loaded.upto(seq), local_model)
    before = [old for old in then.asks_of(seat) if old.party == ask.party]
    if not before or seat_key(then, before[0]) != seat_key(table, ask):
        raise Conflict("the match has moved on since the view this move was made on; reload it")


def check_not_repeated(table: Table, ask: Ask, text: str) -> None:
    """409 for a move sent without ``seq`` that repeats the party's last applied move, made for an ask of another
    kind: a vote sent again (a retried request, a second click) would otherwise become the next round's
    statement. A move sent with ``seq`` is checked by :func:`check_current` instead."""
    events = table.loaded.events
    for at in range(len(events) - 1, 0, -1):
        applied = events[at]
        if not (isinstance(applied, ActionApplied) and applied.action.party == ask.party):
            continue
        reply = events[at - 1]
        if not (isinstance(reply, ReplyReceived) and reply.party == ask.party):
            return  # a move made for the party (a stand-in, a take-over), not a reply it sent
        answered = next((event for event in reversed(events[:at - 1])
                         if isinstance(event, AskIssued) and event.party == ask.party), None)
        if answered is not None and answered.kind != ask.kind and reply.text.strip() == text.strip():
            raise Conflict(f"this repeats your last move ({answered.kind}: {reply.text.strip()!r}), which was "
                           f"already taken; the match now awaits your {ask.kind}. To send it as that, send it "
                           "with the seq of the view it was made on")
        return


def attempt_of(table: Table, ask: Ask, text: str) -> Attempt:
    """The reply judged by the game's rules against the table's state (nothing is recorded)."""
    _, attempt = judge(table.game, table.state, ask, text)
    return attempt


def check_reply(table: Table, ask: Ask, text: str) -> CheckView:
    """The dry run: would the rules take ``text`` as the reply to ``ask`` now, and if not, why."""
    attempt = attempt_of(table, ask, text)
    if attempt.error is None:
        return CheckView(ok=True, error=None, reason=None)
    return CheckView(ok=False, error=attempt.error.kind, reason=attempt.error.reason)  # type: ignore[arg-type]
