"""One match of a run played by a worker that may not be the only one trying: each write is fenced.

An executor that spreads a run over processes (``ray_executor``) cannot rule out two live workers playing the
same match: a task retried after its worker was thought dead while it was only cut off, or two drivers resuming
the same run. :func:`play_run_match` keeps such a match's log whole without locks or leases:

* **one match per index**: the match is created with ``create_match(run_id, match_index)``, which the store's
  ``UNIQUE(run_id, match_index)`` makes exactly-once; a worker that finds it already created continues it;
* **fenced appends**: the log is read once, and every write after that (:class:`FencedRecorder`) is conditional
  on the log still ending at the seq that read (and the worker's own writes since) left it at
  (``after_seq``: the store checks it in the write's own transaction, with the match row locked). A worker that
  loses the race writes nothing (:class:`~playeval.store.LogMoved`), reads the log again and continues from
  there; one that finds the match ended (:class:`~playeval.store.MatchClosed`) returns its outcome.

So every move is recorded once, in order, whoever records it; a loser only wastes the model calls it made for
the move it could not write.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from playeval.core.attempt import Attempt
from playeval.core.errors import PlayevalError
from playeval.core.events import Event, RoleAssignment, SeatAssignment
from playeval.core.game import Game
from playeval.core.match import MatchSpec, Outcome
from playeval.engine.batch import run_players
from playeval.engine.match import play_match
from playeval.engine.plan import PlannedMatch, RunConfig
from playeval.models import ModelHub
from playeval.store import DuplicateMatch, LogMoved, MatchClosed, Store

__all__ = ["FencedRecorder", "claim_match", "play_run_match"]


@dataclass
class FencedRecorder:
    """A recorder whose every write to ``store`` is conditional on the log ending at ``last_seq``, which each
    write then advances (see the module's note)."""

    store: Store
    last_seq: int

    def create_match(self, *, spec: MatchSpec, seats: Sequence[SeatAssignment],
                     roles: Sequence[RoleAssignment] = (), run_id: str | None = None,
                     match_index: int | None = None, evaluated_model: str | None = None) -> str:
        match_id = self.store.create_match(spec=spec, seats=seats, roles=roles, run_id=run_id,
                                           match_index=match_index, evaluated_model=evaluated_model)
        self.last_seq = 1
        return match_id

    def append_event(self, match_id: str, event: Event) -> int:
        self.last_seq = self.store.append_event(match_id, event, after_seq=self.last_seq)
        return self.last_seq

    def append_move(self, match_id: str, attempts: Sequence[Attempt]) -> int:
        self.last_seq = self.store.append_move(match_id, attempts, after_seq=self.last_seq)
        return self.last_seq

    def finish_match(self, match_id: str, outcome: Outcome) -> None:
        self.store.finish_match(match_id, outcome, after_seq=self.last_seq)
        self.last_seq += 1


def claim_match(store: Store, run_id: str, planned: PlannedMatch) -> str:
    """The id of match ``planned.index`` of the run: created now, or the one already stored at that index."""
    models = planned.evaluated_models
    try:
        return store.create_match(spec=planned.spec, seats=planned.seats, roles=planned.roles, run_id=run_id,
                                  match_index=planned.index,
                                  evaluated_model=models[0] if len(models) == 1 else None)
    except DuplicateMatch as err:
        if err.existing_match_id is None:
            raise
        return err.existing_match_id


async def play_run_match(store: Store, hub: ModelHub, game: Game[Any], config: RunConfig, run_id: str,
                         planned: PlannedMatch) -> Outcome:
    """Play match ``planned.index`` of ``run_id`` to its end, creating it or continuing it from its log, with
    every write fenced; returns its outcome (the recorded one, when it had already finished)."""
    match_id = claim_match(store, run_id, planned)
    while True:
        record = store.get_match(match_id)
        if record.status == "finished" and record.outcome is not None:
            return record.outcome
        if record.status != "running":
            raise PlayevalError(f"match #{planned.index} of run {run_id} is {record.status}; it cannot be "
                                "played on")
        log = store.event_records(match_id)
        recorder = FencedRecorder(store, log[-1].seq if log else 0)
        players = run_players(game, config, record.spec, record.seats, record.roles, hub)
        try:
            return await play_match(game, record.spec, players, recorder, match_id,
                                    prior_events=[entry.event for entry in log])
        except (LogMoved, MatchClosed):
            continue  # another worker wrote first: read the log it left and go on from there
