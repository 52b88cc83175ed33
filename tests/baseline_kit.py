"""Playing whole matches with a game's baseline and scripted players, for the games' baseline tests.

``Checked`` wraps a player: it keeps every ask it was given and checks each reply against the ask's constraint
(one of the offered choices, or the grammar as a regular expression), so a baseline that left the legal moves
fails where it did, not only when the rules refused it. ``same_replies`` asks a baseline made from another spec
(its hidden parts changed or emptied) the asks it was given, and expects the same replies: it read only the ask
and the public params.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from playeval.core.ask import Ask, Reply
from playeval.core.events import Event, ReplyRejected, SeatAssignment
from playeval.core.match import MatchSpec, Outcome
from playeval.engine import MemoryRecorder, play_match
from playeval.models.gbnf_regex import grammar_regex


def fits(ask: Ask, text: str) -> bool:
    """Whether ``text`` is a reply the ask's constraint allows (no constraint: any)."""
    constraint = ask.constraint
    if constraint is None:
        return True
    if constraint.choices:
        return text in constraint.choices
    if constraint.grammar:
        return re.fullmatch(grammar_regex(constraint.grammar), text) is not None
    return True


class Checked:
    """A player whose asks are kept, and whose replies must fit their ask's constraint."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.kind, self.model, self.max_retries = "scripted", None, 0
        self.asks: list[Ask] = []

    async def act(self, ask: Ask) -> Reply:
        reply: Reply = await self.inner.act(ask)
        assert fits(ask, reply.text), f"{reply.text!r} does not fit the ask's constraint {ask.constraint}"
        self.asks.append(ask)
        return reply


async def play(game: Any, spec: MatchSpec, players: Mapping[str, Any]) -> tuple[Outcome, list[Event]]:
    """Play a match to its end; the outcome and the log."""
    recorder = MemoryRecorder()
    seats = spec.seats or tuple(seat.name for seat in game.seats)
    match_id = recorder.create_match(spec=spec, seats=[SeatAssignment(seat=seat, player_kind="scripted")
                                                       for seat in seats])
    outcome = await play_match(game, spec, dict(players), recorder, match_id)
    return outcome, recorder.events[match_id]


def rejected(events: list[Event]) -> list[ReplyRejected]:
    return [event for event in events if isinstance(event, ReplyRejected)]


async def same_replies(game: Any, name: str, party: str, spec: MatchSpec, asks: list[Ask],
                       others: list[MatchSpec]) -> int:
    """Ask the baseline ``name`` made from each of ``others`` (``spec`` with other hidden parts) the asks it was
    given in ``spec``'s match; every reply must be the one made from ``spec``. Returns the asks compared."""
    for ask in asks:
        expected = (await game.baseline_player(name, party, spec).act(ask)).text
        for other in others:
            assert (await game.baseline_player(name, party, other).act(ask)).text == expected, ask.display
    return len(asks)
