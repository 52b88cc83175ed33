"""Playing whole matches with a game's baseline and scripted players, for the games' baseline tests.

``Checked`` wraps a player: it keeps every ask it was given and checks each reply against the ask's constraint
(one of the offered choices, or the grammar as a regular expression), so a baseline that left the legal moves
fails where it did, not only when the rules refused it. ``same_replies`` asks a baseline made from another spec
(its hidden parts changed or emptied) the asks it was given, and expects the same replies: it read only the ask
and the public params. ``scripted_table`` seats a game's scripted players in every seat and role a test does not
hold itself (``mock/player`` in a role the game has no scripted player for, as Code Functions Picnic's game master).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from playeval.core.ask import Ask, Reply
from playeval.core.errors import ConfigError
from playeval.core.events import Event, ReplyRejected, SeatAssignment
from playeval.core.match import MatchSpec, Outcome
from playeval.core.scripted import MatchContext
from playeval.engine import MemoryRecorder, play_match
from playeval.engine.players import role_player
from playeval.models import ModelHub
from playeval.models.gbnf_regex import grammar_regex

STAND_IN = "mock/player"
"""The model that holds a role a game has no scripted player for."""


def fits(ask: Ask, text: str) -> bool:
    """Whether ``text`` is a reply the ask's constraint allows (no constraint: any). A grammar's closing newline may
    be left off: a grammar that ends its last line with one (the rule-application check's numbered lines) describes
    what a constrained model generates, and the parsers read the reply either way."""
    constraint = ask.constraint
    if constraint is None:
        return True
    if constraint.choices:
        return text in constraint.choices
    if constraint.grammar:
        pattern = grammar_regex(constraint.grammar)
        return any(re.fullmatch(pattern, reply) is not None for reply in (text, text + "\n"))
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


def scripted_table(game: Any, spec: MatchSpec, held: Mapping[str, Any], hub: ModelHub) -> dict[str, Any]:
    """``held`` (seat or role -> player), and every other seat of the match's table and every role played by the
    game's scripted player; a party the game has none for (it raises ``ConfigError``, as a game master that must
    write code does) by ``mock/player`` from ``hub``, greedy."""
    parties = [seat.name for seat in game.table(spec)] + [role.name for role in game.roles]
    players = dict(held)
    for party in parties:
        if party in players:
            continue
        try:
            players[party] = game.scripted_player(party, spec)
        except ConfigError:
            players[party] = role_player(hub.get(STAND_IN), seed=spec.seed, match=MatchContext(game=game, spec=spec))
    return players


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
