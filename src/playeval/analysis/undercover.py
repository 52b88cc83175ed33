"""Undercover matches of stored runs as the team Elo's input (``analysis.ratings``), in play order.

Each finished, not aborted ``undercover`` match is one game: a ``ratings.SeatResult`` per seat held by a model,
with its side, whether its team won, its survival (rounds survived over rounds played) and its voting accuracy
(votes cast for a seat of the other side over votes cast; a seat put out before it voted scores 0 here, so the
composite stays within [0, 1] as the paper's formula wants). Matches are taken run by run in the order given, and
by match index within a run.
"""

from __future__ import annotations

from collections.abc import Sequence

from playeval.analysis.ratings import CIVILIAN, UNDERCOVER, SeatResult
from playeval.core.registry import GameRegistry
from playeval.engine.match import state_from_events
from playeval.games.undercover.metrics import seat_metrics
from playeval.store import Store

GAME = "undercover"


def undercover_games(store: Store, run_ids: Sequence[str], registry: GameRegistry) -> list[list[SeatResult]]:
    """The runs' Undercover games, each a list of seat results (seats without a model are left out; a game
    left with one side only is skipped, since the rating compares the two)."""
    game = registry.get(GAME)
    games: list[list[SeatResult]] = []
    for run_id in run_ids:
        by_index = sorted(store.run_matches(run_id),
                          key=lambda record: (record.match_index is None, record.match_index or 0))
        for match in by_index:
            if match.game != GAME or match.outcome is None or match.outcome.status != "finished":
                continue
            state = state_from_events(game, match.spec, store.events(match.id))
            metrics = seat_metrics(state)
            seats: list[SeatResult] = []
            for assignment in match.seats:
                if not assignment.model:
                    continue
                side = state.side(assignment.seat)
                values = metrics[assignment.seat]
                seats.append(SeatResult(
                    model=assignment.model, role=CIVILIAN if side == CIVILIAN else UNDERCOVER,
                    won=bool(match.outcome.result_for(assignment.seat).won),
                    survival=float(values["survival"] or 0.0), vote_accuracy=float(values["vote_accuracy"] or 0.0)))
            if {seat.role for seat in seats} == {CIVILIAN, UNDERCOVER}:
                games.append(seats)
    return games
