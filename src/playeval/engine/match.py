"""Playing one match to its end: :func:`~playeval.engine.step.advance` with a player in every seat and role.

A match can start from recorded events (resume): the state is the fold of its log, and a move cut short
continues with the re-asks already recorded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from playeval.core.errors import PlayevalError
from playeval.core.events import Event
from playeval.core.game import Game
from playeval.core.match import MatchSpec, Outcome
from playeval.engine.master import state_from_events
from playeval.engine.recorder import Recorder
from playeval.engine.step import advance
from playeval.players.base import Player

__all__ = ["play_match", "state_from_events"]


async def play_match(game: Game[Any], spec: MatchSpec, players: Mapping[str, Player | None], recorder: Recorder,
                     match_id: str, prior_events: Sequence[Event] = ()) -> Outcome:
    """Play ``match_id`` to its end (continuing after ``prior_events``) and record the outcome."""
    result = await advance(game, spec, prior_events, players, recorder, match_id)
    if result.outcome is None:
        raise PlayevalError(f"match {match_id}: {' and '.join(result.waiting_for)} has no player")
    return result.outcome
