"""Playing one match: the game-master loop.

Each step is fixed (``engine.master``): issue the ask, take the reply, parse it (a format error), apply it
(a rule violation), record everything. A rejected reply is re-asked with the reason until the player's
allowance is spent, then the seat forfeits. A match can start from recorded events (resume): the state is
the fold of its applied actions, and a move cut short continues with the re-asks already recorded.

The loop is the step-wise engine's :func:`~playeval.engine.step.advance` with a player in every seat.
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


async def play_match(game: Game[Any], spec: MatchSpec, players: Mapping[str, Player], recorder: Recorder,
                     match_id: str, prior_events: Sequence[Event] = ()) -> Outcome:
    """Play ``match_id`` to its end (continuing after ``prior_events``) and record the outcome."""
    result = await advance(game, spec, prior_events, players, recorder, match_id)
    if result.outcome is None:
        raise PlayevalError(f"match {match_id}: the {result.waiting_for} seat has no player")
    return result.outcome
